variable "category_id" {
  type        = string
  description = "The category the tables are filed under."
}

variable "source_id" {
  type        = string
  description = "The data source the tables read."
}

resource "workflow_table" "regions" {
  name        = "Regions"
  handle      = "region"
  source      = var.source_id
  category_id = var.category_id
  fields = [
    { name = "Code", kind = "cloud", column_name = "CODE", column_type = "TEXT" },
  ]
}

# Every kind of field: cloud (a column of the source), reference (a field
# of another table, by reference) and calculation.
resource "workflow_table" "accounts" {
  name        = "Accounts"
  handle      = "acct"
  source      = var.source_id
  category_id = var.category_id
  fields = [
    { name = "Region", kind = "cloud", column_name = "REGION", column_type = "TEXT" },
    { name = "Region code", kind = "reference", field = workflow_table.regions.fields[0].id },
    { name = "Score", kind = "calculation", text = "1 + 1" },
  ]
}

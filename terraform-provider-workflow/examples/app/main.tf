# An app's configuration kept in git: one automation and one view of the
# app crm-accounts, and two tables joined. The provider's settings come
# from WORKFLOW_CLIENT_ID, WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL and
# WORKFLOW_AUTH_URL.

terraform {
  required_providers {
    workflow = {
      source = "registry.opentofu.org/seed-a15e58aa/workflow"
    }
  }
}

provider "workflow" {}

variable "app" {
  type    = string
  default = "crm-accounts"
}

# The active version of an automation; the workflow is compared by meaning.
resource "workflow_automation" "welcome" {
  record_type = "apps"
  alias       = var.app
  workflow = jsonencode({
    name     = "Welcome new accounts"
    enabled  = true
    triggers = [{ type = "RECORD_CREATED" }]
    tasks    = [{ type = "SEND_EMAIL", template = "welcome" }]
  })
}

# A table with its fields, and a join of a second table.
variable "category_id" {
  type    = string
  default = "00000000-0000-4000-8000-0000000000c1"
}

variable "source_id" {
  type    = string
  default = "00000000-0000-4000-8000-0000000000a1"
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

resource "workflow_table" "accounts" {
  name        = "Accounts"
  handle      = "acct"
  source      = var.source_id
  category_id = var.category_id
  description = ""
  fields = [
    { name = "Region", kind = "cloud", column_name = "REGION", column_type = "TEXT" },
    { name = "Region code", kind = "reference", field = workflow_table.regions.fields[0].id },
    { name = "Score", kind = "calculation", text = "1 + 1" },
  ]
}

resource "workflow_table_join" "region" {
  table_id = workflow_table.accounts.id
  source   = workflow_table.regions.id
  type     = "LEFT"
  on = [{
    left_field_id  = workflow_table.accounts.fields[0].id
    right_field_id = workflow_table.regions.fields[0].id
  }]
}

resource "workflow_table_join_mappings" "region" {
  table_id       = workflow_table.accounts.id
  join_fields_id = workflow_table_join.region.on[0].id
  mappings       = { "EMEA" = "EU", "AMER" = "US" }
}

# A list view. Members left out are not managed: the service's values are
# kept. false, 0 and "" are values.
resource "workflow_view" "open" {
  app                   = var.app
  handle                = "open-accounts"
  type                  = "list"
  name                  = "Open accounts"
  allow_record_creation = false
  rows                  = 50
  filter                = jsonencode({ status = "open" })
  sort                  = jsonencode({ field = "name", direction = "asc" })
  columns               = [for f in workflow_table.accounts.fields : f.id]
}

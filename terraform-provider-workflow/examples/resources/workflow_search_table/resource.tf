variable "category_id" {
  type = string
}

resource "workflow_element" "products" {
  name        = "Products"
  category_id = var.category_id
  namespace   = "products"
}

resource "workflow_search_table" "products" {
  aspect_id           = workflow_element.products.id
  target_lag          = 10
  duration            = "MINUTES"
  attribute_field_ids = ["f0000000-0000-4000-8000-000000000001"] # the ids of the element's fields
}

variable "category_id" {
  type = string
}

resource "workflow_element" "manuals" {
  name        = "Manuals"
  category_id = var.category_id
  namespace   = "manuals"
}

# A search table linked to a Cortex Search Service that exists already.
resource "workflow_linked_search_table" "manuals" {
  aspect_id     = workflow_element.manuals.id
  cloud_link_id = "00000000-0000-4000-8000-000000000001"
  database      = "DOCS"
  schema        = "PUBLIC"
  service_name  = "MANUALS_SEARCH"
}

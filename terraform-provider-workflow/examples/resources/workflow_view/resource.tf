# A list view of the app crm-accounts. Members left out are not managed:
# the service's values are kept; false, 0 and "" are values.
resource "workflow_view" "open" {
  app                   = "crm-accounts"
  handle                = "open-accounts"
  type                  = "list"
  name                  = "Open accounts"
  allow_record_creation = false
  rows                  = 50
  filter                = jsonencode({ status = "open" })
  sort                  = jsonencode({ field = "name", direction = "asc" })
}

# A view of an app by handle, e.g. its id for another view's agent_id.
data "workflow_view" "open" {
  app    = "crm-accounts"
  handle = "open-accounts"
}

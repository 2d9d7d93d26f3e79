# An app composed from its definition; its alias is the definition's
# namespace. Automations, views, agents and skills of the app refer to it
# by reference, so one configuration applies to workspaces whose ids
# differ.
resource "workflow_app" "deals" {
  definition = jsonencode({
    namespace = "crm-deals"
    name      = "Deals"
  })
}

resource "workflow_automation" "new_deal" {
  record_type = "apps"
  alias       = workflow_app.deals.alias
  workflow = jsonencode({
    name     = "New deal"
    triggers = [{ type = "RECORD_CREATED" }]
    tasks    = [{ type = "SEND_EMAIL", template = "new-deal" }]
  })
}

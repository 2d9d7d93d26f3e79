# An agent of an app by name, e.g. for a view's agent_id.
data "workflow_agent" "assistant" {
  app  = "crm-accounts"
  name = "Account assistant"
}

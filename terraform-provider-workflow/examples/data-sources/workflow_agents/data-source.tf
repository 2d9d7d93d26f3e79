# Every agent of an app.
data "workflow_agents" "crm" {
  app = "crm-accounts"
}

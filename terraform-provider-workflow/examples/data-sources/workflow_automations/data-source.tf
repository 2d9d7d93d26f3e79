# Every automation of an app.
data "workflow_automations" "crm" {
  record_type = "apps"
  alias       = "crm-accounts"
}

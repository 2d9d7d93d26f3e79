# An automation of an app by name.
data "workflow_automation" "welcome" {
  record_type = "apps"
  alias       = "crm-accounts"
  name        = "Welcome new accounts"
}

# The active version of an automation of the app crm-accounts. The
# workflow is the automation in full-state form, without its "id"; it is
# compared by meaning (key order, white space and the spelling of numbers
# make no diff), and plan asks the service to validate it.
resource "workflow_automation" "welcome" {
  record_type = "apps"
  alias       = "crm-accounts"
  workflow = jsonencode({
    name     = "Welcome new accounts"
    enabled  = true
    triggers = [{ type = "RECORD_CREATED" }]
    tasks    = [{ type = "SEND_EMAIL", template = "welcome" }]
  })
}

# Every automation of an app (terraform query).
list "workflow_automation" "crm" {
  provider = workflow
  config {
    record_type = "apps"
    alias       = "crm-accounts"
  }
}

# Every agent of an app (terraform query).
list "workflow_agent" "crm" {
  provider = workflow
  config {
    app = "crm-accounts"
  }
}

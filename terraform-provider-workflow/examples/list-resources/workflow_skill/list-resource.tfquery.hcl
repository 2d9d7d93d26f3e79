# Every skill of an app (terraform query).
list "workflow_skill" "crm" {
  provider = workflow
  config {
    app = "crm-accounts"
  }
}

# Every view of an app (terraform query).
list "workflow_view" "crm" {
  provider = workflow
  config {
    app = "crm-accounts"
  }
}

# Every view of an app.
data "workflow_views" "crm" {
  app = "crm-accounts"
}

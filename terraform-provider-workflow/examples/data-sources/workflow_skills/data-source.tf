# Every skill of an app.
data "workflow_skills" "crm" {
  app = "crm-accounts"
}

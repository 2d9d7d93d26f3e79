# A skill of an app by name.
data "workflow_skill" "triage" {
  app  = "crm-accounts"
  name = "Triage"
}

resource "workflow_skill" "triage" {
  app          = "crm-accounts"
  name         = "Triage"
  type         = "CUSTOM"
  status       = "ACTIVE"
  instructions = "Sort incoming accounts by size."
  properties   = jsonencode({ threshold = 10000 })
  discovery    = jsonencode({ positiveKeywords = ["triage", "sort"] })
}

# An agent of the app crm-accounts. Its list entry is a summary:
# instructions and tools are written and kept, never read back.
resource "workflow_agent" "assistant" {
  app              = "crm-accounts"
  name             = "Account assistant"
  description      = "Answers questions about accounts"
  temperature      = 0
  reasoning_effort = "LOW"
  instructions     = "Answer briefly, citing the account."
  tools            = [jsonencode({ type = "search", name = "accounts" })] # one jsonencode per tool
}

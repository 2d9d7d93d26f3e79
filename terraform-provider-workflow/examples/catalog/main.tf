# An app and what hangs off it: composed from its definition, with an
# element, its search tables, an agent, a skill and a flow. Every object
# refers to the others by reference, so the same configuration applies to
# workspaces whose ids differ. The provider's settings come from
# WORKFLOW_CLIENT_ID, WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL and
# WORKFLOW_AUTH_URL.

terraform {
  required_providers {
    workflow = {
      source = "registry.opentofu.org/seed-a15e58aa/workflow"
    }
  }
}

provider "workflow" {}

variable "category_id" {
  type        = string
  description = "The category the element is filed under."
}

# Apps, flows, elements, agents, skills and search tables have no delete
# in the API: destroy removes them from the state only, with a warning.
# Apps and flows have no read either: drift is not detected.
resource "workflow_app" "deals" {
  definition = jsonencode({
    namespace = "crm-deals"
    name      = "Deals"
  })
}

resource "workflow_automation" "new_deal" {
  record_type = "apps"
  alias       = workflow_app.deals.alias
  workflow = jsonencode({
    name     = "New deal"
    triggers = [{ type = "RECORD_CREATED" }]
    tasks    = [{ type = "SEND_EMAIL", template = "new-deal" }]
  })
}

resource "workflow_element" "products" {
  name        = "Products"
  category_id = var.category_id
  namespace   = "products"
  description = "What we sell"
  source = jsonencode({
    fields = [{ name = "Title", type = "TEXT" }, { name = "Price", type = "NUMBER" }]
  })
}

resource "workflow_search_table" "products" {
  aspect_id           = workflow_element.products.id
  target_lag          = 10
  duration            = "MINUTES"
  attribute_field_ids = ["f0000000-0000-4000-8000-000000000001"] # the ids of the element's fields
}

resource "workflow_linked_search_table" "manuals" {
  aspect_id     = workflow_element.products.id
  cloud_link_id = "00000000-0000-4000-8000-000000000001"
  database      = "DOCS"
  schema        = "PUBLIC"
  service_name  = "MANUALS_SEARCH"
}

# An agent's list entry is a summary: instructions and tools are written
# and kept, never read back.
resource "workflow_agent" "assistant" {
  app              = workflow_app.deals.alias
  name             = "Deal assistant"
  description      = "Answers questions about deals"
  temperature      = 0
  reasoning_effort = "LOW"
  instructions     = "Answer briefly, citing the deal."
  tools            = [jsonencode({ type = "search", name = "deals" })]
}

resource "workflow_skill" "triage" {
  app          = workflow_app.deals.alias
  name         = "Triage"
  type         = "CUSTOM"
  status       = "ACTIVE"
  instructions = "Sort incoming deals by size."
  properties   = jsonencode({ threshold = 10000 })
  discovery    = jsonencode({ positiveKeywords = ["triage", "sort"] })
}

resource "workflow_flow" "nightly" {
  definition = jsonencode({
    name  = "Nightly export"
    steps = [{ type = "EXPORT", target = "warehouse" }]
  })
}

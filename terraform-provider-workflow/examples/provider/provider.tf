# The provider's source is its full address: a short one
# ("seed-a15e58aa/workflow") is expanded with the CLI's own default
# registry, which differs between OpenTofu and Terraform.
terraform {
  required_providers {
    workflow = {
      source = "registry.opentofu.org/seed-a15e58aa/workflow"
    }
  }
}

# Each setting falls back to its environment variable; one found in
# neither fails plan, naming the attribute and the variable.
provider "workflow" {
  client_id     = var.client_id                # or WORKFLOW_CLIENT_ID
  client_secret = var.client_secret            # or WORKFLOW_CLIENT_SECRET
  base_url      = "https://api.example.com/v1" # or WORKFLOW_BASE_URL
  auth_url      = "https://api.example.com"    # or WORKFLOW_AUTH_URL
}

variable "client_id" {
  type = string
}

variable "client_secret" {
  type      = string
  sensitive = true
}

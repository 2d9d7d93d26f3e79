resource "workflow_flow" "nightly" {
  definition = jsonencode({
    name  = "Nightly export"
    steps = [{ type = "EXPORT", target = "warehouse" }]
  })
}

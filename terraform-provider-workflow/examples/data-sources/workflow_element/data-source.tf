# An element by namespace.
data "workflow_element" "products" {
  namespace = "products"
}

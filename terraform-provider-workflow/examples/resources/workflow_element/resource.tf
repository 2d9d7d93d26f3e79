variable "category_id" {
  type        = string
  description = "The category the element is filed under."
}

# The element's source is a JSON string, compared by meaning.
resource "workflow_element" "products" {
  name        = "Products"
  category_id = var.category_id
  namespace   = "products"
  description = "What we sell"
  source = jsonencode({
    fields = [{ name = "Title", type = "TEXT" }, { name = "Price", type = "NUMBER" }]
  })
}

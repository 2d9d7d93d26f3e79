# A group by name.
data "workflow_group" "engineering" {
  name = "Engineering"
}

# Every group of the workspace (terraform query).
list "workflow_group" "all" {
  provider = workflow
}

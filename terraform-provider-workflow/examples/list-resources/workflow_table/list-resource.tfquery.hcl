# Every table of the workspace (terraform query).
list "workflow_table" "all" {
  provider = workflow
}

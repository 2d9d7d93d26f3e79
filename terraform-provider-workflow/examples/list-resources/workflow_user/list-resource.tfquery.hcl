# Every user of the workspace (terraform query).
list "workflow_user" "all" {
  provider = workflow
}

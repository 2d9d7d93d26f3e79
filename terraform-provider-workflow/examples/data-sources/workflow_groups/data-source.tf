# Every group of the workspace.
data "workflow_groups" "all" {}

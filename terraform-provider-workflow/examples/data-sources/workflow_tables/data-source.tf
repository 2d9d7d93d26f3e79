# Every table of the workspace.
data "workflow_tables" "all" {}

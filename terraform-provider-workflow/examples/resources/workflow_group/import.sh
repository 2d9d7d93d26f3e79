# the group's id
tofu import workflow_group.engineering 10000000-0000-4000-8000-000000000001

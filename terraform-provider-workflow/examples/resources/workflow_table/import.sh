# the table's id
tofu import workflow_table.accounts 70000000-0000-4000-8000-000000000001

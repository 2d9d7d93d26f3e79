# the table's id and the join's id
tofu import workflow_table_join.region 70000000-0000-4000-8000-000000000001/70000000-0000-4000-8000-000000000005

# the table's id and the id of the join's pair of fields
tofu import workflow_table_join_mappings.region 70000000-0000-4000-8000-000000000001/70000000-0000-4000-8000-000000000006

# the aspect's id and the search table's id
tofu import workflow_linked_search_table.manuals e0000000-0000-4000-8000-000000000001/80000000-0000-4000-8000-000000000002

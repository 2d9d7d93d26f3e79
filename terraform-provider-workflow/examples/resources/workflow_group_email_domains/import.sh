# the group's id
tofu import workflow_group_email_domains.everyone 10000000-0000-4000-8000-000000000002

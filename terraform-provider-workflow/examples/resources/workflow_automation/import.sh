# record type, alias and id, in the order of the API's path
tofu import workflow_automation.welcome apps/crm-accounts/40000000-0000-4000-8000-000000000001

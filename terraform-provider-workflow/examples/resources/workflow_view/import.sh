# the app's alias and the view's id
tofu import workflow_view.open crm-accounts/50000000-0000-4000-8000-000000000001

# the user's id
tofu import workflow_user.ada 00000000-0000-4000-8000-000000000002

# the app's alias and the agent's id
tofu import workflow_agent.assistant crm-accounts/60000000-0000-4000-8000-000000000001

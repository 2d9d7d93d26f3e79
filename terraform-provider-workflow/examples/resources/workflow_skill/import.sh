# the app's alias and the skill's id
tofu import workflow_skill.triage crm-accounts/30000000-0000-4000-8000-000000000001

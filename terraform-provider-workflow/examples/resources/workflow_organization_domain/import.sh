# the domain's id; its settings, which no read returns, are written by the next apply
tofu import workflow_organization_domain.corp 00000000-0000-4000-8000-0000000000e1

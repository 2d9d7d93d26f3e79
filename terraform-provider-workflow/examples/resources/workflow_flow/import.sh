# the flow's id; its definition, which no read returns, is written by the next apply
tofu import workflow_flow.nightly 00000000-0000-4000-8000-0000000000f1

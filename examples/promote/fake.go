package main

import (
	"context"
	"fmt"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// The field ids of the views of -fake (the fake takes any UUID).
const (
	fieldCountry = "f0000000-0000-4000-8000-000000000001"
	fieldName    = "f0000000-0000-4000-8000-000000000002"
	fieldTier    = "f0000000-0000-4000-8000-000000000003"
)

// fakes starts the two workspaces of -fake, whose ids differ (each fake
// hands out ids in sequence, and they are seeded in different orders):
//
//   - staging has the demo data (workflowtest's SeedDemo: in app
//     crm-accounts, three automations and the views all-accounts,
//     gold-accounts and by-tier), and in that app the agents "Onboarding
//     coach" and "Account assistant", the agent view assistant linked to
//     the second, and the kanban view by-country, whose members hold field
//     ids;
//   - production has the automation "Prod-only hotfix", two of the
//     automations of staging, one of them changed, the view
//     legacy-accounts, the views all-accounts (one nested member changed),
//     gold-accounts (without its filter) and assistant (linked to
//     production's own "Account assistant"), and one agent.
func fakes(ctx context.Context) (staging, production *workflowtest.Server, err error) {
	staging, production = workflowtest.NewServer(), workflowtest.NewServer()
	defer func() {
		if err != nil {
			staging.Close()
			production.Close()
		}
	}()
	staging.SeedDemo()
	if _, err := addAgent(ctx, staging, "Onboarding coach"); err != nil {
		return nil, nil, err
	}
	assistant, err := addAgent(ctx, staging, "Account assistant")
	if err != nil {
		return nil, nil, err
	}
	staging.AddView(workflowtest.DemoApps, "assistant", "agent", map[string]any{"name": "Ask about accounts", "agentId": assistant})
	staging.AddView(workflowtest.DemoApps, "by-country", "kanban", map[string]any{"name": "Accounts by country",
		"displayByField": fieldCountry, "columns": []string{fieldName, fieldTier}})

	for _, a := range []map[string]any{
		{"name": "Prod-only hotfix", "triggers": []any{map[string]any{"type": "RECORD_UPDATED"}}},
		{"name": "Welcome new accounts", "triggers": []any{map[string]any{"type": "RECORD_CREATED"}},
			"tasks": []any{map[string]any{"type": "SEND_EMAIL", "template": "welcome"}}},
		{"name": "Flag gold accounts", "triggers": []any{map[string]any{"type": "FIELD_CHANGED", "field": "Tier"}},
			"tasks": []any{map[string]any{"type": "NOTIFY_GROUP", "group": "Sales"}}},
	} {
		production.AddAutomation(workflow.Apps, workflowtest.DemoApps, a)
	}
	prodAssistant, err := addAgent(ctx, production, "Account assistant")
	if err != nil {
		return nil, nil, err
	}
	production.AddView(workflowtest.DemoApps, "legacy-accounts", "list", map[string]any{"name": "Accounts (old)"})
	production.AddView(workflowtest.DemoApps, "all-accounts", "list", map[string]any{"name": "All accounts", "rows": 50,
		"sort": map[string]any{"field": "Name", "direction": "DESC"}})
	production.AddView(workflowtest.DemoApps, "gold-accounts", "list", map[string]any{"name": "Gold accounts"})
	production.AddView(workflowtest.DemoApps, "assistant", "agent", map[string]any{"name": "Ask about accounts", "agentId": prodAssistant})
	return staging, production, nil
}

// addAgent creates an agent of the demo app in srv and returns its id.
func addAgent(ctx context.Context, srv *workflowtest.Server, name string) (string, error) {
	a, err := admin.New(srv.Client()).Agents.Create(ctx, workflowtest.DemoApps,
		admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{Name: new(name)}}})
	if err != nil {
		return "", fmt.Errorf("seeding the fake: %w", err)
	}
	return a.ID.Value(), nil
}

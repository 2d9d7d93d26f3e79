package admin_test

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestAgentsThroughTheFake(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()
	app, err := ws.Apps.Compose(ctx, jsontext.Value(`{"name":"IT","namespace":"it"}`))
	require.NoError(t, err)
	appID := member(t, app, "id").(string)

	var ids []string
	for _, name := range []string{"Triage", "Escalation", "Summary"} {
		got, err := ws.Agents.Create(ctx, "it", admin.AgentBundle{
			Agent: admin.AgentInput{Elementum: &admin.AgentSettings{Name: new(name), Instructions: new("be brief"), ReasoningEffort: new(admin.ReasoningLow)}},
			Tools: []jsontext.Value{jsontext.Value(`{"kind":"search"}`)},
		})
		require.NoError(t, err)
		assert.JSONEq(t, `"be brief"`, string(got.Extra["instructions"]), "the answer carries the settings")
		ids = append(ids, got.ID.Value())
	}

	var names []string
	for a, err := range ws.Agents.All(ctx, appID, &workflow.ListOptions{First: 2}) {
		require.NoError(t, err)
		names = append(names, a.Name.Value())
		assert.Equal(t, "AgentElementum", a.Type.Value())
	}
	assert.Equal(t, []string{"Triage", "Escalation", "Summary"}, names, "listed by namespace or id, over two pages")

	page, err := ws.Agents.List(ctx, "it", &workflow.ListOptions{Filter: rsql.Field("name").Eq("Summary")})
	require.NoError(t, err)
	require.Len(t, page.Items, 1)
	assert.Equal(t, ids[2], page.Items[0].ID.Value())

	updated, err := ws.Agents.Update(ctx, "it", ids[0], admin.AgentBundle{
		Agent: admin.AgentInput{Elementum: &admin.AgentSettings{Temperature: ptr(0.7)}}, Tools: []jsontext.Value{}})
	require.NoError(t, err)
	assert.Equal(t, "Triage", updated.Name.Value(), "what the update leaves out is kept")
	assert.Equal(t, 0.7, updated.Temperature.Value())
	assert.JSONEq(t, `[]`, string(updated.Extra["tools"]), "an empty list replaces the tools")

	_, err = ws.Agents.Update(ctx, "it", "550e8400-e29b-41d4-a716-446655440000", admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{}}})
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	_, err = ws.Agents.List(ctx, "nowhere", nil)
	assert.ErrorIs(t, err, workflow.ErrNotFound)

	// An app of the records API has agents too.
	srv.Define(workflow.Apps, "hr")
	page, err = ws.Agents.List(ctx, "hr", nil)
	require.NoError(t, err)
	assert.Empty(t, page.Items)
}

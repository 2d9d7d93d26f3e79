package admin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestAutomationsThroughTheFake(t *testing.T) {
	ctx := t.Context()
	srv := workflowtest.Start(t)
	srv.Define(workflow.Elements, "suppliers")
	ws := admin.New(srv.Client())

	verdict, err := ws.Automations.Validate(ctx, workflow.Elements, "suppliers", admin.Automation(`{"triggers":[]}`))
	require.NoError(t, err)
	assert.Equal(t, false, member(t, verdict, "valid"))

	created, err := ws.Automations.Create(ctx, workflow.Elements, "suppliers", escalate())
	require.NoError(t, err)
	id := created.ID()
	assert.Equal(t, escalate().Member("triggers"), created.Member("triggers"))

	list, err := ws.Automations.List(ctx, workflow.Elements, "suppliers")
	require.NoError(t, err)
	assert.Equal(t, []admin.Automation{created}, list)

	changed := admin.Automation(`{"triggers":[{"type":"RECORD_CREATED"}],"name":"Escalate to the supplier"}`)
	updated, err := ws.Automations.Update(ctx, workflow.Elements, "suppliers", id, changed)
	require.NoError(t, err)
	assert.Equal(t, "Escalate to the supplier", updated.Name())
	got, err := ws.Automations.Get(ctx, workflow.Elements, "suppliers", id)
	require.NoError(t, err)
	assert.Equal(t, admin.AutomationVersions{updated}, got)

	// A draft beside the active version: Get tells them apart, List gives
	// the active one.
	srv.SetAutomationDraft(workflow.Elements, "suppliers", id, map[string]any{"name": "Escalate (next)", "triggers": []any{}})
	got, err = ws.Automations.Get(ctx, workflow.Elements, "suppliers", id)
	require.NoError(t, err)
	assert.Equal(t, updated, got.Active())
	assert.Equal(t, "Escalate (next)", got.Draft().Name())
	assert.Equal(t, id, got.Draft().ID())
	list, err = ws.Automations.List(ctx, workflow.Elements, "suppliers")
	require.NoError(t, err)
	assert.Equal(t, []admin.Automation{updated}, list)

	require.NoError(t, ws.Automations.Delete(ctx, workflow.Elements, "suppliers", id))
	_, err = ws.Automations.Get(ctx, workflow.Elements, "suppliers", id)
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	list, err = ws.Automations.List(ctx, workflow.Elements, "suppliers")
	require.NoError(t, err)
	assert.Empty(t, list)
	_, err = ws.Automations.List(ctx, workflow.Apps, "suppliers")
	assert.ErrorIs(t, err, workflow.ErrNotFound, "automations belong to a definition that exists")
}

package admin_test

import (
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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

	verdict, err := ws.Automations.Validate(ctx, workflow.Elements, "suppliers", admin.Automation{"triggers": jsontext.Value(`[]`)})
	require.NoError(t, err)
	assert.Equal(t, "false", string(verdict["valid"]))
	_, err = ws.Automations.Create(ctx, workflow.Elements, "suppliers", admin.Automation{"triggers": jsontext.Value(`[]`)})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable)

	created, err := ws.Automations.Create(ctx, workflow.Elements, "suppliers", escalate())
	require.NoError(t, err)
	var id string
	require.NoError(t, json.Unmarshal(created["id"], &id))
	assert.Equal(t, escalate()["triggers"], created["triggers"])

	list, err := ws.Automations.List(ctx, workflow.Elements, "suppliers")
	require.NoError(t, err)
	assert.Equal(t, []admin.Automation{created}, list)

	changed := escalate()
	changed["name"] = jsontext.Value(`"Escalate to the supplier"`)
	updated, err := ws.Automations.Update(ctx, workflow.Elements, "suppliers", id, changed)
	require.NoError(t, err)
	assert.Equal(t, `"Escalate to the supplier"`, string(updated["name"]))
	got, err := ws.Automations.Get(ctx, workflow.Elements, "suppliers", id)
	require.NoError(t, err)
	assert.Equal(t, []admin.Automation{updated}, got)

	_, err = ws.Automations.Delete(ctx, workflow.Elements, "suppliers", id)
	require.NoError(t, err)
	_, err = ws.Automations.Get(ctx, workflow.Elements, "suppliers", id)
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	list, err = ws.Automations.List(ctx, workflow.Elements, "suppliers")
	require.NoError(t, err)
	assert.Empty(t, list)
	_, err = ws.Automations.List(ctx, workflow.Apps, "suppliers")
	assert.ErrorIs(t, err, workflow.ErrNotFound, "automations belong to a definition that exists")
}

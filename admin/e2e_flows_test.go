package admin_test

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestFlowsThroughTheFake(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()

	flow, err := ws.Flows.Create(ctx, jsontext.Value(`{"name":"Escalate","steps":[{"kind":"notify","after":1.5}]}`))
	require.NoError(t, err)
	id, _ := member(t, flow, "id").(string)
	require.NotEmpty(t, id)
	assert.Equal(t, []any{map[string]any{"kind": "notify", "after": 1.5}}, member(t, flow, "steps"))

	second, err := ws.Flows.Create(ctx, jsontext.Value(`{"name":"Close"}`))
	require.NoError(t, err)
	assert.NotEqual(t, id, member(t, second, "id"))

	updated, err := ws.Flows.Update(ctx, id, jsontext.Value(`{"name":"Escalate later"}`))
	require.NoError(t, err)
	assert.Equal(t, "Escalate later", member(t, updated, "name"))
	assert.Equal(t, id, member(t, updated, "id"))
	assert.Nil(t, member(t, updated, "steps"), "an update replaces the definition")

	_, err = ws.Flows.Update(ctx, "create", jsontext.Value(`{}`))
	assert.ErrorIs(t, err, workflow.ErrNotFound)
}

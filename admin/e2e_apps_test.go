package admin_test

import (
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// member returns one member of a JSON object answer.
func member(t *testing.T, v jsontext.Value, name string) any {
	t.Helper()
	var m map[string]any
	require.NoError(t, jsonv2.Unmarshal(v, &m))
	return m[name]
}

func TestAppsThroughTheFake(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()

	app, err := ws.Apps.Compose(ctx, jsontext.Value(`{"name":"IT","namespace":"it","layout":{"tabs":["Open","Done"]}}`))
	require.NoError(t, err)
	id, _ := member(t, app, "id").(string)
	require.NotEmpty(t, id, "the fake gives the app an id")
	assert.Equal(t, map[string]any{"tabs": []any{"Open", "Done"}}, member(t, app, "layout"), "members are kept as sent")

	other, err := ws.Apps.Compose(ctx, jsontext.Value(`{"name":"HR","namespace":"hr"}`))
	require.NoError(t, err)
	assert.NotEqual(t, id, member(t, other, "id"))

	updated, err := ws.Apps.Update(ctx, id, jsontext.Value(`{"name":"IT Management","namespace":"it"}`))
	require.NoError(t, err)
	assert.Equal(t, "IT Management", member(t, updated, "name"))
	assert.Nil(t, member(t, updated, "layout"), "an update replaces the definition")
	assert.Equal(t, id, member(t, updated, "id"))

	// A compose naming an app by its id changes that app.
	again, err := ws.Apps.Compose(ctx, jsontext.Value(`{"id":"`+id+`","name":"IT 3","namespace":"it"}`))
	require.NoError(t, err)
	assert.Equal(t, id, member(t, again, "id"))

	_, err = ws.Apps.Update(ctx, "550e8400-e29b-41d4-a716-446655440000", jsontext.Value(`{}`))
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	_, err = ws.Apps.Compose(ctx, jsontext.Value(`{"name":"IT again","namespace":"it"}`))
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a namespace belongs to one app")
	_, err = ws.Apps.Update(ctx, id, jsontext.Value(`{"namespace":"hr"}`))
	assert.ErrorIs(t, err, workflow.ErrUnprocessable)
}

package admin_test

import (
	"errors"
	"net/http"
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

// reached returns what alias reaches through the SDK, by family: the
// names of its records, automations, views, agents and skills, or "404"
// where the alias names no app.
func reached(t *testing.T, ws *admin.Workspace, c *workflow.Client, alias string) map[string]any {
	t.Helper()
	ctx := t.Context()
	out := map[string]any{}
	put := func(family string, err error, names ...string) {
		if errors.Is(err, workflow.ErrNotFound) {
			out[family] = "404"
			return
		}
		require.NoError(t, err, family)
		out[family] = names
	}
	records, err := c.Records.List(ctx, workflow.Apps, alias, nil)
	var names []string
	for _, r := range pageItems(records) {
		names = append(names, r.Data["Name"])
	}
	put("records", err, names...)
	automations, err := ws.Automations.List(ctx, workflow.Apps, alias)
	names = nil
	for _, a := range automations {
		names = append(names, member(t, jsontext.Value(a), "name").(string))
	}
	put("automations", err, names...)
	views, err := ws.Views.List(ctx, alias, nil)
	names = nil
	for _, v := range pageItems(views) {
		names = append(names, v.Name.Value())
	}
	put("views", err, names...)
	agents, err := ws.Agents.List(ctx, alias, nil)
	names = nil
	for _, a := range pageItems(agents) {
		names = append(names, a.Name.Value())
	}
	put("agents", err, names...)
	skills, err := ws.Skills.List(ctx, alias, nil)
	names = nil
	for _, s := range pageItems(skills) {
		names = append(names, s.Name.Value())
	}
	put("skills", err, names...)
	return out
}

// pageItems returns the items of p, none for a nil page.
func pageItems[T any](p *workflow.Page[T]) []T {
	if p == nil {
		return nil
	}
	return p.Items
}

// An app has one alias: an update with a new namespace moves the app's
// records, automations, views, agents and skills to it, and one that
// names another app is refused and changes nothing.
func TestAppsRenameThroughTheFake(t *testing.T) {
	srv := workflowtest.Start(t)
	c := srv.Client()
	ws := admin.New(c)
	ctx := t.Context()

	app, err := ws.Apps.Compose(ctx, jsontext.Value(`{"name":"IT","namespace":"it"}`))
	require.NoError(t, err)
	id := member(t, app, "id").(string)
	_, err = ws.Apps.Compose(ctx, jsontext.Value(`{"name":"HR","namespace":"hr"}`))
	require.NoError(t, err)
	srv.Define(workflow.Apps, "ops")
	_, err = c.Records.Create(ctx, workflow.Apps, "it", workflow.Record{"Name": "Laptop"})
	require.NoError(t, err)
	_, err = ws.Automations.Create(ctx, workflow.Apps, "it", admin.Automation(`{"name":"Escalate"}`))
	require.NoError(t, err)
	_, err = ws.Views.Create(ctx, "it", "open", admin.ViewRequest{View: admin.ViewInput{List: &admin.ViewConfig{Name: new("Open")}}})
	require.NoError(t, err)
	_, err = ws.Agents.Create(ctx, "it", admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{Name: new("Triage")}}})
	require.NoError(t, err)
	_, err = ws.Skills.Create(ctx, "it", admin.SkillBundle{Skill: admin.SkillSettings{Name: new("Summarise")}})
	require.NoError(t, err)

	all := map[string]any{"records": []string{"Laptop"}, "automations": []string{"Escalate"}, "views": []string{"Open"},
		"agents": []string{"Triage"}, "skills": []string{"Summarise"}}
	none := map[string]any{"records": "404", "automations": "404", "views": "404", "agents": "404", "skills": "404"}
	empty := map[string]any{"records": []string(nil), "automations": []string(nil), "views": []string(nil),
		"agents": []string(nil), "skills": []string(nil)}
	require.Equal(t, all, reached(t, ws, c, "it"), "before")
	require.Equal(t, none, reached(t, ws, c, "itsm"), "before")

	for _, taken := range []string{"hr", "ops"} {
		_, err = ws.Apps.Update(ctx, id, jsontext.Value(`{"name":"IT","namespace":"`+taken+`"}`))
		var apiErr *workflow.APIError
		require.ErrorAs(t, err, &apiErr, taken)
		assert.Equal(t, http.StatusUnprocessableEntity, apiErr.StatusCode, taken)
		assert.Contains(t, err.Error(), `invalid /namespace: an app with alias "`+taken+`" exists`, taken)
		assert.Equal(t, all, reached(t, ws, c, "it"), "a refused rename to %s changes nothing", taken)
		assert.Equal(t, empty, reached(t, ws, c, taken), "a refused rename to %s changes nothing", taken)
	}

	updated, err := ws.Apps.Update(ctx, id, jsontext.Value(`{"name":"IT service management","namespace":"itsm"}`))
	require.NoError(t, err)
	assert.Equal(t, "itsm", member(t, updated, "namespace"))
	assert.Equal(t, all, reached(t, ws, c, "itsm"), "after: the new alias reaches the whole app")
	assert.Equal(t, none, reached(t, ws, c, "it"), "after: the old alias names nothing")

	// The old alias is free again.
	_, err = ws.Apps.Compose(ctx, jsontext.Value(`{"name":"IT 2","namespace":"it"}`))
	require.NoError(t, err)
	assert.Equal(t, empty, reached(t, ws, c, "it"))
}

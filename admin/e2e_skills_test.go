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

func TestSkillsThroughTheFake(t *testing.T) {
	// Generous replies only: it asserts that discoveryProperties, which the
	// document's Skill does not have, is kept in Extra when a service sends it.
	srv := workflowtest.Start(t, workflowtest.WithReplies(workflowtest.Generous))
	ws := admin.New(srv.Client())
	ctx := t.Context()
	app, err := ws.Apps.Compose(ctx, jsontext.Value(`{"name":"IT","namespace":"it"}`))
	require.NoError(t, err)
	appID := member(t, app, "id").(string)

	var ids []string
	for _, name := range []string{"Summarise", "Translate", "Classify"} {
		s, err := ws.Skills.Create(ctx, "it", admin.SkillBundle{
			Skill: admin.SkillSettings{Name: new(name), Type: new(admin.SkillCustom), Status: new(admin.SkillActive), Instructions: new("be brief"),
				Discovery: &admin.SkillDiscovery{Aliases: []string{name + " it"}}},
			Tools: []jsontext.Value{jsontext.Value(`{"kind":"search"}`)},
		})
		require.NoError(t, err)
		assert.Equal(t, "be brief", s.Instructions.Value(), "the answer carries the skill")
		assert.JSONEq(t, `{"items":[{"kind":"search"}],"total":1}`, string(s.Tools))
		assert.JSONEq(t, `{"aliases":["`+name+` it"]}`, string(s.Extra["discoveryProperties"]))
		ids = append(ids, s.ID.Value())
	}

	var names []string
	for s, err := range ws.Skills.All(ctx, appID, &workflow.ListOptions{First: 2}) {
		require.NoError(t, err)
		names = append(names, s.Name.Value())
	}
	assert.Equal(t, []string{"Summarise", "Translate", "Classify"}, names, "listed by namespace or id, over two pages")

	page, err := ws.Skills.List(ctx, "it", &workflow.ListOptions{Filter: rsql.Field("name").Eq("Classify")})
	require.NoError(t, err)
	require.Len(t, page.Items, 1)
	assert.Equal(t, ids[2], page.Items[0].ID.Value())

	updated, err := ws.Skills.Update(ctx, "it", ids[0], admin.SkillBundle{Skill: admin.SkillSettings{Status: new(admin.SkillDraft)}, Tools: []jsontext.Value{}})
	require.NoError(t, err)
	assert.Equal(t, "Summarise", updated.Name.Value(), "what the update leaves out is kept")
	assert.Equal(t, admin.SkillDraft, updated.Status.Value())
	assert.JSONEq(t, `{"items":[],"total":0}`, string(updated.Tools), "an empty list replaces the tools")

	page, err = ws.Skills.List(ctx, "it", &workflow.ListOptions{Filter: rsql.Field("status").Eq("DRAFT")})
	require.NoError(t, err)
	require.Len(t, page.Items, 1, "the change is stored")
	assert.Equal(t, ids[0], page.Items[0].ID.Value())

	_, err = ws.Skills.Update(ctx, "it", "550e8400-e29b-41d4-a716-446655440000", admin.SkillBundle{Skill: admin.SkillSettings{Name: new("X")}})
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	_, err = ws.Skills.Create(ctx, "nowhere", admin.SkillBundle{Skill: admin.SkillSettings{Name: new("X")}})
	assert.ErrorIs(t, err, workflow.ErrNotFound)

	// An app of the records API has skills too, apart from the agents.
	srv.Define(workflow.Apps, "hr")
	page, err = ws.Skills.List(ctx, "hr", nil)
	require.NoError(t, err)
	assert.Empty(t, page.Items)
}

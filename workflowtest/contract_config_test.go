package workflowtest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// seenThrough runs calls with a workspace of a fresh fake whose exchanges
// a validator of its own checks (failing the test on any finding), and
// returns the operations of the contract the exchanges reached.
func seenThrough(t *testing.T, calls func(context.Context, *admin.Workspace, *workflowtest.Server)) []string {
	t.Helper()
	srv := workflowtest.Start(t)
	v, err := contract.New()
	require.NoError(t, err)
	id, secret := srv.Credentials()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	c, err := workflow.NewClient(
		workflow.WithCredentials(id, secret),
		workflow.WithEndpoint(srv.BaseURL(), srv.AuthURL()),
		workflow.WithHTTPClient(&http.Client{Transport: v.Transport(t, tr)}),
	)
	require.NoError(t, err)
	calls(t.Context(), admin.New(c), srv)
	return v.Seen()
}

// assertSeen checks that every operation of a family was exercised.
func assertSeen(t *testing.T, seen []string, ops ...string) {
	t.Helper()
	for _, op := range ops {
		assert.True(t, slices.Contains(seen, op), "operation %s not exercised (seen: %v)", op, seen)
	}
}

func TestContractElements(t *testing.T) {
	seen := seenThrough(t, func(ctx context.Context, ws *admin.Workspace, srv *workflowtest.Server) {
		const cat = "550e8400-e29b-41d4-a716-446655440001"
		_, err := ws.Elements.Create(ctx, admin.NewElement{Name: "Assets", CategoryID: cat,
			Fields: []admin.ElementField{{Name: "Tag", Type: admin.FieldText}}})
		require.NoError(t, err)
		_, err = ws.Elements.Get(ctx, "assets")
		require.NoError(t, err)
		_, err = ws.Elements.Update(ctx, "assets", admin.ElementUpdate{Description: new("d")})
		require.NoError(t, err)
		srv.Seed(workflow.Elements, "racks", workflow.Record{"Name": "R1"})
		_, err = srv.Client().Records.List(ctx, workflow.Elements, "racks", nil)
		require.NoError(t, err)
	})
	assertSeen(t, seen, "createElement", "getElement", "updateElement")
}

func TestContractApps(t *testing.T) {
	seen := seenThrough(t, func(ctx context.Context, ws *admin.Workspace, _ *workflowtest.Server) {
		app, err := ws.Apps.Compose(ctx, jsontext.Value(`{"name":"IT","namespace":"it"}`))
		require.NoError(t, err)
		var m struct{ ID string }
		require.NoError(t, json.Unmarshal(app, &m))
		_, err = ws.Apps.Update(ctx, m.ID, jsontext.Value(`{"name":"IT 2"}`))
		require.NoError(t, err)
	})
	assertSeen(t, seen, "composeApp", "updateApp")
}

func TestContractFlows(t *testing.T) {
	seen := seenThrough(t, func(ctx context.Context, ws *admin.Workspace, _ *workflowtest.Server) {
		flow, err := ws.Flows.Create(ctx, jsontext.Value(`{"name":"Escalate"}`))
		require.NoError(t, err)
		var m struct{ ID string }
		require.NoError(t, json.Unmarshal(flow, &m))
		_, err = ws.Flows.Update(ctx, m.ID, jsontext.Value(`{"name":"Escalate 2"}`))
		require.NoError(t, err)
	})
	assertSeen(t, seen, "createFlow", "updateFlow")
}

func TestContractAgents(t *testing.T) {
	seen := seenThrough(t, func(ctx context.Context, ws *admin.Workspace, srv *workflowtest.Server) {
		srv.Define(workflow.Apps, "it")
		b := admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{Name: new("Triage"), MaxLength: new(int32(500))}}}
		created, err := ws.Agents.Create(ctx, "it", b)
		require.NoError(t, err)
		_, err = ws.Agents.Update(ctx, "it", created.ID.Value(), b)
		require.NoError(t, err)
		_, err = ws.Agents.List(ctx, "it", nil)
		require.NoError(t, err)
	})
	assertSeen(t, seen, "listAgents", "createAgent", "updateAgent")
}

func TestContractSkills(t *testing.T) {
	seen := seenThrough(t, func(ctx context.Context, ws *admin.Workspace, srv *workflowtest.Server) {
		srv.Define(workflow.Apps, "it")
		created, err := ws.Skills.Create(ctx, "it", admin.SkillBundle{Skill: admin.SkillSettings{Name: new("Summarise"), Type: new(admin.SkillCustom),
			Discovery: &admin.SkillDiscovery{Aliases: []string{"tl;dr"}}}, Tools: []jsontext.Value{jsontext.Value(`{"kind":"search"}`)}})
		require.NoError(t, err)
		_, err = ws.Skills.Update(ctx, "it", created.ID.Value(), admin.SkillBundle{Skill: admin.SkillSettings{Status: new(admin.SkillDraft)}})
		require.NoError(t, err)
		_, err = ws.Skills.List(ctx, "it", nil)
		require.NoError(t, err)
	})
	assertSeen(t, seen, "listSkills", "createSkill", "updateSkill")
}

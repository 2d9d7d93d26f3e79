package admin_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

const agentJSON = `{"id":"` + elemID + `","type":"AgentElementum","name":"Triage","reasoningEffort":"LOW","temperature":0.2,"maxLength":800,"voice":{"k":1}}`

func TestAgentsWire(t *testing.T) {
	bundle := admin.AgentBundle{
		Agent: admin.AgentInput{Elementum: &admin.AgentSettings{Name: new("Triage"), ReasoningEffort: new(admin.ReasoningLow), Temperature: ptr(0.0),
			Extra: map[string]jsontext.Value{"runAs": jsontext.Value(`"me"`)}}},
		Tools: []jsontext.Value{jsontext.Value(`{"kind":"search"}`)},
	}
	tests := []struct {
		name   string
		status int
		reply  string
		call   func(*admin.Workspace) error
		want   wire
	}{
		{"list", http.StatusOK, `{"items":[` + agentJSON + `],"total":1,"paging":{"has_next_page":false,"has_previous_page":false}}`, func(ws *admin.Workspace) error {
			page, err := ws.Agents.List(t.Context(), "it app", &workflow.ListOptions{First: 5, Filter: rsql.Field("name").Eq("Triage")})
			if err == nil {
				assert.Equal(t, admin.ReasoningLow, page.Items[0].ReasoningEffort.Value())
				assert.JSONEq(t, `{"k":1}`, string(page.Items[0].Extra["voice"]))
			}
			return err
		}, wire{"GET", "/apps/it%20app/agents", "filter=name%3D%3DTriage&first=5", ""}},
		{"create", http.StatusCreated, agentJSON, func(ws *admin.Workspace) error {
			_, err := ws.Agents.Create(t.Context(), "it", bundle)
			return err
		}, wire{"POST", "/apps/it/agents", "", `{"agent":{"elementum":{"name":"Triage","reasoningEffort":"LOW","temperature":0,"runAs":"me"}},"tools":[{"kind":"search"}]}`}},
		{"update replaces the skills with none", http.StatusOK, agentJSON, func(ws *admin.Workspace) error {
			got, err := ws.Agents.Update(t.Context(), "it", elemID, admin.AgentBundle{
				Agent: admin.AgentInput{Elementum: &admin.AgentSettings{MaxLength: ptr(int32(100))}}, A2ASkills: []jsontext.Value{}})
			if err == nil {
				assert.Equal(t, "Triage", got.Name.Value(), "the answer is read as an Agent")
			}
			return err
		}, wire{"PUT", "/apps/it/agents/" + elemID, "", `{"agent":{"elementum":{"maxLength":100}},"a2aSkills":[]}`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, tc.status, tc.reply)
			require.NoError(t, tc.call(ws))
			assertWire(t, m, tc.want)
		})
	}
}

func TestAgentsValidation(t *testing.T) {
	ok := admin.AgentInput{Elementum: &admin.AgentSettings{Name: new("A")}}
	assertRefused(t, []refusal{
		{"no variant", func(ws *admin.Workspace) error {
			_, err := ws.Agents.Create(t.Context(), "it", admin.AgentBundle{})
			return err
		}, "AgentBundle.Agent"},
		{"connector not a UUID", func(ws *admin.Workspace) error {
			_, err := ws.Agents.Create(t.Context(), "it", admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{AIProviderConnectorID: new("c1")}}})
			return err
		}, "AgentBundle.Agent.Elementum.AIProviderConnectorID"},
		{"tool not an object", func(ws *admin.Workspace) error {
			_, err := ws.Agents.Update(t.Context(), "it", "a1", admin.AgentBundle{Agent: ok, Tools: []jsontext.Value{jsontext.Value(`[]`)}})
			return err
		}, "AgentBundle.Tools[0]"},
		{"update without id", func(ws *admin.Workspace) error {
			_, err := ws.Agents.Update(t.Context(), "it", "", admin.AgentBundle{Agent: ok})
			return err
		}, "id"},
		{"list without alias", func(ws *admin.Workspace) error {
			_, err := ws.Agents.List(t.Context(), " ", nil)
			return err
		}, "alias"},
		{"all without alias", func(ws *admin.Workspace) error {
			for _, err := range ws.Agents.All(t.Context(), "", nil) {
				return err
			}
			return nil
		}, "alias"},
		{"pages without alias", func(ws *admin.Workspace) error {
			for _, err := range ws.Agents.Pages(t.Context(), "..", nil) {
				return err
			}
			return nil
		}, "alias"},
	})
}

func TestAgentKeepsUnknownMembers(t *testing.T) {
	var a admin.Agent
	require.NoError(t, json.Unmarshal([]byte(agentJSON), &a))
	out, err := json.Marshal(a)
	require.NoError(t, err)
	assert.JSONEq(t, agentJSON, string(out))
}

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

const skillJSON = `{"id":"` + elemID + `","type":"CUSTOM","status":"ACTIVE","name":"Summarise","properties":{"k":1},"tools":{"items":[]},"app":{"id":"` + elemID + `","namespace":"it","x":2},"owner":"it"}`

func TestSkillsWire(t *testing.T) {
	tests := []struct {
		name   string
		status int
		call   func(*admin.Workspace) error
		want   wire
	}{
		{"list", http.StatusOK, func(ws *admin.Workspace) error {
			page, err := ws.Skills.List(t.Context(), "it app", &workflow.ListOptions{First: 5, Filter: rsql.Field("status").Eq("ACTIVE")})
			if err == nil {
				s := page.Items[0]
				assert.Equal(t, admin.SkillCustom, s.Type.Value())
				assert.Equal(t, "it", s.App.Value().Namespace.Value())
				assert.JSONEq(t, `{"k":1}`, string(s.Properties))
				assert.JSONEq(t, `"it"`, string(s.Extra["owner"]))
			}
			return err
		}, wire{"GET", "/apps/it%20app/skills", "filter=status%3D%3DACTIVE&first=5", ""}},
		{"create", http.StatusCreated, func(ws *admin.Workspace) error {
			s, err := ws.Skills.Create(t.Context(), "it", admin.SkillBundle{
				Skill: admin.SkillSettings{Name: new("Summarise"), Type: new(admin.SkillCustom), Properties: jsontext.Value(`{"k":1}`),
					Discovery: &admin.SkillDiscovery{RoutingPriority: ptr(0.0), Aliases: []string{"tl;dr"}}},
				Tools: []jsontext.Value{jsontext.Value(`{"kind":"search"}`)},
			})
			if err == nil {
				assert.Equal(t, "Summarise", s.Name.Value())
			}
			return err
		}, wire{"POST", "/apps/it/skills", "", `{"skill":{"name":"Summarise","type":"CUSTOM","properties":{"k":1},"discoveryProperties":{"routingPriority":0,"aliases":["tl;dr"]}},"tools":[{"kind":"search"}]}`}},
		{"update replaces the tools with none", http.StatusOK, func(ws *admin.Workspace) error {
			s, err := ws.Skills.Update(t.Context(), "it", elemID, admin.SkillBundle{Skill: admin.SkillSettings{Status: new(admin.SkillDraft)}, Tools: []jsontext.Value{}})
			if err == nil {
				assert.Equal(t, elemID, s.ID.Value())
			}
			return err
		}, wire{"PUT", "/apps/it/skills/" + elemID, "", `{"skill":{"status":"DRAFT"},"tools":[]}`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reply := skillJSON
			if tc.name == "list" {
				reply = `{"items":[` + skillJSON + `],"total":1,"paging":{"has_next_page":false,"has_previous_page":false}}`
			}
			ws, m := newMockWorkspace(t, tc.status, reply)
			require.NoError(t, tc.call(ws))
			assertWire(t, m, tc.want)
		})
	}
}

func TestSkillsValidation(t *testing.T) {
	named := admin.SkillSettings{Name: new("A")}
	assertRefused(t, []refusal{
		{"create without a name", func(ws *admin.Workspace) error {
			_, err := ws.Skills.Create(t.Context(), "it", admin.SkillBundle{Skill: admin.SkillSettings{Type: new(admin.SkillCustom)}})
			return err
		}, "SkillBundle.Skill.Name"},
		{"unknown type", func(ws *admin.Workspace) error {
			_, err := ws.Skills.Create(t.Context(), "it", admin.SkillBundle{Skill: admin.SkillSettings{Name: new("A"), Type: new(admin.SkillType("BUILTIN"))}})
			return err
		}, "SkillBundle.Skill.Type"},
		{"unknown status", func(ws *admin.Workspace) error {
			_, err := ws.Skills.Update(t.Context(), "it", "s1", admin.SkillBundle{Skill: admin.SkillSettings{Status: new(admin.SkillStatus("LIVE"))}})
			return err
		}, "SkillBundle.Skill.Status"},
		{"properties not an object", func(ws *admin.Workspace) error {
			_, err := ws.Skills.Update(t.Context(), "it", "s1", admin.SkillBundle{Skill: admin.SkillSettings{Properties: jsontext.Value(`[1]`)}})
			return err
		}, "SkillBundle.Skill.Properties"},
		{"tool not an object", func(ws *admin.Workspace) error {
			_, err := ws.Skills.Create(t.Context(), "it", admin.SkillBundle{Skill: named, Tools: []jsontext.Value{jsontext.Value(`"x"`)}})
			return err
		}, "SkillBundle.Tools[0]"},
		{"update without id", func(ws *admin.Workspace) error {
			_, err := ws.Skills.Update(t.Context(), "it", "", admin.SkillBundle{Skill: named})
			return err
		}, "id"},
		{"create without alias", func(ws *admin.Workspace) error {
			_, err := ws.Skills.Create(t.Context(), "a/b", admin.SkillBundle{Skill: named})
			return err
		}, "alias"},
		{"all without alias", func(ws *admin.Workspace) error {
			for _, err := range ws.Skills.All(t.Context(), "", nil) {
				return err
			}
			return nil
		}, "alias"},
		{"pages without alias", func(ws *admin.Workspace) error {
			for _, err := range ws.Skills.Pages(t.Context(), "..", nil) {
				return err
			}
			return nil
		}, "alias"},
	})
}

func TestSkillKeepsUnknownMembers(t *testing.T) {
	var s admin.Skill
	require.NoError(t, json.Unmarshal([]byte(skillJSON), &s))
	out, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, skillJSON, string(out))
}

package workflowtest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

func TestSkillsRefuseBadBodies(t *testing.T) {
	a := newAPI(t)
	a.srv.Define(workflow.Apps, "it")
	ok := map[string]any{"skill": map[string]any{"name": "A"}}
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/apps/it/skills", ok).status)
	skill := func(m map[string]any) map[string]any { return map[string]any{"skill": m} }
	tests := []struct {
		name, method, path string
		body               any
		status             int
		msg                string
	}{
		{"malformed JSON", http.MethodPost, "/apps/it/skills", []byte(`{"skill":`), http.StatusBadRequest, "malformed body"},
		{"null member", http.MethodPost, "/apps/it/skills", skill(map[string]any{"name": "A", "description": nil}), http.StatusBadRequest, "invalid /skill/description: must be a string, not null"},
		{"null tool", http.MethodPost, "/apps/it/skills", map[string]any{"skill": ok["skill"], "tools": []any{nil}}, http.StatusBadRequest, "invalid /tools/0: must be an object, not null"},
		{"no skill", http.MethodPost, "/apps/it/skills", map[string]any{"tools": []any{}}, http.StatusBadRequest, "invalid /skill: is required"},
		{"create without a name", http.MethodPost, "/apps/it/skills", skill(map[string]any{"type": "CUSTOM"}), http.StatusBadRequest, "invalid /skill/name: is required"},
		{"unknown type", http.MethodPut, "/apps/it/skills/x", skill(map[string]any{"type": "BUILTIN"}), http.StatusBadRequest, "invalid /skill/type: must be one of CUSTOM, INTERNAL"},
		{"unknown status", http.MethodPut, "/apps/it/skills/x", skill(map[string]any{"status": "LIVE"}), http.StatusBadRequest, "invalid /skill/status: must be one of ACTIVE, DRAFT, INACTIVE"},
		{"properties not an object", http.MethodPut, "/apps/it/skills/x", skill(map[string]any{"properties": []any{}}), http.StatusBadRequest, "invalid /skill/properties: must be an object"},
		{"null keyword", http.MethodPut, "/apps/it/skills/x", skill(map[string]any{"discoveryProperties": map[string]any{"aliases": []any{nil}}}), http.StatusBadRequest, "invalid /skill/discoveryProperties/aliases/0: must be a string, not null"},
		{"unknown app", http.MethodPost, "/apps/nowhere/skills", ok, http.StatusNotFound, "no app"},
		{"unknown skill", http.MethodPut, "/apps/it/skills/nothing", ok, http.StatusNotFound, "no skill"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Contains(t, expectError(t, a.do(tc.method, tc.path, tc.body), tc.status), tc.msg)
		})
	}
}

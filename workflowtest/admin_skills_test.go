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
		{"unknown member", http.MethodPost, "/apps/it/skills", skill(map[string]any{"name": "A", "owner": "x"}), http.StatusBadRequest, "owner"},
		{"no skill", http.MethodPost, "/apps/it/skills", map[string]any{"tools": []any{}}, http.StatusBadRequest, "skill is required"},
		{"create without a name", http.MethodPost, "/apps/it/skills", skill(map[string]any{"type": "CUSTOM"}), http.StatusBadRequest, "skill.name"},
		{"unknown type", http.MethodPut, "/apps/it/skills/x", skill(map[string]any{"type": "BUILTIN"}), http.StatusBadRequest, "skill.type"},
		{"unknown status", http.MethodPut, "/apps/it/skills/x", skill(map[string]any{"status": "LIVE"}), http.StatusBadRequest, "skill.status"},
		{"properties not an object", http.MethodPut, "/apps/it/skills/x", skill(map[string]any{"properties": []any{}}), http.StatusBadRequest, "skill.properties"},
		{"unknown app", http.MethodPost, "/apps/nowhere/skills", ok, http.StatusNotFound, "no app"},
		{"unknown skill", http.MethodPut, "/apps/it/skills/nothing", ok, http.StatusNotFound, "no skill"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Contains(t, expectError(t, a.do(tc.method, tc.path, tc.body), tc.status), tc.msg)
		})
	}
}

package workflowtest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

func TestAgentsRefuseBadBodies(t *testing.T) {
	a := newAPI(t)
	a.srv.Define(workflow.Apps, "it")
	ok := map[string]any{"agent": map[string]any{"elementum": map[string]any{"name": "A"}}}
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/apps/it/agents", ok).status)
	tests := []struct {
		name, method, path string
		body               any
		status             int
		msg                string
	}{
		{"malformed JSON", http.MethodPost, "/apps/it/agents", []byte(`{"agent":`), http.StatusBadRequest, "malformed body"},
		{"null setting", http.MethodPost, "/apps/it/agents", map[string]any{"agent": map[string]any{"elementum": map[string]any{"name": nil}}}, http.StatusBadRequest, "invalid /agent/elementum/name: must be a string, not null"},
		{"null tool", http.MethodPost, "/apps/it/agents", map[string]any{"agent": ok["agent"], "tools": []any{nil}}, http.StatusBadRequest, "invalid /tools/0: must be an object, not null"},
		{"null a2a skill", http.MethodPost, "/apps/it/agents", map[string]any{"agent": ok["agent"], "a2aSkills": []any{nil}}, http.StatusBadRequest, "invalid /a2aSkills/0: must be an object, not null"},
		{"no variant", http.MethodPost, "/apps/it/agents", map[string]any{"agent": map[string]any{}}, http.StatusUnprocessableEntity, "invalid /agent: must have exactly one of elementum"},
		{"other variant", http.MethodPost, "/apps/it/agents", map[string]any{"agent": map[string]any{"system": map[string]any{}}}, http.StatusUnprocessableEntity, "elementum"},
		{"wrong type", http.MethodPost, "/apps/it/agents", map[string]any{"agent": map[string]any{"elementum": map[string]any{"maxLength": "long"}}}, http.StatusBadRequest, "invalid /agent/elementum/maxLength: must be an integer"},
		{"unknown effort", http.MethodPost, "/apps/it/agents", map[string]any{"agent": map[string]any{"elementum": map[string]any{"reasoningEffort": "MAX"}}}, http.StatusBadRequest, "reasoningEffort"},
		{"unknown app", http.MethodPost, "/apps/nowhere/agents", ok, http.StatusNotFound, "no app"},
		{"unknown agent", http.MethodPut, "/apps/it/agents/nothing", ok, http.StatusNotFound, "no agent"},
		{"a filter that does not parse", http.MethodGet, "/apps/it/agents?filter=%3D%3D", nil, http.StatusBadRequest, "invalid filter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Contains(t, expectError(t, a.do(tc.method, tc.path, tc.body), tc.status), tc.msg)
		})
	}
	// The record routes of the app are served as before.
	ids := a.srv.Seed(workflow.Apps, "it", workflow.Record{"Title": "T"})
	assert.Equal(t, http.StatusOK, a.get("/apps/it/"+ids[0]).status)
}

package workflowtest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPassthroughRefuseBadBodies(t *testing.T) {
	a := newAPI(t)
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/aspects/compose", map[string]any{"namespace": "it"}).status)
	tests := []struct {
		name, method, path string
		body               any
		status             int
		msg                string
	}{
		{"compose: malformed JSON", http.MethodPost, "/aspects/compose", []byte(`{"a":`), http.StatusBadRequest, "malformed body"},
		{"compose: an array", http.MethodPost, "/aspects/compose", []byte(`[]`), http.StatusBadRequest, "malformed body: must be an object"},
		{"compose: trailing data", http.MethodPost, "/aspects/compose", []byte(`{} {}`), http.StatusBadRequest, "malformed body: has data after the JSON value"},
		{"compose: no namespace", http.MethodPost, "/aspects/compose", map[string]any{"name": "HR"}, http.StatusUnprocessableEntity, "invalid /namespace: is required"},
		{"compose: a namespace not a string", http.MethodPost, "/aspects/compose", map[string]any{"namespace": 5}, http.StatusUnprocessableEntity, "invalid /namespace: must be a string"},
		{"compose: no body", http.MethodPost, "/aspects/compose", nil, http.StatusBadRequest, "empty"},
		{"compose: namespace taken", http.MethodPost, "/aspects/compose", map[string]any{"namespace": "it"}, http.StatusUnprocessableEntity, "exists"},
		{"update: unknown app", http.MethodPut, "/aspects/compose/nothing", map[string]any{}, http.StatusNotFound, "no composed app"},
		{"update: null", http.MethodPut, "/aspects/compose/" + seqUUID(uuidApp, 1), []byte(`null`), http.StatusBadRequest, "malformed body: null"},
		{"flow: malformed JSON", http.MethodPost, "/flows/create", []byte(`{`), http.StatusBadRequest, "malformed body"},
		{"flow: a string", http.MethodPost, "/flows/create", []byte(`"x"`), http.StatusBadRequest, "malformed body: must be an object"},
		{"flow: unknown flow", http.MethodPut, "/flows/" + seqUUID(uuidFlow, 9), map[string]any{}, http.StatusNotFound, "no flow"},
		{"flow: GET is not served", http.MethodGet, "/flows/create", nil, http.StatusMethodNotAllowed, "PUT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Contains(t, expectError(t, a.do(tc.method, tc.path, tc.body), tc.status), tc.msg)
		})
	}
}

// An update without a "namespace" keeps the app's alias, and the app
// stays usable under it.
func TestUpdateAppKeepsItsAlias(t *testing.T) {
	a := newAPI(t)
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/aspects/compose", map[string]any{"namespace": "hr"}).status)
	res := a.do(http.MethodPut, "/aspects/compose/"+seqUUID(uuidApp, 1), map[string]any{"name": "HR"})
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	var app map[string]any
	res.decode(&app)
	assert.Equal(t, map[string]any{"id": seqUUID(uuidApp, 1), "name": "HR", "namespace": "hr"}, app)
	assert.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/apps/hr/automations", map[string]any{"name": "A"}).status)
}

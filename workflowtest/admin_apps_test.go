package workflowtest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
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

// A new namespace moves the app's denials and the relations to its
// records, from other definitions and from its own records.
func TestUpdateAppMovesDenialsAndRelations(t *testing.T) {
	a := newAPI(t)
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/aspects/compose", map[string]any{"namespace": "it"}).status)
	a.srv.Seed(workflow.Apps, "it", workflow.Record{"id": "A-1"}, workflow.Record{"id": "A-2"})
	a.srv.Seed(workflow.Tasks, "work", workflow.Record{"id": "T-1"})
	for _, from := range []string{"/tasks/work/T-1", "/apps/it/A-2"} {
		require.Equal(t, http.StatusCreated, a.do(http.MethodPost, from+"/related-items", map[string]any{"id": "A-1", "alias": "it"}).status, from)
	}
	denied := a.srv.AddUser("no@example.com", "No", "Access")
	a.srv.Deny(denied.UserID, workflow.Apps, "it")

	res := a.do(http.MethodPut, "/aspects/compose/"+seqUUID(uuidApp, 1), map[string]any{"namespace": "itsm"})
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	assert.Equal(t, []string{"apps/itsm/A-1"}, a.srv.Related(workflow.Tasks, "work", "T-1"))
	assert.Equal(t, []string{"apps/itsm/A-1"}, a.srv.Related(workflow.Apps, "itsm", "A-2"))
	assert.Nil(t, a.srv.Records(workflow.Apps, "it"))
	assert.Len(t, a.srv.Records(workflow.Apps, "itsm"), 2)
	expectError(t, a.as(denied).get("/apps/itsm"), http.StatusForbidden)
	expectError(t, a.get("/apps/it"), http.StatusNotFound)
}

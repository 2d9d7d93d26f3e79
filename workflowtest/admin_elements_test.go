package workflowtest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/admin"
)

func TestElementsRefuseBadBodies(t *testing.T) {
	a := newAPI(t)
	cat := seqUUID('9', 1)
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/elements", map[string]any{"name": "Assets", "categoryId": cat}).status)
	tests := []struct {
		name, method, path string
		body               any
		status             int
		msg                string
	}{
		{"malformed JSON", http.MethodPost, "/elements", []byte(`{"name":`), http.StatusBadRequest, "malformed body"},
		{"null member", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": cat, "color": nil}, http.StatusBadRequest, "invalid /color: must be a string, not null"},
		{"no category", http.MethodPost, "/elements", map[string]any{"name": "A"}, http.StatusBadRequest, "invalid /categoryId: is required"},
		{"category not a UUID", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": "x"}, http.StatusBadRequest, "invalid /categoryId: must be a UUID"},
		{"field without type", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": cat, "fields": []any{map[string]any{"name": "F"}}}, http.StatusBadRequest, "invalid /fields/0/type: is required"},
		{"null field", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": cat, "fields": []any{nil}}, http.StatusBadRequest, "invalid /fields/0: must be an object, not null"},
		{"import without cloud link", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": cat, "database": "D", "schema": "S", "table": "T"}, http.StatusUnprocessableEntity, "cloudLinkId"},
		{"import with fields", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": cat, "cloudLinkId": cat, "database": "D", "schema": "S", "table": "T",
			"fields": []any{map[string]any{"name": "F", "type": "TEXT"}}}, http.StatusUnprocessableEntity, "fields must be omitted"},
		{"duplicate namespace", http.MethodPost, "/elements", map[string]any{"name": "Assets", "categoryId": cat}, http.StatusUnprocessableEntity, "exists"},
		{"update: null name", http.MethodPut, "/elements/assets", map[string]any{"name": nil}, http.StatusBadRequest, "invalid /name: must be a string, not null"},
		{"update: wrong type", http.MethodPut, "/elements/assets", map[string]any{"recordCreateTypes": map[string]any{"api": "yes"}}, http.StatusBadRequest, "invalid /recordCreateTypes/api: must be a boolean"},
		{"update: unknown element", http.MethodPut, "/elements/nothing", map[string]any{"name": "X"}, http.StatusNotFound, "no element"},
		{"get: unknown alias", http.MethodGet, "/elements/nothing", nil, http.StatusNotFound, "no elements definition"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Contains(t, expectError(t, a.do(tc.method, tc.path, tc.body), tc.status), tc.msg)
		})
	}
}

func TestElementsResetEmptiesThem(t *testing.T) {
	a := newAPI(t)
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/elements", map[string]any{"name": "Assets", "categoryId": seqUUID('9', 1)}).status)
	var got admin.Aspect
	a.get("/elements/assets").decode(&got)
	assert.Equal(t, seqUUID(uuidElement, 1), got.ID.Value())
	a.srv.Reset()
	expectError(t, a.get("/elements/assets"), http.StatusNotFound)
}

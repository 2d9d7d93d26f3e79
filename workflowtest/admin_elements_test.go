package workflowtest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		{"unknown member", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": cat, "colour": "red"}, http.StatusBadRequest, "colour"},
		{"no category", http.MethodPost, "/elements", map[string]any{"name": "A"}, http.StatusBadRequest, "categoryId are required"},
		{"category not a UUID", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": "x"}, http.StatusBadRequest, "UUID"},
		{"field without type", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": cat, "fields": []any{map[string]any{"name": "F"}}}, http.StatusBadRequest, "fields[0]"},
		{"import without cloud link", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": cat, "database": "D", "schema": "S", "table": "T"}, http.StatusUnprocessableEntity, "cloudLinkId"},
		{"import with fields", http.MethodPost, "/elements", map[string]any{"name": "A", "categoryId": cat, "cloudLinkId": cat, "database": "D", "schema": "S", "table": "T",
			"fields": []any{map[string]any{"name": "F", "type": "TEXT"}}}, http.StatusUnprocessableEntity, "fields must be omitted"},
		{"duplicate namespace", http.MethodPost, "/elements", map[string]any{"name": "Assets", "categoryId": cat}, http.StatusUnprocessableEntity, "exists"},
		{"update: a create-only member", http.MethodPut, "/elements/assets", map[string]any{"table": "T"}, http.StatusBadRequest, "table"},
		{"update: blank name", http.MethodPut, "/elements/assets", map[string]any{"name": " "}, http.StatusBadRequest, "blank"},
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
	var got aspectJSON
	a.get("/elements/assets").decode(&got)
	assert.Equal(t, seqUUID(uuidElement, 1), got.ID)
	a.srv.Reset()
	expectError(t, a.get("/elements/assets"), http.StatusNotFound)
}

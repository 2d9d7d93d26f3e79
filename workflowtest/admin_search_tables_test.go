package workflowtest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSearchTablesRaw checks the answers of the search tables routes to
// requests the SDK never sends.
func TestSearchTablesRaw(t *testing.T) {
	a := newAPI(t)
	aspect := "/aspects/50000000-0000-4000-8000-000000000001"
	const body = `{"attributeFieldIds":[],"duration":"DAYS","targetLag":1}`
	res := a.do(http.MethodPost, aspect+"/search-tables", []byte(body))
	require.Equal(t, http.StatusCreated, res.status, "body: %s", res.body)
	id := seqUUID(uuidSearchTables, 1)
	assert.Contains(t, string(res.body), `"id":"`+id+`"`)
	assert.Contains(t, string(res.body), `"displayName":"search_table_1"`)
	raw, ok := a.srv.SearchTableJSON(id)
	require.True(t, ok)
	assert.JSONEq(t, string(res.body), string(raw))

	tests := []struct {
		name, method, path, body string
		status                   int
		msg                      string
	}{
		{"malformed", http.MethodPost, aspect + "/search-tables", `[`, 400, "malformed body"},
		{"no lag", http.MethodPost, aspect + "/search-tables", strings.Replace(body, `,"targetLag":1`, "", 1), 400, "required"},
		{"unknown unit", http.MethodPost, aspect + "/search-tables", strings.Replace(body, "DAYS", "WEEKS", 1), 400, "unknown duration"},
		{"lag of zero", http.MethodPost, aspect + "/search-tables", strings.Replace(body, `"targetLag":1`, `"targetLag":0`, 1), 422, "at least 1"},
		{"half a vector index", http.MethodPost, aspect + "/search-tables",
			strings.Replace(body, `"attributeFieldIds":[]`, `"attributeFieldIds":[],"vectorIndexes":[{"fieldId":"x"}]`, 1), 400, "vector index"},
		{"linked without schema", http.MethodPost, aspect + "/linked-search-tables", `{"cloudLinkId":"c","database":"D","serviceName":"S"}`, 400, "required"},
		{"unknown id", http.MethodGet, aspect + "/search-tables/" + seqUUID(uuidSearchTables, 9), "", 404, "no search table"},
		{"update of an unknown id", http.MethodPut, aspect + "/search-tables/" + seqUUID(uuidSearchTables, 9), `{`, 404, "no search table"},
		{"update with an unknown member", http.MethodPut, aspect + "/search-tables/" + id, `{"snowflake":{"lag":1}}`, 400, "malformed body"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b any
			if tc.body != "" {
				b = []byte(tc.body)
			}
			assert.Contains(t, expectError(t, a.do(tc.method, tc.path, b), tc.status), tc.msg)
		})
	}
}

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
		{"no lag", http.MethodPost, aspect + "/search-tables", strings.Replace(body, `,"targetLag":1`, "", 1), 400, "invalid /targetLag: is required"},
		{"lag beyond int32", http.MethodPost, aspect + "/search-tables", strings.Replace(body, `"targetLag":1`, `"targetLag":2147483648`, 1), 400, "invalid /targetLag: must be an integer within int32"},
		{"unknown unit", http.MethodPost, aspect + "/search-tables", strings.Replace(body, "DAYS", "WEEKS", 1), 400, "invalid /duration: must be one of DAYS, HOURS, MINUTES, SECONDS"},
		{"half a vector index", http.MethodPost, aspect + "/search-tables",
			strings.Replace(body, `"attributeFieldIds":[]`, `"attributeFieldIds":[],"vectorIndexes":[{"fieldId":"x"}]`, 1), 400, "invalid /vectorIndexes/0/aiProviderConnectorId: is required"},
		{"attribute field not a UUID", http.MethodPost, aspect + "/search-tables", strings.Replace(body, `[]`, `["not-a-uuid"]`, 1), 400, "invalid /attributeFieldIds/0: must be a UUID"},
		{"text index field blank", http.MethodPost, aspect + "/search-tables", strings.Replace(body, `[]`, `[],"textIndexFieldIds":[""]`, 1), 400, "invalid /textIndexFieldIds/0: must be a UUID"},
		{"legacy field not a UUID", http.MethodPost, aspect + "/search-tables", strings.Replace(body, `[]`, `[],"fieldId":"x"`, 1), 400, "invalid /fieldId: must be a UUID"},
		{"linked without schema", http.MethodPost, aspect + "/linked-search-tables", `{"cloudLinkId":"c","database":"D","serviceName":"S"}`, 400, "invalid /schema: is required"},
		{"unknown id", http.MethodGet, aspect + "/search-tables/" + seqUUID(uuidSearchTables, 9), "", 404, "no search table"},
		{"update of an unknown id", http.MethodPut, aspect + "/search-tables/" + seqUUID(uuidSearchTables, 9), `{}`, 404, "no search table"},
		{"update with a null lag", http.MethodPut, aspect + "/search-tables/" + id, `{"snowflake":{"targetLag":null}}`, 400, "invalid /snowflake/targetLag: must be an integer, not null"},
		{"update with a null unit", http.MethodPut, aspect + "/search-tables/" + id, `{"snowflake":{"duration":null}}`, 400, "invalid /snowflake/duration: must be a string, not null"},
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

package workflowtest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tabID(n uint64) string { return seqUUID(uuidTables, n) }

const tableBody = `{"name":"Orders","handle":"ORD","source":"50000000-0000-4000-8000-000000000001","categoryId":"50000000-0000-4000-8000-000000000002",` +
	`"fields":[{"cloud":{"name":"Status","snowflake":{"columnName":"STATUS","type":"TEXT"}}}]}`

// TestTablesRaw checks the answers of the tables routes to requests the
// SDK never sends: the statuses and messages of broken bodies and
// unknown ids.
func TestTablesRaw(t *testing.T) {
	a := newAPI(t)
	res := a.do(http.MethodPost, "/tables", []byte(tableBody))
	require.Equal(t, http.StatusCreated, res.status, "body: %s", res.body)
	var created struct {
		ID     string `json:"id"`
		Fields []struct {
			ID string `json:"id"`
		} `json:"fields"`
	}
	res.decode(&created)
	assert.Equal(t, tabID(1), created.ID, "ids count up from the table kind")
	require.Len(t, created.Fields, 1)
	assert.Equal(t, tabID(2), created.Fields[0].ID)
	table := "/tables/" + created.ID

	tests := []struct {
		name, method, path, body string
		status                   int
		msg                      string
	}{
		{"malformed JSON", http.MethodPost, "/tables", `{"name":`, 400, "malformed body"},
		{"misspelt member", http.MethodPost, "/tables", strings.Replace(tableBody, `"name"`, `"nom"`, 1), 400, "invalid /name: is required"},
		{"missing handle", http.MethodPost, "/tables", strings.Replace(tableBody, `"handle":"ORD",`, "", 1), 400, "invalid /handle: is required"},
		{"field with two variants", http.MethodPost, "/tables",
			strings.Replace(tableBody, `{"cloud"`, `{"calculation":{"name":"c","text":"1"},"cloud"`, 1), 422, "invalid /fields/0: must have exactly one of calculation, cloud, reference"},
		{"calculation without text", http.MethodPost, "/tables",
			strings.Replace(tableBody, `{"cloud":{"name":"Status","snowflake":{"columnName":"STATUS","type":"TEXT"}}}`, `{"calculation":{"name":"c"}}`, 1), 400, "invalid /fields/0/calculation/text: is required"},
		{"handle taken", http.MethodPost, "/tables", tableBody, 422, `handle "ORD"`},
		{"filter on the list", http.MethodGet, "/tables?filter=name==x", "", 400, "no filter"},
		{"unknown table", http.MethodGet, "/tables/" + tabID(99), "", 404, "no table"},
		{"update of an unknown table", http.MethodPut, "/tables/" + tabID(99), `{}`, 404, "no table"},
		{"null name", http.MethodPut, table, `{"name":null}`, 400, "invalid /name: must be a string, not null"},
		{"unknown join type", http.MethodPost, table + "/joins",
			`{"source":"` + created.ID + `","type":"OUTER","joinOn":[{"leftFieldId":"` + tabID(2) + `","rightFieldId":"` + tabID(2) + `"}]}`, 400, "invalid /type: must be one of FULL, INNER, LEFT, RIGHT"},
		{"null pair", http.MethodPost, table + "/joins", `{"source":"` + created.ID + `","type":"LEFT","joinOn":[null]}`, 400, "invalid /joinOn/0: must be an object, not null"},
		{"right field not the joined table's", http.MethodPost, table + "/joins",
			`{"source":"` + created.ID + `","type":"LEFT","joinOn":[{"leftFieldId":"` + tabID(2) + `","rightFieldId":"` + tabID(9) + `"}]}`, 422, "right field"},
		{"unknown join", http.MethodPut, table + "/joins/" + tabID(9), `{"type":"FULL"}`, 404, "no join"},
		{"unknown pair", http.MethodPost, table + "/join-fields/" + tabID(9) + "/mappings", `{"entries":[{"source":"a","target":"b"}]}`, 404, "no join fields"},
		{"method not allowed", http.MethodGet, table + "/joins", "", 405, "not allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body any
			if tc.body != "" {
				body = []byte(tc.body)
			}
			msg := expectError(t, a.do(tc.method, tc.path, body), tc.status)
			assert.Contains(t, msg, tc.msg)
		})
	}

	// A join on itself, then mappings with broken bodies.
	res = a.do(http.MethodPost, table+"/joins",
		[]byte(`{"source":"`+created.ID+`","type":"LEFT","joinOn":[{"leftFieldId":"`+tabID(2)+`","rightFieldId":"`+tabID(2)+`"}]}`))
	require.Equal(t, http.StatusCreated, res.status, "body: %s", res.body)
	mappings := table + "/join-fields/" + tabID(4) + "/mappings"
	for _, body := range []string{`{}`, `{"entries":null}`, `{"entries":[null]}`, `{"entries":[{"source":"a"}]}`} {
		assert.Contains(t, expectError(t, a.do(http.MethodPost, mappings, []byte(body)), 400), "invalid /entries", body)
	}
	res = a.do(http.MethodDelete, mappings, []byte(`{"entries":[{"source":"a"}]}`))
	assert.Equal(t, http.StatusNoContent, res.status, "deleting what is not mapped is no error")
	assert.Empty(t, res.body)

	// Reset forgets the tables.
	a.srv.Reset()
	_, ok := a.srv.Table(created.ID)
	assert.False(t, ok)
}

package workflowtest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQueryItCannotRead: a query the fake could not read as sent is
// refused with 400 naming the parameter and how to write it, instead of
// being answered as if read (Go's parser drops a pair holding a ';', so
// the list came back unfiltered with 200). Written as the service wants
// it, the same query filters.
func TestQueryItCannotRead(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 20)
	for _, tc := range []struct {
		name, query string
		want        []string
	}{
		{"unescaped ;", "filter=Status==Open;Priority=ge=4&first=1", []string{`"filter"`, "not percent-encoded", "%3B"}},
		{"unescaped ; in another parameter", "first=1;2", []string{`"first"`, "%3B"}},
		{"repeated filter", "filter=Status==Open&filter=Priority=ge=4", []string{`"filter"`, "more than once", "%3B"}},
		{"repeated after an escaped ;", "filter=Status==Open%3BPriority=ge=4&first=1&first=2", []string{`"first"`, "more than once"}},
		{"unknown parameter", "fitler=Status==Open", []string{`"fitler"`, "unknown", "first, after, last, before, filter"}},
		{"broken escape", "filter=Title==100%", []string{`"filter"`, "%25"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := expectError(t, a.get("/tasks/it?"+tc.query), http.StatusBadRequest)
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
		})
	}

	l := a.list("/tasks/it", map[string][]string{"filter": {"Status==Open;Priority=ge=4"}, "first": {"1"}})
	assert.Equal(t, 2, l.Total, "encoded, the same filter is read: tasks 5 and 15")
	res := a.get("/tasks/it?filter=Status==Open%3BPriority=ge=4%2CTitle==Task%202&first=1")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)

	// A sub-resource list names what it takes; an operation that is not a
	// list reads no query and leaves unknown parameters alone.
	assert.Contains(t, expectError(t, a.get("/tasks/it/1/comment?filter=x==1"), http.StatusBadRequest), "takes no filter")
	assert.Contains(t, expectError(t, a.get("/tasks/it/1/comment?page=2"), http.StatusBadRequest), `"page"`)
	assert.Equal(t, http.StatusOK, a.get("/tasks/it/1?view=full").status)
}

package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"sync"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// subRequest is a request as the test server of the record sub-resource
// tests saw it.
type subRequest struct {
	Method string
	Path   string // escaped, without the /v1 prefix
	Query  string
	Header http.Header
	Body   []byte
}

// subServer records every API request and answers it with reply.
type subServer struct {
	mu    sync.Mutex
	reqs  []subRequest
	reply func(w http.ResponseWriter, r *http.Request, body []byte)
}

func (s *subServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, subRequest{
		Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery,
		Header: r.Header.Clone(), Body: body,
	})
	s.mu.Unlock()
	s.reply(w, r, body)
}

func (s *subServer) requests() []subRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]subRequest(nil), s.reqs...)
}

// newSubClient returns a client of a test server that answers with reply
// and records the requests.
func newSubClient(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, body []byte), opts ...Option) (*Client, *subServer) {
	t.Helper()
	srv := &subServer{reply: reply}
	return newHandlerClient(t, srv, opts...), srv
}

// subReply answers with status and a JSON body (none when body is empty).
func subReply(status int, body string) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		if body != "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// relatedPage is a page of related items as the service sends it.
const relatedPage = `{"items":[
	{"id":"TSK-4","type":"TASK","alias":"tasks","cursor":"c1"},
	{"id":"ITM-4","type":"APP","alias":"itmanagement","cursor":"c2","pinned":true}
],"total":2,"paging":{"has_next_page":false,"has_previous_page":false,"start_cursor":"c1","end_cursor":"c2"}}`

func TestListRelatedItems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		opts      *ListOptions
		wantQuery url.Values
	}{
		{"no options send no paging parameters", nil, url.Values{}},
		{"zero options send none either", &ListOptions{}, url.Values{}},
		{"paging fields the caller sets are sent", &ListOptions{First: 2, After: "c0"}, url.Values{"first": {"2"}, "after": {"c0"}}},
		{"backward", &ListOptions{Last: 5}, url.Values{"last": {"5"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMockClient(t, mockReply(http.StatusOK, relatedPage))
			page, err := c.Records.Related.List(t.Context(), Tasks, "it requests", "42?7", tc.opts)
			require.NoError(t, err)
			calls := m.requests()
			require.Len(t, calls, 1)
			assert.Equal(t, http.MethodGet, calls[0].Method)
			assert.Equal(t, "/tasks/it%20requests/42%3F7/related-items", calls[0].Path)
			q, err := url.ParseQuery(calls[0].Query)
			require.NoError(t, err)
			assert.Equal(t, tc.wantQuery, q)
			assert.Empty(t, calls[0].Body)

			require.Len(t, page.Items, 2)
			assert.Equal(t, RelatedItem{ID: "TSK-4", Type: "TASK", Alias: "tasks", Cursor: "c1"}, page.Items[0])
			assert.Equal(t, "itmanagement", page.Items[1].Alias)
			assert.JSONEq(t, `true`, string(page.Items[1].Extra["pinned"]), "an unknown member is kept")
			assert.Equal(t, 2, page.Total)
			assert.Equal(t, "c2", page.Paging.EndCursor)
		})
	}
}

func TestRelatedItemsAllFollowsCursors(t *testing.T) {
	t.Parallel()
	pages := map[string]string{
		"":   `{"items":[{"id":"A-1","type":"APP","alias":"a","cursor":"p1"}],"total":3,"paging":{"has_next_page":true,"end_cursor":"p1","start_cursor":"p1"}}`,
		"p1": `{"items":[{"id":"A-2","type":"APP","alias":"a","cursor":"p2"}],"total":3,"paging":{"has_next_page":true,"has_previous_page":true,"end_cursor":"p2","start_cursor":"p2"}}`,
		"p2": `{"items":[{"id":"A-3","type":"APP","alias":"a","cursor":"p3"}],"total":3,"paging":{"has_previous_page":true,"end_cursor":"p3","start_cursor":"p3"}}`,
	}
	c, m := newMockClient(t, func(call mockCall) *http.Response {
		q, _ := url.ParseQuery(call.Query)
		body, ok := pages[q.Get("after")]
		if !ok {
			return mockResponse(http.StatusBadRequest, `{"message":"unknown cursor"}`)
		}
		return mockResponse(http.StatusOK, body)
	})
	var ids []string
	for it, err := range c.Records.Related.All(t.Context(), Apps, "crm", "A-0", nil) {
		require.NoError(t, err)
		ids = append(ids, it.ID)
	}
	assert.Equal(t, []string{"A-1", "A-2", "A-3"}, ids)
	calls := m.requests()
	require.Len(t, calls, 3)
	assert.Empty(t, calls[0].Query, "the first request sends no paging parameters")
	assert.Equal(t, "after=p1", calls[1].Query, "only the cursor the service handed out is sent")
	assert.Equal(t, "after=p2", calls[2].Query)
}

func TestRelatedItemsPagesOnePageOneRequest(t *testing.T) {
	t.Parallel()
	c, m := newMockClient(t, mockReply(http.StatusOK, relatedPage))
	n := 0
	for p, err := range c.Records.Related.Pages(t.Context(), Apps, "crm", "A-0", nil) {
		require.NoError(t, err)
		assert.Len(t, p.Items, 2)
		n++
	}
	assert.Equal(t, 1, n)
	assert.Len(t, m.requests(), 1, "has_next_page false ends the walk")
}

func TestListRelatedItemsMalformed(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"bare array":        `[{"id":"TSK-4","type":"TASK","alias":"tasks"}]`,
		"no paging":         `{"items":[]}`,
		"id not a string":   `{"items":[{"id":4}],"paging":{}}`,
		"not json":          `ok`,
		"items not objects": `{"items":["TSK-4"],"paging":{}}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, _ := newMockClient(t, mockReply(http.StatusOK, body))
			page, err := c.Records.Related.List(t.Context(), Apps, "crm", "A-1", nil)
			require.Error(t, err, "a malformed answer is an error, never an empty page")
			assert.Nil(t, page)
		})
	}
}

func TestAddRelatedItem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		ref      RelatedRef
		status   int
		reply    string
		wantBody string
	}{
		{"id and alias, 201 without body", RelatedRef{ID: "TSK-4", Alias: new("tasks")}, http.StatusCreated, "", `{"id":"TSK-4","alias":"tasks"}`},
		{"alias left out when empty", RelatedRef{ID: "TSK-4"}, http.StatusCreated, "", `{"id":"TSK-4"}`},
		{"a body on success is ignored", RelatedRef{ID: "E-7", Alias: new("parts")}, http.StatusCreated, `{"whatever":1}`, `{"id":"E-7","alias":"parts"}`},
		{"any 2xx", RelatedRef{ID: "E-7", Alias: new("parts")}, http.StatusOK, "", `{"id":"E-7","alias":"parts"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMockClient(t, mockReply(tc.status, tc.reply))
			require.NoError(t, c.Records.Related.Add(t.Context(), Apps, "crm", "A-1", tc.ref))
			calls := m.requests()
			require.Len(t, calls, 1)
			assert.Equal(t, http.MethodPost, calls[0].Method)
			assert.Equal(t, "/apps/crm/A-1/related-items", calls[0].Path)
			assert.Equal(t, "application/json", calls[0].Header.Get("Content-Type"))
			assert.JSONEq(t, tc.wantBody, string(calls[0].Body))
		})
	}
}

func TestAddRelatedItemErrors(t *testing.T) {
	t.Parallel()
	c, _ := newMockClient(t, mockReply(http.StatusUnprocessableEntity, `{"message":"no such record"}`))
	err := c.Records.Related.Add(t.Context(), Apps, "crm", "A-1", RelatedRef{ID: "X-1"})
	assert.ErrorIs(t, err, ErrUnprocessable)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "no such record", ae.Message)
}

func TestAddRelatedItemsPartialFailure(t *testing.T) {
	t.Parallel()
	c, m := newMockClient(t, func(call mockCall) *http.Response {
		var in RelatedRef
		_ = json.Unmarshal(call.Body, &in)
		if in.ID == "E-2" {
			return mockResponse(http.StatusNotFound, `{"message":"E-2 not found"}`)
		}
		return mockResponse(http.StatusCreated, "")
	})
	refs := []RelatedRef{{ID: "E-1", Alias: new("parts")}, {ID: "E-2", Alias: new("parts")}, {ID: "E-3"}}
	err := c.Records.Related.AddMany(t.Context(), Apps, "crm", "A-1", refs)
	var re *RelatedItemsError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, 3, re.Total)
	require.Len(t, re.Failures, 1)
	assert.Equal(t, 1, re.Failures[0].Index)
	assert.Equal(t, refs[1], re.Failures[0].Ref)
	assert.ErrorIs(t, err, ErrNotFound, "the causes are reachable through errors.Is")
	assert.Equal(t, "workflow: 1 of 3 related items not added: refs[1]: POST /v1/apps/crm/A-1/related-items: 404 Not Found: E-2 not found", err.Error(),
		"the package is named once")

	calls := m.requests()
	require.Len(t, calls, 3, "one request per ref; a failure does not stop the others")
	for i, ref := range refs {
		var sent RelatedRef
		require.NoError(t, json.Unmarshal(calls[i].Body, &sent))
		assert.Equal(t, ref, sent, "refs are sent in order")
	}
}

func TestAddRelatedItemsAllAdded(t *testing.T) {
	t.Parallel()
	c, m := newMockClient(t, mockReply(http.StatusCreated, ""))
	require.NoError(t, c.Records.Related.AddMany(t.Context(), Apps, "crm", "A-1", []RelatedRef{{ID: "E-1"}, {ID: "E-2"}}))
	assert.Len(t, m.requests(), 2)
}

func TestAddRelatedItemsContextEnds(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c, m := newMockClient(t, func(mockCall) *http.Response {
		cancel() // the context ends while the first ref is being added
		return mockResponse(http.StatusCreated, "")
	})
	err := c.Records.Related.AddMany(ctx, Apps, "crm", "A-1", []RelatedRef{{ID: "E-1"}, {ID: "E-2"}, {ID: "E-3"}})
	var re *RelatedItemsError
	require.ErrorAs(t, err, &re)
	require.NotEmpty(t, re.Failures)
	last := re.Failures[len(re.Failures)-1]
	assert.Equal(t, 2, last.Index)
	assert.ErrorIs(t, last.Err, context.Canceled)
	assert.Len(t, m.requests(), 1, "refs after the context ended are not sent")
}

func TestRelatedValidation(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	tests := []struct {
		name, field string
		call        func(rs *RecordsService) error
	}{
		{"list: empty id", "id", func(rs *RecordsService) error { _, err := rs.Related.List(ctx, Tasks, "t", "", nil); return err }},
		{"list: filter", "ListOptions.Filter", func(rs *RecordsService) error {
			_, err := rs.Related.List(ctx, Tasks, "t", "1", &ListOptions{Filter: rsql.Raw("a==b")})
			return err
		}},
		{"list: bad page size", "ListOptions.First", func(rs *RecordsService) error {
			_, err := rs.Related.List(ctx, Tasks, "t", "1", &ListOptions{First: 1001})
			return err
		}},
		{"all: bad record type", "record type", func(rs *RecordsService) error {
			for _, err := range rs.Related.All(ctx, "parts", "t", "1", nil) {
				return err
			}
			return nil
		}},
		{"pages: filter", "ListOptions.Filter", func(rs *RecordsService) error {
			for _, err := range rs.Related.Pages(ctx, Tasks, "t", "1", &ListOptions{Filter: rsql.Raw("a==b")}) {
				return err
			}
			return nil
		}},
		{"add: blank id", "ref.ID", func(rs *RecordsService) error {
			return rs.Related.Add(ctx, Tasks, "t", "1", RelatedRef{ID: " ", Alias: new("p")})
		}},
		{"add: blank alias", "ref.Alias", func(rs *RecordsService) error {
			return rs.Related.Add(ctx, Tasks, "t", "1", RelatedRef{ID: "E-1", Alias: new(" ")})
		}},
		{"add several: none", "refs", func(rs *RecordsService) error { return rs.Related.AddMany(ctx, Tasks, "t", "1", nil) }},
		{"add several: second without id", "refs[1].ID", func(rs *RecordsService) error {
			return rs.Related.AddMany(ctx, Tasks, "t", "1", []RelatedRef{{ID: "E-1"}, {Alias: new("p")}})
		}},
		{"remove: empty related id", "relatedID", func(rs *RecordsService) error { return rs.Related.Remove(ctx, Tasks, "t", "1", "") }},
		{"remove: dot-dot related id", "relatedID", func(rs *RecordsService) error { return rs.Related.Remove(ctx, Tasks, "t", "1", "..") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMockClient(t, mockReply(http.StatusOK, relatedPage))
			var ve *ValidationError
			require.ErrorAs(t, tc.call(c.Records), &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.NotEmpty(t, ve.Rule)
			assert.Empty(t, m.requests(), "nothing is sent")
		})
	}
}

func TestRemoveRelatedItem(t *testing.T) {
	t.Parallel()
	c, m := newMockClient(t, mockReply(http.StatusOK, ""))
	require.NoError(t, c.Records.Related.Remove(t.Context(), Apps, "crm", "A-1", "TSK 4?x"))
	calls := m.requests()
	require.Len(t, calls, 1)
	assert.Equal(t, http.MethodDelete, calls[0].Method)
	assert.Equal(t, "/apps/crm/A-1/related-items/TSK%204%3Fx", calls[0].Path)
	assert.Empty(t, calls[0].Body)

	c, _ = newMockClient(t, mockReply(http.StatusNotFound, `{"message":"not related"}`))
	assert.ErrorIs(t, c.Records.Related.Remove(t.Context(), Apps, "crm", "A-1", "TSK-4"), ErrNotFound)
}

func TestRelatedItemJSONRoundTrip(t *testing.T) {
	t.Parallel()
	in := `{"id":"TSK-4","type":"TASK","alias":"tasks","cursor":"c1","pinned":true,"meta":{"by":"u1","at":[1,2]}}`
	decoders := map[string]func([]byte, any) error{
		"encoding/json": json.Unmarshal,
		"json v2":       func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) },
	}
	encoders := map[string]func(any) ([]byte, error){
		"encoding/json": json.Marshal,
		"json v2":       func(v any) ([]byte, error) { return jsonv2.Marshal(v) },
	}
	for dn, dec := range decoders {
		for en, enc := range encoders {
			t.Run(dn+" then "+en, func(t *testing.T) {
				var it RelatedItem
				require.NoError(t, dec([]byte(in), &it))
				assert.Equal(t, "TSK-4", it.ID)
				assert.Equal(t, "TASK", it.Type)
				assert.Len(t, it.Extra, 2)
				out, err := enc(it)
				require.NoError(t, err)
				assert.JSONEq(t, in, string(out))
			})
		}
	}
	// Decoding into a used value starts afresh.
	it := RelatedItem{ID: "old", Extra: map[string]jsontext.Value{"x": jsontext.Value("1")}}
	require.NoError(t, json.Unmarshal([]byte(`{"id":"new"}`), &it))
	assert.Equal(t, RelatedItem{ID: "new"}, it)
}

func TestRelatedItemRecordType(t *testing.T) {
	t.Parallel()
	for typ, want := range map[string]RecordType{"TASK": Tasks, "task": Tasks, "APP": Apps, "Apps": Apps, "ELEMENT": Elements, "TRANSACTION": Transactions, "transactions": Transactions} {
		got, ok := RelatedItem{Type: typ}.RecordType()
		assert.True(t, ok, typ)
		assert.Equal(t, want, got, typ)
	}
	_, ok := RelatedItem{Type: "WORKFLOW"}.RecordType()
	assert.False(t, ok)
	assert.Equal(t, RelatedRef{ID: "TSK-4", Alias: new("tasks")}, RelatedItem{ID: "TSK-4", Type: "TASK", Alias: "tasks", Cursor: "c"}.Ref())
}

func TestRelatedItemsErrorUnwrap(t *testing.T) {
	t.Parallel()
	e := &RelatedItemsError{Total: 2, Failures: []RelatedItemFailure{
		{Index: 0, Ref: RelatedRef{ID: "E-1"}, Err: &APIError{StatusCode: 403}},
		{Index: 1, Ref: RelatedRef{ID: "E-2", Alias: new("parts")}, Err: io.ErrUnexpectedEOF},
	}}
	assert.ErrorIs(t, e, ErrForbidden)
	assert.ErrorIs(t, e, io.ErrUnexpectedEOF)
	assert.False(t, errors.Is(e, ErrNotFound))
	assert.Equal(t, "workflow: 2 of 2 related items not added: refs[0]: 403 Forbidden; refs[1]: unexpected EOF", e.Error(),
		"the refs (request bodies) are left out")
}

// TestRelatedWire: every Records.Related method sends its exact request (see checkWire).
func TestRelatedWire(t *testing.T) {
	checkWire(t, []wireCase{
		{name: "Records.ListRelatedItems", method: "GET", path: wireRec + "/related-items", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Related.List(ctx, Tasks, "it-requests", odd, wireListOpts, o...)
				return err
			}},
		{name: "Records.RelatedItemsAll", method: "GET", path: wireRec + "/related-items", reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.Related.All(ctx, Tasks, "it-requests", odd, nil, o...))
			}},
		{name: "Records.AddRelatedItem", method: "POST", path: wireRec + "/related-items", reply: mockReply(201, ""),
			contentType: "application/json", body: `{"id":"P 1","alias":"parts"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Records.Related.Add(ctx, Tasks, "it-requests", odd, RelatedRef{ID: "P 1", Alias: new("parts")}, o...)
			}},
		{name: "Records.AddRelatedItems", method: "POST", path: wireRec + "/related-items", reply: mockReply(201, ""),
			contentType: "application/json", body: `{"id":"P 2"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Records.Related.AddMany(ctx, Tasks, "it-requests", odd, []RelatedRef{{ID: "P 2"}}, o...)
			}},
		{name: "Records.RemoveRelatedItem", method: "DELETE", path: wireRec + "/related-items/" + oddEsc, reply: mockReply(200, ""),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Records.Related.Remove(ctx, Tasks, "it-requests", odd, odd, o...)
			}},

		// Watchers.
		{name: "Records.RelatedItemsPages", method: "GET", path: wireRec + "/related-items", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.Related.Pages(ctx, Tasks, "it-requests", odd, wireListOpts, o...))
			}},
	})
}

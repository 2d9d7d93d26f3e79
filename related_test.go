package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	return newTestClient(t, srv, opts...), srv
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

// subOne asserts that exactly one request was made and returns it.
func subOne(t *testing.T, srv *subServer) subRequest {
	t.Helper()
	reqs := srv.requests()
	require.Len(t, reqs, 1)
	return reqs[0]
}

func TestRelatedItemsList(t *testing.T) {
	t.Parallel()
	shapes := []struct {
		name, body string
	}{
		{"bare array", `[{"id":"r1","recordType":"elements","alias":"parts","recordId":"123"},{"id":"r2","recordType":"apps","alias":"crm","recordId":"9"}]`},
		{"items object", `{"items":[{"id":"r1","recordType":"elements","alias":"parts","recordId":"123"},{"id":"r2","recordType":"apps","alias":"crm","recordId":"9"}]}`},
		{"paged", `{"items":[{"data":{"id":"r1","recordType":"elements","alias":"parts","recordId":"123"},"cursor":"a"},{"data":{"id":"r2","recordType":"apps","alias":"crm","recordId":"9"},"cursor":"b"}],"total":2,"paging":{}}`},
	}
	for _, tc := range shapes {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newSubClient(t, subReply(http.StatusOK, tc.body))
			got, err := c.Records.RelatedItems(t.Context(), Tasks, "it requests", "42?7")
			require.NoError(t, err)
			req := subOne(t, srv)
			assert.Equal(t, http.MethodGet, req.Method)
			assert.Equal(t, "/tasks/it%20requests/42%3F7/related-items", req.Path)
			assert.Empty(t, req.Body)
			require.Len(t, got, 2)
			assert.Equal(t, RelatedItem{ID: "r1", RecordType: Elements, Alias: "parts", RecordID: "123"}, got[0])
			assert.Equal(t, RelatedRef{RecordType: Apps, Alias: "crm", RecordID: "9"}, got[1].Ref())
		})
	}
}

func TestRelatedItemsListEmpty(t *testing.T) {
	t.Parallel()
	c, _ := newSubClient(t, subReply(http.StatusOK, `[]`))
	got, err := c.Records.RelatedItems(t.Context(), Apps, "crm", "1")
	require.NoError(t, err)
	assert.NotNil(t, got)
	assert.Empty(t, got)
}

func TestAddRelatedItem(t *testing.T) {
	t.Parallel()
	c, srv := newSubClient(t, subReply(http.StatusCreated,
		`{"id":"rel-1","recordType":"elements","alias":"parts","recordId":123,"createdBy":{"id":"u1"}}`))
	ref := RelatedRef{RecordType: Elements, Alias: "parts", RecordID: "123"}
	got, err := c.Records.AddRelatedItem(t.Context(), Apps, "crm", "A-1", ref)
	require.NoError(t, err)

	req := subOne(t, srv)
	assert.Equal(t, http.MethodPost, req.Method)
	assert.Equal(t, "/apps/crm/A-1/related-items", req.Path)
	assert.Equal(t, "application/json", req.Header.Get("Content-Type"))
	assert.JSONEq(t, `{"recordType":"elements","alias":"parts","recordId":"123"}`, string(req.Body))

	assert.Equal(t, "rel-1", got.ID)
	assert.Equal(t, ref, got.Ref(), "a numeric recordId is read as its text")
	assert.JSONEq(t, `{"id":"u1"}`, string(got.Extra["createdBy"]))
}

func TestAddRelatedItemEmptyAnswer(t *testing.T) {
	t.Parallel()
	c, _ := newSubClient(t, subReply(http.StatusNoContent, ""))
	ref := RelatedRef{RecordType: Tasks, Alias: "t", RecordID: "5"}
	got, err := c.Records.AddRelatedItem(t.Context(), Apps, "crm", "A-1", ref)
	require.NoError(t, err)
	assert.Equal(t, RelatedItem{RecordType: Tasks, Alias: "t", RecordID: "5"}, *got)
}

func TestAddRelatedItemsOnePerCall(t *testing.T) {
	t.Parallel()
	var n int
	var mu sync.Mutex
	c, srv := newSubClient(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		mu.Lock()
		n++
		i := n
		mu.Unlock()
		var in map[string]string
		_ = json.Unmarshal(body, &in)
		if i == 2 {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"status":404,"message":"record parts/404 not found"}`)
			return
		}
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]string{
			"id": "rel-" + in["recordId"], "recordType": in["recordType"], "alias": in["alias"], "recordId": in["recordId"],
		})
	})
	refs := []RelatedRef{
		{Elements, "parts", "1"},
		{Elements, "parts", "404"},
		{Elements, "parts", "3"},
	}
	added, err := c.Records.AddRelatedItems(t.Context(), Apps, "crm", "A-1", refs...)

	reqs := srv.requests()
	require.Len(t, reqs, 3, "one request per item, and a failure does not stop the others")
	for i, req := range reqs {
		assert.Equal(t, http.MethodPost, req.Method)
		assert.Equal(t, "/apps/crm/A-1/related-items", req.Path)
		var body map[string]any
		require.NoError(t, json.Unmarshal(req.Body, &body))
		assert.Equal(t, map[string]any{"recordType": "elements", "alias": "parts", "recordId": refs[i].RecordID}, body)
	}

	require.Len(t, added, 2)
	assert.Equal(t, "rel-1", added[0].ID)
	assert.Equal(t, "rel-3", added[1].ID)

	var rie *RelatedItemsError
	require.ErrorAs(t, err, &rie)
	assert.Equal(t, 3, rie.Total)
	require.Len(t, rie.Failures, 1)
	assert.Equal(t, 1, rie.Failures[0].Index)
	assert.Equal(t, refs[1], rie.Failures[0].Ref)
	assert.ErrorIs(t, err, ErrNotFound)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "record parts/404 not found", ae.Message)
	assert.Contains(t, err.Error(), "1 of 3 related items not added: refs[1] elements/parts/404: ")
}

func TestAddRelatedItemsAllAdded(t *testing.T) {
	t.Parallel()
	c, srv := newSubClient(t, subReply(http.StatusCreated, `{"id":"x"}`))
	added, err := c.Records.AddRelatedItems(t.Context(), Apps, "crm", "A-1",
		RelatedRef{Elements, "parts", "1"}, RelatedRef{Tasks, "todo", "2"})
	require.NoError(t, err)
	assert.Len(t, added, 2)
	assert.Len(t, srv.requests(), 2)
}

func TestAddRelatedItemsContextEnds(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c, srv := newSubClient(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		cancel() // the caller gives up while the first item is being added
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"id":"rel-1"}`)
	})
	refs := []RelatedRef{{Elements, "p", "1"}, {Elements, "p", "2"}, {Elements, "p", "3"}}
	added, err := c.Records.AddRelatedItems(ctx, Apps, "crm", "A-1", refs...)
	assert.Len(t, srv.requests(), 1, "nothing is sent once ctx has ended")
	var rie *RelatedItemsError
	require.ErrorAs(t, err, &rie)
	assert.ErrorIs(t, err, context.Canceled)
	var idx []int
	for _, f := range rie.Failures {
		idx = append(idx, f.Index)
	}
	// The first one may or may not have made it back before the
	// cancellation was seen; the last two were never sent.
	assert.Subset(t, []int{0, 1, 2}, idx)
	assert.Contains(t, idx, 1)
	assert.Contains(t, idx, 2)
	assert.Equal(t, 3, len(added)+len(rie.Failures), "each ref is either added or listed as failed")
}

func TestRelatedValidation(t *testing.T) {
	t.Parallel()
	good := RelatedRef{Elements, "parts", "1"}
	cases := []struct {
		name  string
		field string
		call  func(c *Client) error
	}{
		{"list: bad type", "record type", func(c *Client) error {
			_, err := c.Records.RelatedItems(t.Context(), "widgets", "a", "1")
			return err
		}},
		{"list: empty alias", "alias", func(c *Client) error {
			_, err := c.Records.RelatedItems(t.Context(), Apps, "", "1")
			return err
		}},
		{"list: empty id", "id", func(c *Client) error {
			_, err := c.Records.RelatedItems(t.Context(), Apps, "a", "")
			return err
		}},
		{"add: dot-dot id", "id", func(c *Client) error {
			_, err := c.Records.AddRelatedItem(t.Context(), Apps, "a", "..", good)
			return err
		}},
		{"add: ref type", "ref.RecordType", func(c *Client) error {
			_, err := c.Records.AddRelatedItem(t.Context(), Apps, "a", "1", RelatedRef{"", "parts", "1"})
			return err
		}},
		{"add: ref alias", "ref.Alias", func(c *Client) error {
			_, err := c.Records.AddRelatedItem(t.Context(), Apps, "a", "1", RelatedRef{Elements, " ", "1"})
			return err
		}},
		{"add: ref id", "ref.RecordID", func(c *Client) error {
			_, err := c.Records.AddRelatedItem(t.Context(), Apps, "a", "1", RelatedRef{Elements, "parts", ""})
			return err
		}},
		{"add many: none", "refs", func(c *Client) error {
			_, err := c.Records.AddRelatedItems(t.Context(), Apps, "a", "1")
			return err
		}},
		{"add many: second invalid, nothing sent", "refs[1].RecordID", func(c *Client) error {
			_, err := c.Records.AddRelatedItems(t.Context(), Apps, "a", "1", good, RelatedRef{Elements, "parts", ""})
			return err
		}},
		{"remove: empty relation", "relationID", func(c *Client) error {
			return c.Records.RemoveRelatedItem(t.Context(), Apps, "a", "1", "")
		}},
		{"remove: bad type", "record type", func(c *Client) error {
			return c.Records.RemoveRelatedItem(t.Context(), "", "a", "1", "r")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newSubClient(t, subReply(http.StatusOK, `{}`))
			err := tc.call(c)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Empty(t, srv.requests(), "no request is sent")
		})
	}
}

func TestRemoveRelatedItem(t *testing.T) {
	t.Parallel()
	c, srv := newSubClient(t, subReply(http.StatusNoContent, ""))
	require.NoError(t, c.Records.RemoveRelatedItem(t.Context(), Transactions, "ledger", "T-9", "rel?1"))
	req := subOne(t, srv)
	assert.Equal(t, http.MethodDelete, req.Method)
	assert.Equal(t, "/transactions/ledger/T-9/related-items/rel%3F1", req.Path)
	assert.Empty(t, req.Body)
}

func TestRemoveRelatedItemNotFound(t *testing.T) {
	t.Parallel()
	c, _ := newSubClient(t, subReply(http.StatusNotFound, `{"status":404,"message":"no such relation"}`))
	err := c.Records.RemoveRelatedItem(t.Context(), Apps, "crm", "1", "r")
	assert.ErrorIs(t, err, ErrNotFound)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "no such relation", ae.Message)
}

func TestRelatedItemJSONRoundTrip(t *testing.T) {
	t.Parallel()
	in := `{"id":"r1","recordType":"elements","alias":"parts","recordId":42,"note":"keep me","meta":{"a":[1,2]},"label":null}`
	var it RelatedItem
	require.NoError(t, json.Unmarshal([]byte(in), &it))
	assert.Equal(t, "42", it.RecordID)
	assert.JSONEq(t, `"keep me"`, string(it.Extra["note"]))
	out, err := json.Marshal(it)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out), "unknown fields and the numeric id survive decode and encode")

	// Changing a typed field writes the new value.
	it.RecordID = "43"
	out, err = json.Marshal(it)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(out, &m))
	assert.Equal(t, "43", m["recordId"])
	assert.Equal(t, "keep me", m["note"])
}

func TestRelatedItemsErrorUnwrap(t *testing.T) {
	t.Parallel()
	e := &RelatedItemsError{Total: 2, Failures: []RelatedItemFailure{
		{Index: 0, Ref: RelatedRef{Apps, "a", "1"}, Err: context.Canceled},
		{Index: 1, Ref: RelatedRef{Apps, "a", "2"}, Err: &APIError{StatusCode: 403, Method: "POST", URL: "u"}},
	}}
	assert.ErrorIs(t, e, context.Canceled)
	assert.ErrorIs(t, e, ErrForbidden)
	assert.False(t, errors.Is(e, ErrNotFound))
	assert.Equal(t, "workflow: 2 of 2 related items not added: refs[0] apps/a/1: context canceled; "+
		"refs[1] apps/a/2: workflow: POST u: 403 Forbidden", e.Error())
}

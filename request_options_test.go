package workflow

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/rsql"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// pagedHandler serves a three-page record list (cursors c1..c6, two a
// page) and records the header X-Call and query of every request.
type pagedHandler struct {
	mu      sync.Mutex
	headers []string
	queries []string
}

// seen returns the headers and queries recorded so far, and forgets them.
func (h *pagedHandler) seen() ([]string, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hs, qs := h.headers, h.queries
	h.headers, h.queries = nil, nil
	return hs, qs
}

func (h *pagedHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.headers = append(h.headers, r.Header.Get("X-Call"))
	h.queries = append(h.queries, r.URL.RawQuery)
	h.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Request-Id", "rid-"+r.URL.Query().Get("after"))
	if strings.Count(r.URL.Path, "/") == 3 { // one record
		_, _ = io.WriteString(w, `{"id":"1"}`)
		return
	}
	switch r.URL.Query().Get("after") {
	case "":
		_, _ = io.WriteString(w, `{"items":[{"data":{"id":"1"},"cursor":"c1"},{"data":{"id":"2"},"cursor":"c2"}],"total":6,"paging":{"has_next_page":true,"end_cursor":"c2"}}`)
	case "c2":
		_, _ = io.WriteString(w, `{"items":[{"data":{"id":"3"},"cursor":"c3"},{"data":{"id":"4"},"cursor":"c4"}],"total":6,"paging":{"has_next_page":true,"end_cursor":"c4"}}`)
	default:
		_, _ = io.WriteString(w, `{"items":[{"data":{"id":"5"},"cursor":"c5"},{"data":{"id":"6"},"cursor":"c6"}],"total":6,"paging":{"has_next_page":false,"end_cursor":"c6"}}`)
	}
}

func TestRequestOptionsReachTheWire(t *testing.T) {
	h := &pagedHandler{}
	c := newHandlerClient(t, h)
	ctx := t.Context()

	_, err := c.Records.Get(ctx, Tasks, "it", "7", WithHeader("x-call", "get one\t(spaces and tabs are values)"), WithQuery("expand", "all"), WithQuery("expand", "fields"))
	require.NoError(t, err)
	headers, queries := h.seen()
	assert.Equal(t, []string{"get one\t(spaces and tabs are values)"}, headers, "the canonical header reached the server")
	assert.Equal(t, []string{"expand=fields"}, queries, "a later WithQuery of the same key replaces the earlier")

	var ids []string
	opts := &ListOptions{First: 2, Filter: rsql.Field("Status").Eq("Open")}
	for it, err := range c.Records.All(ctx, Tasks, "it", opts, WithHeader("X-Call", "walk"), WithQuery("lang", "de")) {
		require.NoError(t, err)
		ids = append(ids, it.Data["id"])
	}
	assert.Equal(t, []string{"1", "2", "3", "4", "5", "6"}, ids)
	headers, queries = h.seen()
	assert.Equal(t, []string{"walk", "walk", "walk"}, headers, "every page request carries the call's header")
	require.Len(t, queries, 3)
	for i, q := range queries {
		assert.Contains(t, q, "lang=de", "page %d", i)
		assert.Contains(t, q, "first=2", "page %d keeps the paging options", i)
		assert.Contains(t, q, "filter=Status%3D%3DOpen", "page %d keeps the filter", i)
	}
}

func TestRequestOptionsRefusedBeforeSending(t *testing.T) {
	var apiCalls atomic.Int64
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		apiCalls.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	c := ts.client(t)
	bad := []struct {
		name  string
		opt   RequestOption
		field string
	}{
		{"Authorization", WithHeader("Authorization", "Bearer mine"), `WithHeader("Authorization")`},
		{"content-type, any case", WithHeader("content-type", "text/plain"), `WithHeader("content-type")`},
		{"Host", WithHeader("Host", "evil.example"), `WithHeader("Host")`},
		{"Content-Length", WithHeader("Content-Length", "3"), `WithHeader("Content-Length")`},
		{"Accept", WithHeader("Accept", "text/html"), `WithHeader("Accept")`},
		{"User-Agent", WithHeader("User-Agent", "x"), `WithHeader("User-Agent")`},
		{"header name with a space", WithHeader("X Bad", "v"), `WithHeader("X Bad")`},
		{"empty header name", WithHeader("", "v"), `WithHeader("")`},
		{"header value with a line break", WithHeader("X-Ok", "a\r\nX-Injected: 1"), `WithHeader("X-Ok")`},
		{"query owned by ListOptions", WithQuery("Filter", "x==1"), `WithQuery("Filter")`},
		{"query first", WithQuery("first", "5"), `WithQuery("first")`},
		{"empty query key", WithQuery("", "v"), `WithQuery("")`},
		{"zero attempts", WithMaxAttempts(0), "WithMaxAttempts"},
		{"zero attempt timeout", WithAttemptTimeout(0), "WithAttemptTimeout"},
		{"negative attempt timeout", WithAttemptTimeout(-time.Second), "WithAttemptTimeout"},
		{"nil response", WithResponseInto(nil), "WithResponseInto"},
		{"invalid policy", WithRetryPolicy(RetryPolicy{MaxAttempts: -1}), "RetryPolicy.MaxAttempts"},
	}
	calls := map[string]func(ctx context.Context, o RequestOption) error{
		"Get": func(ctx context.Context, o RequestOption) error {
			_, err := c.Records.Get(ctx, Tasks, "it", "1", WithHeader("X-Fine", "1"), o)
			return err
		},
		"Create": func(ctx context.Context, o RequestOption) error {
			_, err := c.Records.Create(ctx, Tasks, "it", Record{"a": "b"}, o)
			return err
		},
		"All": func(ctx context.Context, o RequestOption) error {
			for _, err := range c.Records.All(ctx, Tasks, "it", nil, o) {
				return err
			}
			return nil
		},
		"AllItemsAs": func(ctx context.Context, o RequestOption) error {
			for _, err := range AllItemsAs[struct{ ID string }](ctx, c.Records, Tasks, "it", nil, o) {
				return err
			}
			return nil
		},
		"Do with a query of its own": func(ctx context.Context, o RequestOption) error {
			req, err := c.NewRequest(ctx, http.MethodGet, "tasks/it?expand=x", nil)
			require.NoError(t, err)
			_, err = c.Do(req, nil, o)
			return err
		},
		"Do": func(ctx context.Context, o RequestOption) error {
			req, err := c.NewRequest(ctx, http.MethodGet, "tasks/it", nil)
			require.NoError(t, err)
			_, err = c.Do(req, nil, o)
			return err
		},
	}
	for _, b := range bad {
		for name, call := range calls {
			err := call(t.Context(), b.opt)
			var ve *ValidationError
			if assert.ErrorAs(t, err, &ve, "%s: %s", b.name, name) {
				assert.Equal(t, b.field, ve.Field, "%s: %s", b.name, name)
				assert.NotEmpty(t, ve.Rule)
			}
		}
	}
	assert.Zero(t, apiCalls.Load(), "no API request was sent")
	assert.Zero(t, ts.tokenRequests.Load(), "not even a token request")
}

func TestRequestOptionAttemptBudget(t *testing.T) {
	var n atomic.Int64
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	sleeps := &sleepRecorder{}
	c := ts.client(t, WithRetryPolicy(RetryPolicy{MaxAttempts: 3, Sleep: sleeps.sleep}))
	var retried []int
	tests := []struct {
		name string
		opts []RequestOption
		want int
	}{
		{"client policy", nil, 3},
		{"fewer attempts", []RequestOption{WithMaxAttempts(1)}, 1},
		{"more attempts", []RequestOption{WithMaxAttempts(5)}, 5},
		{"per-call policy", []RequestOption{WithRetryPolicy(RetryPolicy{MaxAttempts: 2, Sleep: sleeps.sleep,
			OnRetry: func(e RetryEvent) { retried = append(retried, e.Attempt) }})}, 2},
		{"attempts override the per-call policy, in any order", []RequestOption{WithMaxAttempts(4),
			WithRetryPolicy(RetryPolicy{MaxAttempts: 2, Sleep: sleeps.sleep})}, 4},
	}
	for _, tt := range tests {
		n.Store(0)
		var resp Response
		_, err := c.Records.Get(t.Context(), Tasks, "it", "1", append(tt.opts, WithResponseInto(&resp))...)
		var ae *APIError
		require.ErrorAs(t, err, &ae, tt.name)
		assert.Equal(t, http.StatusServiceUnavailable, ae.StatusCode, tt.name)
		assert.EqualValues(t, tt.want, n.Load(), tt.name)
		assert.Equal(t, tt.want, resp.Attempts, tt.name)
		assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, tt.name)
	}
	assert.Equal(t, []int{1}, retried, "the per-call policy's OnRetry is used")
}

func TestWithResponseInto(t *testing.T) {
	h := &pagedHandler{}
	c := newHandlerClient(t, h)

	var resp Response
	_, err := c.Records.Get(t.Context(), Tasks, "it", "1", WithResponseInto(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "rid-", resp.RequestID)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	assert.Equal(t, 1, resp.Attempts)

	// An iterator leaves the last page's response.
	resp = Response{}
	for _, err := range c.Records.All(t.Context(), Tasks, "it", &ListOptions{First: 2, Prefetch: true}, WithResponseInto(&resp)) {
		require.NoError(t, err)
	}
	assert.Equal(t, "rid-c4", resp.RequestID, "the last page's response")

	// An error's response is captured too.
	ec := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Correlation-Id", "corr-9")
		http.Error(w, `{"message":"gone"}`, http.StatusNotFound)
	}))
	resp = Response{}
	_, err = ec.Records.Get(t.Context(), Tasks, "it", "1", WithResponseInto(&resp))
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "corr-9", ae.RequestID)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Equal(t, "corr-9", resp.RequestID)
	assert.Contains(t, err.Error(), "(request ID corr-9)")
}

func TestRequestID(t *testing.T) {
	tests := []struct {
		name   string
		header http.Header
		want   string
	}{
		{"none", http.Header{}, ""},
		{"X-Request-Id", http.Header{"X-Request-Id": {"a1"}}, "a1"},
		{"X-Correlation-Id", http.Header{"X-Correlation-Id": {"b2"}}, "b2"},
		{"Request-Id", http.Header{"Request-Id": {"c3"}}, "c3"},
		{"first present wins", http.Header{"Request-Id": {"c3"}, "X-Correlation-Id": {"b2"}, "X-Request-Id": {"a1"}}, "a1"},
		{"empty is skipped", http.Header{"X-Request-Id": {" "}, "Request-Id": {"c3"}}, "c3"},
		{"one line", http.Header{"X-Request-Id": {"a\nb"}}, "a b"},
		{"bounded", http.Header{"X-Request-Id": {strings.Repeat("x", 300)}}, strings.Repeat("x", 128) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, (*redactor)(nil).requestID(tt.header))
			e := apiErrorOf(500, tt.header, nil)
			assert.Equal(t, tt.want, e.RequestID)
			if tt.want != "" {
				assert.True(t, strings.HasSuffix(e.Error(), " (request ID "+tt.want+")"), e.Error())
			} else {
				assert.NotContains(t, e.Error(), "request ID")
			}
		})
	}
}

func TestPerCallAttemptTimeout(t *testing.T) {
	var (
		n       atomic.Int64
		gaveUp  = make(chan struct{})
		release = make(chan struct{})
	)
	defer close(release)
	c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			// The first attempt never answers: the client must give up.
			select {
			case <-r.Context().Done():
				close(gaveUp)
			case <-release:
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"1"}`)
	}))
	rec, err := c.Records.Get(t.Context(), Tasks, "it", "1", WithAttemptTimeout(100*time.Millisecond), WithMaxAttempts(10))
	require.NoError(t, err)
	assert.Equal(t, "1", rec["id"])
	select {
	case <-gaveUp:
	case <-t.Context().Done():
		t.Fatal("the first attempt was not abandoned")
	}
	assert.GreaterOrEqual(t, n.Load(), int64(2))
}

func TestAttemptTimeoutPOSTNotResent(t *testing.T) {
	var n atomic.Int64
	release := make(chan struct{})
	defer close(release)
	c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	_, err := c.Records.Create(t.Context(), Tasks, "it", Record{"a": "b"}, WithRetryPolicy(RetryPolicy{AttemptTimeout: 50 * time.Millisecond}))
	require.Error(t, err)
	var to interface{ Timeout() bool }
	require.ErrorAs(t, err, &to)
	assert.True(t, to.Timeout())
	assert.NotErrorIs(t, err, context.DeadlineExceeded, "the caller's context did not end")
	assert.EqualValues(t, 1, n.Load(), "a POST that may have been handled is not sent again")
}

func TestOperationOf(t *testing.T) {
	h := &hooks{basePath: "/api/v1/"}
	tests := []struct{ method, rel, want string }{
		{"GET", "tasks/it-requests", "/{recordType}/{alias}"},
		{"POST", "apps/a%2Fb", "/{recordType}/{alias}"},
		{"GET", "elements/ns/42", "/{recordType}/{alias}/{id}"},
		{"GET", "tasks/a/1/related-items", "/{recordType}/{alias}/{id}/related-items"},
		{"DELETE", "tasks/a/1/related-items/r9", "/{recordType}/{alias}/{id}/related-items/{itemId}"},
		{"GET", "tasks/a/1/attachments", "/{recordType}/{alias}/{id}/attachments"},
		{"GET", "tasks/a/1/attachments/url-links", "/{recordType}/{alias}/{id}/attachments/{attachmentId}"},
		{"POST", "tasks/a/1/attachments/url-links", "/{recordType}/{alias}/{id}/attachments/url-links"},
		{"DELETE", "tasks/a/1/attachments/x", "/{recordType}/{alias}/{id}/attachments/{attachmentId}"},
		{"GET", "tasks/a/1/attachments/x/content", "/{recordType}/{alias}/{id}/attachments/{attachmentId}/content"},
		{"GET", "tasks/a/1/attachments/x/other", ""},
		{"POST", "groups", "/groups"},
		{"PUT", "groups/g1", "/groups/{groupId}"},
		{"GET", "tasks/a/1/watchers", "/{recordType}/{alias}/{id}/watchers"},
		{"POST", "tasks/a/1/comment", "/{recordType}/{alias}/{id}/comment"},
		{"GET", "users", "/users"},
		{"GET", "users/u1", "/users/{userId}"},
		{"POST", "users/u1/deactivate", "/users/{userId}/deactivate"},
		{"GET", "groups", "/groups"},
		{"GET", "groups/g1", "/groups/{groupId}"},
		{"POST", "groups/g1/users", "/groups/{groupId}/users"},
		{"GET", "apps/a/views", "/apps/{alias}/views"},
		{"PUT", "apps/a/views/v1", "/apps/{alias}/views/{id}"},
		{"GET", "apps/a/agents", "/apps/{alias}/agents"},
		{"GET", "elements/ns", "/elements/{alias}"},
		{"PUT", "elements/ns", "/elements/{alias}"},
		{"GET", "tasks/a/automations", "/{recordType}/{alias}/automations"},
		{"POST", "tasks/a/automations/validate", "/{recordType}/{alias}/automations/validate"},
		{"DELETE", "groups/g1/domains", "/groups/{groupId}/domains"},
		{"PUT", "tables/t1/join-fields/j1/mappings", "/tables/{id}/join-fields/{joinFieldsId}/mappings"},
		{"GET", "aspects/a1/search-tables/s1", "/aspects/{aspectId}/search-tables/{id}"},
		{"POST", "flows/create", "/flows/create"},
		{"GET", "", ""},
		{"GET", "oauth/token", ""},
		{"GET", "widgets/a", ""},
		{"GET", "tasks", ""},
		{"GET", "tasks/a/1/unknown", ""},
		{"GET", "tasks//1", ""},
		{"GET", "users/u1/x/y", ""},
	}
	for _, tt := range tests {
		route, id := h.operationOf(httptest.NewRequest(tt.method, "https://h/api/v1/"+tt.rel, nil))
		assert.Equal(t, tt.want, route, "%s %s", tt.method, tt.rel)
		if o := op.Lookup(op.ID(id)); tt.want != "" && assert.NotNil(t, o, "%s %s", tt.method, tt.rel) {
			assert.Equal(t, tt.want, o.Path)
			assert.Equal(t, tt.method, o.Method)
		}
	}
	req := httptest.NewRequest("GET", "https://h/api/v1/tasks/a/1?filter=x", nil)
	route, id := h.operationOf(req)
	assert.Equal(t, "/{recordType}/{alias}/{id}", route)
	assert.Equal(t, "getRecord", id)
	route, id = (&hooks{basePath: "/v2/"}).operationOf(req)
	assert.Empty(t, route+id, "a path outside the base has no template")

	// The operation a request was built for wins where its path fits:
	// the records of the elements of an alias are not the element.
	req = httptest.NewRequestWithContext(op.NewContext(t.Context(), op.RecordList), "GET", "https://h/api/v1/elements/ns", nil)
	route, id = h.operationOf(req)
	assert.Equal(t, "/{recordType}/{alias}", route)
	assert.Equal(t, "recordList", id)
	// Where it does not fit, the path decides.
	req = httptest.NewRequestWithContext(op.NewContext(t.Context(), op.RecordList), "GET", "https://h/api/v1/elements/ns/1", nil)
	_, id = h.operationOf(req)
	assert.Equal(t, "getRecord", id)
}

// connTracker follows the connections a server accepted and closed.
type connTracker struct {
	mu             sync.Mutex
	opened, closed int
	allClosed      chan struct{} // signalled when closed catches up with opened
}

func (ct *connTracker) hook(_ net.Conn, s http.ConnState) {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	switch s {
	case http.StateNew:
		ct.opened++
	case http.StateClosed, http.StateHijacked:
		ct.closed++
		if ct.closed == ct.opened {
			select {
			case ct.allClosed <- struct{}{}:
			default:
			}
		}
	}
}

func TestCloseIdleConnections(t *testing.T) {
	ct := &connTracker{allClosed: make(chan struct{}, 1)}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/oauth/token" {
			_, _ = io.WriteString(w, `{"access_token":"t","token_type":"bearer","expires_in":3600}`)
			return
		}
		_, _ = io.WriteString(w, `{"id":"1"}`)
	}))
	srv.Config.ConnState = ct.hook
	srv.Start()
	t.Cleanup(srv.Close)
	c, err := NewClient(WithCredentials("id", "secret"), WithEndpoint(srv.URL+"/v1", srv.URL))
	require.NoError(t, err)
	c.CloseIdleConnections() // before any use: nothing to close, no harm

	for range 3 {
		_, err := c.Records.Get(t.Context(), Tasks, "a", "1")
		require.NoError(t, err)
	}
	c.CloseIdleConnections()
	c.CloseIdleConnections() // twice is fine
	select {
	case <-ct.allClosed:
	case <-t.Context().Done():
		t.Fatal("the idle connections were not closed")
	}
	_, err = c.Records.Get(t.Context(), Tasks, "a", "1")
	require.NoError(t, err, "the client stays usable")
	c.CloseIdleConnections()
	<-ct.allClosed
}

// closeCounter is a caller's transport that counts CloseIdleConnections.
type closeCounter struct {
	http.RoundTripper
	n atomic.Int64
}

func (cc *closeCounter) CloseIdleConnections() { cc.n.Add(1) }

func TestCloseIdleConnectionsLeavesCallersTransport(t *testing.T) {
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"1"}`)
	}))
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	cc := &closeCounter{RoundTripper: tr}
	c := ts.client(t, WithHTTPClient(&http.Client{Transport: cc}))
	_, err := c.Records.Get(t.Context(), Tasks, "a", "1")
	require.NoError(t, err)
	c.CloseIdleConnections()
	assert.Zero(t, cc.n.Load(), "a transport given with WithHTTPClient is the caller's")
}

func TestWithQueryRefusesAKeyTheCallSets(t *testing.T) {
	var got string
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.URL.RawQuery }))
	req, err := c.NewRequest(t.Context(), http.MethodGet, "tasks/it?expand=x", nil)
	require.NoError(t, err)
	_, err = c.Do(req, nil, WithQuery("expand", "y"))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, `WithQuery("expand")`, ve.Field)
	assert.Empty(t, got, "nothing is sent")
	req, err = c.NewRequest(t.Context(), http.MethodGet, "tasks/it?expand=x", nil)
	require.NoError(t, err)
	_, err = c.Do(req, nil, WithQuery("lang", "de"))
	require.NoError(t, err)
	assert.Equal(t, "expand=x&lang=de", got)
}

// TestWithAttemptHook: the hook runs before every attempt, retries
// included, and after each with its outcome and Retry-After; an error from
// it ends the call with that error and sends nothing more.
func TestWithAttemptHook(t *testing.T) {
	errStop := errors.New("stop here")
	tests := []struct {
		name     string
		stopAt   int // the attempt whose before fails; 0: none
		sent     int
		statuses []int
		after    []time.Duration // RetryAfter seen by after
	}{
		{"every attempt", 0, 3, []int{429, 503, 200}, []time.Duration{2 * time.Second, 0, 0}},
		{"stop before the first", 1, 0, nil, nil},
		{"stop before a retry", 2, 1, []int{429}, []time.Duration{2 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := newMockTransport(t)
			throttled := httpmock.NewStringResponse(http.StatusTooManyRequests, "")
			throttled.Header.Set("Retry-After", "2")
			mt.RegisterResponder(http.MethodGet, mockBase+"/tasks/it/1", httpmock.ResponderFromMultipleResponses([]*http.Response{
				throttled,
				httpmock.NewStringResponse(http.StatusServiceUnavailable, ""),
				mockResponse(http.StatusOK, `{"id":"1"}`),
			}))
			var (
				befores  int
				statuses []int
				after    []time.Duration
			)
			hook := WithAttemptHook(func(ctx context.Context) (func(AttemptResult), error) {
				befores++
				if befores == tt.stopAt {
					return nil, errStop
				}
				return func(r AttemptResult) {
					statuses = append(statuses, r.StatusCode)
					after = append(after, r.RetryAfter)
					assert.Equal(t, r.StatusCode != http.StatusOK, r.Retry, "retry decided before after runs")
				}, nil
			})
			var resp Response
			_, err := c.Records.Get(t.Context(), Tasks, "it", "1", hook, WithResponseInto(&resp))
			if tt.stopAt > 0 {
				require.ErrorIs(t, err, errStop)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.sent, apiCalls(mt))
			assert.Equal(t, tt.statuses, statuses)
			assert.Equal(t, tt.after, after)
			if tt.sent > 0 {
				assert.Equal(t, tt.sent, resp.Attempts, "attempts sent")
			}
		})
	}
	c, mt := newMockTransport(t)
	var ve *ValidationError
	_, err := c.Records.Get(t.Context(), Tasks, "it", "1", WithAttemptHook(nil))
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "WithAttemptHook", ve.Field)
	assert.Zero(t, apiCalls(mt))
}

func TestRetryPolicyValidation(t *testing.T) {
	for _, p := range []RetryPolicy{{MaxAttempts: -1}, {BaseDelay: -time.Second}, {BaseDelay: time.Minute, MaxDelay: time.Second}, {MaxRetryAfter: -1}} {
		_, err := NewClient(WithCredentials("a", "b"), WithRetryPolicy(p))
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, "%+v", p)
		assert.Contains(t, ve.Field, "RetryPolicy.")
	}
}

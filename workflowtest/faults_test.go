package workflowtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

func TestFaultStatusWithCount(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	in := a.srv.Inject(Fault{Route: "GET /v1/tasks/*", Count: 2, Status: 503, RetryAfter: 1500 * time.Millisecond})
	for range 2 {
		res := a.get("/tasks/it")
		assert.Equal(t, "injected fault", expectError(t, res, 503))
		assert.Equal(t, "2", res.header.Get("Retry-After"), "rounded up to whole seconds")
	}
	assert.Equal(t, 200, a.get("/tasks/it").status)
	assert.Equal(t, 2, in.Fired())
	// Other routes are not affected.
	assert.Equal(t, 200, a.get("/tasks/it/1").status)
	reqs := a.srv.Requests()
	require.Len(t, reqs, 5)
	assert.True(t, reqs[1].Fault)
	assert.Equal(t, 503, reqs[1].Status)
	assert.False(t, reqs[3].Fault)
}

// TestFaultHeader: a fault sends any Retry-After, 0 included (a zero
// RetryAfter sends none), and any other header; Header needs a Status.
func TestFaultHeader(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	for _, ra := range []string{"0", "Wed, 21 Oct 2026 07:28:00 GMT", "soon"} {
		in := a.srv.Inject(Fault{Route: "GET /v1/tasks/*", Count: 1, Status: 429, RetryAfter: time.Second,
			Header: http.Header{"Retry-After": {ra}, "X-Extra": {"1"}}})
		res := a.get("/tasks/it")
		assert.Equal(t, "injected fault", expectError(t, res, 429))
		assert.Equal(t, []string{ra}, res.header.Values("Retry-After"), "Header wins over RetryAfter")
		assert.Equal(t, "1", res.header.Get("X-Extra"))
		in.Remove()
	}
	a.srv.Inject(Fault{Route: "GET /v1/tasks/*", Count: 1, Status: 429, Malformed: true, Header: http.Header{"Retry-After": {"0"}}})
	res := a.get("/tasks/it")
	assert.Equal(t, 429, res.status)
	assert.Equal(t, "0", res.header.Get("Retry-After"))
	assert.PanicsWithValue(t, "workflowtest: Inject: fault: Header needs a Status", func() {
		a.srv.Inject(Fault{Delay: time.Millisecond, Header: http.Header{"Retry-After": {"0"}}})
	})
}

// TestSleepMovesTheClock: Sleep takes no real time and moves the
// server's clock to d after its call; sleeps at once end at the latest
// of their ends, never past it.
func TestSleepMovesTheClock(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	srv := Start(t, WithClock(func() time.Time { return start }))
	require.NoError(t, srv.Sleep(t.Context(), time.Hour))
	assert.Equal(t, start.Add(time.Hour), srv.Now())
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { assert.NoError(t, srv.Sleep(t.Context(), time.Minute)) })
	}
	wg.Wait()
	end := srv.Now()
	assert.False(t, end.Before(start.Add(time.Hour+time.Minute)))
	assert.False(t, end.After(start.Add(time.Hour+8*time.Minute)), "the sleeps do not move it further than one after the other")
	require.NoError(t, srv.Sleep(t.Context(), 0))
	assert.Equal(t, end, srv.Now())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	assert.ErrorIs(t, srv.Sleep(ctx, time.Hour), context.Canceled)
	assert.Equal(t, end, srv.Now(), "a cancelled sleep does not move the clock")
}

func TestFaultAfterAndRemove(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	in := a.srv.Inject(Fault{Route: "/v1/**", After: 2, Status: 500})
	assert.Equal(t, 200, a.get("/tasks/it").status)
	assert.Equal(t, 200, a.get("/tasks/it/1").status)
	expectError(t, a.get("/tasks/it"), 500)
	expectError(t, a.get("/users"), 500)
	in.Remove()
	assert.Equal(t, 200, a.get("/tasks/it").status)
	assert.Equal(t, 2, in.Fired())
	a.srv.Inject(Fault{Route: "POST", Status: 502})
	expectError(t, a.do(http.MethodPost, "/tasks/it", map[string]string{"Title": "x"}), 502)
	assert.Equal(t, 200, a.get("/tasks/it").status)
	a.srv.ClearFaults()
	assert.Equal(t, 201, a.do(http.MethodPost, "/tasks/it", map[string]string{"Title": "x"}).status)
}

func TestFaultOnTheTokenEndpoint(t *testing.T) {
	a := newAPI(t)
	a.srv.Inject(Fault{Route: "POST /oauth/token", Count: 1, Status: 500})
	id, secret := a.srv.Credentials()
	expectError(t, a.tokenRequest(id, secret), 500)
	assert.Equal(t, 200, a.tokenRequest(id, secret).status)
}

func TestFaultProbabilityIsSeeded(t *testing.T) {
	run := func(seed uint64) []int {
		a := newAPI(t, WithSeed(seed))
		seedTasks(a.srv, 1)
		a.srv.Inject(Fault{Route: "GET /v1/tasks/it", Probability: 0.5, Status: 503})
		var out []int
		for range 40 {
			out = append(out, a.get("/tasks/it").status)
		}
		return out
	}
	first := run(7)
	assert.Equal(t, first, run(7), "same seed, same faults")
	assert.NotEqual(t, first, run(8))
	n := 0
	for _, s := range first {
		if s == 503 {
			n++
		}
	}
	assert.True(t, n > 5 && n < 35, "about half fail: %d of 40", n)
}

func TestFaultDelayRespectsTheClient(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	a.srv.Inject(Fault{Route: "GET /v1/tasks/it", Delay: time.Hour})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.srv.BaseURL()+"/tasks/it", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+a.token)
	_, err = a.srv.ts.Client().Do(req) // an hour, unless the delay ends with the request
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)

	// A short delay, then the normal answer.
	a.srv.ClearFaults()
	a.srv.Inject(Fault{Route: "GET /v1/tasks/it", Delay: 30 * time.Millisecond})
	start := time.Now()
	assert.Equal(t, 200, a.get("/tasks/it").status)
	assert.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)
}

func TestFaultDelayEndsOnClose(t *testing.T) {
	srv := NewServer()
	srv.Inject(Fault{Delay: time.Hour})
	done := make(chan error, 1)
	go func() {
		resp, err := srv.ts.Client().Get(srv.BaseURL() + "/users")
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	require.Eventually(t, func() bool { return len(srv.Requests()) == 0 && srv.injectedSeen() > 0 }, time.Minute, time.Millisecond)
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute): // a liveness guard; the delay is an hour
		t.Fatal("Close waited for the delay")
	}
	<-done
}

// injectedSeen counts the requests the faults have seen.
func (s *Server) injectedSeen() int {
	s.faultMu.Lock()
	defer s.faultMu.Unlock()
	n := 0
	for _, f := range s.faults {
		n += f.seen
	}
	return n
}

func TestFaultDrop(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	in := a.srv.Inject(Fault{Route: "POST /v1/tasks/it", Count: 1, Drop: true})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, a.srv.BaseURL()+"/tasks/it", strings.NewReader(`{"Title":"x"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header.Set("Content-Type", "application/json")
	_, err = a.srv.ts.Client().Do(req)
	require.Error(t, err, "the connection was closed without an answer")
	assert.Equal(t, 1, in.Fired())
	assert.Len(t, a.srv.Records(workflow.Tasks, "it"), 1, "a dropped request is not handled")
	reqs := a.srv.Requests()
	assert.Equal(t, 0, reqs[len(reqs)-1].Status)
	assert.Equal(t, 201, a.do(http.MethodPost, "/tasks/it", map[string]string{"Title": "x"}).status)
}

func TestFaultDropAfter(t *testing.T) {
	a := newAPI(t)
	a.srv.Define(workflow.Tasks, "it", "Title")
	in := a.srv.Inject(Fault{Route: "POST /v1/tasks/it", Count: 1, DropAfter: true})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, a.srv.BaseURL()+"/tasks/it", strings.NewReader(`{"Title":"x"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.srv.ts.Client().Do(req)
	if err == nil {
		resp.Body.Close()
	}
	require.Error(t, err, "the connection was closed without an answer")
	assert.NotErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, in.Fired())
	held := a.srv.Records(workflow.Tasks, "it")
	require.Len(t, held, 1, "the request was handled before the connection was dropped")
	assert.Equal(t, workflow.Record{"id": "1", "Title": "x"}, held[0])
	reqs := a.srv.Requests()
	last := reqs[len(reqs)-1]
	assert.Equal(t, http.MethodPost, last.Method)
	assert.True(t, last.Fault)
	assert.Equal(t, 0, last.Status, "no answer was sent")

	// The next request is answered normally and gets the next id.
	res := a.do(http.MethodPost, "/tasks/it", map[string]string{"Title": "y"})
	assert.Equal(t, 201, res.status)
	var created map[string]string
	res.decode(&created)
	assert.Equal(t, "2", created["id"])
	assert.Len(t, a.srv.Records(workflow.Tasks, "it"), 2)
}

// retryCounter is a retry policy that never waits and records the retries.
type retryCounter struct {
	mu     sync.Mutex
	events []workflow.RetryEvent
}

func (rc *retryCounter) option() workflow.Option {
	return workflow.WithRetryPolicy(workflow.RetryPolicy{
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
		OnRetry: func(ev workflow.RetryEvent) {
			rc.mu.Lock()
			rc.events = append(rc.events, ev)
			rc.mu.Unlock()
		},
	})
}

func (rc *retryCounter) retries() []workflow.RetryEvent {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]workflow.RetryEvent(nil), rc.events...)
}

func countRequests(srv *Server, method, path string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

func TestFaultDropAfterCreateThroughTheSDK(t *testing.T) {
	srv := Start(t)
	srv.Define(workflow.Tasks, "it", "Title")
	in := srv.Inject(Fault{Route: "POST /v1/tasks/it", Count: 1, DropAfter: true})
	rc := &retryCounter{}
	c := srv.Client(rc.option())

	_, err := c.Records.Create(t.Context(), workflow.Tasks, "it", workflow.Record{"Title": "Laptop"})
	require.Error(t, err)
	var ae *workflow.APIError
	assert.False(t, errors.As(err, &ae), "no answer arrived: %v", err)
	assert.Equal(t, 1, in.Fired())
	held := srv.Records(workflow.Tasks, "it")
	require.Len(t, held, 1, "the server acted exactly once")
	assert.Equal(t, "Laptop", held[0]["Title"])
	assert.Equal(t, 1, countRequests(srv, http.MethodPost, "/v1/tasks/it"), "a POST is not resent after a dropped connection")
	assert.Empty(t, rc.retries())
}

func TestFaultDropAfterGetIsRetriedByTheSDK(t *testing.T) {
	srv := Start(t)
	seedTasks(srv, 1)
	in := srv.Inject(Fault{Route: "GET /v1/tasks/it/1", Count: 1, DropAfter: true})
	// Without keep-alive every request has a connection of its own, so
	// Go's transport cannot resend the GET by itself: the SDK must.
	tr := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(tr.CloseIdleConnections)
	rc := &retryCounter{}
	c := srv.Client(rc.option(), workflow.WithHTTPClient(&http.Client{Transport: tr}))

	got, err := c.Records.Get(t.Context(), workflow.Tasks, "it", "1")
	require.NoError(t, err)
	assert.Equal(t, "Task 1", got["Title"])
	assert.Equal(t, 1, in.Fired())
	assert.Equal(t, 2, countRequests(srv, http.MethodGet, "/v1/tasks/it/1"), "handled, dropped, then answered")
	retries := rc.retries()
	require.Len(t, retries, 1)
	assert.Equal(t, http.MethodGet, retries[0].Method)
	assert.Error(t, retries[0].Err, "retried after the dropped connection")
	assert.Zero(t, retries[0].StatusCode)
}

func TestFaultMalformed(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	a.srv.Inject(Fault{Route: "GET /v1/tasks/it", Count: 1, Malformed: true})
	res := a.get("/tasks/it")
	assert.Equal(t, 200, res.status)
	assert.False(t, json.Valid(res.body), "%s", res.body)
	assert.True(t, strings.HasPrefix(string(res.body), `{"items":[`), "%s", res.body)

	a.srv.Inject(Fault{Route: "POST /v1/tasks/it", Count: 1, Malformed: true})
	res = a.do(http.MethodPost, "/tasks/it", map[string]string{"Title": "x"})
	assert.Equal(t, 201, res.status)
	assert.False(t, json.Valid(res.body))
	assert.Len(t, a.srv.Records(workflow.Tasks, "it"), 2, "the request was handled")

	a.srv.Inject(Fault{Route: "GET /v1/tasks/it/1", Count: 1, Malformed: true, Status: 500})
	res = a.get("/tasks/it/1")
	assert.Equal(t, 500, res.status)
	assert.False(t, json.Valid(res.body))
}

// TestFaultByOperation: a fault, the latency and the request log name an
// operation by its id, whatever its path: a fault on getRecord does not
// hit the list of an app's agents, whose path has the same shape.
func TestFaultByOperation(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	a.srv.Define(workflow.Apps, "crm")
	in := a.srv.Inject(Fault{Operation: "getRecord", Status: 503})
	assert.Equal(t, 503, a.get("/tasks/it/1").status)
	assert.Equal(t, 200, a.get("/apps/crm/agents").status, "listAgents is another operation")
	assert.Equal(t, 200, a.get("/tasks/it").status)
	assert.Equal(t, 1, in.Fired())
	in.Remove()
	a.srv.Inject(Fault{Route: "GET /v1/tasks/**", Operation: "recordList", Count: 1, Status: 500})
	assert.Equal(t, 200, a.get("/tasks/it/1").status, "Route and Operation must both match")
	assert.Equal(t, 500, a.get("/tasks/it").status)

	var ops []string
	for _, r := range a.srv.Requests() {
		ops = append(ops, r.Operation)
	}
	assert.Equal(t, []string{"requestAccessToken", "getRecord", "listAgents", "recordList", "getRecord", "recordList"}, ops)
	assert.PanicsWithValue(t, `workflowtest: Inject: fault: no operation "getRecords"`, func() {
		a.srv.Inject(Fault{Operation: "getRecords", Status: 500})
	})

	a.srv.SetOperationLatency("getRecord", time.Hour)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.srv.BaseURL()+"/tasks/it/1", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+a.token)
	_, err = a.srv.HTTPClient().Do(req)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "getRecord waits its latency")
	assert.Equal(t, 200, a.get("/tasks/it").status, "other operations do not")
	a.srv.SetOperationLatency("getRecord", -1)
	assert.Equal(t, 200, a.get("/tasks/it/1").status)
}

func TestFaultRoutePatterns(t *testing.T) {
	srv := Start(t)
	tests := []struct {
		route  string
		method string
		path   string
		want   bool
	}{
		{"", "GET", "/v1/tasks/it", true},
		{"GET", "GET", "/v1/x", true},
		{"get", "GET", "/v1/x", true},
		{"GET", "POST", "/v1/x", false},
		{"* /v1/tasks/*", "PUT", "/v1/tasks/it", true},
		{"GET /v1/tasks/*", "GET", "/v1/tasks/it", true},
		{"GET /v1/tasks/*", "GET", "/v1/tasks/it/1", false},
		{"GET /v1/tasks/*", "GET", "/v1/tasks", false},
		{"GET /v1/{recordType}/{alias}", "GET", "/v1/apps/crm", true},
		{"/v1/tasks/**", "GET", "/v1/tasks", true},
		{"/v1/tasks/**", "GET", "/v1/tasks/it/1/watchers", true},
		{"/v1/tasks/**", "GET", "/v1/apps/it", false},
		{"/v1/tasks/a b/*", "GET", "/v1/tasks/a%20b/7", true},
		{"/v1/tasks/a%2Fb", "GET", "/v1/tasks/a%2Fb", false},
		{"/v1/tasks/a/b", "GET", "/v1/tasks/a%2Fb", false},
		{"/oauth/token", "POST", "/oauth/token", true},
	}
	for _, tc := range tests {
		in := srv.Inject(Fault{Route: tc.route, Status: 500})
		req, err := http.NewRequest(tc.method, "http://x"+tc.path, nil)
		require.NoError(t, err)
		f := srv.pickFault(&request{r: req})
		assert.Equal(t, tc.want, f != nil, "%q vs %s %s", tc.route, tc.method, tc.path)
		in.Remove()
	}
	for _, bad := range []Fault{
		{Route: "GET /a/**/b", Status: 500},
		{Route: "GET a", Status: 500},
		{Route: "/a"},
		{Route: "/a", Drop: true, Status: 500},
		{Route: "/a", DropAfter: true, Drop: true},
		{Route: "/a", DropAfter: true, Status: 500},
		{Route: "/a", DropAfter: true, Malformed: true},
		{Route: "/a", Status: 42},
		{Route: "/a", Status: 500, Probability: 2},
		{Route: "/a", Status: 500, Count: -1},
		{Route: "/a", Status: 500, For: -time.Second},
		{Route: "/a", Cut: true, Status: 500},
		{Route: "/a", Cut: true, Malformed: true},
		{Route: "/a", Cut: true, Drop: true},
	} {
		assert.Panics(t, func() { srv.Inject(bad) }, "%+v", bad)
	}
	for _, good := range []Fault{
		{Route: "/a", DropAfter: true},
		{Route: "/a", DropAfter: true, Delay: time.Millisecond, Count: 1},
		{Route: "/a", Cut: true, Delay: time.Millisecond},
	} {
		assert.NotPanics(t, func() { srv.Inject(good).Remove() }, "%+v", good)
	}
}

func TestRateLimit(t *testing.T) {
	a := newAPI(t, WithClock(fixedClock()), WithRateLimit(1, 3))
	seedTasks(a.srv, 1)
	// The token request took one token of the bucket.
	assert.Equal(t, 200, a.get("/tasks/it").status)
	assert.Equal(t, 200, a.get("/tasks/it").status)
	res := a.get("/tasks/it")
	assert.Contains(t, expectError(t, res, http.StatusTooManyRequests), "rate limit")
	assert.Equal(t, "1", res.header.Get("Retry-After"))

	// Another credential has its own bucket.
	b := a.as(a.srv.AddUser("b@example.com", "B", "B"))
	assert.Equal(t, 200, b.get("/tasks/it").status)

	a.srv.Advance(time.Second)
	assert.Equal(t, 200, a.get("/tasks/it").status)
	expectError(t, a.get("/tasks/it"), http.StatusTooManyRequests)
	a.srv.Advance(time.Hour)
	for range 3 {
		assert.Equal(t, 200, a.get("/tasks/it").status, "the bucket holds at most the burst")
	}
	expectError(t, a.get("/tasks/it"), http.StatusTooManyRequests)

	// The token endpoint is limited by the same bucket.
	id, secret := a.srv.Credentials()
	expectError(t, a.tokenRequest(id, secret), http.StatusTooManyRequests)
}

func TestRateLimitRetryAfterForSlowRates(t *testing.T) {
	a := newAPI(t, WithClock(fixedClock()), WithRateLimit(0.1, 1))
	a.srv.Define(workflow.Tasks, "it")
	res := a.get("/tasks/it")
	expectError(t, res, http.StatusTooManyRequests)
	assert.Equal(t, "10", res.header.Get("Retry-After"))
}

func TestEveryResponseCarriesARequestID(t *testing.T) {
	srv := Start(t)
	srv.Inject(Fault{Route: "GET /v1/tasks/a", Count: 1, Status: http.StatusServiceUnavailable})
	hc := srv.ts.Client()
	var got []string
	for _, path := range []string{"/v1/tasks/a", "/v1/tasks/a", "/nowhere"} {
		resp, err := hc.Get(srv.URL() + path)
		require.NoError(t, err)
		_ = resp.Body.Close()
		got = append(got, resp.Header.Get("X-Request-Id"))
	}
	assert.Equal(t, []string{"req-1", "req-2", "req-3"}, got, "the fault, the 401 and the 404 all carry one")
	var logged []string
	for _, r := range srv.Requests() {
		logged = append(logged, r.RequestID)
	}
	assert.Equal(t, got, logged)
}

// Cut sends the answer's headers with the whole body's length, half the
// body, and closes the connection: the request was handled, and the
// client reads an unexpected end.
func TestFaultCut(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 3)
	in := a.srv.Inject(Fault{Route: "GET /v1/tasks/it", Count: 1, Cut: true})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, a.srv.BaseURL()+"/tasks/it", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+a.token)
	resp, err := a.srv.ts.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "1", resp.Header.Get(FaultHeader))
	body, err := io.ReadAll(resp.Body)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, int(resp.ContentLength)/2, len(body), "half the body arrives")
	assert.True(t, strings.HasPrefix(string(body), `{"items":[`), "%s", body)
	assert.Equal(t, 1, in.Fired())
	assert.Equal(t, 200, a.get("/tasks/it").status, "once")
	reqs := a.srv.Requests()
	assert.True(t, reqs[len(reqs)-2].Fault)

	a.srv.Inject(Fault{Route: "POST /v1/tasks/it", Count: 1, Cut: true})
	req, err = http.NewRequestWithContext(t.Context(), http.MethodPost, a.srv.BaseURL()+"/tasks/it", strings.NewReader(`{"Title":"x"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := a.srv.ts.Client().Do(req); err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	}
	assert.Len(t, a.srv.Records(workflow.Tasks, "it"), 4, "the request was handled")
}

// For makes an outage of a given length on the server's clock.
func TestFaultFor(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	in := a.srv.Inject(Fault{Route: "GET /v1/tasks/it", After: 1, For: 5 * time.Second, Status: 503})
	assert.Equal(t, 200, a.get("/tasks/it").status, "before the outage")
	for range 3 {
		assert.Equal(t, 503, a.get("/tasks/it").status)
		a.srv.Advance(2 * time.Second)
	}
	assert.Equal(t, 200, a.get("/tasks/it").status, "6s after it began, the outage is over")
	assert.Equal(t, 3, in.Fired())
}

// Malformed and Cut halve a download as they halve a JSON answer:
// Malformed sends the first half as the whole, Cut sends it under the
// whole's Content-Length and closes the connection.
func TestFaultHalvesADownload(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	data := []byte(strings.Repeat("0123456789", 10))
	res := a.upload("/tasks/it/1/attachments", "f.bin", bytes.NewReader(data), "")
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	get := func() (*http.Response, []byte, error) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, a.srv.BaseURL()+"/tasks/it/1/attachments/a1/content", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+a.token)
		resp, err := a.srv.ts.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp, body, err
	}
	const route = "GET /v1/tasks/it/1/attachments/a1/content"
	a.srv.Inject(Fault{Route: route, Count: 1, Malformed: true})
	resp, body, err := get()
	require.NoError(t, err)
	assert.Equal(t, "1", resp.Header.Get(FaultHeader))
	assert.Equal(t, int64(50), resp.ContentLength)
	assert.Equal(t, data[:50], body)

	a.srv.Inject(Fault{Route: route, Count: 1, Cut: true})
	resp, body, err = get()
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, int64(100), resp.ContentLength)
	assert.Equal(t, data[:50], body)

	_, body, err = get()
	require.NoError(t, err)
	assert.Equal(t, data, body)
}

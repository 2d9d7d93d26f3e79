package workflow

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testToken is the access token the test token endpoint hands out.
const testToken = "test-access-token"

// testServer is an httptest server with the API mounted under /v1 (so a
// request that loses the prefix meets a 404) and a token endpoint at
// /oauth/token.
type testServer struct {
	*httptest.Server
	tokenRequests atomic.Int64
}

// newTestServer starts a server whose /v1/ routes go to api.
func newTestServer(t *testing.T, api http.Handler) *testServer {
	t.Helper()
	ts := &testServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
		ts.tokenRequests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"access_token": testToken, "token_type": "bearer", "expires_in": 86400,
		})
	})
	mux.Handle("/v1/", http.StripPrefix("/v1", api))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request outside /v1: %s %s", r.Method, r.URL)
		http.NotFound(w, r)
	})
	ts.Server = httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// newServerClient returns a client of a test server serving api under
// /v1, for the tests that need a real server: connection behaviour,
// timeouts, bodies streamed or cut in the middle. Every other test uses
// the httpmock harness (mock_test.go) or the fake. Retries do not wait
// (the sleeper records the waits instead).
func newServerClient(t *testing.T, api http.Handler, opts ...Option) *Client {
	t.Helper()
	ts := newTestServer(t, api)
	return ts.client(t, opts...)
}

// client returns a client wired to the test server.
func (ts *testServer) client(t *testing.T, opts ...Option) *Client {
	t.Helper()
	base := []Option{
		WithCredentials("test-id", "test-secret"),
		WithEndpoint(ts.URL+"/v1", ts.URL),
		WithRetryPolicy(RetryPolicy{Sleep: (&sleepRecorder{}).sleep}),
	}
	c, err := NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sleepRecorder is an injectable retry sleeper that records the waits and
// returns at once (or with the context's error).
type sleepRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleepRecorder) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleepRecorder) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// retryPolicy returns the client's retry policy, for tests that adjust it
// after construction.
func (c *Client) retryPolicy() *RetryPolicy { return &c.defaults.policy }

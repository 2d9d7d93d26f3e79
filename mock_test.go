package workflow

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/jarcoal/httpmock"
)

// Addresses of the API and the token endpoint behind the mock transport.
const (
	mockBase = "https://api.example.test/v1"
	mockAuth = "https://auth.example.test"
)

// mockCall is an API request as the mock transport saw it.
type mockCall struct {
	Method string
	Path   string // escaped, without the /v1 prefix
	Query  string // raw query
	Header http.Header
	Body   []byte
}

// mockAPI answers the client's API requests through an httpmock
// transport and records them; the token endpoint always hands out a token.
type mockAPI struct {
	mu    sync.Mutex
	calls []mockCall
	reply func(call mockCall) *http.Response
}

// newMockClient returns a client whose requests all go to an httpmock
// transport: API requests are recorded and answered by reply; retries do
// not wait.
func newMockClient(t *testing.T, reply func(call mockCall) *http.Response, opts ...Option) (*Client, *mockAPI) {
	t.Helper()
	m := &mockAPI{reply: reply}
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, mockAuth+"/oauth/token",
		httpmock.NewStringResponder(http.StatusOK, `{"access_token":"mock-token","token_type":"Bearer","expires_in":86400}`).
			HeaderSet(http.Header{"Content-Type": {"application/json"}}))
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		call := mockCall{Method: req.Method, Query: req.URL.RawQuery, Header: req.Header.Clone()}
		call.Path, _ = strings.CutPrefix(req.URL.EscapedPath(), "/v1")
		if req.Body != nil {
			call.Body, _ = io.ReadAll(req.Body)
		}
		if !strings.HasPrefix(req.URL.String(), mockBase+"/") {
			t.Errorf("request outside the API: %s %s", req.Method, req.URL)
		}
		m.mu.Lock()
		m.calls = append(m.calls, call)
		m.mu.Unlock()
		resp := m.reply(call)
		resp.Request = req
		return resp, nil
	})
	base := []Option{
		WithCredentials("mock-id", "mock-secret"),
		WithEndpoint(mockBase, mockAuth),
		WithHTTPClient(&http.Client{Transport: mt}),
		WithRetryPolicy(RetryPolicy{Sleep: (&sleepRecorder{}).sleep}),
	}
	c, err := NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

// requests returns the API requests made so far.
func (m *mockAPI) requests() []mockCall {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]mockCall(nil), m.calls...)
}

// mockReply answers with status and body; a body starting with '{' or '['
// is sent as JSON, any other as text/plain; an empty body is none.
func mockReply(status int, body string) func(mockCall) *http.Response {
	return func(mockCall) *http.Response { return mockResponse(status, body) }
}

func mockResponse(status int, body string) *http.Response {
	resp := httpmock.NewStringResponse(status, body)
	switch {
	case body == "":
	case body[0] == '{' || body[0] == '[':
		resp.Header.Set("Content-Type", "application/json")
	default:
		resp.Header.Set("Content-Type", "text/plain; charset=utf-8")
	}
	return resp
}

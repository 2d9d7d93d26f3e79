package admin_test

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// mockBase is the API's address behind the mock transport.
const mockBase = "https://api.example.test/v1"

// mockCall is an API request as the mock transport saw it.
type mockCall struct {
	Method string
	Path   string // escaped, without the /v1 prefix
	Query  string // raw query
	Header http.Header
	Body   string
}

// mockAPI answers a workspace's API requests through an httpmock
// transport, for exact-wire unit tests, and records them.
type mockAPI struct {
	mu    sync.Mutex
	calls []mockCall
}

// newMockWorkspace returns a workspace whose API requests are answered
// with status and body (sent as JSON when it starts with '{' or '[') and
// recorded; the token endpoint always hands out a token, and retries do
// not wait.
func newMockWorkspace(t *testing.T, status int, body string) (*admin.Workspace, *mockAPI) {
	t.Helper()
	m := &mockAPI{}
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, "https://auth.example.test/oauth/token",
		httpmock.NewStringResponder(http.StatusOK, `{"access_token":"t","token_type":"Bearer","expires_in":86400}`).
			HeaderSet(http.Header{"Content-Type": {"application/json"}}))
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		call := mockCall{Method: req.Method, Query: req.URL.RawQuery, Header: req.Header.Clone()}
		call.Path, _ = strings.CutPrefix(req.URL.EscapedPath(), "/v1")
		if req.Body != nil {
			b, _ := io.ReadAll(req.Body)
			call.Body = string(b)
		}
		m.mu.Lock()
		m.calls = append(m.calls, call)
		m.mu.Unlock()
		resp := httpmock.NewStringResponse(status, body)
		if strings.HasPrefix(body, "{") || strings.HasPrefix(body, "[") {
			resp.Header.Set("Content-Type", "application/json")
		}
		resp.Request = req
		return resp, nil
	})
	c, err := workflow.NewClient(
		workflow.WithCredentials("id", "secret"),
		workflow.WithEndpoint(mockBase, "https://auth.example.test"),
		workflow.WithHTTPClient(&http.Client{Transport: mt}),
		workflow.WithMaxAttempts(1),
	)
	if err != nil {
		t.Fatal(err)
	}
	return admin.New(c), m
}

// requests returns the API requests made so far.
func (m *mockAPI) requests() []mockCall {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]mockCall(nil), m.calls...)
}

// refusal is a call that must be refused before sending, with a
// *workflow.ValidationError naming field.
type refusal struct {
	name  string
	call  func(*admin.Workspace) error
	field string
}

// assertRefused runs each call on a mock workspace and checks that it is
// refused with its field named and nothing sent.
func assertRefused(t *testing.T, tests []refusal) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, http.StatusOK, `{}`)
			var ve *workflow.ValidationError
			require.ErrorAs(t, tc.call(ws), &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Empty(t, m.requests(), "nothing is sent")
		})
	}
}

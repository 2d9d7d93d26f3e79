package workflow

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Addresses of the API and the token endpoint behind the mock transport.
const (
	mockOrigin   = "https://api.example.test"
	mockBase     = mockOrigin + "/v1"
	mockAuth     = "https://auth.example.test"
	mockTokenURL = mockAuth + "/oauth/token"
)

// newMockTransport returns a client whose requests all go to an httpmock
// transport: the token endpoint hands out testToken, and every API route
// is registered by the test (an unregistered one fails the request).
// Retries do not wait.
func newMockTransport(t *testing.T, opts ...Option) (*Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, mockTokenURL,
		httpmock.NewStringResponder(http.StatusOK, `{"access_token":"`+testToken+`","token_type":"Bearer","expires_in":86400}`).
			HeaderSet(http.Header{"Content-Type": {"application/json"}}))
	base := []Option{
		WithCredentials("mock-id", "mock-secret"),
		WithEndpoint(mockBase, mockAuth),
		WithHTTPClient(&http.Client{Transport: mt}),
		WithRetryPolicy(RetryPolicy{Sleep: (&sleepRecorder{}).sleep}),
	}
	c, err := NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c, mt
}

// apiCalls is the number of requests other than token requests.
func apiCalls(mt *httpmock.MockTransport) int {
	n := 0
	for k, v := range mt.GetCallCountInfo() {
		if k != "POST "+mockTokenURL {
			n += v
		}
	}
	return n
}

// mockCall is an API request as the mock transport saw it.
type mockCall struct {
	Method string
	Path   string // escaped, without the /v1 prefix
	Query  string // raw query
	Header http.Header
	Body   []byte
}

// mockAPI records the API requests of a mock client.
type mockAPI struct {
	mu    sync.Mutex
	calls []mockCall
}

// newMockClient returns a client of newMockTransport whose API requests
// are all recorded and answered by reply.
func newMockClient(t *testing.T, reply func(call mockCall) *http.Response, opts ...Option) (*Client, *mockAPI) {
	t.Helper()
	c, mt := newMockTransport(t, opts...)
	m := &mockAPI{}
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		checkMockURL(t, req)
		call := mockCall{Method: req.Method, Query: req.URL.RawQuery, Header: req.Header.Clone()}
		call.Path, _ = strings.CutPrefix(req.URL.EscapedPath(), "/v1")
		if req.Body != nil {
			call.Body, _ = io.ReadAll(req.Body)
		}
		m.mu.Lock()
		m.calls = append(m.calls, call)
		m.mu.Unlock()
		resp := reply(call)
		resp.Request = req
		return resp, nil
	})
	return c, m
}

// newHandlerClient returns a client of newMockTransport whose API
// requests api answers in process, as a server mounting it under /v1
// would: the handler sees the path without the /v1 prefix.
func newHandlerClient(t *testing.T, api http.Handler, opts ...Option) *Client {
	t.Helper()
	c, mt := newMockTransport(t, opts...)
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		checkMockURL(t, req)
		r := req.Clone(req.Context())
		r.URL.Path, _ = strings.CutPrefix(r.URL.Path, "/v1")
		r.URL.RawPath, _ = strings.CutPrefix(r.URL.RawPath, "/v1")
		r.RequestURI, r.Host = r.URL.RequestURI(), r.URL.Host
		if r.Body == nil {
			r.Body = http.NoBody
		}
		w := httptest.NewRecorder()
		api.ServeHTTP(w, r)
		resp := w.Result()
		resp.Request = req
		return resp, nil
	})
	return c
}

// checkMockURL fails the test for a request outside the API.
func checkMockURL(t *testing.T, req *http.Request) {
	if !strings.HasPrefix(req.URL.String(), mockBase+"/") {
		t.Errorf("request outside the API: %s %s", req.Method, req.URL)
	}
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

// wirePart is a part of a multipart/form-data body.
type wirePart struct {
	name, filename, contentType, content string
}

// wireCase is one service method and the exact request it must send.
type wireCase struct {
	name  string
	call  func(ctx context.Context, c *Client, o ...RequestOption) error
	reply func(mockCall) *http.Response

	method string
	path   string     // escaped, after /v1
	query  url.Values // the method's own parameters (the per-call x=1 is added)
	accept string     // "" means application/json

	contentType string     // "" means no body and no Content-Type
	body        string     // JSON compared as JSON, anything else byte for byte
	parts       []wirePart // for multipart/form-data, in order
}

// odd is an id that needs escaping in a path segment.
const (
	odd    = "a b#c?d"
	oddEsc = "a%20b%23c%3Fd"
)

func emptyPage(mockCall) *http.Response {
	return mockResponse(http.StatusOK, `{"items":[],"total":0,"paging":{"has_next_page":false,"has_previous_page":false}}`)
}

// first runs an iterator for its first request only.
func first[T any](seq func(yield func(T, error) bool)) error {
	var err error
	for _, e := range seq {
		err = e
		break
	}
	return err
}

// The record, objects and list options the wire cases share.
const (
	wireRec   = "/tasks/it-requests/" + oddEsc
	wireUser  = `{"id":"u 1","email":"ann@example.com","firstName":"Ann","lastName":"Lee","status":"ACTIVE"}`
	wireGroup = `{"id":"g 1","name":"Ops","assignable":true,"watchable":false,"mentionable":false,"managed":false,"dynamic":false,"domains":[]}`
	wireAtt   = `{"id":"att 1","name":"notes.txt","mediaType":"text/plain","size":11,"state":"VALID"}`
)

var (
	wireListOpts = &ListOptions{First: 2, After: "c 1"}
	wirePaged    = url.Values{"first": {"2"}, "after": {"c 1"}}
)

// checkWire sends each case's call once through an httpmock transport,
// with a per-call WithHeader and WithQuery, and checks the exact request on
// the wire: method, escaped path, query, headers, body and content type,
// and that the per-call header and query reached it.
func checkWire(t *testing.T, tests []wireCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, m := newMockClient(t, tc.reply)
			require.NoError(t, tc.call(t.Context(), c, WithHeader("X-Trace", "t1"), WithQuery("x", "1")))
			calls := m.requests()
			require.Len(t, calls, 1, "one request")
			got := calls[0]

			assert.Equal(t, tc.method, got.Method)
			assert.Equal(t, tc.path, got.Path, "escaped path")
			wantQuery := url.Values{"x": {"1"}}
			for k, vs := range tc.query {
				wantQuery[k] = vs
			}
			gotQuery, err := url.ParseQuery(got.Query)
			require.NoError(t, err)
			assert.Equal(t, wantQuery, gotQuery, "query %q", got.Query)

			accept := tc.accept
			if accept == "" {
				accept = "application/json"
			}
			assert.Equal(t, accept, got.Header.Get("Accept"))
			assert.Equal(t, "Bearer "+testToken, got.Header.Get("Authorization"))
			assert.Equal(t, defaultUserAgent, got.Header.Get("User-Agent"))
			assert.Equal(t, []string{"t1"}, got.Header.Values("X-Trace"), "per-call header")

			mediaType, params, _ := mime.ParseMediaType(got.Header.Get("Content-Type"))
			switch {
			case tc.contentType == "":
				assert.Empty(t, got.Header.Get("Content-Type"))
				assert.Empty(t, got.Body)
			case tc.parts != nil:
				assert.Equal(t, tc.contentType, mediaType)
				assert.Equal(t, tc.parts, readParts(t, got.Body, params["boundary"]))
			case mediaType == "application/json":
				assert.Equal(t, tc.contentType, got.Header.Get("Content-Type"))
				assert.True(t, json.Valid(got.Body), "%s", got.Body)
				assert.JSONEq(t, tc.body, string(got.Body))
			default:
				assert.Equal(t, tc.contentType, got.Header.Get("Content-Type"))
				assert.Equal(t, tc.body, string(got.Body))
			}
		})
	}
}

// readParts returns the parts of a multipart/form-data body in order.
func readParts(t *testing.T, body []byte, boundary string) []wirePart {
	t.Helper()
	require.NotEmpty(t, boundary, "multipart boundary")
	r := multipart.NewReader(strings.NewReader(string(body)), boundary)
	var out []wirePart
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		b, err := io.ReadAll(p)
		require.NoError(t, err)
		out = append(out, wirePart{name: p.FormName(), filename: p.FileName(), contentType: p.Header.Get("Content-Type"), content: string(b)})
	}
}

// jsonReply answers status with a JSON body (none when body is "").
func jsonReply(status int, body string) httpmock.Responder {
	if body == "" {
		return httpmock.NewBytesResponder(status, nil)
	}
	return httpmock.NewStringResponder(status, body).HeaderSet(http.Header{"Content-Type": {"application/json"}})
}

// seen records what a responder received, then answers with next.
type seen struct {
	method, path, query, body, contentType, auth string
}

func capture(dst *seen, next httpmock.Responder) httpmock.Responder {
	return func(r *http.Request) (*http.Response, error) {
		*dst = seen{method: r.Method, path: r.URL.Path, query: r.URL.RawQuery,
			contentType: r.Header.Get("Content-Type"), auth: r.Header.Get("Authorization")}
		if r.Body != nil {
			b, _ := io.ReadAll(r.Body)
			dst.body = string(b)
		}
		return next(r)
	}
}

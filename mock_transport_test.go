package workflow

import (
	"io"
	"maps"
	"net/http"
	"slices"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/require"
)

// mockOrigin is the scheme and host of mockBase.
const mockOrigin = "https://api.example.test"

// newMockTransport returns a client whose requests go to an httpmock
// transport: the token endpoint answers, and every API route must be
// registered by the test (an unregistered one fails the request).
func newMockTransport(t *testing.T) (*Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, mockOrigin+"/oauth/token",
		httpmock.NewStringResponder(200, `{"access_token":"`+testToken+`","token_type":"Bearer","expires_in":86400}`).
			HeaderSet(http.Header{"Content-Type": {"application/json"}}))
	c, err := NewClient(
		WithCredentials("test-id", "test-secret"),
		WithEndpoint(mockBase, mockOrigin),
		WithHTTPClient(&http.Client{Transport: mt}),
		WithRetryPolicy(RetryPolicy{Sleep: (&sleepRecorder{}).sleep}),
	)
	require.NoError(t, err)
	return c, mt
}

// apiCalls is the number of requests other than token requests.
func apiCalls(mt *httpmock.MockTransport) int {
	n := 0
	for k, v := range mt.GetCallCountInfo() {
		if k != "POST "+mockOrigin+"/oauth/token" {
			n += v
		}
	}
	return n
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

// userIDs returns the ids of us.
func userIDs(us []User) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

package workflow

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAPIErrorTruncatesOnARuneBoundary(t *testing.T) {
	for _, n := range []int{1, 2, 3, 199, 200, 201} {
		s := strings.Repeat("é", 150) + strings.Repeat("€", 100)
		got := truncate(s, n)
		assert.True(t, utf8.ValidString(got), "n=%d", n)
		assert.LessOrEqual(t, len(got), n+len("…"))
	}
	body := []byte(`{"message":"` + strings.Repeat("€", 400) + `"}`)
	e := newAPIError(&http.Response{StatusCode: 400, Header: http.Header{}}, body)
	assert.True(t, utf8.ValidString(e.Error()))
	assert.True(t, strings.HasSuffix(e.Message, "…"))
}

func TestContextErrorsNameTheRequest(t *testing.T) {
	hold := make(chan struct{})
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
	}))
	c := ts.client(t)
	t.Cleanup(func() { close(hold) })
	ctx, cancel := context.WithCancel(t.Context())
	req, err := c.NewRequest(ctx, http.MethodGet, "tasks/it", nil)
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { _, err := c.Do(req, nil); done <- err }()
	cancel()
	err = <-done
	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "GET "+ts.URL+"/v1/tasks/it")
}

func TestAuthErrorNamesTheTokenURLAndTheServersMessage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":"invalid_client","error_description":"unknown client id or wrong secret"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(WithCredentials("id", "s3cr3t-value"), WithEndpoint(srv.URL+"/v1", srv.URL))
	require.NoError(t, err)
	err = get(t.Context(), c)
	var ae *AuthError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, srv.URL+"/oauth/token", ae.URL)
	assert.Equal(t, "unknown client id or wrong secret", ae.Description)
	assert.Contains(t, err.Error(), srv.URL+"/oauth/token")
	assert.Contains(t, err.Error(), "invalid_client: unknown client id or wrong secret")
}

func TestWithEndpointRefusesAnAuthURLWithAPath(t *testing.T) {
	for _, auth := range []string{"https://auth.example/v1", "https://auth.example/oauth/token", "https://auth.example/oauth/token/", "https://auth.example/x/v1/"} {
		_, err := NewClient(WithCredentials("id", "secret"), WithEndpoint("https://api.example/v1", auth))
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, auth)
		assert.Equal(t, "auth URL", ve.Field)
		assert.Contains(t, ve.Rule, "/oauth/token")
	}
	_, err := NewClient(WithCredentials("id", "secret"), WithEndpoint("https://api.example/v1", "https://auth.example/tenant"))
	require.NoError(t, err, "another path prefix is allowed")
}

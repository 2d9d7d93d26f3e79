package workflow

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

const (
	canaryID     = "canary-id"
	canarySecret = "canary-secret-4711/+="
	canaryToken  = "canary-token-0815"
)

// secretForms lists the forms of the secret and the token that must never
// show.
func secretForms() []string {
	out := []string{
		canarySecret, url.QueryEscape(canarySecret), canaryToken,
		base64.StdEncoding.EncodeToString([]byte(canaryID + ":" + canarySecret)),
		base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(canaryID) + ":" + url.QueryEscape(canarySecret))),
		base64.StdEncoding.EncodeToString([]byte(canarySecret)),
		base64.StdEncoding.EncodeToString([]byte(canaryToken)),
	}
	return out
}

func assertNoSecret(t *testing.T, what string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		for _, f := range secretForms() {
			assert.NotContains(t, s, f, what)
		}
	}
}

// printed returns every printed form of v.
func printed(v any) []string {
	js, _ := json.Marshal(v)
	return []string{fmt.Sprint(v), fmt.Sprintf("%+v", v), fmt.Sprintf("%#v", v), fmt.Sprintf("%q", v), string(js)}
}

func TestEchoedSecretsAreRedacted(t *testing.T) {
	// The token fetch logs its failure from its own goroutine, after the
	// caller has its error: a buffer safe for that write, and a wait for it.
	var logs lockedBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var tokenStatus atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		if r.URL.Path == "/oauth/token" {
			if st := tokenStatus.Load(); st != 0 {
				w.WriteHeader(int(st))
				body, _ := json.Marshal(map[string]string{"error": "invalid_client",
					"error_description": "bad credentials " + auth + " secret=" + canarySecret + " " + url.QueryEscape(canarySecret)})
				_, _ = w.Write(body)
				return
			}
			_, _ = w.Write([]byte(`{"access_token":"` + canaryToken + `","expires_in":3600}`))
			return
		}
		switch r.URL.Path {
		case "/v1/echo":
			w.Header().Set("X-Echo-Authorization", auth)
			w.Header().Set("Authorization", auth)
			w.WriteHeader(http.StatusBadRequest)
			_, _ = fmt.Fprintf(w, `{"message":"bad token %s (%s)"}`, canaryToken, base64.StdEncoding.EncodeToString([]byte(canaryToken)))
		case "/v1/redirect":
			http.Redirect(w, r, "https://elsewhere.example/steal?token="+canaryToken, http.StatusFound)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(WithCredentials(canaryID, canarySecret), WithEndpoint(srv.URL+"/v1", srv.URL),
		WithLogger(logger), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	require.NoError(t, err)

	call := func(path string) error {
		req, err := c.NewRequest(t.Context(), http.MethodGet, path, nil)
		require.NoError(t, err)
		_, err = c.Do(req, nil)
		return err
	}

	err = call("echo")
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Contains(t, ae.Message, "bad token "+redacted)
	assertNoSecret(t, "APIError", append(printed(ae), err.Error(), string(ae.Body), fmt.Sprint(ae.Header))...)
	assert.Equal(t, redacted, ae.Header.Get("Authorization"))

	err = call("redirect")
	var re *RedirectError
	require.ErrorAs(t, err, &re)
	assertNoSecret(t, "RedirectError", append(printed(re), err.Error(), re.To)...)

	tokenStatus.Store(http.StatusUnauthorized)
	c.tokens.invalidate(&oauth2.Token{AccessToken: canaryToken})
	err = call("echo")
	var aue *AuthError
	require.ErrorAs(t, err, &aue)
	assert.Contains(t, err.Error(), "bad credentials", "the server's own message is kept")
	assertNoSecret(t, "AuthError", append(printed(aue), err.Error(), aue.Body, aue.Description)...)

	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "token request failed") },
		20*time.Second, time.Millisecond, "the failed token request is logged")
	assert.Contains(t, logs.String(), "bad credentials", "the logged line carries the server's message")
	assertNoSecret(t, "log", logs.String())
}

// lockedBuffer is a bytes.Buffer safe for the concurrent writes of a
// logger and the test's reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestObserversSeeAMissingResource: the check that a success answer holds
// its resource is made on the one request path, so the call's observers
// see the error the caller gets, for records and models alike.
func TestObserversSeeAMissingResource(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(c *Client) error
	}{
		{"Records.Get", func(c *Client) error { _, err := c.Records.Get(t.Context(), Tasks, "it", "1"); return err }},
		{"Users.Get", func(c *Client) error { _, err := c.Users.Get(t.Context(), "u"); return err }},
		{"Attachments.List", func(c *Client) error {
			_, err := c.Attachments.List(t.Context(), Tasks, "it", "1")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []CallResult
			obs := &Observer{CallEnd: func(_ context.Context, _ CallInfo, res CallResult) { got = append(got, res) }}
			c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusOK) // and no body
			}), WithObserver(obs))
			err := tc.call(c)
			require.ErrorIs(t, err, ErrUnexpectedResponse)
			require.Len(t, got, 1)
			assert.ErrorIs(t, got[0].Err, ErrUnexpectedResponse)
			assert.Equal(t, "response_decode", got[0].ErrorType)
		})
	}
}

// TestCallErrorTypeOfAnAnswer: a call that ends on an error answer is
// of that status's type, from 400 on; one that ends on a success it cannot
// read is response_decode.
func TestCallErrorTypeOfAnAnswer(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   string
	}{
		{http.StatusBadRequest, `{"message":"no"}`, "400"},
		{http.StatusOK, `{"id":`, "response_decode"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			var got []CallResult
			obs := &Observer{CallEnd: func(_ context.Context, _ CallInfo, res CallResult) { got = append(got, res) }}
			c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, tc.body)
			}), WithObserver(obs))
			_, err := c.Users.Get(t.Context(), "u")
			require.Error(t, err)
			require.Len(t, got, 1)
			assert.Equal(t, tc.want, got[0].ErrorType)
			assert.Equal(t, tc.status, got[0].StatusCode)
		})
	}
}

// TestResponseIntoHeaderIsRedacted: WithResponseInto's header copy never
// holds the token, even when the service echoes it.
func TestResponseIntoHeaderIsRedacted(t *testing.T) {
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		w.Header().Set("X-Request-Id", "rq-1")
		_, _ = w.Write([]byte(`{"id":"u"}`))
	}))
	var resp Response
	_, err := c.Users.Get(t.Context(), "u", WithResponseInto(&resp))
	require.NoError(t, err)
	assert.Equal(t, "Bearer "+redacted, resp.Header.Get("X-Echo"))
	assert.Equal(t, "rq-1", resp.Header.Get("X-Request-Id"))
	assert.NotContains(t, fmt.Sprintf("%v %+v %#v", resp, resp, resp), testToken)
}

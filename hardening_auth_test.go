package workflow

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"golang.org/x/time/rate"
)

func textResponse(r *http.Request, status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: r}
}

// timeoutTransport answers token requests, and fails the first `fail` API
// attempts with the error of a dialer that timed out (which matches
// context.DeadlineExceeded although no caller's deadline passed).
func timeoutTransport(fail int64, attempts *atomic.Int64) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.URL.Path == "/oauth/token" {
			return textResponse(r, 200, `{"access_token":"tok","token_type":"bearer","expires_in":3600}`), nil
		}
		if attempts.Add(1) <= fail {
			return nil, fmt.Errorf("dial tcp 10.0.0.1:443: i/o timeout: %w", context.DeadlineExceeded)
		}
		return textResponse(r, 200, `{}`), nil
	})
}

func TestRetryDecidesByTheCallersOwnContext(t *testing.T) {
	t.Run("a timeout that is not the caller's is retried", func(t *testing.T) {
		var attempts atomic.Int64
		c, err := NewClient(WithCredentials("id", "secret"), WithEndpoint("https://api.example/v1", "https://auth.example"),
			WithHTTPClient(&http.Client{Transport: timeoutTransport(2, &attempts)}),
			WithRetryPolicy(RetryPolicy{Sleep: (&sleepRecorder{}).sleep}))
		require.NoError(t, err)
		require.NoError(t, get(t.Context(), c))
		assert.EqualValues(t, 3, attempts.Load(), "two timed-out attempts, then the answer")
	})
	t.Run("without a deadline of their own the caller never sees DeadlineExceeded", func(t *testing.T) {
		var attempts atomic.Int64
		c, err := NewClient(WithCredentials("id", "secret"), WithEndpoint("https://api.example/v1", "https://auth.example"),
			WithHTTPClient(&http.Client{Transport: timeoutTransport(100, &attempts)}),
			WithRetryPolicy(RetryPolicy{MaxAttempts: 2, Sleep: (&sleepRecorder{}).sleep}))
		require.NoError(t, err)
		err = get(context.Background(), c)
		require.ErrorIs(t, err, ErrTimeout)
		assert.NotErrorIs(t, err, context.DeadlineExceeded)
		assert.EqualValues(t, 2, attempts.Load())
		var ne interface{ Timeout() bool }
		require.ErrorAs(t, err, &ne)
		assert.True(t, ne.Timeout())
	})
	t.Run("the caller's own expired deadline is not retried", func(t *testing.T) {
		var attempts atomic.Int64
		ctx, cancel := context.WithCancel(t.Context())
		c, err := NewClient(WithCredentials("id", "secret"), WithEndpoint("https://api.example/v1", "https://auth.example"),
			WithHTTPClient(&http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				if r.URL.Path == "/oauth/token" {
					return textResponse(r, 200, `{"access_token":"tok","expires_in":3600}`), nil
				}
				attempts.Add(1)
				cancel()
				return nil, context.Canceled
			})}),
			WithRetryPolicy(RetryPolicy{Sleep: (&sleepRecorder{}).sleep}))
		require.NoError(t, err)
		err = get(ctx, c)
		require.ErrorIs(t, err, context.Canceled)
		assert.EqualValues(t, 1, attempts.Load())
	})
}

func TestHungTokenEndpointIsRetried(t *testing.T) {
	as := newAuthServer(t)
	hang := make(chan struct{})
	var first atomic.Bool
	as.onToken = func(r *http.Request) {
		if first.CompareAndSwap(false, true) {
			select { // the first token request hangs until the client gives up
			case <-r.Context().Done():
			case <-hang:
			}
		}
	}
	t.Cleanup(func() { close(hang) })
	c := as.client(t)
	// Long enough for the second request to be answered in time on a busy
	// machine; a slower one would only be retried again.
	c.tokens.timeout = 500 * time.Millisecond
	require.NoError(t, get(t.Context(), c), "the token request is sent again after its own timeout")
	assert.GreaterOrEqual(t, as.tokenRequests.Load(), int64(2))
	assert.True(t, first.Load(), "the first token request hung")
}

// pipeBody is a request body that cannot be sent twice (no GetBody).
type pipeBody struct{ r io.Reader }

func (p *pipeBody) Read(b []byte) (int, error) { return p.r.Read(b) }

func TestRejectedTokenIsDroppedEvenWhenTheBodyCannotBeReplayed(t *testing.T) {
	as := newAuthServer(t)
	c := as.client(t)
	require.NoError(t, get(t.Context(), c))
	as.expire()

	req, err := c.NewRequest(t.Context(), http.MethodPost, "ping", &pipeBody{strings.NewReader("data")})
	require.NoError(t, err)
	require.Nil(t, req.GetBody)
	_, err = c.Do(req, nil)
	require.ErrorIs(t, err, ErrUnauthorized, "the body cannot be sent again: the 401 is returned")

	require.NoError(t, get(t.Context(), c))
	assert.EqualValues(t, 3, as.apiRequests.Load(), "the next call uses a new token at once, without meeting a 401 first")
	assert.EqualValues(t, 2, as.tokenRequests.Load())
}

func TestShortLivedTokensAreReused(t *testing.T) {
	for _, lifetime := range []int{60, 20} {
		t.Run(fmt.Sprint(lifetime, "s"), func(t *testing.T) {
			as := newAuthServer(t)
			as.expiresIn = lifetime
			c := as.client(t)
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			c.tokens.now = func() time.Time { return now }
			for range 5 {
				require.NoError(t, get(t.Context(), c))
			}
			assert.EqualValues(t, 1, as.tokenRequests.Load(), "a token of %ds serves many calls", lifetime)
			// Replaced once less than a quarter of its lifetime is left.
			now = now.Add(time.Duration(lifetime) * time.Second * 4 / 5)
			require.NoError(t, get(t.Context(), c))
			assert.EqualValues(t, 2, as.tokenRequests.Load())
		})
	}
	assert.Equal(t, time.Minute, refreshMargin(24*time.Hour))
	assert.Equal(t, 15*time.Second, refreshMargin(time.Minute))
}

func TestStalledTokenRequestEndsWithItsLastWaiter(t *testing.T) {
	as := newAuthServer(t)
	as.tokenDelay = make(chan struct{}) // never released: the endpoint stalls
	// The callers give up only once the token request has reached the
	// server: cancelling earlier (which a busy machine makes likely) would
	// end it before the server could see it go away.
	arrived := make(chan struct{}, 1)
	serverSawCancel := make(chan struct{})
	as.onToken = func(r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		go func() { <-r.Context().Done(); close(serverSawCancel) }()
	}
	c := as.client(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 2)
	for range 2 {
		go func() { done <- get(ctx, c) }()
	}
	<-arrived
	// Both callers wait on the one request (a liveness guard, not a timing).
	require.Eventually(t, func() bool {
		c.tokens.mu.Lock()
		defer c.tokens.mu.Unlock()
		return c.tokens.flight != nil && c.tokens.flight.waiters == 2
	}, time.Minute, time.Millisecond)
	cancel()
	for range 2 {
		require.ErrorIs(t, <-done, context.Canceled)
	}
	// The shared request is ended, not left to its 30s timeout: the
	// server sees its client go away, and no goroutine is left. Without
	// the fix this waits for the 30s token timeout, past the guard.
	select {
	case <-serverSawCancel:
	case <-time.After(20 * time.Second):
		t.Fatal("the abandoned token request was not ended")
	}
	assert.EqualValues(t, 1, as.tokenRequests.Load(), "one request for both callers")

	// The abandoned request is not held against the next caller.
	c.tokens.mu.Lock()
	assert.Nil(t, c.tokens.failed)
	c.tokens.mu.Unlock()
}

func TestRateLimiterCoversTheReplayAfter401(t *testing.T) {
	as := newAuthServer(t)
	// Two requests now, then one a day.
	c := as.client(t, WithRateLimit(rate.NewLimiter(rate.Every(24*time.Hour), 2)))
	require.NoError(t, get(t.Context(), c))
	as.expire()

	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	err := get(ctx, c)
	require.ErrorIs(t, err, context.DeadlineExceeded, "the limiter's wait would pass the deadline")
	assert.NoError(t, ctx.Err(), "reported at once, not after waiting")
	assert.EqualValues(t, 2, as.apiRequests.Load(), "the replay with the new token waits for the limiter too")
}

func TestAttemptTimeout(t *testing.T) {
	var attempts atomic.Int64
	release := make(chan struct{})
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := attempts.Add(1)
		switch {
		case r.URL.Path == "/slow-body":
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			// Three attempt timeouts: the client's timer started before
			// this handler ran, so it has surely passed when the body ends.
			time.Sleep(750 * time.Millisecond)
			_, _ = w.Write([]byte(`{"ok":true}`))
		case n == 1:
			select { // the first attempt hangs until the client gives up
			case <-r.Context().Done():
			case <-release:
			}
		default:
			_, _ = w.Write([]byte(`{"ok":true}`))
		}
	})
	var events []RetryEvent
	var mu sync.Mutex
	c := newTestClient(t, api, WithRetryPolicy(RetryPolicy{
		// Wide enough for response headers to arrive in time on a busy
		// machine, so only the hung attempts reach it.
		AttemptTimeout: 250 * time.Millisecond,
		Sleep:          (&sleepRecorder{}).sleep,
		OnRetry:        func(e RetryEvent) { mu.Lock(); events = append(events, e); mu.Unlock() },
	}))
	t.Cleanup(func() { close(release) }) // before the server closes

	t.Run("a hung GET is retried", func(t *testing.T) {
		// A deadline that only a missing attempt timeout would reach.
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		require.NoError(t, get(ctx, c))
		mu.Lock()
		defer mu.Unlock()
		require.NotEmpty(t, events)
		assert.ErrorIs(t, events[0].Err, ErrTimeout)
	})
	t.Run("a hung POST is not retried", func(t *testing.T) {
		attempts.Store(0)
		req, err := c.NewRequest(t.Context(), http.MethodPost, "ping", map[string]int{"a": 1})
		require.NoError(t, err)
		_, err = c.Do(req, nil)
		require.ErrorIs(t, err, ErrTimeout)
		assert.NotErrorIs(t, err, context.DeadlineExceeded)
		assert.EqualValues(t, 1, attempts.Load())
	})
	t.Run("reading the body is not bounded", func(t *testing.T) {
		req, err := c.NewRequest(t.Context(), http.MethodGet, "slow-body", nil)
		require.NoError(t, err)
		var out map[string]bool
		_, err = c.Do(req, &out)
		require.NoError(t, err)
		assert.True(t, out["ok"])
	})
	assert.Equal(t, 30*time.Second, DefaultRetryPolicy().AttemptTimeout)
}

func TestTokenRepliesAsTheServiceSendsThem(t *testing.T) {
	cases := []struct {
		name, body string
		status     int
		lifetime   time.Duration // 0: must fail
	}{
		{"integer", `{"access_token":"tok-1","token_type":"bearer","expires_in":3600}`, 200, time.Hour},
		{"fraction", `{"access_token":"tok-1","token_type":"Bearer","expires_in":3599.5}`, 200, 3599500 * time.Millisecond},
		{"numeric string", `{"access_token":"tok-1","token_type":"BEARER","expires_in":"3600"}`, 200, time.Hour},
		{"exponent", `{"access_token":"tok-1","token_type":"bEaReR","expires_in":3.6e3}`, 200, time.Hour},
		{"201", `{"access_token":"tok-1","token_type":"bearer","expires_in":60}`, 201, time.Minute},
		{"no type, no expiry", `{"access_token":"tok-1"}`, 200, 24 * time.Hour},
		{"null expiry", `{"access_token":"tok-1","expires_in":null}`, 200, 24 * time.Hour},
		{"hex expiry", `{"access_token":"tok-1","expires_in":"0x1p4"}`, 200, 0},
		{"negative expiry", `{"access_token":"tok-1","expires_in":-5}`, 200, 0},
		{"word expiry", `{"access_token":"tok-1","expires_in":"soon"}`, 200, 0},
		{"other token type", `{"access_token":"tok-1","token_type":"mac"}`, 200, 0},
		{"no token", `{"token_type":"bearer","expires_in":60}`, 200, 0},
		{"not JSON", `<html>`, 200, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var apiAuth atomic.Value
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/oauth/token" {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(tc.status)
					_, _ = w.Write([]byte(tc.body))
					return
				}
				apiAuth.Store(r.Header.Get("Authorization"))
				_, _ = w.Write([]byte(`{}`))
			}))
			t.Cleanup(srv.Close)
			c, err := NewClient(WithCredentials("id", "secret"), WithEndpoint(srv.URL+"/v1", srv.URL),
				WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
			require.NoError(t, err)
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			c.tokens.now = func() time.Time { return now }
			err = get(t.Context(), c)
			if tc.lifetime == 0 {
				var ae *AuthError
				require.ErrorAs(t, err, &ae)
				assert.ErrorIs(t, err, ErrUnexpectedResponse)
				assert.False(t, ae.temporary())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "Bearer tok-1", apiAuth.Load())
			c.tokens.mu.Lock()
			defer c.tokens.mu.Unlock()
			assert.Equal(t, now.Add(tc.lifetime), c.tokens.tok.Expiry)
			assert.Equal(t, "Bearer", c.tokens.tok.Type())
		})
	}
}

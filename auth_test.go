package workflow

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	"golang.org/x/time/rate"
)

// authServer is a test server with a token endpoint that hands out
// numbered tokens, and an API route that accepts only the current one.
type authServer struct {
	*httptest.Server
	tokenRequests atomic.Int64
	apiRequests   atomic.Int64
	mu            sync.Mutex
	current       string // token the API accepts
	tokenStatus   int    // when non-zero, the token endpoint fails with it
	tokenBody     string // when set, the token endpoint's body (with tokenStatus, or 200)
	expiresIn     any    // expires_in sent, nil for none
	tokenDelay    chan struct{}
	rejectAll     bool // the API answers 401 to every token
	onToken       func(r *http.Request)
}

func newAuthServer(t *testing.T) *authServer {
	t.Helper()
	as := &authServer{expiresIn: 86400}
	done := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
		n := as.tokenRequests.Add(1)
		// Read the form first: the server notices a client that went
		// away only once the request body has been consumed.
		_ = r.ParseForm()
		if as.onToken != nil {
			as.onToken(r)
		}
		if as.tokenDelay != nil {
			select {
			case <-as.tokenDelay:
			case <-r.Context().Done():
				return
			case <-done:
				return
			}
		}
		as.mu.Lock()
		defer as.mu.Unlock()
		if as.tokenStatus != 0 || as.tokenBody != "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(cmp.Or(as.tokenStatus, http.StatusOK))
			_, _ = w.Write([]byte(cmp.Or(as.tokenBody, `{"error":"temporarily_unavailable"}`)))
			return
		}
		as.current = fmt.Sprintf("token-%d", n)
		body := map[string]any{"access_token": as.current, "token_type": "bearer"}
		if as.expiresIn != nil {
			body["expires_in"] = as.expiresIn
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(body)
	})
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		as.apiRequests.Add(1)
		as.mu.Lock()
		ok := !as.rejectAll && as.current != "" && r.Header.Get("Authorization") == "Bearer "+as.current
		as.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"status":401,"message":"token expired"}`))
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	})
	as.Server = httptest.NewServer(mux)
	t.Cleanup(as.Close)
	t.Cleanup(func() { close(done) }) // runs first: frees held handlers
	return as
}

// expire makes the API reject the token it handed out last.
func (as *authServer) expire() {
	as.mu.Lock()
	as.current = "expired"
	as.mu.Unlock()
}

func (as *authServer) client(t *testing.T, opts ...Option) *Client {
	t.Helper()
	base := []Option{
		WithCredentials("id", "secret"),
		WithEndpoint(as.URL+"/v1", as.URL),
		WithRetryPolicy(RetryPolicy{Sleep: (&sleepRecorder{}).sleep}),
	}
	c, err := NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c
}

func get(ctx context.Context, c *Client) error {
	req, err := c.NewRequest(ctx, http.MethodGet, "ping", nil)
	if err != nil {
		return err
	}
	var out map[string]any
	_, err = c.Do(req, &out)
	return err
}

func TestTokenFetchedOnceUnderConcurrency(t *testing.T) {
	as := newAuthServer(t)
	c := as.client(t)
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for range 200 {
		wg.Go(func() { errs <- get(t.Context(), c) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.EqualValues(t, 1, as.tokenRequests.Load())
	assert.EqualValues(t, 200, as.apiRequests.Load())
}

func TestTokenRequestShape(t *testing.T) {
	as := newAuthServer(t)
	const id, secret = "my id+/=%", "s3cr/et+=%&"
	var got *http.Request
	var form url.Values
	as.onToken = func(r *http.Request) {
		got = r.Clone(context.Background())
		form = r.PostForm
	}
	c := as.client(t, WithCredentials(id, secret))
	require.NoError(t, get(t.Context(), c))
	require.NotNil(t, got)
	assert.Equal(t, "/oauth/token", got.URL.Path, "the token endpoint is outside /v1")
	assert.Equal(t, "application/x-www-form-urlencoded", got.Header.Get("Content-Type"))
	assert.Equal(t, "client_credentials", form.Get("grant_type"))
	assert.Empty(t, form.Get("client_secret"), "the secret goes in the Basic header, not the form")
	// RFC 6749 2.3.1: id and secret are form-urlencoded inside Basic.
	user, pass, ok := got.BasicAuth()
	require.True(t, ok)
	u, _ := url.QueryUnescape(user)
	p, _ := url.QueryUnescape(pass)
	assert.Equal(t, id, u)
	assert.Equal(t, secret, p)
}

func TestTokenWithoutExpiresInLasts24Hours(t *testing.T) {
	as := newAuthServer(t)
	as.expiresIn = nil
	c := as.client(t)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c.tokens.now = func() time.Time { return now }

	require.NoError(t, get(t.Context(), c))
	c.tokens.mu.Lock()
	exp := c.tokens.tok.Expiry
	c.tokens.mu.Unlock()
	assert.Equal(t, now.Add(24*time.Hour), exp)

	// Still cached just before it expires, replaced at expiry.
	now = now.Add(23 * time.Hour)
	require.NoError(t, get(t.Context(), c))
	assert.EqualValues(t, 1, as.tokenRequests.Load())
	now = now.Add(time.Hour)
	require.NoError(t, get(t.Context(), c))
	assert.EqualValues(t, 2, as.tokenRequests.Load())
}

func TestUnauthorizedRefreshesOnceAndSucceeds(t *testing.T) {
	as := newAuthServer(t)
	c := as.client(t)
	require.NoError(t, get(t.Context(), c))
	as.expire()
	require.NoError(t, get(t.Context(), c))
	assert.EqualValues(t, 2, as.tokenRequests.Load(), "one new token after the 401")
	assert.EqualValues(t, 3, as.apiRequests.Load(), "first call, rejected attempt, retried attempt")
}

func TestUnauthorizedTwiceIsReturned(t *testing.T) {
	as := newAuthServer(t)
	as.rejectAll = true
	c := as.client(t)
	err := get(t.Context(), c)
	require.ErrorIs(t, err, ErrUnauthorized)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "token expired", ae.Message)
	assert.EqualValues(t, 2, as.apiRequests.Load(), "exactly one retry with a new token, no loop")
	assert.EqualValues(t, 2, as.tokenRequests.Load())
}

func TestConcurrent401sCauseOneRefresh(t *testing.T) {
	as := newAuthServer(t)
	c := as.client(t)
	require.NoError(t, get(t.Context(), c))
	as.expire()
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Go(func() { errs <- get(t.Context(), c) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.EqualValues(t, 2, as.tokenRequests.Load(), "50 concurrent 401s, one new token")
}

func TestFailingTokenEndpoint(t *testing.T) {
	as := newAuthServer(t)
	as.tokenStatus = http.StatusServiceUnavailable
	// Hold the first token request so that all callers join it.
	as.tokenDelay = make(chan struct{})
	c := as.client(t, WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() { errs <- get(t.Context(), c) })
	}
	// Let the first wave gather, then release it.
	require.Eventually(t, func() bool { return as.tokenRequests.Load() >= 1 }, time.Minute, time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	close(as.tokenDelay)
	wg.Wait()
	close(errs)
	for err := range errs {
		var ae *AuthError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, http.StatusServiceUnavailable, ae.StatusCode)
		assert.Equal(t, "temporarily_unavailable", ae.ErrorCode)
	}
	assert.LessOrEqual(t, as.tokenRequests.Load(), int64(3), "callers share the token request in flight")
	assert.Zero(t, as.apiRequests.Load())
}

func TestBadCredentialsAreUnauthorized(t *testing.T) {
	as := newAuthServer(t)
	as.tokenStatus = http.StatusUnauthorized
	c := as.client(t)
	err := get(t.Context(), c)
	var ae *AuthError
	require.ErrorAs(t, err, &ae)
	assert.ErrorIs(t, err, ErrUnauthorized)
	assert.EqualValues(t, 1, as.tokenRequests.Load(), "refused credentials are not retried")
}

func TestTokenRequestHasItsOwnTimeout(t *testing.T) {
	as := newAuthServer(t)
	as.tokenDelay = make(chan struct{}) // never released: the endpoint hangs
	c := as.client(t, WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	c.tokens.timeout = 50 * time.Millisecond
	err := get(context.Background(), c) // no deadline of its own
	var ae *AuthError
	require.ErrorAs(t, err, &ae)
	assert.ErrorIs(t, err, ErrTimeout)
	assert.NotErrorIs(t, err, context.DeadlineExceeded, "the caller had no deadline: the timeout is the SDK's own")
	assert.True(t, ae.temporary(), "a hung token endpoint is worth another try")
}

func TestTokenFetchIsNotCancelledByOneCaller(t *testing.T) {
	as := newAuthServer(t)
	as.tokenDelay = make(chan struct{})
	c := as.client(t)

	ctx, cancel := context.WithCancel(t.Context())
	first := make(chan error, 1)
	go func() { first <- get(ctx, c) }()
	require.Eventually(t, func() bool { return as.tokenRequests.Load() == 1 }, time.Minute, time.Millisecond)
	second := make(chan error, 1)
	go func() { second <- get(t.Context(), c) }()
	// Both callers wait for the one request before the first gives up.
	require.Eventually(t, func() bool {
		c.tokens.mu.Lock()
		defer c.tokens.mu.Unlock()
		return c.tokens.flight != nil && c.tokens.flight.waiters == 2
	}, 5*time.Second, time.Millisecond)

	cancel()
	select {
	case err := <-first:
		require.ErrorIs(t, err, context.Canceled)
	case <-time.After(time.Minute): // a liveness guard, wide for a busy machine
		t.Fatal("cancelled caller did not return")
	}
	close(as.tokenDelay)
	require.NoError(t, <-second, "the other caller still gets the token")
	assert.EqualValues(t, 1, as.tokenRequests.Load())
}

func TestWithTokenSource(t *testing.T) {
	var seen atomic.Value
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Header.Get("Authorization"))
		_, _ = w.Write([]byte(`{}`))
	}), WithTokenSource(staticTokenSource("from-source")))
	require.NoError(t, get(t.Context(), c))
	assert.Equal(t, "Bearer from-source", seen.Load())
}

func TestAuthErrorHidesTheSecret(t *testing.T) {
	as := newAuthServer(t)
	as.tokenStatus = http.StatusBadRequest
	const secret = "canary-secret-4711"
	c := as.client(t, WithCredentials("canary-id", secret))
	err := get(t.Context(), c)
	require.Error(t, err)
	basic := base64.StdEncoding.EncodeToString([]byte("canary-id:" + secret))
	for _, s := range []string{err.Error(), fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
		assert.NotContains(t, s, secret)
		assert.NotContains(t, s, basic)
	}
	// Nothing in the chain is x/oauth2's RetrieveError, whose request
	// carries the Basic header.
	for e := err; e != nil; e = errors.Unwrap(e) {
		assert.NotContains(t, fmt.Sprintf("%T", e), "RetrieveError")
	}
	assert.False(t, strings.Contains(fmt.Sprintf("%#v", c), secret))
}

func staticTokenSource(tok string) oauth2.TokenSource {
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok})
}

// TestTokenErrorInAnyAnswer: the OAuth error members are read from a 2xx
// or 4xx token answer, invalid_client and unauthorized_client match
// ErrUnauthorized there, and a 5xx stays the endpoint's failure.
func TestTokenErrorInAnyAnswer(t *testing.T) {
	tests := []struct {
		status       int
		code         string
		unauthorized bool
	}{
		{http.StatusOK, "invalid_client", true},
		{http.StatusOK, "unauthorized_client", true},
		{http.StatusOK, "invalid_scope", false},
		{http.StatusForbidden, "invalid_client", true},
		{http.StatusForbidden, "access_denied", false},
		{http.StatusBadRequest, "invalid_request", true},
		{http.StatusServiceUnavailable, "invalid_client", false},
		{http.StatusInternalServerError, "invalid_client", false}, // the first 5xx
		{499, "unauthorized_client", true},                        // the last 4xx
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.status, " ", tc.code), func(t *testing.T) {
			as := newAuthServer(t)
			as.tokenStatus = tc.status
			as.tokenBody = `{"error":"` + tc.code + `","error_description":"the gateway says no"}`
			err := get(t.Context(), as.client(t, WithRetryPolicy(RetryPolicy{MaxAttempts: 1})))
			var ae *AuthError
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, tc.status, ae.StatusCode)
			assert.Equal(t, tc.code, ae.ErrorCode)
			assert.Equal(t, "the gateway says no", ae.Description)
			assert.Equal(t, tc.unauthorized, errors.Is(err, ErrUnauthorized))
			assert.Contains(t, err.Error(), tc.code+": the gateway says no")
		})
	}
}

// TestTokenRequestTimeoutsAreTheSDKs: a token request ended by a time
// limit that is not the caller's (its own bound, a transport's
// response-header timeout) matches ErrTimeout, never
// context.DeadlineExceeded, as API requests do.
func TestTokenRequestTimeoutsAreTheSDKs(t *testing.T) {
	as := newAuthServer(t)
	hang := make(chan struct{})
	as.onToken = func(r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hang:
		}
	}
	t.Cleanup(func() { close(hang) })
	slowHeaders := &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: 50 * time.Millisecond}}
	own := as.client(t, WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	own.tokens.timeout = 50 * time.Millisecond
	for name, c := range map[string]*Client{
		"response-header timeout": as.client(t, WithHTTPClient(slowHeaders), WithRetryPolicy(RetryPolicy{MaxAttempts: 1})),
		"token request bound":     own,
	} {
		err := get(context.Background(), c)
		var ae *AuthError
		require.ErrorAs(t, err, &ae, name)
		assert.ErrorIs(t, err, ErrTimeout, name)
		assert.NotErrorIs(t, err, context.DeadlineExceeded, name)
	}
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
	defer checkLeaks(t)()

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

func TestTokenRepliesAsTheServiceSendsThem(t *testing.T) {
	cases := []struct {
		name, body string
		status     int
		lifetime   time.Duration // 0: must fail
		ctype      string        // "": application/json
		extra      string        // a member kept as the token's Extra, and its value
	}{
		{"integer", `{"access_token":"tok-1","token_type":"bearer","expires_in":3600}`, 200, time.Hour, "", ""},
		{"fraction", `{"access_token":"tok-1","token_type":"Bearer","expires_in":3599.5}`, 200, 3599500 * time.Millisecond, "", ""},
		{"numeric string", `{"access_token":"tok-1","token_type":"BEARER","expires_in":"3600"}`, 200, time.Hour, "", ""},
		{"exponent", `{"access_token":"tok-1","token_type":"bEaReR","expires_in":3.6e3}`, 200, time.Hour, "", ""},
		{"201", `{"access_token":"tok-1","token_type":"bearer","expires_in":60}`, 201, time.Minute, "", ""},
		{"no type, no expiry", `{"access_token":"tok-1"}`, 200, 24 * time.Hour, "", ""},
		{"null expiry", `{"access_token":"tok-1","expires_in":null}`, 200, 24 * time.Hour, "", ""},
		{"hex expiry", `{"access_token":"tok-1","expires_in":"0x1p4"}`, 200, 0, "", ""},
		{"negative expiry", `{"access_token":"tok-1","expires_in":-5}`, 200, 0, "", ""},
		{"word expiry", `{"access_token":"tok-1","expires_in":"soon"}`, 200, 0, "", ""},
		{"other token type", `{"access_token":"tok-1","token_type":"mac"}`, 200, 0, "", ""},
		{"no token", `{"token_type":"bearer","expires_in":60}`, 200, 0, "", ""},
		{"not JSON", `<html>`, 200, 0, "", ""},
		{"other members kept", `{"access_token":"tok-1","scope":"records","expires_in":60}`, 200, time.Minute, "", "scope=records"},
		{"form", "access_token=tok-1&token_type=bearer&expires_in=120&scope=records", 200, 2 * time.Minute, "application/x-www-form-urlencoded", "scope=records"},
		{"form as plain text", "access_token=tok-1&expires_in=60", 200, time.Minute, "text/plain; charset=utf-8", "expires_in=60"},
		{"JSON as plain text", `{"access_token":"tok-1","expires_in":60}`, 200, time.Minute, "text/plain", ""},
		{"form without a token", "token_type=bearer&expires_in=60", 200, 0, "application/x-www-form-urlencoded", ""},
		{"bad form", "access_token=tok-1&expires_in=%zz", 200, 0, "application/x-www-form-urlencoded", ""},
		{"form with a bad expiry", "access_token=tok-1&expires_in=soon", 200, 0, "application/x-www-form-urlencoded", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var apiAuth atomic.Value
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/oauth/token" {
					w.Header().Set("Content-Type", cmp.Or(tc.ctype, "application/json"))
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
			if k, v, ok := strings.Cut(tc.extra, "="); ok {
				assert.Equal(t, v, c.tokens.tok.Extra(k))
			}
		})
	}
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

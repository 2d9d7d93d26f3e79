package workflow

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// TestEveryEntryPointRefusesANilContext calls every exported method of
// every service that takes a context, with a nil one and otherwise valid
// arguments: each returns (or, for iterators, yields) a *ValidationError
// for "ctx", never panics, and sends nothing.
func TestEveryEntryPointRefusesANilContext(t *testing.T) {
	c, m := newMockClient(t, mockReply(200, "{}"))
	services := map[string]any{
		"Records": c.Records, "Records.Comments": c.Records.Comments, "Records.Watchers": c.Records.Watchers,
		"Records.Related": c.Records.Related, "Attachments": c.Attachments, "Users": c.Users,
		"Groups": c.Groups, "Groups.Members": c.Groups.Members,
	}
	ctxType := reflect.TypeFor[context.Context]()
	arg := func(typ reflect.Type) reflect.Value {
		switch v := reflect.New(typ).Elem(); typ {
		case reflect.TypeFor[RecordType]():
			return reflect.ValueOf(Tasks)
		case reflect.TypeFor[string]():
			return reflect.ValueOf("x")
		case reflect.TypeFor[[]string]():
			return reflect.ValueOf([]string{"ann@example.com"})
		case reflect.TypeFor[Record]():
			return reflect.ValueOf(Record{"a": "b"})
		case reflect.TypeFor[io.Reader]():
			v.Set(reflect.ValueOf(strings.NewReader("x")))
			return v
		case reflect.TypeFor[NewUser]():
			return reflect.ValueOf(NewUser{Email: "ann@example.com", FirstName: "Ann", LastName: "Lee"})
		case reflect.TypeFor[GroupRequest]():
			return reflect.ValueOf(GroupRequest{Name: new("g")})
		case reflect.TypeFor[RelatedRef]():
			return reflect.ValueOf(RelatedRef{ID: "1"})
		case reflect.TypeFor[[]RelatedRef]():
			return reflect.ValueOf([]RelatedRef{{ID: "1"}})
		case reflect.TypeFor[Link]():
			return reflect.ValueOf(Link{URL: "https://example.com"})
		case reflect.TypeFor[*Attachment]():
			return reflect.ValueOf(&Attachment{ID: "a"})
		default:
			return v // nil options
		}
	}
	calls := 0
	for name, svc := range services {
		sv := reflect.ValueOf(svc)
		for i := range sv.NumMethod() {
			meth, mt := sv.Method(i), sv.Type().Method(i)
			if meth.Type().NumIn() == 0 || meth.Type().In(0) != ctxType {
				continue
			}
			t.Run(name+"."+mt.Name, func(t *testing.T) {
				in := []reflect.Value{reflect.Zero(ctxType)}
				for j := 1; j < meth.Type().NumIn(); j++ {
					if meth.Type().IsVariadic() && j == meth.Type().NumIn()-1 {
						break
					}
					in = append(in, arg(meth.Type().In(j)))
				}
				out := meth.Call(in)
				err := firstError(t, out)
				var ve *ValidationError
				require.ErrorAs(t, err, &ve)
				assert.Equal(t, "ctx", ve.Field)
			})
			calls++
		}
	}
	assert.GreaterOrEqual(t, calls, 30, "every entry point is covered")
	assert.Empty(t, m.requests(), "nothing is sent")
}

// firstError returns the error a call returned, or the first one its
// iterator yields.
func firstError(t *testing.T, out []reflect.Value) error {
	t.Helper()
	last := out[len(out)-1]
	if last.Kind() != reflect.Func {
		err, _ := last.Interface().(error)
		return err
	}
	var err error
	last.Call([]reflect.Value{reflect.MakeFunc(last.Type().In(0), func(args []reflect.Value) []reflect.Value {
		err, _ = args[1].Interface().(error)
		return []reflect.Value{reflect.ValueOf(false)}
	})})
	return err
}

// statusSequence answers with the given statuses in turn, then 200.
func statusSequence(statuses ...int) (http.Handler, *atomic.Int64) {
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		_, _ = io.Copy(io.Discard, r.Body)
		if i < len(statuses) {
			if statuses[i] == http.StatusTooManyRequests || statuses[i] == http.StatusServiceUnavailable {
				w.Header().Set("Retry-After", "2")
			}
			w.WriteHeader(statuses[i])
			_, _ = w.Write([]byte(`{"message":"failed"}`))
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	}), &n
}

func send(ctx context.Context, c *Client, method string, body any) error {
	req, err := c.NewRequest(ctx, method, "things", body)
	if err != nil {
		return err
	}
	_, err = c.Do(req, nil)
	return err
}

func TestRetryRules(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		statuses []int
		attempts int64 // requests the server sees
		wantErr  error
	}{
		{"GET 503 then ok", http.MethodGet, []int{503}, 2, nil},
		{"GET 500 retried", http.MethodGet, []int{500, 500}, 3, nil},
		{"PUT 502 retried", http.MethodPut, []int{502}, 2, nil},
		{"DELETE 504 retried", http.MethodDelete, []int{504}, 2, nil},
		{"GET 503 up to the limit", http.MethodGet, []int{503, 503, 503, 503, 503}, 4, nil},
		{"POST 500 not retried", http.MethodPost, []int{500}, 1, nil},
		{"POST 503 not retried", http.MethodPost, []int{503}, 1, nil},
		{"POST 429 retried", http.MethodPost, []int{429}, 2, nil},
		{"GET 404 not retried", http.MethodGet, []int{404}, 1, ErrNotFound},
		{"GET 403 not retried", http.MethodGet, []int{403}, 1, ErrForbidden},
		{"GET 400 not retried", http.MethodGet, []int{400}, 1, nil},
		{"GET 429 exhausted", http.MethodGet, []int{429, 429, 429, 429}, 4, ErrRateLimited},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, n := statusSequence(tt.statuses...)
			c := newHandlerClient(t, h)
			var body any
			if tt.method != http.MethodGet {
				body = map[string]string{"a": "b"}
			}
			err := send(t.Context(), c, tt.method, body)
			assert.Equal(t, tt.attempts, n.Load(), "attempts")
			wantFail := int(tt.attempts) <= len(tt.statuses)
			if !wantFail {
				require.NoError(t, err)
				return
			}
			var ae *APIError
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, tt.statuses[tt.attempts-1], ae.StatusCode)
			assert.Equal(t, tt.method, ae.Method)
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
			}
		})
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	h, n := statusSequence(429)
	rec := &sleepRecorder{}
	c := newHandlerClient(t, h, WithRetryPolicy(RetryPolicy{Sleep: rec.sleep}))
	require.NoError(t, send(t.Context(), c, http.MethodGet, nil))
	assert.EqualValues(t, 2, n.Load())
	assert.Equal(t, []time.Duration{2 * time.Second}, rec.recorded())
}

func TestRetryAfterValues(t *testing.T) {
	now := time.Now()
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{now.Add(90 * time.Second).UTC().Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Minute).UTC().Format(http.TimeFormat), 0, false}, // past: absent
		{"soon", 0, false},
		{"-3", 0, false},
		{"1.5", 0, false},
		{"", 0, false},
		{" 7 ", 7 * time.Second, true},
		{"0", 0, true}, // now
		{"86400000", maxRetryAfter, true},
		{"99999999999999999999999", maxRetryAfter, true}, // overflows int64: still the largest wait
	}
	for _, tc := range tests {
		d, ok := retryAfter(http.Header{"Retry-After": {tc.in}}, now)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.InDelta(t, tc.want, d, float64(time.Second), tc.in)
	}
}

// TestAbsurdRetryAfterReturnsAtOnce: a Retry-After past MaxRetryAfter,
// one too large for any integer included, ends the call at once; an
// unusable one is the ordinary backoff, and 0 retries at once.
func TestAbsurdRetryAfterReturnsAtOnce(t *testing.T) {
	for _, tc := range []struct {
		value    string
		requests int64
		waits    []time.Duration
	}{
		{"99999999999999999999999", 1, nil},
		{"86400000", 1, nil},
		{"0", 2, []time.Duration{0}},
	} {
		var n atomic.Int64
		rec := &sleepRecorder{}
		c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 1 {
				w.Header().Set("Retry-After", tc.value)
				w.WriteHeader(http.StatusTooManyRequests)
			}
		}), WithRetryPolicy(RetryPolicy{Sleep: rec.sleep}))
		err := send(t.Context(), c, http.MethodGet, nil)
		assert.Equal(t, tc.requests, n.Load(), tc.value)
		assert.Equal(t, tc.waits, rec.recorded(), tc.value)
		if tc.requests == 1 {
			var ae *APIError
			require.ErrorAs(t, err, &ae, tc.value)
			assert.Equal(t, maxRetryAfter, ae.RetryAfter, tc.value)
		}
	}
}

func TestRetryAfterBeyondCapReturnsAtOnce(t *testing.T) {
	var n atomic.Int64
	rec := &sleepRecorder{}
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	}), WithRetryPolicy(RetryPolicy{Sleep: rec.sleep}))
	err := send(t.Context(), c, http.MethodGet, nil)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.ErrorIs(t, err, ErrRateLimited)
	assert.Equal(t, time.Hour, ae.RetryAfter)
	assert.EqualValues(t, 1, n.Load())
	assert.Empty(t, rec.recorded(), "no sleep past the cap")
}

func TestBackoffGrowsWithFullJitter(t *testing.T) {
	p := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}.withDefaults()
	for attempt, ceiling := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond, 5: time.Second, 40: time.Second} {
		var lowest, highest time.Duration = ceiling, 0
		for range 200 {
			d := p.backoff(attempt)
			require.GreaterOrEqual(t, d, time.Duration(0))
			require.LessOrEqual(t, d, ceiling, "attempt %d", attempt)
			lowest, highest = min(lowest, d), max(highest, d)
		}
		// Full jitter spreads the waits over [0, ceiling]: 200 draws all
		// in one quarter of it would mean no jitter (or no growth).
		assert.Less(t, lowest, ceiling/4, "attempt %d", attempt)
		assert.Greater(t, highest, ceiling*3/4, "attempt %d", attempt)
	}
}

// TestBackoffReachesItsCeiling: the ceiling itself is a possible wait
// (the range is closed), down to a ceiling of one nanosecond.
func TestBackoffReachesItsCeiling(t *testing.T) {
	p := RetryPolicy{BaseDelay: time.Nanosecond, MaxDelay: time.Nanosecond}.withDefaults()
	seen := map[time.Duration]bool{}
	for range 200 {
		seen[p.backoff(1)] = true
	}
	assert.Equal(t, map[time.Duration]bool{0: true, time.Nanosecond: true}, seen)
}

func TestRetryWaitsRecordedWithoutRetryAfter(t *testing.T) {
	var n atomic.Int64
	rec := &sleepRecorder{}
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusBadGateway)
	}), WithRetryPolicy(RetryPolicy{Sleep: rec.sleep, MaxAttempts: 3, BaseDelay: time.Second, MaxDelay: 10 * time.Second}))
	var events []RetryEvent
	c.retryPolicy().OnRetry = func(e RetryEvent) { events = append(events, e) }
	err := send(t.Context(), c, http.MethodGet, nil)
	require.Error(t, err)
	assert.EqualValues(t, 3, n.Load())
	waits := rec.recorded()
	require.Len(t, waits, 2)
	assert.LessOrEqual(t, waits[0], time.Second)
	assert.LessOrEqual(t, waits[1], 2*time.Second)
	require.Len(t, events, 2)
	assert.Equal(t, 1, events[0].Attempt)
	assert.Equal(t, http.StatusBadGateway, events[1].StatusCode)
}

func TestContextCancelledDuringBackoff(t *testing.T) {
	h, n := statusSequence(503, 503, 503)
	c := newHandlerClient(t, h, WithRetryPolicy(RetryPolicy{BaseDelay: time.Hour, MaxDelay: time.Hour, MaxRetryAfter: time.Hour}))
	// Use the real sleeper: it must wake up on cancellation (it would
	// otherwise sleep for an hour). The context is cancelled when the
	// first attempt has failed, as the wait begins.
	c.retryPolicy().Sleep = sleepCtx
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c.retryPolicy().OnRetry = func(RetryEvent) { go cancel() }
	err := send(ctx, c, http.MethodGet, nil)
	assert.ErrorIs(t, err, context.Canceled)
	assert.EqualValues(t, 1, n.Load(), "cancelled during the first wait")
}

func TestNoSleepPastDeadline(t *testing.T) {
	var n atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	rec := &sleepRecorder{}
	c := newHandlerClient(t, h, WithRetryPolicy(RetryPolicy{Sleep: rec.sleep, MaxRetryAfter: 2 * time.Hour}))
	// The deadline is far enough for a slow first request, and before the
	// end of the hour's wait.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	err := send(ctx, c, http.MethodGet, nil)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusServiceUnavailable, ae.StatusCode)
	assert.EqualValues(t, 1, n.Load())
	assert.Empty(t, rec.recorded())
}

func TestBodyResentOnRetry(t *testing.T) {
	var bodies []string
	var n atomic.Int64
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusCreated)
	}))
	require.NoError(t, send(t.Context(), c, http.MethodPost, map[string]string{"Title": "x"}))
	assert.Equal(t, []string{`{"Title":"x"}`, `{"Title":"x"}`}, bodies)
}

func TestUnrewindableBodyIsSentOnce(t *testing.T) {
	h, n := statusSequence(429)
	c := newHandlerClient(t, h)
	// A plain reader (no GetBody) cannot be sent twice.
	req, err := c.NewRequest(t.Context(), http.MethodPost, "things", io.MultiReader(strings.NewReader("data")))
	require.NoError(t, err)
	_, err = c.Do(req, nil)
	assert.ErrorIs(t, err, ErrRateLimited)
	assert.EqualValues(t, 1, n.Load())
}

func TestConnectionRefusedIsRetriedForPost(t *testing.T) {
	// A port with nothing listening: the request is never written.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())

	rec := &sleepRecorder{}
	c, err := NewClient(WithTokenSource(staticTokenSource("t")), WithEndpoint("http://"+addr+"/v1", "http://"+addr),
		WithRetryPolicy(RetryPolicy{Sleep: rec.sleep, MaxAttempts: 3}))
	require.NoError(t, err)
	err = send(t.Context(), c, http.MethodPost, map[string]string{"a": "b"})
	require.Error(t, err)
	assert.ErrorIs(t, err, syscall.ECONNREFUSED)
	assert.Len(t, rec.recorded(), 2, "retried: the server cannot have acted")
}

func TestDroppedConnectionOnPostIsNotRetried(t *testing.T) {
	var n atomic.Int64
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}))
	err := send(t.Context(), c, http.MethodPost, map[string]string{"a": "b"})
	require.Error(t, err)
	assert.EqualValues(t, 1, n.Load(), "the server may have acted")

	n.Store(0)
	err = send(t.Context(), c, http.MethodGet, nil)
	require.Error(t, err)
	assert.EqualValues(t, 4, n.Load(), "GET is retried up to the limit")
}

func TestRateLimiterWaitsBeforeEachAttempt(t *testing.T) {
	h, n := statusSequence()
	lim := rate.NewLimiter(rate.Every(time.Hour), 2)
	c := newHandlerClient(t, h, WithRateLimit(lim))
	require.NoError(t, send(t.Context(), c, http.MethodGet, nil))
	require.NoError(t, send(t.Context(), c, http.MethodGet, nil))
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	err := send(ctx, c, http.MethodGet, nil)
	require.Error(t, err, "the third request must wait for the limiter")
	assert.EqualValues(t, 2, n.Load())
}

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
	c := newServerClient(t, api, WithRetryPolicy(RetryPolicy{
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
	assert.Equal(t, "workflow: GET /v1/tasks/it: context canceled", err.Error())
}

func TestDoSendsTheTokenOnlyToTheAPIOrigin(t *testing.T) {
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
	}))
	t.Cleanup(other.Close)
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{}`))
	}))
	c := ts.client(t)
	otherURL, _ := url.Parse(other.URL)
	apiURL, _ := url.Parse(ts.URL)

	for _, target := range []string{
		other.URL + "/v1/ping",                                  // another port
		"https://" + apiURL.Host + "/v1/ping",                   // another scheme
		"http://localhost:" + apiURL.Port() + "/v1/ping",        // another host name
		"http://" + otherURL.Host + "/v1/ping?via=" + ts.URL,    // another host with the API in its query
		"http://" + apiURL.Host + "@" + otherURL.Host + "/ping", // user information posing as the host
	} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, target, nil)
		require.NoError(t, err)
		_, err = c.Do(req, nil)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, target)
		assert.Equal(t, "request URL", ve.Field)
	}
	assert.Zero(t, elsewhere.Load(), "nothing reached another origin")
	assert.Zero(t, ts.tokenRequests.Load(), "refused before a token was even fetched")

	// The API's own origin, written out in full, is fine.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL+"/v1/ping", nil)
	require.NoError(t, err)
	_, err = c.Do(req, nil)
	require.NoError(t, err)
}

// TestEveryJSONBodyIsCheckedByTheDocument: the body of every operation
// that takes a JSON one is checked against the contract document in the
// one request path, whichever method built it: a body that breaks a rule
// is a *ValidationError naming the member and the rule, and nothing is
// sent. A body the caller sends with Call names no operation and goes as
// it is.
func TestEveryJSONBodyIsCheckedByTheDocument(t *testing.T) {
	c, mt := newMockTransport(t)
	ctx := t.Context()
	for _, tc := range []struct {
		name   string
		target target
		body   any
		want   ValidationError
	}{
		{"a record value that is not a string", recordPath(op.CreateRecord, Tasks, "it"), map[string]any{"Title": 1},
			ValidationError{Field: "body[Title]", Rule: "must be a string"}},
		{"a related item without its id", recordPath(op.CreateRecordRelatedItems, Tasks, "it", "id", "T-1"), map[string]string{"alias": "it"},
			ValidationError{Field: "body[id]", Rule: "is required"}},
		{"a link whose URL is not a string", recordPath(op.CreateRecordLink, Tasks, "it", "id", "T-1"), map[string]any{"url": 5},
			ValidationError{Field: "body[url]", Rule: "must be a string"}},
		{"a group's user id that is not a UUID", pathTo(op.CreateGroup), GroupRequest{UserIDs: []string{user1, "u2"}},
			ValidationError{Field: "GroupRequest.UserIDs[1]", Rule: "must be a UUID"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.call(ctx, tc.target, nil, tc.body, nil, reply{})
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.want, *ve)
		})
	}
	assert.Zero(t, mt.GetTotalCallCount())

	mt.RegisterResponder(http.MethodPost, mockBase+"/tasks/it", httpmock.NewStringResponder(201, `{}`))
	require.NoError(t, c.Call(ctx, http.MethodPost, "tasks/it", nil, map[string]any{"Title": 1}, nil))
}

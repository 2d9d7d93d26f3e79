package workflow

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"syscall"
	"time"
)

// RetryPolicy says when and how long the client waits before sending a
// request again. Retried are: 429 (any method: the server did not act),
// 500, 502, 503 and 504 for the idempotent methods GET, HEAD, OPTIONS, PUT
// and DELETE, connection errors for idempotent methods, and, for
// POST, only a connection refused before the request was written. A
// request whose body cannot be rewound (no GetBody) is sent once.
//
// Waits grow exponentially with full jitter; a Retry-After header (seconds
// or HTTP date) is used as the wait instead. A wait that would pass the
// context's deadline is not started: the last error is returned at once.
//
// A failed token request (an *AuthError) is retried when the token
// endpoint could not be reached or answered 429 or 5xx. With
// WithCredentials the endpoint is then asked at most about once a second,
// however many goroutines use the client: for a second after a failure,
// an attempt waits for the second to end and shares the next token
// request with the others (or gets the failure at once when its context
// would end first). Other failures (refused credentials, another 4xx, a
// refused redirect) are not retried, and calls within that second get
// them at once.
type RetryPolicy struct {
	// MaxAttempts is the number of attempts including the first; 1
	// disables retries. Zero means 4.
	MaxAttempts int
	// BaseDelay is the first backoff ceiling, doubled at each attempt.
	// Zero means 250ms.
	BaseDelay time.Duration
	// MaxDelay caps one backoff wait. Zero means 30s.
	MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After the client will wait; a
	// longer one returns the 429 or 503 at once, as an *APIError carrying
	// RetryAfter. Zero means 60s.
	MaxRetryAfter time.Duration
	// Sleep waits for d or until ctx ends. Nil means a timer; tests inject
	// a recorder so they never wait.
	Sleep func(ctx context.Context, d time.Duration) error
	// OnRetry, if set, is called before each wait, so that long waits do
	// not look like a hang.
	OnRetry func(RetryEvent)
	// AttemptTimeout bounds how long one attempt waits for the response
	// headers once the request has been written (uploading the body does
	// not count, nor does reading the response body). An attempt that
	// times out fails with an error matching ErrTimeout and is retried
	// like a dropped connection: for GET, HEAD, OPTIONS, PUT and DELETE.
	// Zero means 30s; a negative value disables the bound. Per call:
	// WithAttemptTimeout.
	AttemptTimeout time.Duration
}

// defaultAttemptTimeout is RetryPolicy.AttemptTimeout's default.
const defaultAttemptTimeout = 30 * time.Second

// RetryEvent describes a failed attempt that is about to be retried.
//
// URL is the request's full URL, query included, as in the SDK's error
// messages: a list's filter values show there (the client's secret and
// tokens never do). Unlike the debug log and the Observer events, which
// carry route templates only, it is meant for the caller's own handling;
// before recording it where filter values must not go, cut its query.
type RetryEvent struct {
	Method     string        // request method
	URL        string        // request URL, query included (see above)
	Attempt    int           // the attempt that failed, from 1
	StatusCode int           // its status, 0 when Err is set
	Err        error         // its transport error, if any
	Wait       time.Duration // the wait before the next attempt
}

// DefaultRetryPolicy returns the policy used when WithRetry is not given:
// 4 attempts, 250ms base delay, 30s cap, Retry-After up to 60s, 30s for
// the response headers of one attempt.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{}.withDefaults()
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts == 0 {
		p.MaxAttempts = 4
	}
	if p.BaseDelay == 0 {
		p.BaseDelay = 250 * time.Millisecond
	}
	if p.MaxDelay == 0 {
		p.MaxDelay = 30 * time.Second
	}
	if p.MaxRetryAfter == 0 {
		p.MaxRetryAfter = 60 * time.Second
	}
	if p.Sleep == nil {
		p.Sleep = sleepCtx
	}
	if p.AttemptTimeout == 0 {
		p.AttemptTimeout = defaultAttemptTimeout
	}
	return p
}

func (p RetryPolicy) validate() error {
	switch {
	case p.MaxAttempts < 1:
		return invalid("RetryPolicy.MaxAttempts", "must be at least 1")
	case p.BaseDelay < 0:
		return invalid("RetryPolicy.BaseDelay", "must not be negative")
	case p.MaxDelay < p.BaseDelay:
		return invalid("RetryPolicy.MaxDelay", "must not be less than BaseDelay")
	case p.MaxRetryAfter < 0:
		return invalid("RetryPolicy.MaxRetryAfter", "must not be negative")
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// backoff returns the full-jitter wait before attempt+1.
func (p RetryPolicy) backoff(attempt int) time.Duration {
	ceiling := p.BaseDelay << min(attempt-1, 30)
	if ceiling <= 0 || ceiling > p.MaxDelay {
		ceiling = p.MaxDelay
	}
	if ceiling <= 0 {
		return 0
	}
	return rand.N(ceiling + 1)
}

func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// retryable reports whether an attempt's outcome may be retried. Failures
// are classified by their cause first: a failed token request (the API
// request was never sent), a refused redirect or request, a connection
// that could not be made; only then does the caller's own context count
// (ctx.Err(), never the error's text or wrapping: a connect timeout or an
// attempt timeout matches context.DeadlineExceeded or ErrTimeout without
// being the caller's deadline).
func retryable(ctx context.Context, method string, resp *http.Response, err error) bool {
	if err != nil {
		var ae *AuthError
		if !errors.As(err, &ae) && ctx.Err() != nil {
			return false // (a failed token request is judged by its own cause)
		}
		return Temporary(err) && (idempotent(method) || !OutcomeUnknown(err))
	}
	// A 429 says the service did not act; a 5xx leaves it unknown.
	return temporaryStatus(resp.StatusCode) &&
		(idempotent(method) || resp.StatusCode == http.StatusTooManyRequests)
}

func isRedirect(err error) bool {
	var re *RedirectError
	return errors.As(err, &re)
}

// notSent reports a connection error that happened before the request was
// written: the server cannot have acted on it.
func notSent(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// retryTransport retries failed attempts by the policy (the call's own,
// from its request options, or the client's), bounds each attempt's wait
// for the response headers, and reports every attempt to the hooks
// (observers and the debug log). (The rate limiter is waited for by the
// bearer transport, before every request it sends.)
type retryTransport struct {
	next   http.RoundTripper
	policy RetryPolicy
	red    *redactor
	hooks  *hooks
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	policy, cfg := t.policy, requestConfigFrom(ctx)
	if cfg != nil && cfg.policy != nil {
		policy = *cfg.policy
	}
	rewindable := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
	for attempt := 1; ; attempt++ {
		r := req
		if attempt > 1 && req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r = req.Clone(ctx)
			r.Body = body
		}
		var after func(AttemptResult)
		if cfg != nil && cfg.attemptHook != nil {
			var err error
			if after, err = cfg.attemptHook(ctx); err != nil {
				return nil, err // this attempt is not sent
			}
		}
		if cfg != nil {
			cfg.attempts = attempt
		}
		at := t.hooks.startAttempt(r, attempt)
		resp, err := t.attempt(at.request(r), policy.AttemptTimeout)
		wait, again := retryWait(policy, req, attempt, rewindable, resp, err)
		at.end(r, resp, err, again, wait, after)
		if !again {
			return resp, err
		}
		ev := RetryEvent{Method: req.Method, URL: t.red.redact(redactURL(req.URL)), Attempt: attempt, Err: err, Wait: wait}
		if resp != nil {
			ev.StatusCode = resp.StatusCode
			closeBody(resp.Body)
		}
		if policy.OnRetry != nil {
			policy.OnRetry(ev)
		}
		if ev.StatusCode == http.StatusTooManyRequests {
			t.hooks.rateLimitWait(ctx, req, RateLimitServer, wait)
		}
		if err := policy.Sleep(ctx, wait); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
	}
}

// retryWait decides whether the attempt's outcome is retried, and after
// which wait.
func retryWait(policy RetryPolicy, req *http.Request, attempt int, rewindable bool, resp *http.Response, err error) (time.Duration, bool) {
	ctx := req.Context()
	if attempt >= policy.MaxAttempts || !rewindable || !retryable(ctx, req.Method, resp, err) {
		return 0, false
	}
	wait := policy.backoff(attempt)
	if resp != nil {
		if ra := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ra > 0 {
			if ra > policy.MaxRetryAfter {
				return 0, false // the caller sees the 429 with its RetryAfter
			}
			wait = ra
		}
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
		return 0, false // waiting would outlive the caller's deadline
	}
	return wait, true
}

// CloseIdleConnections closes the idle connections of the transports
// below.
func (t *retryTransport) CloseIdleConnections() { closeIdle(t.next) }

// errAttemptTimedOut is the cause of an attempt's context cancelled by
// RetryPolicy.AttemptTimeout.
var errAttemptTimedOut = errors.New("attempt timed out")

// attempt sends one attempt, bounding the wait for its response headers by
// d, the policy's AttemptTimeout: the clock starts when the request has been
// written, and stops when the headers arrive; the body is then read under
// the caller's context only.
func (t *retryTransport) attempt(r *http.Request, d time.Duration) (*http.Response, error) {
	if d <= 0 {
		return t.next.RoundTrip(r)
	}
	parent := r.Context()
	ctx, cancel := context.WithCancelCause(parent)
	var (
		mu       sync.Mutex
		timer    *time.Timer
		finished bool
	)
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case finished:
		case timer == nil:
			timer = time.AfterFunc(d, func() { cancel(errAttemptTimedOut) })
		case timer.Stop():
			timer.Reset(d) // written again (a replay after a 401)
		}
	}}
	resp, err := t.next.RoundTrip(r.WithContext(httptrace.WithClientTrace(ctx, trace)))
	mu.Lock()
	finished = true
	fired := timer != nil && !timer.Stop()
	mu.Unlock()
	timedOut := fired && parent.Err() == nil && errors.Is(context.Cause(ctx), errAttemptTimedOut)
	if err != nil || timedOut {
		if resp != nil {
			closeBody(resp.Body)
		}
		cancel(nil)
		if timedOut {
			return nil, &timeoutError{what: "no response headers within RetryPolicy.AttemptTimeout (" + d.String() + ")"}
		}
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: func() { cancel(nil) }}
	return resp, nil
}

// cancelOnClose releases an attempt's context when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel func()
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// limiterDeadlineError is a rate-limiter wait that would pass the
// context's deadline: it matches context.DeadlineExceeded, as the
// deadline would have been exceeded by waiting.
type limiterDeadlineError struct{}

func (*limiterDeadlineError) Error() string {
	return "waiting for the rate limiter would pass the context's deadline"
}
func (*limiterDeadlineError) Is(target error) bool { return target == context.DeadlineExceeded }

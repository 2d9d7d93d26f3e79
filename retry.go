package workflow

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"syscall"
	"time"

	"golang.org/x/time/rate"
)

// RetryPolicy says when and how long the client waits before sending a
// request again. Retried are: 429 (any method: the server did not act),
// 500 for GET, HEAD, PUT and DELETE, 502, 503 and 504 for those same
// idempotent methods, connection errors for idempotent methods, and, for
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
}

// RetryEvent describes a failed attempt that is about to be retried.
type RetryEvent struct {
	Method     string        // request method
	URL        string        // request URL
	Attempt    int           // the attempt that failed, from 1
	StatusCode int           // its status, 0 when Err is set
	Err        error         // its transport error, if any
	Wait       time.Duration // the wait before the next attempt
}

// DefaultRetryPolicy returns the policy used when WithRetry is not given:
// 4 attempts, 250ms base delay, 30s cap, Retry-After up to 60s.
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

// retryable reports whether an attempt's outcome may be retried.
func retryable(method string, resp *http.Response, err error) bool {
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return false
		}
		var ae *AuthError
		if errors.As(err, &ae) {
			// The API request was never sent: a token endpoint that is
			// down or busy may recover; refused credentials will not.
			return ae.temporary()
		}
		if isRedirect(err) {
			return false
		}
		if notSent(err) {
			return true
		}
		return idempotent(method)
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		return true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable,
		http.StatusGatewayTimeout:
		return idempotent(method)
	}
	return false
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

// retryTransport retries failed attempts by the policy, waits for the
// optional rate limiter before each attempt, and logs every attempt.
type retryTransport struct {
	next    http.RoundTripper
	policy  RetryPolicy
	limiter *rate.Limiter
	logger  *slog.Logger
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
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
		if t.limiter != nil {
			if err := t.limiter.Wait(ctx); err != nil {
				closeRequestBody(r)
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, err
			}
		}
		start := time.Now()
		resp, err := t.next.RoundTrip(r)
		t.logAttempt(r, attempt, resp, err, time.Since(start))

		if attempt >= t.policy.MaxAttempts || !rewindable || !retryable(req.Method, resp, err) {
			return resp, err
		}
		wait := t.policy.backoff(attempt)
		if resp != nil {
			if ra := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ra > 0 {
				if ra > t.policy.MaxRetryAfter {
					return resp, nil // the caller sees the 429 with its RetryAfter
				}
				wait = ra
			}
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return resp, err // waiting would outlive the caller's deadline
		}
		ev := RetryEvent{Method: req.Method, URL: redactURL(req.URL), Attempt: attempt, Err: err, Wait: wait}
		if resp != nil {
			ev.StatusCode = resp.StatusCode
			closeBody(resp.Body)
		}
		t.logger.LogAttrs(ctx, slog.LevelDebug, "workflow: retrying",
			slog.String("method", ev.Method), slog.String("url", ev.URL),
			slog.Int("attempt", attempt), slog.Int("status", ev.StatusCode),
			slog.Duration("wait", wait))
		if t.policy.OnRetry != nil {
			t.policy.OnRetry(ev)
		}
		if err := t.policy.Sleep(ctx, wait); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
	}
}

func (t *retryTransport) logAttempt(r *http.Request, attempt int, resp *http.Response, err error, d time.Duration) {
	if !t.logger.Enabled(r.Context(), slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", r.Method),
		slog.String("url", redactURL(r.URL)),
		slog.Int("attempt", attempt),
		slog.Duration("duration", d),
	}
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	t.logger.LogAttrs(r.Context(), slog.LevelDebug, "workflow: request", attrs...)
}

package workflow

import (
	"cmp"
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// This file is retrying: the policy and its options, the backoff, the
// Retry-After header, the decision the attempt loop (request.go) makes
// after each attempt, the wait before the next one, and the one
// classification of a failure (Temporary, OutcomeUnknown) that the
// client's retries and package upsert share.

// RetryPolicy says when and how long the client waits before sending a
// request again. Retried are: 429 (any method: the server did not act),
// 500, 502, 503 and 504 for the idempotent methods GET, HEAD, OPTIONS, PUT
// and DELETE, connection errors for idempotent methods (a success answer
// whose body was cut off before its end among them: the connection was
// lost), and, for
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
	// disables retries, of a call and of an iterator's walk. Zero means 4.
	MaxAttempts int
	// MaxElapsed bounds retrying by time as well: no wait is begun that
	// would end more than MaxElapsed after the call's first attempt
	// started (for the page requests of an iterator, All or Pages, after
	// the walk last received a page; see RecordsService.All). Zero means
	// 2 minutes: longer than the restart of a service instance or a
	// failover, which a nightly export should ride out, and short enough
	// that a job whose service is really down fails within minutes. A
	// single call reaches MaxAttempts (4: about 2 seconds of waits) long
	// before it, unless the service asks for long waits with
	// Retry-After. Negative: no bound by time. The waits asked for count
	// as time passed even when Sleep returns sooner (a test's Sleep that
	// does not wait): retrying ends after the same waits as on the clock.
	MaxElapsed time.Duration
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

// defaultMaxElapsed is RetryPolicy.MaxElapsed's default.
const defaultMaxElapsed = 2 * time.Minute

// defaultAttemptTimeout is RetryPolicy.AttemptTimeout's default.
const defaultAttemptTimeout = 30 * time.Second

// RetryEvent describes a failed attempt that is about to be retried.
//
// URL is the request's URL with each query value replaced by "REDACTED",
// as in APIError.URL: neither it nor Err holds a filter's values, a
// request body, the client's secret or a token.
type RetryEvent struct {
	Method     string        // request method
	URL        string        // request URL, query values redacted (see above)
	Attempt    int           // the attempt that failed, from 1
	StatusCode int           // its status, 0 when Err is set
	Err        error         // its transport error, if any, as a call would return it
	Wait       time.Duration // the wait before the next attempt
}

// DefaultRetryPolicy returns the policy used when WithRetryPolicy is not given to NewClient:
// 4 attempts within 2 minutes, 250ms base delay, 30s cap, Retry-After up
// to 60s, 30s for the response headers of one attempt.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{}.withDefaults()
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	p.MaxAttempts = cmp.Or(p.MaxAttempts, 4)
	p.BaseDelay = cmp.Or(p.BaseDelay, 250*time.Millisecond)
	p.MaxDelay = cmp.Or(p.MaxDelay, 30*time.Second)
	p.MaxRetryAfter = cmp.Or(p.MaxRetryAfter, 60*time.Second)
	p.MaxElapsed = cmp.Or(p.MaxElapsed, defaultMaxElapsed)
	p.AttemptTimeout = cmp.Or(p.AttemptTimeout, defaultAttemptTimeout)
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

// sleepCtx waits for d or until ctx ends. An unstopped timer of time.After
// is collected once unreferenced (Go 1.23 and later), so nothing is left
// behind when ctx ends first.
func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WithRetryPolicy makes the call retry by p; given to NewClient, it is the
// client's policy (DefaultRetryPolicy otherwise). Zero fields take their
// defaults (see DefaultRetryPolicy), not the client's values. A call's
// WithMaxAttempts and WithAttemptTimeout, in any order, override its
// fields. An invalid policy is a *ValidationError.
func WithRetryPolicy(p RetryPolicy) RequestOption {
	return func(cfg *requestConfig) error {
		p := p.withDefaults()
		if err := p.validate(); err != nil {
			return err
		}
		cfg.retry = &p
		return nil
	}
}

// WithMaxAttempts sets how many attempts this call may make, the first
// included (1 disables retries), in place of the retry policy's
// MaxAttempts. n must be at least 1.
func WithMaxAttempts(n int) RequestOption {
	return func(cfg *requestConfig) error {
		if n < 1 {
			return invalid("WithMaxAttempts", "must be at least 1 (got "+strconv.Itoa(n)+")")
		}
		cfg.maxAttempts = n
		return nil
	}
}

// WithAttemptTimeout bounds each attempt of this call, in place of the
// retry policy's AttemptTimeout: an attempt whose response headers have
// not arrived d after it was sent is abandoned and retried like a dropped
// connection (idempotent methods only; see RetryPolicy). The context's
// deadline still bounds the whole call. d must be positive.
func WithAttemptTimeout(d time.Duration) RequestOption {
	return func(cfg *requestConfig) error {
		if d <= 0 {
			return invalid("WithAttemptTimeout", "must be positive (got "+d.String()+")")
		}
		cfg.attemptTimeout = d
		return nil
	}
}

// retryWait decides whether the attempt's outcome is retried, and after
// which wait: a Retry-After the service sent (0 meaning now), else the
// policy's backoff. A Retry-After longer than the policy's MaxRetryAfter,
// a wait that would end more than MaxElapsed after start, or one that
// would outlive the caller's deadline, ends the call.
func retryWait(policy RetryPolicy, req *http.Request, attempt int, start time.Time, rewindable bool, resp *http.Response, err error) (time.Duration, bool) {
	ctx := req.Context()
	if attempt >= policy.MaxAttempts || !rewindable || !retryable(ctx, req.Method, resp, err) {
		return 0, false
	}
	var h http.Header // none without an answer
	if resp != nil && err == nil {
		h = resp.Header
	}
	ra, hasRA := retryAfter(h, time.Now())
	return policy.wait(ctx, attempt, start, ra, hasRA)
}

// wait is the wait before attempt+1 of a call (or walk) that began at
// start: ra, the Retry-After of the last answer when it had one (hasRA),
// else the backoff. ok is false when the policy or the caller's deadline
// does not allow it.
func (p RetryPolicy) wait(ctx context.Context, attempt int, start time.Time, ra time.Duration, hasRA bool) (time.Duration, bool) {
	wait := p.backoff(attempt)
	if hasRA {
		if ra > p.MaxRetryAfter {
			return 0, false // the caller sees the 429 with its RetryAfter
		}
		wait = ra
	}
	dl, hasDL := ctx.Deadline()
	if p.MaxElapsed > 0 && time.Since(start)+wait > p.MaxElapsed || hasDL && time.Until(dl) < wait {
		return 0, false
	}
	return wait, true
}

// pause is the wait before req is sent again, by the attempt loop or by a
// walk (rideOut): it reports ev, completed with req's method and redacted
// URL, to the policy's OnRetry and, after a 429, to the RateLimitWait
// observers, then waits ev.Wait with the policy's Sleep. It moves *start
// back by the part of the wait that did not pass on the clock: the waits
// asked for count towards MaxElapsed even when Sleep does not wait (a
// test's), so that retrying ends after the same waits as on the clock, not
// after a spin of requests.
func (c *Client) pause(req *http.Request, p RetryPolicy, ev RetryEvent, start *time.Time) error {
	ctx := req.Context()
	ev.Method, ev.URL = req.Method, c.red.redact(redactURL(req.URL))
	if p.OnRetry != nil {
		p.OnRetry(ev)
	}
	if ev.StatusCode == http.StatusTooManyRequests {
		c.hooks.rateLimitWait(ctx, req, RateLimitServer, ev.Wait)
	}
	before := time.Now()
	err := p.Sleep(ctx, ev.Wait)
	if short := ev.Wait - time.Since(before); short > 0 {
		*start = start.Add(-short)
	}
	if err != nil {
		return c.wrap(req, cmp.Or(ctx.Err(), err))
	}
	return nil
}

// backoff returns the full-jitter wait before attempt+1.
func (p RetryPolicy) backoff(attempt int) time.Duration {
	ceiling := p.BaseDelay << min(attempt-1, 30)
	if ceiling <= 0 || ceiling > p.MaxDelay {
		ceiling = p.MaxDelay
	}
	return rand.N(max(ceiling, 0) + 1)
}

// maxRetryAfter is where a Retry-After is cut, so that its duration cannot
// overflow; any policy's MaxRetryAfter is far below it in practice.
const maxRetryAfter = 24 * time.Hour

// retryAfter reads a Retry-After header, in seconds or as an HTTP date. ok
// is false when there is none, or it cannot be used: negative, unparseable
// or in the past (the ordinary backoff then applies). "0" means now. A
// number of seconds too large to represent is read as maxRetryAfter, so
// that it is longer than a policy allows to wait, never a short one.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	// Out of range, ParseUint gives the largest uint64.
	if n, err := strconv.ParseUint(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		return time.Duration(min(n, uint64(maxRetryAfter/time.Second))) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return min(d, maxRetryAfter), true
		}
	}
	return 0, false
}

// idempotentMethods are the methods whose requests may be sent again
// whatever the service made of them.
var idempotentMethods = []string{http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete}

// retryable reports whether an attempt's outcome may be retried: by
// Temporary and OutcomeUnknown (below), the one classification the
// SDK and package upsert share. A failure is judged by its cause first (a
// failed token request: the API request was never sent), and only then
// by the caller's own context (ctx.Err(), never the error's text or
// wrapping: a connect or attempt timeout is not the caller's deadline).
func retryable(ctx context.Context, method string, resp *http.Response, err error) bool {
	if err != nil {
		return (isA[*AuthError](err) || ctx.Err() == nil) && Temporary(err) &&
			(slices.Contains(idempotentMethods, method) || !OutcomeUnknown(err))
	}
	// A 429 says the service did not act; a 5xx leaves it unknown.
	return slices.Contains(temporaryStatuses, resp.StatusCode) &&
		(slices.Contains(idempotentMethods, method) || resp.StatusCode == http.StatusTooManyRequests)
}

// notSent reports a connection error that happened before the request was
// written: the server cannot have acted on it.
func notSent(err error) bool {
	op, ok := errors.AsType[*net.OpError](err)
	return errors.Is(err, syscall.ECONNREFUSED) || ok && op.Op == "dial"
}

// Temporary reports whether sending again the request that failed with err
// may succeed. It is true when, and only when:
//   - the service answered 429, 500, 502, 503 or 504;
//   - the token request failed in a way that may pass (the token endpoint
//     was unreachable, or answered 429 or 5xx);
//   - the connection failed or was lost, before or while the answer
//     arrived, a success answer's body included: one cut off before its
//     end (the error then says after how many bytes, and matches
//     io.ErrUnexpectedEOF);
//   - a time limit of the SDK's own ended the attempt (ErrTimeout).
//
// It is false for nil, for another status, for an answer that arrived
// whole but that the SDK cannot use (ErrUnexpectedResponse: it would be the
// same again), a *ValidationError, a refused redirect, a rate-limiter wait
// that would pass the context's deadline, and context.Canceled. Whether
// sending again is safe is another question: see OutcomeUnknown. The
// client's retries follow both (so a cut-off body is retried for GET, HEAD,
// OPTIONS, PUT and DELETE only); a call's error has already been retried by
// its policy.
func Temporary(err error) bool {
	if auth, ok := errors.AsType[*AuthError](err); ok {
		return auth.temporary()
	}
	status, sent := outcome(err)
	return sent && !errors.Is(err, context.Canceled) && !errors.Is(err, ErrUnexpectedResponse) &&
		(status == 0 || slices.Contains(temporaryStatuses, status))
}

// OutcomeUnknown reports whether the service may have acted on the request
// that failed with err although no success reached the caller: it answered
// 500 or above, or the connection was lost, an attempt timed out or the
// answer could not be read after the request was written. It is false for
// nil, for the answers by which the service says it did not act (4xx,
// 429 included), and when the request was never sent: bad input, a failed
// token request, a refused redirect, a rate-limiter wait that would pass
// the context's deadline, a refused connection or a failed dial. A request
// with an unknown outcome is sent again by the client only when its
// method is idempotent (GET, HEAD, OPTIONS, PUT, DELETE).
func OutcomeUnknown(err error) bool {
	status, sent := outcome(err)
	return sent && (status == 0 && !notSent(err) || status >= 500)
}

// outcome is what Temporary and OutcomeUnknown know of a failure: the
// status of the service's answer (0 for none), and whether the request
// can have been sent at all (not after bad input, a failed token request,
// a refused redirect or a rate-limiter wait past the deadline).
func outcome(err error) (status int, sent bool) {
	if err == nil || isA[*AuthError](err) || isA[*ValidationError](err) ||
		isA[*limiterDeadlineError](err) || isA[*RedirectError](err) {
		return 0, false
	}
	if api, ok := errors.AsType[*APIError](err); ok {
		return api.StatusCode, true
	}
	return 0, true
}

// temporaryStatuses are the statuses of an answer that may change if the
// request is sent again.
var temporaryStatuses = []int{http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
	http.StatusServiceUnavailable, http.StatusGatewayTimeout}

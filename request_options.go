package workflow

import (
	"cmp"
	"context"
	"maps"
	"net/http"
	"net/textproto"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RequestOption changes one call: every service method and iterator takes
// a trailing list of them, and so does Client.Do. Options are applied in
// order and checked before anything is sent: a bad option is a
// *ValidationError and no request is made. Iterators apply them to every
// page request.
//
// A RequestOption is also an Option: given to NewClient, it applies to
// every call of the client, before the call's own options (a call's
// WithRetryPolicy replaces the client's; its WithHeader and WithQuery
// replace the client's values of the same key).
type RequestOption func(*requestConfig) error

func (o RequestOption) applyClient(c *config) { c.callOpts = append(c.callOpts, o) }

// requestConfig is what the options of one call set. The request path
// (request.go) resolves it once per call and passes it along; no service
// method looks at it, and nothing writes to it once resolved.
type requestConfig struct {
	header http.Header
	query  url.Values

	retry          *RetryPolicy  // WithRetryPolicy: replaces the client's policy
	maxAttempts    int           // WithMaxAttempts, 0 when not given
	attemptTimeout time.Duration // WithAttemptTimeout, 0 when not given
	// policy is the call's policy, resolved from the three above.
	policy RetryPolicy

	response    *responseDst                                       // WithResponseInto
	attemptHook func(context.Context) (func(AttemptResult), error) // WithAttemptHook
}

// resolve applies opts in order to a copy of base (the client's options,
// whose policy is the starting point) and resolves the call's retry
// policy.
func (base *requestConfig) resolve(opts []RequestOption) (*requestConfig, error) {
	// Header.Clone keeps a nil map nil.
	cfg := &requestConfig{response: base.response, attemptHook: base.attemptHook, policy: base.policy,
		header: base.header.Clone(), query: url.Values(http.Header(base.query).Clone())}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(cfg); err != nil {
			return nil, err
		}
	}
	if cfg.retry != nil {
		cfg.policy = *cfg.retry
	}
	cfg.policy.MaxAttempts = cmp.Or(cfg.maxAttempts, cfg.policy.MaxAttempts)
	cfg.policy.AttemptTimeout = cmp.Or(cfg.attemptTimeout, cfg.policy.AttemptTimeout)
	return cfg, nil
}

// callConfig returns the configuration of a call with opts: the client's
// own when there are none, so that such calls cost nothing.
func (c *Client) callConfig(opts []RequestOption) (*requestConfig, error) {
	if len(opts) == 0 {
		return c.defaults, nil
	}
	return c.defaults.resolve(opts)
}

// reservedHeaders are set by the SDK (or by Go's HTTP stack) and cannot be
// changed per call: a caller's value would be silently overridden, or would
// override authentication or the body's encoding.
var reservedHeaders = map[string]string{
	"Authorization":       "is set by the SDK from the client's credentials",
	"Content-Type":        "is set by the SDK from the request body",
	"Content-Length":      "is computed from the request body",
	"Transfer-Encoding":   "is chosen by Go's HTTP client",
	"Host":                "is the API's host, given by WithEndpoint",
	"Connection":          "is managed by Go's HTTP client",
	"Accept":              "is application/json: the SDK decodes JSON",
	"User-Agent":          "is set by the SDK (add to it with the client option WithUserAgent)",
	"Cookie":              "is managed by the client's cookie jar (WithHTTPClient)",
	"Proxy-Authorization": "belongs to the transport's proxy settings",
}

// WithHeader sets the request header key to value for this call, replacing
// what an earlier WithHeader of the same key set. Headers the SDK owns are
// refused with a *ValidationError, never overridden silently:
// Authorization, Content-Type, Content-Length, Transfer-Encoding, Host,
// Connection, Accept, User-Agent (see the client option WithUserAgent),
// Cookie and Proxy-Authorization. key must be a valid header name and value
// must not contain a line break or other control character.
//
// Header values are sent as they are: do not put secrets in them unless
// the service expects them there. They are never logged nor recorded in
// spans.
func WithHeader(key, value string) RequestOption {
	return func(cfg *requestConfig) error {
		field := "WithHeader(" + strconv.Quote(key) + ")"
		if !headerName.MatchString(key) {
			return invalid(field, "must be a valid header name")
		}
		ck := textproto.CanonicalMIMEHeaderKey(key)
		if why, ok := reservedHeaders[ck]; ok {
			return invalid(field, "cannot be set per call: it "+why)
		}
		if !validHeaderValue(value) {
			return invalid(field, "value must not contain control characters")
		}
		if cfg.header == nil {
			cfg.header = http.Header{}
		}
		cfg.header[ck] = []string{value}
		return nil
	}
}

// reservedQuery are the query parameters ListOptions owns.
var reservedQuery = []string{"first", "after", "last", "before", "filter"}

// WithQuery sets the query parameter key to value for this call, replacing
// what an earlier WithQuery of the same key set; it is added to the
// parameters the SDK sends. The paging and filter parameters (first, after,
// last, before, filter) belong to ListOptions and are refused with a
// *ValidationError, so that a call cannot send two conflicting values; so
// is any key the method itself sets for this call.
func WithQuery(key, value string) RequestOption {
	return func(cfg *requestConfig) error {
		field := "WithQuery(" + strconv.Quote(key) + ")"
		if key == "" {
			return invalid(field, "key must not be empty")
		}
		if slices.ContainsFunc(reservedQuery, func(r string) bool { return strings.EqualFold(key, r) }) {
			return invalid(field, "is set through ListOptions")
		}
		if cfg.query == nil {
			cfg.query = url.Values{}
		}
		cfg.query.Set(key, value)
		return nil
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

// WithAttemptHook calls before before each attempt of this call is sent
// (the first, and each retry after its wait), with the call's context. An
// error from before ends the call with that error: that attempt is not
// sent, nor is any later one. Otherwise after, if not nil, is called once
// with the attempt's outcome, when its response headers arrived or it
// failed and the retry decision is made, before any wait for the next
// attempt (AttemptResult.RetryAfter holds the response's Retry-After).
// Hooks see every attempt, which a caller's error only sums up: use them to
// hold a limit of your own on the requests sent (package upsert's adaptive
// limiter does), or to count them. before and after run on the goroutine
// of the call, and must be safe for concurrent use when the option is
// given to an iterator with prefetch or to concurrent calls. A later
// WithAttemptHook replaces an earlier one; before must not be nil.
func WithAttemptHook(before func(ctx context.Context) (after func(AttemptResult), err error)) RequestOption {
	return func(cfg *requestConfig) error {
		if before == nil {
			return invalid("WithAttemptHook", "must not be nil")
		}
		cfg.attemptHook = before
		return nil
	}
}

// Response is what WithResponseInto captures of a call's final response.
type Response struct {
	// StatusCode is the final response's HTTP status; 0 when no response
	// arrived (the call failed with a transport error).
	StatusCode int
	// Header is a copy of the final response's header, with the client's
	// secret and tokens removed should the service echo them, as in an
	// *APIError's Header.
	Header http.Header
	// RequestID is the identifier the service gave the final response, from
	// the first of X-Request-Id, X-Correlation-Id and Request-Id it sent;
	// quote it to support.
	RequestID string
	// Attempts is the number of attempts the call made, retries included.
	Attempts int
}

// WithResponseInto stores the final response's status, header and request
// ID in *dst when the call returns, whether it succeeded or failed with an
// *APIError; after a transport error only Attempts is set, and a call
// refused before sending (a *ValidationError) leaves *dst as it was. An
// iterator
// stores each page's response as it arrives, so after the loop *dst
// describes the last page requested. With ListOptions.Prefetch the next
// page's response may be stored while the loop body runs: read *dst after
// the loop then. Package upsert stores the response of each request it
// sends, from several goroutines (the stores of one WithResponseInto are
// serialized): after it returns, *dst describes one of them; do not read
// it before.
// dst must not be nil.
func WithResponseInto(dst *Response) RequestOption {
	// One destination for every request the option is applied to.
	d := &responseDst{dst: dst}
	return func(cfg *requestConfig) error {
		if dst == nil {
			return invalid("WithResponseInto", "must not be nil")
		}
		cfg.response = d
		return nil
	}
}

// applyToRequest adds the call's header and query to req. A WithQuery key
// that the method itself already put in the query is refused, so a
// parameter is never sent twice or silently replaced.
func (cfg *requestConfig) applyToRequest(req *http.Request) error {
	if len(cfg.query) > 0 {
		q := req.URL.Query()
		for k, v := range cfg.query {
			if _, taken := q[k]; taken {
				return invalid("WithQuery("+strconv.Quote(k)+")", "is already set by the method's own parameters")
			}
			q[k] = v
		}
		req.URL.RawQuery = q.Encode()
	}
	maps.Copy(req.Header, cfg.header)
	return nil
}

// capture stores the final response (nil after a transport error) and the
// number of attempts in the caller's Response, if one was asked for, its
// header a copy with known secrets removed by red.
func (cfg *requestConfig) capture(resp *http.Response, attempts int, red *redactor) {
	if cfg.response == nil {
		return
	}
	r := Response{Attempts: attempts}
	if resp != nil {
		r.StatusCode = resp.StatusCode
		r.Header = red.redactHeader(resp.Header)
		r.RequestID = requestID(resp.Header)
	}
	cfg.response.store(r)
}

// responseDst is WithResponseInto's destination. The requests of one call
// may end concurrently (package upsert sends many at once, an iterator's prefetch
// runs beside the caller), so the stores are serialized: the last one
// wins.
type responseDst struct {
	mu  sync.Mutex
	dst *Response
}

func (d *responseDst) store(r Response) {
	d.mu.Lock()
	defer d.mu.Unlock()
	*d.dst = r
}

// headerName matches an RFC 9110 token, a valid header name.
var headerName = regexp.MustCompile("^[-!#$%&'*+.^_`|~0-9A-Za-z]+$")

// validHeaderValue reports whether s holds no control character other
// than a horizontal tab.
func validHeaderValue(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f })
}

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

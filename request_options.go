package workflow

import (
	"context"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RequestOption changes one call: every service method and iterator takes
// a trailing list of them. Options are applied in order when the request
// is built, and checked before anything is sent: a bad option is a
// *ValidationError and no request is made. Iterators apply them to every
// page request.
type RequestOption func(*requestConfig) error

// requestConfig is what the options of one call set. It travels with the
// request in its context, so the transports of the one request path (retry,
// bearer) read it there; no service method looks at it. One is made for
// each request, so the transports may write to it (attempts).
type requestConfig struct {
	header http.Header
	query  url.Values

	retry          *RetryPolicy  // WithRetryPolicy: replaces the client's policy
	maxAttempts    int           // WithMaxAttempts, 0 when not given
	attemptTimeout time.Duration // WithAttemptTimeout, 0 when not given
	// policy is the policy of this call, resolved by newRequest when any
	// of the three above is set; nil means the client's.
	policy *RetryPolicy

	response    *responseDst                                       // WithResponseInto
	attempts    int                                                // attempts sent, written by the retry transport
	attemptHook func(context.Context) (func(AttemptResult), error) // WithAttemptHook
}

type requestConfigKey struct{}

// newRequestConfig applies opts in order and resolves the call's retry
// policy from the client's. It returns nil, nil when there are none, so
// calls without options cost nothing.
func newRequestConfig(opts []RequestOption, clientPolicy RetryPolicy) (*requestConfig, error) {
	if len(opts) == 0 {
		return nil, nil
	}
	cfg := &requestConfig{}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(cfg); err != nil {
			return nil, err
		}
	}
	if cfg.retry != nil || cfg.maxAttempts != 0 || cfg.attemptTimeout != 0 {
		p := clientPolicy
		if cfg.retry != nil {
			p = *cfg.retry
		}
		if cfg.maxAttempts != 0 {
			p.MaxAttempts = cfg.maxAttempts
		}
		if cfg.attemptTimeout != 0 {
			p.AttemptTimeout = cfg.attemptTimeout
		}
		cfg.policy = &p
	}
	return cfg, nil
}

// withRequestConfig returns ctx carrying cfg.
func withRequestConfig(ctx context.Context, cfg *requestConfig) context.Context {
	if cfg == nil {
		return ctx
	}
	return context.WithValue(ctx, requestConfigKey{}, cfg)
}

// requestConfigFrom returns the options of the call ctx belongs to, or nil.
func requestConfigFrom(ctx context.Context) *requestConfig {
	cfg, _ := ctx.Value(requestConfigKey{}).(*requestConfig)
	return cfg
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
		if !validHeaderName(key) {
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
		for _, r := range reservedQuery {
			if strings.EqualFold(key, r) {
				return invalid(field, "is set through ListOptions")
			}
		}
		if cfg.query == nil {
			cfg.query = url.Values{}
		}
		cfg.query.Set(key, value)
		return nil
	}
}

// WithRetryPolicy makes this call retry by p instead of the client's
// policy (see WithRetry): zero fields take their defaults, as in
// WithRetry, not the client's values. WithMaxAttempts and
// WithAttemptTimeout, in any order, override its fields. An invalid policy
// is a *ValidationError.
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
// iterator stores each page's response as it arrives, so after the loop
// *dst describes the last page requested. With ListOptions.Prefetch the
// next page's response may be stored while the loop body runs: read *dst
// after the loop then. Package upsert stores the response of each request
// it sends, from several goroutines (the stores of one WithResponseInto
// are serialized): after it returns, *dst describes one of them; do not
// read it before. dst must not be nil.
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
	if cfg == nil {
		return nil
	}
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
	for k, v := range cfg.header {
		req.Header[k] = v
	}
	return nil
}

// capture stores the final response (nil after a transport error) in the
// caller's Response, if one was asked for, its header a copy with known
// secrets removed by red.
func (cfg *requestConfig) capture(resp *http.Response, red *redactor) {
	if cfg == nil || cfg.response == nil {
		return
	}
	r := Response{Attempts: cfg.attempts}
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

// validHeaderName reports whether s is an RFC 9110 token.
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// validHeaderValue reports whether s holds no control character other
// than a horizontal tab.
func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

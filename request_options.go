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
// spans, and are removed from a server's message that echoes them, as
// the other values a request sends are.
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
		if strings.ContainsFunc(value, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) { // a tab is allowed
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
		r.Header = redactHeader(resp.Header, red.redact)
		r.RequestID = red.requestID(resp.Header)
	}
	cfg.response.mu.Lock()
	defer cfg.response.mu.Unlock()
	*cfg.response.dst = r
}

// responseDst is WithResponseInto's destination. The requests of one call
// may end concurrently (package upsert sends many at once, an iterator's prefetch
// runs beside the caller), so the stores are serialized: the last one
// wins.
type responseDst struct {
	mu  sync.Mutex
	dst *Response
}

// headerName matches an RFC 9110 token, a valid header name.
var headerName = regexp.MustCompile("^[-!#$%&'*+.^_`|~0-9A-Za-z]+$")

package workflow

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Observer receives the events of the client's one request path, for
// tracing and metrics (the module github.com/seed-a15e58aa/workflow-go/otel
// builds OpenTelemetry spans and metrics on it) or for your own
// instrumentation. Install it with WithObserver. Every field is optional;
// new fields may be added.
//
// A call is one method call's request, retries included (an iterator makes
// one call per page). Its attempts are the requests actually sent. Events
// carry route templates (such as "/{recordType}/{alias}/{id}"), never a
// path, query, alias, id, filter, body, header value, secret or token, so
// they can be recorded as they are. The Err fields are errors as the
// caller gets them: their texts name the request's method and path
// (aliases and ids as sent) but hold no query value and no request body.
//
// The functions are called synchronously on the goroutine of the call and
// must be safe for concurrent use. A Start function may return a context
// derived from the one it gets (for example carrying a span); the call or
// attempt then runs under it and the matching End gets it. Returning nil
// keeps the context unchanged.
type Observer struct {
	// CallStart is called before a call's first attempt.
	CallStart func(ctx context.Context, call CallInfo) context.Context
	// CallEnd is called when the call returns, its response body read.
	CallEnd func(ctx context.Context, call CallInfo, res CallResult)
	// AttemptStart is called before each attempt is sent, after any wait
	// for the client-side rate limiter.
	AttemptStart func(ctx context.Context, at AttemptInfo) context.Context
	// AttemptEnd is called when an attempt's response headers arrived or
	// it failed, once the retry decision is made.
	AttemptEnd func(ctx context.Context, at AttemptInfo, res AttemptResult)
	// TokenFetchStart is called before the client requests an access token
	// from the token endpoint (WithCredentials only; a token source given
	// with WithTokenSource is not observed). ctx is that of the attempt
	// that needed the token; the request is shared by every call waiting
	// for a token.
	TokenFetchStart func(ctx context.Context, fetch TokenFetchInfo) context.Context
	// TokenFetchEnd is called when the token request ended.
	TokenFetchEnd func(ctx context.Context, fetch TokenFetchInfo, res TokenFetchResult)
	// RateLimitWait is called before the client waits because of a rate
	// limit: its own limiter (WithRateLimit), or a 429 from the service.
	RateLimitWait func(ctx context.Context, wait RateLimitWait)
}

// CallInfo describes a call.
type CallInfo struct {
	Method string // HTTP method
	// Route is the operation's path template, relative to the base URL
	// ("/apps/{alias}/views/{id}"); "" for a request that is not one of
	// the API's operations.
	Route string
	// Operation is the operation's id in the API's document
	// (updateView); "" when Route is.
	Operation     string
	ServerAddress string // host of the API's base URL
	ServerPort    int    // port of the API's base URL (443 or 80 when it names none)
}

// CallResult is how a call ended.
type CallResult struct {
	StatusCode int           // final status, 0 when no response arrived
	RequestID  string        // the final response's request ID, if any
	Attempts   int           // attempts sent
	ErrorType  string        // "" on success; see AttemptResult.ErrorType
	Err        error         // the error the call returns, if any
	Duration   time.Duration // from CallStart to CallEnd
}

// AttemptInfo describes one attempt of a call.
type AttemptInfo struct {
	CallInfo
	Attempt int // from 1
}

// AttemptResult is how an attempt ended.
type AttemptResult struct {
	StatusCode int    // status received, 0 when none arrived
	RequestID  string // the response's request ID, if any
	// ErrorType classifies a failed attempt: the status code as a string
	// for a status of 400 or more, otherwise one of "attempt_timeout",
	// "canceled", "deadline_exceeded", "token_request", "redirect_refused",
	// "connection_refused", "timeout", "connection_closed", "validation",
	// "response_decode" or "_OTHER". "" when the attempt succeeded.
	ErrorType string
	Err       error         // the transport error, if any, as a call would return it
	Duration  time.Duration // until the response headers arrived or the failure
	Retry     bool          // whether another attempt follows
	Wait      time.Duration // the wait before that attempt
	// RetryAfter is the wait the response asked for with its Retry-After
	// header (seconds or an HTTP date), 0 when it sent none.
	RetryAfter time.Duration
}

// TokenFetchInfo describes a request to the token endpoint.
type TokenFetchInfo struct {
	Route         string // always "/oauth/token"
	Operation     string // always requestAccessToken, the token operation's id
	ServerAddress string // host of the token endpoint
	ServerPort    int    // port of the token endpoint
}

// TokenFetchResult is how a token request ended.
type TokenFetchResult struct {
	StatusCode int           // the endpoint's status, 0 when none arrived (or on success, where x/oauth2 does not report it)
	ErrorType  string        // "" on success, else the status code or a class as in AttemptResult
	Err        error         // the *AuthError, if any
	Duration   time.Duration // how long the request took
}

// Sources of a RateLimitWait.
const (
	RateLimitClient = "client" // the client's own limiter (WithRateLimit)
	RateLimitServer = "server" // a 429 from the service, with its Retry-After or a backoff
)

// RateLimitWait is a wait caused by a rate limit.
type RateLimitWait struct {
	Method    string        // HTTP method of the call
	Route     string        // route template of the call
	Operation string        // the call's operation id (see CallInfo)
	Source    string        // RateLimitClient or RateLimitServer
	Wait      time.Duration // how long the client waits (for RateLimitClient: the wait measured after it ended)
}

// WithObserver adds o to the observers of the client's requests; several
// may be added and are called in order. A nil o is a *ValidationError.
func WithObserver(o *Observer) Option {
	return setNonNil("WithObserver", o, func(c *config) { c.observers = append(c.observers, o) })
}

// hooks is where the request path reports to the observers and the logger.
type hooks struct {
	observers []*Observer
	logger    *slog.Logger
	basePath  string // escaped path of the base URL, ending in "/"
	host      string
	port      int
	tokenHost string
	tokenPort int
	red       *redactor // removes the secret and tokens from logs and token errors
}

func newHooks(obs []*Observer, logger *slog.Logger, red *redactor, base, auth *url.URL) *hooks {
	return &hooks{observers: obs, logger: logger, red: red, basePath: base.EscapedPath(),
		host: base.Hostname(), port: portOf(base), tokenHost: auth.Hostname(), tokenPort: portOf(auth)}
}

// portOf is the port of an http or https URL, named or implied by its
// scheme.
func portOf(u *url.URL) int {
	p, _ := strconv.Atoi(effectivePort(u))
	return p
}

func (h *hooks) observed() bool { return h != nil && len(h.observers) > 0 }

func (h *hooks) callInfo(req *http.Request) CallInfo {
	route, id := h.operationOf(req)
	return CallInfo{Method: req.Method, Route: route, Operation: id, ServerAddress: h.host, ServerPort: h.port}
}

// trace follows one call, attempt or token request for the observers:
// what they were told at its start, and the context they returned.
type trace[I any] struct {
	h     *hooks
	ctx   context.Context
	info  I
	start time.Time
}

// startTrace calls the Start function that start picks of every observer
// that has one, each with the context the one before returned.
func startTrace[I any](ctx context.Context, h *hooks, info I, start func(*Observer) func(context.Context, I) context.Context) trace[I] {
	t := trace[I]{h: h, ctx: ctx, info: info, start: time.Now()}
	for _, o := range h.observers {
		if f := start(o); f != nil {
			t.ctx = cmp.Or(f(t.ctx, info), t.ctx) // nil keeps it
		}
	}
	return t
}

// endTrace calls the End function that end picks of every observer that
// has one.
func endTrace[I, R any](t trace[I], res R, end func(*Observer) func(context.Context, I, R)) {
	for _, o := range t.h.observers {
		if f := end(o); f != nil {
			f(t.ctx, t.info, res)
		}
	}
}

// callTrace follows one call for the observers.
type callTrace struct{ trace[CallInfo] }

// startCall reports the start of a call and returns the trace, whose ctx
// the call runs under; nil when nothing observes.
func (h *hooks) startCall(ctx context.Context, req *http.Request) *callTrace {
	if !h.observed() {
		return nil
	}
	return &callTrace{startTrace(ctx, h, h.callInfo(req), func(o *Observer) func(context.Context, CallInfo) context.Context { return o.CallStart })}
}

// end reports the call's outcome: a failure with a success answer is
// one whose body could not be read or decoded.
func (ct *callTrace) end(resp *http.Response, attempts int, err error) {
	if ct == nil {
		return
	}
	// ErrorType is "" for a success.
	res := CallResult{Attempts: attempts, Err: err, Duration: time.Since(ct.start), ErrorType: errorType(resp, err)}
	if resp != nil {
		res.StatusCode = resp.StatusCode
		res.RequestID = ct.h.red.requestID(resp.Header)
	}
	if err != nil && resp != nil && resp.StatusCode < 400 && ct.ctx.Err() == nil {
		res.ErrorType = "response_decode"
	}
	endTrace(ct.trace, res, func(o *Observer) func(context.Context, CallInfo, CallResult) { return o.CallEnd })
}

// attemptTrace follows one attempt, for the observers and the debug log.
type attemptTrace struct {
	trace[AttemptInfo]
	log bool
}

// startAttempt reports the start of an attempt; the attempt is sent with
// at.ctx.
func (h *hooks) startAttempt(req *http.Request, attempt int) attemptTrace {
	at := attemptTrace{trace: trace[AttemptInfo]{h: h, ctx: req.Context(), start: time.Now()}}
	at.log = h != nil && h.logger != nil && h.logger.Enabled(at.ctx, slog.LevelDebug)
	if at.log || h.observed() {
		at.trace = startTrace(at.ctx, h, AttemptInfo{CallInfo: h.callInfo(req), Attempt: attempt}, func(o *Observer) func(context.Context, AttemptInfo) context.Context { return o.AttemptStart })
	}
	return at
}

// request returns r under the context of the call or attempt.
func (t *trace[I]) request(r *http.Request) *http.Request {
	if t.ctx == r.Context() {
		return r
	}
	return r.WithContext(t.ctx)
}

// end reports the attempt's outcome and logs it at debug level: method,
// route, attempt, status, duration, request ID, the wait before the next
// attempt, and the error class and text. Never a URL, query value, body,
// header value, secret or token: err is classified, shown is what is
// reported.
func (at *attemptTrace) end(resp *http.Response, err, shown error, retry bool, wait time.Duration, after func(AttemptResult)) {
	if after == nil && !at.log && !at.h.observed() {
		return
	}
	// ErrorType is "" for a success.
	res := AttemptResult{Err: shown, Duration: time.Since(at.start), Retry: retry, Wait: wait, ErrorType: errorType(resp, err)}
	if resp != nil {
		res.StatusCode = resp.StatusCode
		res.RequestID = at.h.red.requestID(resp.Header)
		res.RetryAfter, _ = retryAfter(resp.Header, time.Now())
	}
	if after != nil {
		after(res)
	}
	if at.h.observed() {
		endTrace(at.trace, res, func(o *Observer) func(context.Context, AttemptInfo, AttemptResult) { return o.AttemptEnd })
	}
	if !at.log {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", at.info.Method),
		slog.String("route", at.info.Route),
		slog.Int("attempt", at.info.Attempt),
		slog.Int("status", res.StatusCode),
		slog.Duration("duration", res.Duration),
	}
	if res.RequestID != "" {
		attrs = append(attrs, slog.String("request_id", res.RequestID))
	}
	msg := "workflow: request"
	if retry {
		msg = "workflow: request failed, retrying"
		attrs = append(attrs, slog.Duration("wait", wait))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error_type", res.ErrorType), slog.String("error", shown.Error()))
	}
	at.h.logger.LogAttrs(at.ctx, slog.LevelDebug, msg, attrs...)
}

// rateLimitWait reports a rate-limit wait.
func (h *hooks) rateLimitWait(ctx context.Context, req *http.Request, source string, d time.Duration) {
	if !h.observed() {
		return
	}
	route, id := h.operationOf(req)
	w := RateLimitWait{Method: req.Method, Route: route, Operation: id, Source: source, Wait: d}
	for _, o := range h.observers {
		if o.RateLimitWait != nil {
			o.RateLimitWait(ctx, w)
		}
	}
}

// tokenTrace follows one token request.
type tokenTrace struct{ trace[TokenFetchInfo] }

func (h *hooks) startTokenFetch(ctx context.Context) *tokenTrace {
	if !h.observed() {
		return nil
	}
	tok := op.RequestAccessToken.Op()
	info := TokenFetchInfo{Route: tok.Path, Operation: string(tok.ID), ServerAddress: h.tokenHost, ServerPort: h.tokenPort}
	return &tokenTrace{startTrace(ctx, h, info, func(o *Observer) func(context.Context, TokenFetchInfo) context.Context { return o.TokenFetchStart })}
}

func (tt *tokenTrace) end(ae *AuthError) {
	if tt == nil {
		return
	}
	res := TokenFetchResult{Duration: time.Since(tt.start)}
	if ae != nil {
		res.Err, res.StatusCode = ae, ae.StatusCode
		res.ErrorType = errorType(nil, ae)
		if ae.StatusCode != 0 {
			res.ErrorType = strconv.Itoa(ae.StatusCode)
		}
	}
	endTrace(tt.trace, res, func(o *Observer) func(context.Context, TokenFetchInfo, TokenFetchResult) { return o.TokenFetchEnd })
}

// errorType classifies a failure in a few words that hold no data of the
// request (the OpenTelemetry attribute error.type).
func errorType(resp *http.Response, err error) string {
	ae, _ := errors.AsType[*APIError](err)
	var ne net.Error
	switch {
	case err == nil && resp != nil && resp.StatusCode >= 400:
		return strconv.Itoa(resp.StatusCode)
	case err == nil:
		return ""
	case ae != nil:
		return strconv.Itoa(ae.StatusCode)
	case errors.Is(err, ErrTimeout):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline_exceeded"
	case isA[*AuthError](err):
		return "token_request"
	case isA[*RedirectError](err):
		return "redirect_refused"
	case isA[*ValidationError](err):
		return "validation"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection_refused"
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return "connection_closed"
	}
	return "_OTHER"
}

// requestIDHeaders are the headers a request ID is read from, in order.
var requestIDHeaders = []string{"X-Request-Id", "X-Correlation-Id", "Request-Id"}

// maxRequestIDLen bounds a request ID taken from a response.
const maxRequestIDLen = 128

// requestID returns the first request ID header h holds, known secrets
// removed, on one line and at most 128 bytes.
func (r *redactor) requestID(h http.Header) string {
	for _, k := range requestIDHeaders {
		if v := strings.TrimSpace(h.Get(k)); v != "" {
			return cut(oneLine(r.redact(v)), maxRequestIDLen)
		}
	}
	return ""
}

// operationOf returns the route template and the id of the operation of
// a request to the API: the operation the request was built for (see
// newRequest) when its method and path fit it, else the one its method
// and path match (op.Match), or "", "" when the path is none of the
// API's (a request built by the caller for another path). Templates are
// what logs, spans and metrics show instead of a path: a template holds
// no alias, id or query, and has few distinct values.
func (h *hooks) operationOf(req *http.Request) (route, id string) {
	rel, ok := strings.CutPrefix(req.URL.EscapedPath(), h.basePath)
	if !ok {
		return "", ""
	}
	segs := strings.Split(strings.TrimSuffix(rel, "/"), "/")
	if slices.Contains(segs, "") {
		return "", ""
	}
	o := op.FromContext(req.Context())
	if o == nil || !o.Fits(req.Method, segs) {
		if o, _ = op.Match(req.Method, segs); o == nil {
			return "", ""
		}
	}
	return o.Path, string(o.ID)
}

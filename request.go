package workflow

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/go-querystring/query"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// This file is the one request path. Every call of every service goes:
//
//  1. build: newRequest (route, query, body) and the call's options,
//     checked before anything is sent (callConfig);
//  2. send: the attempt loop of Client.send (send, classify, wait, send
//     again), each attempt through the client's http.Client, whose
//     transport adds the bearer token and waits for the rate limiter
//     (auth.go);
//  3. read: the final response becomes an *APIError, or is read by the
//     call's reply reader (reply.go);
//  4. report: observers, the debug log and WithResponseInto are fed from
//     the loop (observe.go holds their types).

// NewRequest builds a request for the API, for an operation the SDK does
// not model. path is relative to the base URL (for example
// "tasks/it-requests"), with each segment already escaped with
// url.PathEscape; a leading "/" is ignored so the "/v1" prefix is kept.
// body, if not nil, is sent as JSON (a json.RawMessage byte for byte; an
// io.Reader is sent as it is, with the Content-Type left to the caller).
// The request carries the SDK's
// Accept and User-Agent headers; authentication, retries and the per-call
// options are added when it is sent with Do.
func (c *Client) NewRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	return c.newRequest(ctx, route{method: method, path: path}, nil, body)
}

// Do sends req (built with NewRequest, or any request to the API's host)
// through the SDK's one request path: the per-call options reqOpts,
// authentication, retries, observers and error decoding. The bearer token
// is attached only to requests for the API's own scheme, host and port
// (those of the base URL): a request for any other is refused before
// anything is sent, with a *ValidationError. A status of 400 or more is
// returned as an *APIError. Otherwise, when v is an io.Writer the body is
// copied into it, and when v is any other non-nil value the JSON body is
// decoded into it (an empty body leaves v as it was). The response body is
// always read to the end and closed; the returned response is for its
// status and header.
func (c *Client) Do(req *http.Request, v any, reqOpts ...RequestOption) (*http.Response, error) {
	var rd reply
	switch v := v.(type) {
	case nil:
	case io.Writer:
		rd.read = func(r io.Reader) error { _, err := io.Copy(v, r); return err }
	default:
		rd.read = func(r io.Reader) error {
			err := json.NewDecoder(r).Decode(v)
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
	return c.send(req, reqOpts, rd)
}

// newRequest builds the request of r; q, if not nil, is a struct encoded
// with go-querystring "url" tags, or url.Values. The request's context
// names r's operation (for the observers; see operationOf).
func (c *Client) newRequest(ctx context.Context, r route, q, body any) (*http.Request, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if r.op != "" {
		ctx = op.NewContext(ctx, r.op)
	}
	rel, err := url.Parse(strings.TrimLeft(r.path, "/"))
	if err != nil {
		return nil, &ValidationError{Field: "path", Rule: "must be a relative URL path", Err: err}
	}
	if rel.IsAbs() || rel.Host != "" {
		return nil, invalid("path", "must be relative to the base URL")
	}
	u := c.baseURL.ResolveReference(rel)
	if q != nil {
		vals, ok := q.(url.Values)
		if !ok {
			if vals, err = queryValues(q); err != nil {
				return nil, err
			}
		}
		if enc := vals.Encode(); enc != "" {
			if u.RawQuery != "" {
				u.RawQuery += "&"
			}
			u.RawQuery += enc
		}
	}
	var (
		rdr         io.Reader
		contentType string
	)
	switch b := body.(type) {
	case nil:
	case io.Reader:
		rdr = b
	case json.RawMessage: // sent as it is: the bytes a caller checked are the bytes sent
		rdr, contentType = bytes.NewReader(b), "application/json"
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			return nil, &ValidationError{Field: "body", Rule: "must encode as JSON", Err: err}
		}
		rdr, contentType = bytes.NewReader(buf), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), rdr)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req, nil
}

// queryValues encodes q, a struct with go-querystring "url" tags or a
// pointer to one, as a query; anything else is a *ValidationError of the
// query argument that points to url.Values.
func queryValues(q any) (url.Values, error) {
	t := reflect.TypeOf(q)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, invalid("query", fmt.Sprintf(`must be url.Values or a struct with go-querystring "url" tags, not %T (a map[string][]string converts with url.Values(m))`, q))
	}
	vals, err := query.Values(q)
	if err != nil {
		return nil, &ValidationError{Field: "query", Rule: "must encode as a query", Err: err}
	}
	return vals, nil
}

// checkCtx is the one check of a caller's context: newRequest makes it for
// every call, and the entry points that use the context before building a
// request (uploads, iterators, waits, batches) make it first.
func checkCtx(ctx context.Context) error {
	if ctx == nil {
		return invalid("ctx", "must not be nil")
	}
	return nil
}

// call sends a request built from its parts (the route's first bad
// argument, if any, is returned before anything is sent) and reads the
// reply with rd: what every service method comes down to. The zero reply
// drops the body.
func (c *Client) call(ctx context.Context, r route, q, body any, reqOpts []RequestOption, rd reply) error {
	if r.err != nil {
		return r.err
	}
	req, err := c.newRequest(ctx, r, q, body)
	if err != nil {
		return err
	}
	_, err = c.send(req, reqOpts, rd)
	return err
}

// fetch sends a call whose answer is one resource of type T (what names
// it in errors). With optional, an answer without a body gives nil, nil.
func fetch[T any](ctx context.Context, c *Client, r route, body any, what string, optionalBody bool, reqOpts []RequestOption) (*T, error) {
	var v *T
	rd := optional(&v, what)
	if !optionalBody {
		v = new(T)
		rd = resource(v, what)
	}
	if err := c.call(ctx, r, nil, body, reqOpts, rd); err != nil {
		return nil, err
	}
	return v, nil
}

// send is the attempt loop: it sends req by the call's retry policy,
// reads the final response with rd, and reports the call.
func (c *Client) send(req *http.Request, reqOpts []RequestOption, rd reply) (resp *http.Response, err error) {
	if req == nil || req.URL == nil {
		return nil, invalid("request", "must not be nil and must have a URL")
	}
	cfg, err := c.callConfig(reqOpts)
	if err == nil {
		err = cfg.applyToRequest(req)
	}
	if err == nil && !sameOrigin(req.URL, c.baseURL) {
		err = foreignOrigin(req.URL)
	}
	if err != nil {
		closeRequestBody(req)
		return nil, err
	}
	ctx := req.Context()
	ct := c.hooks.startCall(ctx, req)
	if ct != nil && ct.ctx != ctx {
		ctx = ct.ctx
		req = req.WithContext(ctx)
	}
	attempts, start := 0, time.Now()
	defer func() {
		decodeErr := err != nil && resp != nil && resp.StatusCode < 400
		cfg.capture(resp, attempts, c.red)
		ct.end(resp, attempts, err, decodeErr)
	}()

	rewindable := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
	for {
		attempts++
		r := req
		if attempts > 1 && req.GetBody != nil {
			body, gerr := req.GetBody()
			if gerr != nil {
				return nil, c.wrap(req, gerr)
			}
			r = req.Clone(ctx)
			r.Body = body
		}
		var after func(AttemptResult)
		if cfg.attemptHook != nil {
			if after, err = cfg.attemptHook(ctx); err != nil {
				attempts-- // this attempt is not sent
				return nil, c.transportError(req, err)
			}
		}
		at := c.hooks.startAttempt(r, attempts)
		resp, err = c.attempt(at.request(r), cfg.policy.AttemptTimeout)
		bodyErr := false
		if err == nil && resp.StatusCode < 400 && rd.stream == nil {
			// The body is read within the attempt: one cut off is
			// retried like a lost connection.
			err = rd.readBody(resp)
			bodyErr = err != nil
		}
		wait, again := retryWait(cfg.policy, req, attempts, start, rewindable, resp, err)
		var shown error // err as the observers, the log and OnRetry see it
		if err != nil {
			shown = c.transportError(req, err)
		}
		at.end(resp, err, shown, again, wait, after)
		if !again {
			if bodyErr {
				return resp, c.wrap(req, cmp.Or(ctx.Err(), err))
			}
			break
		}
		ev := RetryEvent{Attempt: attempts, Err: shown, Wait: wait}
		if resp != nil {
			if err == nil {
				ev.StatusCode = resp.StatusCode
			}
			closeBody(resp.Body)
		}
		if perr := c.pause(req, cfg.policy, ev, &start); perr != nil {
			return nil, perr
		}
	}
	if err != nil {
		return nil, c.transportError(req, err)
	}
	if resp.StatusCode >= 400 {
		defer closeBody(resp.Body)
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return resp, c.apiError(req, resp, body)
	}
	if rd.stream != nil {
		if err := rd.readBody(resp); err != nil {
			return resp, c.wrap(req, cmp.Or(ctx.Err(), err))
		}
	}
	return resp, nil
}

// attempt sends one attempt through the client's http.Client, bounding
// the wait for its response headers by d (RetryPolicy.AttemptTimeout; 0 or
// less: no bound). The clock starts when the request has been written, and
// stops when the headers arrive; the body is then read under the caller's
// context only.
func (c *Client) attempt(r *http.Request, d time.Duration) (*http.Response, error) {
	if d <= 0 {
		return c.httpClient.Do(r)
	}
	parent := r.Context()
	ctx, cancel := context.WithCancelCause(parent)
	t := &attemptTimer{d: d, cancel: cancel}
	resp, err := c.httpClient.Do(r.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: t.wrote})))
	t.mu.Lock()
	t.finished = true
	fired := t.timer != nil && !t.timer.Stop()
	t.mu.Unlock()
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
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// attemptTimer starts an attempt's clock when its request has been
// written, and starts it again when it is written again (a replay after a
// 401), until the attempt has finished.
type attemptTimer struct {
	mu       sync.Mutex
	timer    *time.Timer
	finished bool
	d        time.Duration
	cancel   context.CancelCauseFunc
}

func (t *attemptTimer) wrote(httptrace.WroteRequestInfo) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.finished:
	case t.timer == nil:
		t.timer = time.AfterFunc(t.d, func() { t.cancel(errAttemptTimedOut) })
	case t.timer.Stop():
		t.timer.Reset(t.d)
	}
}

// errAttemptTimedOut is the cause of an attempt's context cancelled by
// RetryPolicy.AttemptTimeout.
var errAttemptTimedOut = errors.New("attempt timed out")

// cancelOnClose releases an attempt's context when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelCauseFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
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
	var (
		ra    time.Duration
		hasRA bool
	)
	if resp != nil && err == nil {
		ra, hasRA = retryAfter(resp.Header, time.Now())
	}
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
	if p.MaxElapsed > 0 && time.Since(start)+wait > p.MaxElapsed {
		return 0, false
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
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
	if ceiling <= 0 {
		return 0
	}
	return rand.N(ceiling + 1)
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
	if n, err := strconv.ParseUint(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if err != nil || n > uint64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(n) * time.Second, true
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
// Temporary and OutcomeUnknown (errors.go), the one classification the
// SDK and package upsert share. A failure is judged by its cause first (a
// failed token request: the API request was never sent), and only then
// by the caller's own context (ctx.Err(), never the error's text or
// wrapping: a connect or attempt timeout is not the caller's deadline).
func retryable(ctx context.Context, method string, resp *http.Response, err error) bool {
	if err != nil {
		if !isA[*AuthError](err) && ctx.Err() != nil {
			return false
		}
		return Temporary(err) && (slices.Contains(idempotentMethods, method) || !OutcomeUnknown(err))
	}
	// A 429 says the service did not act; a 5xx leaves it unknown.
	return slices.Contains(temporaryStatuses, resp.StatusCode) &&
		(slices.Contains(idempotentMethods, method) || resp.StatusCode == http.StatusTooManyRequests)
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

// wrap makes err the cause of a *RequestError naming req; errors.Is and
// errors.As still see err. Its text holds no query value, no value of the
// request body, no secret and no token.
func (c *Client) wrap(req *http.Request, err error) error {
	return &RequestError{Method: req.Method, Path: req.URL.EscapedPath(), URL: c.red.redact(redactURL(req.URL)),
		Err: err, msg: c.scrub(req, err.Error())}
}

// scrub removes from text what req carries that a text must not show:
// its query, the values it sent, the client's secret and tokens.
func (c *Client) scrub(req *http.Request, text string) string {
	return c.red.redact(scrubSent(text, sentValues(req)))
}

// apiError builds the *APIError of a response to req, known secrets removed
// from its message, header copy, body excerpt and URL, and the values req
// sent from its message.
func (c *Client) apiError(req *http.Request, resp *http.Response, body []byte) *APIError {
	e := newAPIError(resp, c.red.redactBytes(body))
	e.Method = req.Method
	e.URL, e.fullURL = c.red.redact(redactURL(req.URL)), c.red.redact(withoutUser(req.URL))
	e.Header = c.red.redactHeader(resp.Header)
	if e.Message != "" {
		e.Message = c.scrub(req, e.Message)
	}
	return e
}

// transportError unwraps what http.Client wraps, so that callers see
// *AuthError, *RedirectError and *ValidationError directly, and any other
// failure as a *RequestError whose cause keeps the *url.Error, its URL
// redacted.
func (c *Client) transportError(req *http.Request, err error) error {
	if ctxErr := req.Context().Err(); ctxErr != nil {
		return c.wrap(req, ctxErr)
	}
	if ae, ok := errors.AsType[*AuthError](err); ok {
		return ae
	}
	if re, ok := errors.AsType[*RedirectError](err); ok {
		return re
	}
	if ve, ok := errors.AsType[*ValidationError](err); ok {
		return ve
	}
	ue, ok := errors.AsType[*url.Error](err)
	if !ok {
		return c.wrap(req, ownTimeout(err))
	}
	e := c.wrap(req, ownTimeout(&url.Error{Op: ue.Op, URL: c.red.redact(redactURL(req.URL)), Err: ue.Err})).(*RequestError)
	e.msg = c.scrub(req, ue.Err.Error())
	return e
}

// ownTimeout makes a deadline that is not the caller's (the caller's
// context was checked first) an error matching ErrTimeout, not
// context.DeadlineExceeded, which callers read as their own deadline: a
// transport's connect or response-header timeout, for example. It is the
// one rule for API and token requests alike.
func ownTimeout(err error) error {
	if errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, ErrTimeout) && !isA[*limiterDeadlineError](err) {
		return &timeoutError{what: err.Error(), err: err}
	}
	return err
}

// closeBody drains a bounded amount of the body so the connection can be
// reused, then closes it.
func closeBody(b io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, b, 256<<10)
	_ = b.Close()
}

func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// limiterDeadlineError is a rate-limiter wait that would pass the
// context's deadline: it matches context.DeadlineExceeded, as the
// deadline would have been exceeded by waiting.
type limiterDeadlineError struct{}

func (*limiterDeadlineError) Error() string {
	return "waiting for the rate limiter would pass the context's deadline"
}
func (*limiterDeadlineError) Is(target error) bool { return target == context.DeadlineExceeded }

// errMalformed is the reason a success answer is refused: it matches
// ErrUnexpectedResponse.
var errMalformed = fmt.Errorf("%w: malformed reply", ErrUnexpectedResponse)

// sameOrigin reports whether u has the scheme, host and port of origin.
func sameOrigin(u, origin *url.URL) bool {
	return origin == nil || strings.EqualFold(u.Scheme, origin.Scheme) &&
		strings.EqualFold(u.Hostname(), origin.Hostname()) && effectivePort(u) == effectivePort(origin)
}

// defaultPorts are the ports the http and https schemes imply.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// effectivePort is u's port, named or implied by its scheme; "" for
// another scheme without one.
func effectivePort(u *url.URL) string {
	return cmp.Or(u.Port(), defaultPorts[strings.ToLower(u.Scheme)])
}

// foreignOrigin is the error for a request to a host other than the API's.
func foreignOrigin(u *url.URL) error {
	return &ValidationError{Field: "request URL", Rule: "must have the API's scheme, host and port (the access token is sent nowhere else), got " + u.Scheme + "://" + u.Host}
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

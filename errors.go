package workflow

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed-a15e58aa/workflow-go/internal/check"
)

// Sentinel errors, matched with errors.Is. An *APIError matches the one of
// its HTTP status (ErrUnauthorized to ErrUnprocessable), so callers can
// write errors.Is(err, workflow.ErrNotFound) without caring about the
// error's concrete type. ErrUnexpectedResponse and ErrTimeout are matched
// by the SDK's own errors: a success answer it cannot use, a time limit
// that is not the caller's.
var (
	// ErrUnauthorized matches a 401: the token is missing, wrong or expired
	// and a fresh one was rejected too, or the credentials were refused.
	ErrUnauthorized = errors.New("workflow: unauthorized")
	// ErrForbidden matches a 403: the user lacks permission for the resource.
	ErrForbidden = errors.New("workflow: forbidden")
	// ErrNotFound matches a 404: unknown record type, alias, record or item.
	ErrNotFound = errors.New("workflow: not found")
	// ErrTooLarge matches a 413 from the server, and an upload the SDK refuses
	// because it is over the 250 MB limit or longer than the
	// UploadOptions.Size it announced.
	ErrTooLarge = errors.New("workflow: file too large")
	// ErrRateLimited matches a 429 that was still returned after retries (or
	// whose Retry-After was longer than the retry policy allows to wait).
	ErrRateLimited = errors.New("workflow: rate limited")
	// ErrUnprocessable matches a 422: the request was well formed but the
	// service could not act on it (for example a filter that parses but
	// means nothing, or a reference to something that does not exist).
	// The service lists 422 for every operation.
	ErrUnprocessable = errors.New("workflow: unprocessable entity")
	// ErrUnexpectedResponse matches an answer the SDK cannot use although
	// its status says success: a resource that is null, {} or empty, a
	// list without its items or paging, a token reply without a token.
	ErrUnexpectedResponse = errors.New("workflow: unexpected response")
	// ErrTimeout matches a time limit of the SDK's or the transport's own
	// that ended an attempt: a connection that could not be made in time,
	// RetryPolicy.AttemptTimeout, the bound on a token request. The
	// caller's own deadline matches context.DeadlineExceeded instead.
	ErrTimeout = errors.New("workflow: timed out")
)

// timeoutError is a time limit that is not the caller's: it matches
// ErrTimeout and reports Timeout, but deliberately not
// context.DeadlineExceeded. errors.As still reaches its cause (a
// *net.OpError, say), which errors.Is does not see.
type timeoutError struct {
	what string
	err  error // the cause, if any
}

func (e *timeoutError) Error() string        { return e.what }
func (e *timeoutError) Is(target error) bool { return target == ErrTimeout }
func (e *timeoutError) Timeout() bool        { return true }
func (e *timeoutError) As(target any) bool   { return e.err != nil && errors.As(e.err, target) }

// RequestError is a call that ended without an answer the SDK could use:
// the connection failed or was lost, the caller's context ended, a time
// limit passed, or a success answer could not be read. Its text names the
// request's method and path and the cause, and holds no query value, no
// request body, no secret and no token.
//
// errors.Is and errors.As see the cause: context.Canceled, ErrTimeout,
// ErrUnexpectedResponse, and the *url.Error of the transport, whose URL has
// its query values redacted as in URL.
type RequestError struct {
	Method string // request method
	Path   string // the request URL's path, escaped as sent
	// URL is the request URL with each query value replaced by
	// "REDACTED" (the names are kept).
	URL string
	Err error  // the cause
	msg string // the cause's text, request data removed
}

// Error returns "workflow: <method> <path>: <cause>".
func (e *RequestError) Error() string {
	cause := e.msg
	if cause == "" && e.Err != nil {
		cause = e.Err.Error()
	}
	return "workflow: " + e.Method + " " + e.Path + ": " + causeText(cause)
}

// Unwrap returns the cause.
func (e *RequestError) Unwrap() error { return e.Err }

// causeText is the text of a cause inside another error's text: without
// its own "workflow: ", so that a text names the package once.
func causeText(s string) string { return strings.TrimPrefix(s, "workflow: ") }

// maxErrorBody is how much of an error response body an APIError keeps.
const maxErrorBody = 64 << 10

// APIError is a response from the service with a status of 400 or above.
//
// No error body shape is published: Message is read from common JSON
// shapes ("message", "error", "error_description",
// "detail", "title", "errors"); Body always holds the raw bytes (at most 64 KiB).
type APIError struct {
	StatusCode int    // HTTP status code
	Method     string // request method
	// URL is the request URL with each query value replaced by
	// "REDACTED" (the names are kept): a list's filter holds users' data.
	// FullURL returns it with the values.
	URL string
	// Header is a copy of the response header: Authorization, Cookie and
	// their kin blanked, and known secrets and the values the request sent
	// removed from every other value, as from Message.
	Header  http.Header
	Body    []byte // response body, truncated to 64 KiB
	Message string // short message parsed from Body, if any, with the values the request sent removed
	// RetryAfter is the wait the server asked for with Retry-After (429 or
	// 503), zero when it sent none.
	RetryAfter time.Duration
	// RequestID is the identifier the service gave the response, from the
	// first of the X-Request-Id, X-Correlation-Id and Request-Id headers
	// it sent (on one line, at most 128 bytes); "" when none. Quote it to
	// support.
	RequestID string

	// fullURL is URL with its query values: behind a pointer, so that
	// %#v prints its address, not the values.
	fullURL *string
}

// FullURL returns the request URL with its query values (the client's
// secret and tokens still removed). Unlike URL and Error, it can hold
// users' data: a filter's values, a cursor.
func (e *APIError) FullURL() string {
	if e.fullURL != nil {
		return *e.fullURL
	}
	return e.URL
}

// Error returns a one-line description: method, path, status, message and
// request ID. It holds no query value and no request body.
func (e *APIError) Error() string {
	s := "workflow: "
	if op := strings.TrimSpace(e.Method + " " + pathOf(e.URL)); op != "" {
		s += op + ": "
	}
	s += strconv.Itoa(e.StatusCode)
	if t := http.StatusText(e.StatusCode); t != "" {
		s += " " + t
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.RetryAfter > 0 {
		s += " (retry after " + e.RetryAfter.String() + ")"
	}
	if e.RequestID != "" {
		s += " (request ID " + e.RequestID + ")"
	}
	return s
}

// pathOf is the escaped path of the URL raw, which names an operation in
// an error's text without its host or query.
func pathOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "[unparsable URL]"
	}
	return u.EscapedPath()
}

// Is reports whether the error's status matches a sentinel error.
func (e *APIError) Is(target error) bool {
	return target != nil && target == statusSentinels[e.StatusCode]
}

// statusSentinels are the sentinel errors an *APIError of each status
// matches.
var statusSentinels = map[int]error{
	http.StatusUnauthorized:          ErrUnauthorized,
	http.StatusForbidden:             ErrForbidden,
	http.StatusNotFound:              ErrNotFound,
	http.StatusRequestEntityTooLarge: ErrTooLarge,
	http.StatusTooManyRequests:       ErrRateLimited,
	http.StatusUnprocessableEntity:   ErrUnprocessable,
}

// errorMessage extracts a message from common JSON error shapes, or takes
// a plain-text body whole (plain: its first line is the message, taken
// once the values it must not show are removed), and the length it is cut
// to: 500 bytes, 200 for plain text. A plain body cut where it was read,
// in its first line, gives no message: its end may be the start of a
// value.
func errorMessage(body []byte, clipped bool) (msg string, limit int, plain bool) {
	text := bytes.TrimSpace(body)
	switch {
	case len(text) == 0 || text[0] == '<', // an HTML error page says nothing useful in one line
		text[0] != '{' && clipped && !bytes.Contains(text, []byte("\n")): // plain text cut in its first line
		return "", 0, false
	case text[0] != '{':
		return string(text), 200, true
	}
	var v any
	_ = json.Unmarshal(text, &v) // a value that does not fit (1e999) is skipped, the rest read
	return messageFrom(v, []string{"message", "error_description", "detail", "error", "title", "errors"}), 500, false
}

// nestedMessageKeys name the members that hold the message of an object
// inside an error body, in order.
var nestedMessageKeys = []string{"message", "detail", "description"}

// messageFrom reads a message from a decoded JSON value: a string, a list
// of messages, or an object: the first of its members named by keys that
// holds one (an absent member reads as ""). Objects and lists inside v are
// read with nestedMessageKeys.
func messageFrom(v any, keys []string) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any:
		for _, k := range keys {
			if s := messageFrom(v[k], nestedMessageKeys); s != "" {
				return s
			}
		}
	case []any:
		var parts []string
		for _, item := range v {
			if s := messageFrom(item, nestedMessageKeys); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// oneLine replaces line breaks and other control characters by spaces, so
// that a message from the server keeps an error to one line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
}

// truncate cuts s to at most n bytes, on a rune boundary, marking the cut
// with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// ValidationError is bad input that the SDK rejects before sending any
// request: it names the field and the rule that was broken.
type ValidationError struct {
	Field string // the parameter or field, e.g. "alias" or "ListOptions.First"
	Rule  string // what was expected, e.g. "must be between 1 and 1000"
	Err   error  // an underlying cause, if any (e.g. ErrTooLarge or a parse error)
}

// Error returns "workflow: invalid <field>: <rule>".
func (e *ValidationError) Error() string {
	s := "workflow: invalid " + e.Field + ": " + e.Rule
	if e.Err != nil {
		s += ": " + causeText(e.Err.Error())
	}
	return s
}

// Unwrap returns the underlying cause.
func (e *ValidationError) Unwrap() error { return e.Err }

// isA reports whether err's chain holds an error of type T.
func isA[T error](err error) bool { return found[T](err) != nil }

// found returns the first error of type T in err's chain, nil when it
// holds none.
func found[T error](err error) error {
	if t, ok := errors.AsType[T](err); ok {
		return t
	}
	return nil
}

// invalid is the *ValidationError of field breaking rule: the one
// constructor, shared with the packages built on this one.
var invalid = check.Invalid[ValidationError]

// AuthError is a failed token request: the token endpoint answered with an
// error status or a reply without a usable token, or could not be reached.
// It never holds the client secret, the request's Authorization header or
// a token: the SDK removes them from Body and the messages even when the
// server echoes them.
type AuthError struct {
	StatusCode  int    // status of the token endpoint's answer, 0 if none arrived
	URL         string // the token URL
	ErrorCode   string // OAuth2 "error" field (e.g. "invalid_client"), if sent
	Description string // the server's own message ("error_description" or "message"), if sent
	Body        string // start of the response body (at most 512 bytes); "" for a 2xx answer, or one whose JSON hides a secret behind an escape
	Err         error  // transport-level cause, if no answer arrived

	errText string // Err's text, known secrets removed
}

// Error returns a one-line description of the failed token request: the
// token URL, the status, the OAuth2 error code and the server's message.
func (e *AuthError) Error() string {
	s := "workflow: token request"
	if e.URL != "" {
		s += " to " + e.URL
	}
	s += " failed"
	if e.StatusCode != 0 {
		s += fmt.Sprintf(": %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	}
	for _, part := range []string{e.ErrorCode, oneLine(e.Description)} {
		if part != "" {
			s += ": " + part
		}
	}
	if body := oneLine(strings.TrimSpace(e.Body)); body != "" && e.ErrorCode == "" && e.Description == "" {
		s += ": " + cut(body, 200)
	}
	if e.Err != nil {
		s += ": " + causeText(cmp.Or(e.errText, e.Err.Error()))
	}
	return s
}

// Unwrap returns the transport-level cause, if any.
func (e *AuthError) Unwrap() error { return e.Err }

// Is matches ErrUnauthorized when the token endpoint refused the
// credentials: a 400 or 401, or any 2xx or 4xx answer whose OAuth error
// code (RFC 6749 section 5.2) is invalid_client or unauthorized_client.
// A 5xx is the endpoint's failure, never a refusal, whatever it says.
func (e *AuthError) Is(target error) bool {
	return target == ErrUnauthorized && e.StatusCode >= 200 && e.StatusCode < 500 &&
		(e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusBadRequest ||
			e.ErrorCode == "invalid_client" || e.ErrorCode == "unauthorized_client")
}

// RedirectError is returned when the service redirects a request to another
// scheme, host or port. The SDK refuses to follow such a redirect so that the
// bearer token (or the client credentials) are never sent elsewhere.
type RedirectError struct {
	From string // URL that answered with the redirect
	To   string // URL the redirect pointed to
}

// Error describes the refused redirect.
func (e *RedirectError) Error() string {
	return "workflow: refused redirect from " + e.From + " to " + e.To + " (another scheme, host or port)"
}

// wrap makes err the cause of a *RequestError naming req; errors.Is and
// errors.As still see err. Its text holds no query value, no value of the
// request body, no secret and no token.
func (c *Client) wrap(req *http.Request, err error) error { return c.requestError(req, err, err) }

// requestError is wrap with the text of shown, which may be a cause inside
// err, scrubbed once.
func (c *Client) requestError(req *http.Request, err, shown error) *RequestError {
	return &RequestError{Method: req.Method, Path: req.URL.EscapedPath(), URL: c.red.redact(redactURL(req.URL)),
		Err: err, msg: c.red.scrubber(req)(shown.Error())}
}

// apiError builds the *APIError of a response to req: known secrets
// removed from its message, header copy, body excerpt, URL and request
// ID, and the values req sent from its message and header copy, before
// the message is cut.
// body holds at most maxErrorBody+1 bytes: one more means it was cut.
func (c *Client) apiError(req *http.Request, resp *http.Response, body []byte) *APIError {
	read := len(body) > maxErrorBody // cut where it was read
	text := c.red.redact(string(body[:min(len(body), maxErrorBody)]))
	if read {
		text = c.red.trimPartial(text)
	}
	if text != string(body) { // body itself when nothing was removed
		body = []byte(text)
	}
	wait, _ := retryAfter(resp.Header, time.Now())
	scrub := c.red.scrubber(req)
	e := &APIError{StatusCode: resp.StatusCode, Body: body, RetryAfter: wait, RequestID: c.red.requestID(resp.Header),
		Method: req.Method, Header: redactHeader(resp.Header, scrub)}
	full := c.red.redact(withoutUser(req.URL))
	e.URL, e.fullURL = c.red.redact(redactURL(req.URL)), &full
	if msg, limit, plain := errorMessage(body, read); msg != "" {
		// Secrets again: decoding the JSON undid its escapes ("\/").
		if msg = scrub(msg); plain {
			msg, _, _ = strings.Cut(msg, "\n")
		}
		e.Message = cut(oneLine(msg), limit)
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
	if e := cmp.Or(found[*AuthError](err), found[*RedirectError](err), found[*ValidationError](err)); e != nil {
		return e
	}
	cause := err // what the text shows: a *url.Error's cause without its URL
	if ue, ok := errors.AsType[*url.Error](err); ok {
		cause, err = ue.Err, &url.Error{Op: ue.Op, URL: c.red.redact(redactURL(req.URL)), Err: ue.Err}
	}
	return c.requestError(req, ownTimeout(err), cause)
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

// temporary reports whether the token request may succeed if sent again:
// the endpoint could not be reached (other than by a refused redirect), or
// answered 429 or 5xx.
func (e *AuthError) temporary() bool {
	return e.StatusCode == 0 && e.Err != nil && !isA[*RedirectError](e.Err) ||
		e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500
}

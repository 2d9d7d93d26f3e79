package workflow

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/time/rate"
)

const (
	// defaultTokenLifetime is the lifetime the spec gives every token; it
	// is used when the token response carries no expires_in.
	defaultTokenLifetime = 24 * time.Hour
	// tokenRefreshMargin: a token this close to its expiry is replaced
	// before use, so a request does not leave with a token about to die.
	// A token that lives less than four margins is replaced when a
	// quarter of its lifetime is left (see refreshMargin).
	tokenRefreshMargin = time.Minute
	// tokenFetchTimeout bounds one token request, even when the caller's
	// context has no deadline.
	tokenFetchTimeout = 30 * time.Second
	// tokenFailureHold: after a failed token request no other is sent
	// for this long. Callers in that time get the failure at once when
	// the endpoint refused the credentials (it would again); otherwise
	// they wait for the end of that time (or of their context, in which
	// case they get the failure at once) and share the next request. Many
	// callers retrying with jittered waits against a failing token
	// endpoint thus send it about one request per second, not one per
	// attempt each.
	tokenFailureHold = time.Second
	// maxTokenBody bounds the token endpoint's answer.
	maxTokenBody = 1 << 20
)

// refreshMargin is how long before its expiry a token of the given
// lifetime is replaced: tokenRefreshMargin, or a quarter of the lifetime
// when that is shorter, so that a token of a minute or less is still
// reused for most of its life.
func refreshMargin(lifetime time.Duration) time.Duration {
	return min(tokenRefreshMargin, lifetime/4)
}

// tokenProvider hands out bearer tokens to the bearer transport.
type tokenProvider interface {
	// token returns a valid token, fetching one if needed.
	token(ctx context.Context) (*oauth2.Token, error)
	// invalidate reports that the server rejected t (a 401).
	invalidate(t *oauth2.Token)
}

// tokenCache is the client-credentials token source: one cached token
// shared by all goroutines, one token request in flight at a time.
//
// The token request is built and its reply parsed here rather than by
// x/oauth2's clientcredentials package, which cannot read every reply the
// service sends (an expires_in that is a fraction or a numeric string).
// The request is the one API.md shows: a form body with
// grant_type=client_credentials, the client authenticated by HTTP Basic
// with the id and secret form-urlencoded (RFC 6749 section 2.3.1).
type tokenCache struct {
	id, secret string
	tokenURL   string
	userAgent  string
	hc         *http.Client // token requests only, never the API's pool
	hooks      *hooks       // observers, logger and redactor of token requests
	now        func() time.Time
	// timeout bounds one token request (tokenFetchTimeout).
	timeout time.Duration

	mu        sync.Mutex
	tok       *oauth2.Token
	refreshAt time.Time  // when tok is to be replaced
	failed    *AuthError // the last fetch's failure, held for tokenFailureHold
	failedAt  time.Time
	flight    *tokenFlight // the token request in flight, if any
}

// tokenFlight is one token request shared by every caller waiting for it.
// It is cancelled as soon as the last of them stops waiting, so that no
// request (nor its goroutine and connection) outlives its callers.
type tokenFlight struct {
	done    chan struct{} // closed when tok and err are set
	tok     *oauth2.Token
	err     error
	waiters int // guarded by tokenCache.mu
	cancel  context.CancelFunc
	dropped bool // every waiter left; guarded by tokenCache.mu
}

func newTokenCache(id, secret, tokenURL, userAgent string, hc *http.Client, h *hooks) *tokenCache {
	return &tokenCache{
		id:        id,
		secret:    secret,
		tokenURL:  tokenURL,
		userAgent: userAgent,
		hc:        hc,
		hooks:     h,
		now:       time.Now,
		timeout:   tokenFetchTimeout,
	}
}

// String hides the credentials.
func (c *tokenCache) String() string { return "workflow.tokenCache{REDACTED}" }

// GoString hides the credentials.
func (c *tokenCache) GoString() string { return c.String() }

func (c *tokenCache) token(ctx context.Context) (*oauth2.Token, error) {
	var waitedOn *AuthError
	for {
		c.mu.Lock()
		now := c.now()
		if t := c.tok; t != nil && now.Before(c.refreshAt) {
			c.mu.Unlock()
			return t, nil
		}
		// A failed fetch is held for tokenFailureHold; after that a new
		// fetch is due.
		failed := c.failed
		hold := c.failedAt.Add(tokenFailureHold).Sub(now)
		if failed == nil || hold <= 0 {
			break // c.mu stays locked
		}
		c.mu.Unlock()
		// When another caller sent the request this one waited for, its
		// outcome is shared, as if the two had joined one request. A
		// failure that would recur (the credentials refused, say) is
		// returned at once; a temporary one is waited out, unless the
		// context would end first.
		dl, ok := ctx.Deadline()
		if waitedOn != nil && failed != waitedOn || !failed.temporary() || ok && time.Until(dl) < hold {
			return nil, failed
		}
		if err := sleepCtx(ctx, hold); err != nil {
			return nil, err
		}
		waitedOn = failed
	}
	if err := ctx.Err(); err != nil {
		c.mu.Unlock()
		return nil, err
	}
	f := c.flight
	if f == nil {
		f = c.startLocked(ctx)
	}
	f.waiters++
	c.mu.Unlock()

	select {
	case <-f.done:
		return f.tok, f.err // f.tok is nil when f.err is set
	case <-ctx.Done():
		c.mu.Lock()
		f.waiters--
		if f.waiters == 0 {
			// Nobody waits any more: end the request now instead of
			// letting it run to its own timeout. The next caller starts
			// a new one.
			f.dropped = true
			f.cancel()
			if c.flight == f {
				c.flight = nil
			}
		}
		c.mu.Unlock()
		return nil, ctx.Err()
	}
}

// startLocked starts a token request. c.mu is held. caller is the context
// of the call that asked first, for the observers only.
func (c *tokenCache) startLocked(caller context.Context) *tokenFlight {
	// The request is not tied to the context of whichever caller happened
	// to start it (golang/oauth2#388): it is shared by every caller, and
	// ends with its own timeout or when the last of them stops waiting.
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	f := &tokenFlight{done: make(chan struct{}), cancel: cancel}
	c.flight = f
	tt := c.hooks.startTokenFetch(caller)
	go func() {
		defer cancel()
		issued := c.now()
		t, ae := c.fetch(ctx)
		tt.end(ae)
		c.mu.Lock()
		if c.flight == f {
			c.flight = nil
		}
		if ae == nil {
			c.tok, c.failed = t, nil
			c.refreshAt = t.Expiry.Add(-refreshMargin(t.Expiry.Sub(issued)))
			f.tok = t
		} else {
			f.err = ae
			if !f.dropped { // nobody reads a dropped request's failure: not held against later callers
				c.failed, c.failedAt = ae, c.now()
			}
		}
		dropped := f.dropped
		c.mu.Unlock()
		// Logged before the waiters are released, so that the line is
		// written before the calls that needed the token return (never
		// into a logger its owner has finished with), and outside c.mu.
		switch {
		case ae == nil:
			c.hooks.logger.LogAttrs(context.Background(), slog.LevelInfo, "workflow: new access token",
				slog.Time("expires", t.Expiry))
		case !dropped:
			c.hooks.logger.LogAttrs(context.Background(), slog.LevelWarn, "workflow: token request failed",
				slog.String("url", ae.URL), slog.Int("status", ae.StatusCode), slog.String("error", ae.Error()))
		}
		close(f.done)
	}()
	return f
}

// fetch sends one token request and reads its reply.
func (c *tokenCache) fetch(ctx context.Context) (*oauth2.Token, *AuthError) {
	issued := c.now()
	body := strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.tokenURL, body)
	if err != nil {
		return nil, c.authError(&AuthError{Err: err})
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	req.SetBasicAuth(url.QueryEscape(c.id), url.QueryEscape(c.secret))
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, c.authError(&AuthError{Err: c.transportCause(ctx, err)})
	}
	defer closeBody(resp.Body)
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenBody))
	if err != nil {
		return nil, c.authError(&AuthError{StatusCode: resp.StatusCode, Err: c.transportCause(ctx, err)})
	}
	// RFC 6749 section 5.2's error members are read from any answer: some
	// gateways send them with a 200.
	code, desc := tokenErrorFields(raw)
	if resp.StatusCode < 200 || resp.StatusCode > 299 || code != "" {
		ae := &AuthError{StatusCode: resp.StatusCode, ErrorCode: code, Description: desc}
		if resp.StatusCode > 299 {
			// A 2xx's body is not kept: it may carry a token the redactor
			// does not know.
			ae.Body = string(raw)
		}
		return nil, c.authError(ae)
	}
	t, err := parseTokenReply(resp.Header.Get("Content-Type"), raw, issued)
	if err != nil {
		// The body is not kept: a reply that could not be read may still
		// carry a token the redactor does not know.
		return nil, c.authError(&AuthError{StatusCode: resp.StatusCode,
			Err: fmt.Errorf("%w: %w", ErrUnexpectedResponse, err)})
	}
	c.hooks.red.addToken(t.AccessToken)
	return t, nil
}

// transportCause describes why a token request got no answer. The
// request's own timeout is reported as an ErrTimeout, not as
// context.DeadlineExceeded, which callers read as their own deadline.
func (c *tokenCache) transportCause(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &timeoutError{what: "token request timed out after " + c.timeout.String()}
	}
	return ownTimeout(urlCause(err))
}

// urlCause is the cause of a transport's error: the refused redirect if
// there was one, else the error inside the *url.Error, whose text repeats
// the URL, its query included.
func urlCause(err error) error {
	if rd, ok := errors.AsType[*RedirectError](err); ok {
		return rd
	}
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}

// authError completes ae with the token URL and removes known secrets.
func (c *tokenCache) authError(ae *AuthError) *AuthError {
	ae.URL = c.tokenURL
	return c.hooks.red.authError(ae)
}

// tokenErrorFields reads the OAuth 2.0 error code and the server's own
// message from an error reply (RFC 6749 section 5.2, or a "message").
func tokenErrorFields(raw []byte) (code, desc string) {
	var m struct {
		Error            json.RawMessage `json:"error"`
		ErrorDescription string          `json:"error_description"`
		Message          string          `json:"message"`
	}
	if json.Unmarshal(raw, &m) != nil {
		if v, err := url.ParseQuery(string(raw)); err == nil && v.Get("error") != "" {
			return v.Get("error"), v.Get("error_description")
		}
		return "", ""
	}
	_ = json.Unmarshal(m.Error, &code) // a string, or nothing
	// The description is cut by authError, once the secrets are removed.
	return code, cmp.Or(m.ErrorDescription, m.Message)
}

// parseTokenReply reads a successful token reply: JSON (or a form body,
// which some servers send), with expires_in an integer, a fraction or a
// numeric string, and token_type "bearer" in any case (or absent).
// Members other than these are kept as the token's Extra.
func parseTokenReply(contentType string, raw []byte, issued time.Time) (*oauth2.Token, error) {
	var (
		access, typ, refresh, expires string
		extra                         map[string]any
	)
	mt, _, _ := mime.ParseMediaType(contentType)
	if trimmed := bytes.TrimSpace(raw); (mt == "application/x-www-form-urlencoded" || mt == "text/plain") &&
		(len(trimmed) == 0 || trimmed[0] != '{') {
		v, err := url.ParseQuery(string(raw))
		if err != nil {
			return nil, fmt.Errorf("token reply is not a form: %w", err)
		}
		access, typ, refresh, expires = v.Get("access_token"), v.Get("token_type"), v.Get("refresh_token"), v.Get("expires_in")
		extra = map[string]any{}
		for k := range v {
			extra[k] = v.Get(k)
		}
	} else {
		var m struct {
			AccessToken  string          `json:"access_token"`
			TokenType    string          `json:"token_type"`
			RefreshToken string          `json:"refresh_token"`
			ExpiresIn    json.RawMessage `json:"expires_in"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("token reply is not a JSON object: %w", err)
		}
		_ = json.Unmarshal(raw, &extra)
		access, typ, refresh = m.AccessToken, m.TokenType, m.RefreshToken
		// A string is read as a string, and null as none; anything else (a
		// JSON number, or nothing when expires_in is absent) is kept as
		// written.
		if err := json.Unmarshal(m.ExpiresIn, &expires); err != nil {
			expires = string(m.ExpiresIn)
		}
	}
	if access == "" {
		return nil, errors.New("token reply has no access_token")
	}
	if typ != "" && !strings.EqualFold(typ, "bearer") {
		return nil, fmt.Errorf("token reply has token_type %q, not bearer", truncate(oneLine(typ), 40))
	}
	lifetime := defaultTokenLifetime
	if expires = strings.TrimSpace(expires); expires != "" {
		// expires_in is a base-10 number of seconds, fraction allowed. A
		// plain decimal is never negative, NaN or infinite: one too large
		// for a float64 fails with strconv.ErrRange.
		secs, err := strconv.ParseFloat(expires, 64)
		if err != nil || !isDecimal(expires) {
			return nil, fmt.Errorf("token reply has expires_in %q, not a number of seconds", truncate(expires, 40))
		}
		if secs > 0 {
			lifetime = time.Duration(min(secs, maxExpiresIn) * float64(time.Second))
		}
	}
	// extra is set: a reply that got this far is a form or a JSON object.
	t := &oauth2.Token{AccessToken: access, TokenType: "Bearer", RefreshToken: refresh, Expiry: issued.Add(lifetime)}
	return t.WithExtra(extra), nil
}

// maxExpiresIn caps expires_in (ten years), so that the duration cannot
// overflow.
const maxExpiresIn = 10 * 365 * 24 * 3600

// decimal matches a plain base-10 number: digits, at most one ".", an
// optional exponent; no sign, hex, underscores or words.
var decimal = regexp.MustCompile(`^(\d+\.?\d*|\.\d+)([eE]\+?-?\d+)?$`)

// isDecimal reports whether s is a plain base-10 number (see decimal).
func isDecimal(s string) bool {
	return decimal.MatchString(s)
}

// invalidate drops the cached token, but only if it is still the one that
// was rejected: when many requests meet a 401 at once, the first one to
// get here drops it and the others find the fresh one already cached.
func (c *tokenCache) invalidate(t *oauth2.Token) {
	c.mu.Lock()
	if c.tok != nil && c.tok.AccessToken == t.AccessToken {
		c.tok = nil
	}
	c.mu.Unlock()
}

// toAuthError turns the error of a caller's token source into an
// *AuthError. x/oauth2's RetrieveError holds the token request, whose
// Basic header carries the secret, so it is not kept.
func toAuthError(err error) *AuthError {
	if re, ok := errors.AsType[*oauth2.RetrieveError](err); ok {
		ae := &AuthError{ErrorCode: re.ErrorCode, Description: re.ErrorDescription, Body: string(re.Body)}
		if re.Response != nil {
			ae.StatusCode = re.Response.StatusCode
			if re.Response.Request != nil && re.Response.Request.URL != nil {
				ae.URL = redactURL(re.Response.Request.URL)
			}
		}
		return ae
	}
	return &AuthError{Err: urlCause(err)}
}

// staticProvider adapts a caller's oauth2.TokenSource; red removes the
// tokens it gave from its errors.
type staticProvider struct {
	ts  oauth2.TokenSource
	red *redactor
}

func (s staticProvider) token(ctx context.Context) (*oauth2.Token, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t, err := s.ts.Token()
	if err != nil {
		return nil, s.red.authError(toAuthError(err))
	}
	return t, nil
}

func (staticProvider) invalidate(*oauth2.Token) {}

// bearerTransport adds the bearer token, and on a 401 fetches a new token
// and retries once. It waits for the rate limiter, if any, before every
// request it sends, the replay after a 401 included.
type bearerTransport struct {
	next    http.RoundTripper
	tokens  tokenProvider
	limiter *rate.Limiter
	origin  *url.URL // the API's scheme, host and port: the only place the token goes
	hooks   *hooks   // observers, logger and redactor
}

// CloseIdleConnections closes the idle connections of the transport below.
func (t *bearerTransport) CloseIdleConnections() { closeIdle(t.next) }

// waitLimiter waits for the rate limiter, if any, and reports the wait to
// the observers when the limiter had no token to give at once. A wait that
// would pass the context's deadline fails at once with an error that
// matches context.DeadlineExceeded.
func (t *bearerTransport) waitLimiter(r *http.Request) error {
	if t.limiter == nil {
		return nil
	}
	ctx := r.Context()
	report := t.hooks.observed() && t.limiter.Tokens() < 1
	start := time.Now()
	if err := t.limiter.Wait(ctx); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if _, ok := ctx.Deadline(); ok {
			return &limiterDeadlineError{}
		}
		return fmt.Errorf("workflow: rate limiter: %w", err)
	}
	if report {
		t.hooks.rateLimitWait(ctx, r, RateLimitClient, time.Since(start))
	}
	return nil
}

func (t *bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if !sameOrigin(req.URL, t.origin) {
		closeRequestBody(req)
		return nil, foreignOrigin(req.URL)
	}
	tok, err := t.tokens.token(ctx)
	if err == nil {
		t.hooks.red.addToken(tok.AccessToken)
		err = t.waitLimiter(req)
	}
	if err != nil {
		closeRequestBody(req)
		return nil, err
	}
	resp, err := t.next.RoundTrip(withBearer(req, tok, req.Body))
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	// Read and close the 401 before asking for a new token, so that its
	// connection goes back to the pool: with every connection held by a
	// 401, nothing else could be sent.
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+1)) // as request.go reads it
	closeBody(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if rerr != nil {
		return nil, rerr
	}
	// The token was rejected: drop it first, whether or not this request
	// can be sent again, so later calls do not use it.
	t.tokens.invalidate(tok)
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return resp, nil // the body cannot be sent again
	}
	fresh, err := t.tokens.token(ctx)
	if err != nil {
		return nil, err
	}
	if fresh.AccessToken == tok.AccessToken {
		return resp, nil // the source has nothing newer
	}
	t.hooks.red.addToken(fresh.AccessToken)
	replay := req.Body
	if req.GetBody != nil {
		if replay, err = req.GetBody(); err != nil {
			return resp, nil
		}
	}
	retry := withBearer(req, fresh, replay)
	if err := t.waitLimiter(req); err != nil {
		closeRequestBody(retry)
		return nil, err
	}
	route, _ := t.hooks.operationOf(req)
	t.hooks.logger.LogAttrs(ctx, slog.LevelDebug, "workflow: 401, retrying with a new token",
		slog.String("method", req.Method), slog.String("route", route))
	return t.next.RoundTrip(retry)
}

func withBearer(req *http.Request, tok *oauth2.Token, body io.ReadCloser) *http.Request {
	r := req.Clone(req.Context())
	r.Body = body
	r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	return r
}

package workflow

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
	"golang.org/x/sync/singleflight"
)

const (
	// defaultTokenLifetime is the lifetime the spec gives every token; it
	// is used when the token response carries no expires_in.
	defaultTokenLifetime = 24 * time.Hour
	// tokenRefreshMargin: a token this close to its expiry is replaced
	// before use, so a request does not leave with a token about to die.
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
)

// tokenProvider hands out bearer tokens to the bearer transport.
type tokenProvider interface {
	// token returns a valid token, fetching one if needed.
	token(ctx context.Context) (*oauth2.Token, error)
	// invalidate reports that the server rejected t (a 401).
	invalidate(t *oauth2.Token)
}

// tokenCache is the client-credentials token source: one cached token
// shared by all goroutines, one token request in flight at a time.
type tokenCache struct {
	cfg    clientcredentials.Config
	ctx    context.Context // background context carrying the token HTTP client
	logger *slog.Logger
	hooks  *hooks // observers of token requests; nil reports nothing
	now    func() time.Time
	// timeout bounds one token request (tokenFetchTimeout).
	timeout time.Duration

	group    singleflight.Group
	mu       sync.Mutex
	tok      *oauth2.Token
	failed   *AuthError // the last fetch's failure, held for tokenFailureHold
	failedAt time.Time
}

func newTokenCache(id, secret, tokenURL string, hc *http.Client, logger *slog.Logger) *tokenCache {
	return &tokenCache{
		cfg: clientcredentials.Config{
			ClientID:     id,
			ClientSecret: secret,
			TokenURL:     tokenURL,
			AuthStyle:    oauth2.AuthStyleInHeader,
		},
		// Token requests must not be tied to the context of whichever
		// request happened to trigger them (golang/oauth2#388): the token
		// is shared by every caller.
		ctx:     context.WithValue(context.Background(), oauth2.HTTPClient, hc),
		logger:  logger,
		now:     time.Now,
		timeout: tokenFetchTimeout,
	}
}

// String hides the credentials.
func (c *tokenCache) String() string { return "workflow.tokenCache{REDACTED}" }

// GoString hides the credentials.
func (c *tokenCache) GoString() string { return c.String() }

// cached returns the cached token if it is still good. Otherwise, while a
// failed fetch is held (tokenFailureHold), it returns that failure and how
// long the hold lasts, zero when the failure is final (the credentials were
// refused). (nil, nil, 0) means a fetch is due.
func (c *tokenCache) cached() (*oauth2.Token, *AuthError, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if c.tok != nil && now.Add(tokenRefreshMargin).Before(c.tok.Expiry) {
		return c.tok, nil, 0
	}
	if c.failed != nil {
		if left := c.failedAt.Add(tokenFailureHold).Sub(now); left > 0 {
			if !c.failed.temporary() {
				left = 0
			}
			return nil, c.failed, left
		}
	}
	return nil, nil, 0
}

func (c *tokenCache) token(ctx context.Context) (*oauth2.Token, error) {
	var waitedOn *AuthError
	for {
		t, failed, hold := c.cached()
		if t != nil {
			return t, nil
		}
		if failed == nil {
			break
		}
		if waitedOn != nil && failed != waitedOn {
			// Another caller sent the request this one waited for: its
			// outcome is shared, as if the two had joined one request.
			return nil, failed
		}
		if dl, ok := ctx.Deadline(); hold == 0 || ok && time.Until(dl) < hold {
			return nil, failed
		}
		if err := sleepCtx(ctx, hold); err != nil {
			return nil, err
		}
		waitedOn = failed
	}
	ch := c.group.DoChan("token", func() (any, error) {
		if t, failed, _ := c.cached(); t != nil || failed != nil {
			if failed != nil {
				return nil, failed // another fetch has just failed
			}
			return t, nil
		}
		return c.fetch(ctx)
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*oauth2.Token), nil
	case <-ctx.Done():
		// The fetch goes on for the other callers (and is bounded by its
		// own timeout); this caller stops waiting.
		return nil, ctx.Err()
	}
}

// fetch requests a token. caller is the context of the call that asked
// first, for the observers only: the request itself runs under c.ctx.
func (c *tokenCache) fetch(caller context.Context) (*oauth2.Token, error) {
	ctx, cancel := context.WithTimeout(c.ctx, c.timeout)
	defer cancel()
	tt := c.hooks.startTokenFetch(caller)
	issued := c.now()
	t, err := c.cfg.Token(ctx)
	if err != nil {
		ae := toAuthError(err)
		tt.end(ae)
		c.mu.Lock()
		c.failed, c.failedAt = ae, c.now()
		c.mu.Unlock()
		c.logger.LogAttrs(context.Background(), slog.LevelWarn, "workflow: token request failed",
			slog.Int("status", ae.StatusCode), slog.String("error", ae.Error()))
		return nil, ae
	}
	tt.end(nil)
	if t.Expiry.IsZero() {
		t.Expiry = issued.Add(defaultTokenLifetime)
	}
	c.mu.Lock()
	c.tok, c.failed = t, nil
	c.mu.Unlock()
	c.logger.LogAttrs(context.Background(), slog.LevelInfo, "workflow: new access token",
		slog.Time("expires", t.Expiry))
	return t, nil
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

// toAuthError turns an x/oauth2 error into an *AuthError that keeps the
// status and a short body. x/oauth2's RetrieveError holds the token
// request, whose Basic header carries the secret, so it is not kept.
func toAuthError(err error) *AuthError {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		ae := &AuthError{ErrorCode: re.ErrorCode, Body: truncate(string(re.Body), 512)}
		if re.Response != nil {
			ae.StatusCode = re.Response.StatusCode
		}
		return ae
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var rd *RedirectError
	if errors.As(err, &rd) {
		return &AuthError{Err: rd}
	}
	return &AuthError{Err: err}
}

// temporary reports whether the token request may succeed if sent again:
// the endpoint could not be reached (other than by a refused redirect), or
// answered 429 or 5xx.
func (e *AuthError) temporary() bool {
	return e.StatusCode == 0 && e.Err != nil && !isRedirect(e.Err) ||
		e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500
}

// staticProvider adapts a caller's oauth2.TokenSource.
type staticProvider struct{ ts oauth2.TokenSource }

func (s staticProvider) token(ctx context.Context) (*oauth2.Token, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t, err := s.ts.Token()
	if err != nil {
		return nil, toAuthError(err)
	}
	return t, nil
}

func (staticProvider) invalidate(*oauth2.Token) {}

// bearerTransport adds the bearer token, and on a 401 fetches a new token
// and retries once.
type bearerTransport struct {
	next     http.RoundTripper
	tokens   tokenProvider
	logger   *slog.Logger
	basePath string // escaped path of the base URL, for route templates in logs
}

// CloseIdleConnections closes the idle connections of the transport below.
func (t *bearerTransport) CloseIdleConnections() { closeIdle(t.next) }

func (t *bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	tok, err := t.tokens.token(ctx)
	if err != nil {
		closeRequestBody(req)
		return nil, err
	}
	resp, err := t.next.RoundTrip(withBearer(req, tok, req.Body))
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return resp, nil // the body cannot be sent again
	}
	t.tokens.invalidate(tok)
	fresh, err := t.tokens.token(ctx)
	if err != nil {
		closeBody(resp.Body)
		return nil, err
	}
	if fresh.AccessToken == tok.AccessToken {
		return resp, nil // the source has nothing newer
	}
	body := req.Body
	if req.GetBody != nil {
		if body, err = req.GetBody(); err != nil {
			return resp, nil
		}
	}
	closeBody(resp.Body)
	t.logger.LogAttrs(ctx, slog.LevelDebug, "workflow: 401, retrying with a new token",
		slog.String("method", req.Method), slog.String("route", routeOf(t.basePath, req)))
	return t.next.RoundTrip(withBearer(req, fresh, body))
}

func withBearer(req *http.Request, tok *oauth2.Token, body io.ReadCloser) *http.Request {
	r := req.Clone(req.Context())
	r.Body = body
	r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	return r
}

func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-querystring/query"
	"golang.org/x/oauth2"
	"golang.org/x/time/rate"
)

// Version is the SDK's version, sent in the User-Agent header.
const Version = "0.1.0"

// Environment variables read by NewClientFromEnv.
const (
	EnvClientID     = "WORKFLOW_CLIENT_ID"
	EnvClientSecret = "WORKFLOW_CLIENT_SECRET"
	EnvBaseURL      = "WORKFLOW_BASE_URL"
	EnvAuthURL      = "WORKFLOW_AUTH_URL"
)

const defaultUserAgent = "workflow-go/" + Version

// Client talks to the records and workflow-automation API. It is safe for
// concurrent use by many goroutines, and should be created once and reused:
// it caches the access token and the connections.
type Client struct {
	baseURL   *url.URL // ends with "/"
	authURL   *url.URL
	userAgent string
	logger    *slog.Logger

	httpClient    *http.Client // the full chain: retry -> bearer (limiter) -> base
	tokens        *tokenCache  // nil only when the caller supplied a token source
	retry         RetryPolicy
	red           *redactor // removes the secret and tokens from what the SDK produces
	hooks         *hooks    // observers and the debug log of each attempt
	ownsTransport bool      // the base transport is the SDK's own (no WithHTTPClient)

	// Records searches, reads, creates and updates records, and manages
	// their related items, watchers and comments.
	Records *RecordsService
	// Attachments uploads, lists, downloads and deletes file attachments
	// of records, and adds link attachments.
	Attachments *AttachmentsService
	// Users lists, creates, reads and deactivates users.
	Users *UsersService
	// Groups lists, reads, creates and updates groups and manages their
	// members.
	Groups *GroupsService
}

type service struct{ client *Client }

// RecordsService is the part of the API about records. Use it through
// Client.Records.
type RecordsService service

// AttachmentsService is the part of the API about attachments of records.
// Use it through Client.Attachments.
type AttachmentsService service

// UsersService is the part of the API about users. Use it through
// Client.Users.
type UsersService service

// GroupsService is the part of the API about groups. Use it through
// Client.Groups.
type GroupsService service

// String describes the client without any secret.
func (c *Client) String() string {
	if c == nil || c.baseURL == nil {
		return "workflow.Client{}"
	}
	return "workflow.Client{base: " + c.baseURL.String() + "}"
}

// GoString describes the client without any secret, for %#v.
func (c *Client) GoString() string { return c.String() }

// Format prints the client, or a copy of it, as String does, whatever the
// verb (%v, %+v, %#v, %s, %q, %x, ...): a Client value never prints its
// fields, so no secret can show.
func (c Client) Format(f fmt.State, verb rune) {
	s := c.String()
	if verb == 'q' {
		s = strconv.Quote(s)
	}
	_, _ = io.WriteString(f, s)
}

// BaseURL returns the API base URL the client sends requests to (ending in
// "/v1/").
func (c *Client) BaseURL() *url.URL { u := *c.baseURL; return &u }

// config collects what the options set.
type config struct {
	id, secret     string
	hasCredentials bool
	baseURL        string
	authURL        string
	httpClient     *http.Client
	tokenSource    oauth2.TokenSource
	retry          *RetryPolicy
	limiter        *rate.Limiter
	logger         *slog.Logger
	userAgent      string
	allowInsecure  bool
	observers      []*Observer
	errs           []error
}

// Option configures a Client. Options are applied in order by NewClient.
type Option func(*config)

// WithCredentials sets the client ID and client secret of an API access
// token, created in the web application under user settings, OAuth section.
// The SDK exchanges them for an access token (OAuth 2.0 client credentials)
// and never prints them.
func WithCredentials(clientID, clientSecret string) Option {
	return func(c *config) {
		c.id, c.secret, c.hasCredentials = clientID, clientSecret, true
	}
}

// WithEndpoint sets the API base URL (which must end in "/v1") and the
// address of the token endpoint's host; the token URL is authURL +
// "/oauth/token", outside "/v1". EU-region accounts pass their regional
// hosts here. Both must be https unless the host is loopback or
// WithInsecureHTTP is given. An authURL that ends in "/v1" or
// "/oauth/token" is refused: it is the host only (the SDK adds the path).
func WithEndpoint(baseURL, authURL string) Option {
	return func(c *config) { c.baseURL, c.authURL = baseURL, authURL }
}

// WithHTTPClient makes the client send its requests through a copy of hc:
// its Transport (or http.DefaultTransport when nil), Timeout, and Jar are
// used. hc itself is never modified. Without this option a transport tuned
// for many concurrent requests to one host is used: up to 64 connections
// per host, all kept for reuse (more concurrent requests wait for a free
// connection).
//
// Token requests never share the API's connection pool, so that API
// traffic can never keep a new token from being fetched: when hc's
// Transport is an *http.Transport (or nil), token requests go through a
// clone of it (same TLS, proxy and dial settings, its own connections);
// any other RoundTripper cannot be cloned and is used for token requests
// as it is.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config) {
		if hc == nil {
			c.errs = append(c.errs, invalid("WithHTTPClient", "must not be nil"))
			return
		}
		c.httpClient = hc
	}
}

// WithTokenSource makes the client take its bearer tokens from ts instead of
// the client-credentials flow. The SDK caches nothing itself in that case:
// ts should cache (oauth2.ReuseTokenSource). On a 401 the request is
// retried once if ts then returns a different token.
func WithTokenSource(ts oauth2.TokenSource) Option {
	return func(c *config) {
		if ts == nil {
			c.errs = append(c.errs, invalid("WithTokenSource", "must not be nil"))
			return
		}
		c.tokenSource = ts
	}
}

// WithRetry replaces the retry policy (DefaultRetryPolicy otherwise).
func WithRetry(p RetryPolicy) Option {
	return func(c *config) { c.retry = &p }
}

// WithRateLimit makes the client wait for l before every attempt it sends,
// retries included, so that it stays below the service's rate limit instead
// of meeting 429s. Off by default.
func WithRateLimit(l *rate.Limiter) Option {
	return func(c *config) { c.limiter = l }
}

// WithLogger makes the client log each request and retry at debug level,
// and token refreshes at info level. Nothing is logged by default. Tokens,
// secrets and the Authorization header are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithUserAgent puts ua in front of the SDK's own User-Agent
// ("workflow-go/<version>").
func WithUserAgent(ua string) Option {
	return func(c *config) { c.userAgent = ua }
}

// WithInsecureHTTP allows plain http:// endpoints on hosts that are not
// loopback (loopback hosts are always allowed). Tokens and credentials then
// cross the network in clear text; use it only inside a trusted network.
func WithInsecureHTTP() Option {
	return func(c *config) { c.allowInsecure = true }
}

// NewClient returns a client configured by opts. It does no I/O: the first
// token is requested with the first API call. It needs WithCredentials or
// WithTokenSource, and WithEndpoint: the spec names no fixed host (an
// account's hosts depend on its region), so there is no default endpoint
// that could send credentials to the wrong place.
func NewClient(opts ...Option) (*Client, error) {
	var cfg config
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if err := errors.Join(cfg.errs...); err != nil {
		return nil, err
	}
	if cfg.tokenSource == nil {
		if !cfg.hasCredentials {
			return nil, invalid("credentials", "WithCredentials or WithTokenSource is required")
		}
		if cfg.id == "" {
			return nil, invalid("client ID", "must not be empty")
		}
		if cfg.secret == "" {
			return nil, invalid("client secret", "must not be empty")
		}
	}
	retry := DefaultRetryPolicy()
	if cfg.retry != nil {
		retry = cfg.retry.withDefaults()
	}
	if err := retry.validate(); err != nil {
		return nil, err
	}
	if cfg.baseURL == "" && cfg.authURL == "" {
		return nil, invalid("endpoint", "WithEndpoint(baseURL, authURL) is required: the API base URL (ending in /v1) and the token host of your account's region")
	}
	base, err := checkEndpoint("base URL", cfg.baseURL, cfg.allowInsecure)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(strings.TrimSuffix(base.Path, "/"), "/v1") {
		return nil, invalid("base URL", `path must end in "/v1" (for example https://host/v1)`)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
		base.RawPath = ""
	}
	auth, err := checkEndpoint("auth URL", cfg.authURL, cfg.allowInsecure)
	if err != nil {
		return nil, err
	}
	if p := strings.TrimSuffix(auth.Path, "/"); strings.HasSuffix(p, "/v1") || strings.HasSuffix(p, "/oauth/token") {
		return nil, invalid("auth URL", `must be the token endpoint's host, without "/v1" or "/oauth/token" (the SDK adds "/oauth/token"); for example https://host`)
	}
	red := newRedactor(cfg.id, cfg.secret)

	c := &Client{
		baseURL:   base,
		authURL:   auth,
		userAgent: defaultUserAgent,
		logger:    cfg.logger,
		retry:     retry,
		red:       red,
	}
	c.hooks = newHooks(cfg.observers, c.logger, base, auth)
	c.hooks.red = red
	if cfg.userAgent != "" {
		c.userAgent = cfg.userAgent + " " + defaultUserAgent
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
		c.hooks.logger = c.logger
	}

	// The caller's client is copied, never modified.
	var hc http.Client
	if cfg.httpClient != nil {
		hc = *cfg.httpClient
	}
	baseTransport := hc.Transport
	if baseTransport == nil {
		if cfg.httpClient != nil {
			baseTransport = http.DefaultTransport
		} else {
			baseTransport = newTransport()
			c.ownsTransport = true
		}
	}
	hc.CheckRedirect = sameOriginRedirects(hc.CheckRedirect, red)

	var ts tokenProvider
	if cfg.tokenSource != nil {
		ts = staticProvider{cfg.tokenSource}
	} else {
		tokenHTTP := &http.Client{
			Transport:     tokenTransport(&hc, baseTransport),
			CheckRedirect: sameOriginRedirects(nil, red),
		}
		c.tokens = newTokenCache(cfg.id, cfg.secret, auth.JoinPath("oauth", "token").String(), c.userAgent, tokenHTTP, red, c.logger)
		c.tokens.hooks = c.hooks
		ts = c.tokens
	}
	hc.Transport = &retryTransport{
		next: &bearerTransport{next: baseTransport, tokens: ts, limiter: cfg.limiter,
			origin: base, red: red, logger: c.logger, hooks: c.hooks, basePath: c.hooks.basePath},
		policy: retry,
		red:    red,
		hooks:  c.hooks,
	}
	c.httpClient = &hc

	c.Records = &RecordsService{client: c}
	c.Attachments = &AttachmentsService{client: c}
	c.Users = &UsersService{client: c}
	c.Groups = &GroupsService{client: c}
	return c, nil
}

// NewClientFromEnv returns a client configured from the environment:
// WORKFLOW_CLIENT_ID, WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL (the API
// base, ending in /v1) and WORKFLOW_AUTH_URL (the token host). The URLs may
// be left out of the environment only when opts set WithEndpoint. opts are
// applied after the environment, so they can override it.
func NewClientFromEnv(opts ...Option) (*Client, error) {
	id, secret := os.Getenv(EnvClientID), os.Getenv(EnvClientSecret)
	if id == "" {
		return nil, invalid(EnvClientID, "environment variable must be set")
	}
	if secret == "" {
		return nil, invalid(EnvClientSecret, "environment variable must be set")
	}
	env := []Option{WithCredentials(id, secret)}
	base, auth := os.Getenv(EnvBaseURL), os.Getenv(EnvAuthURL)
	switch {
	case base != "" && auth != "":
		env = append(env, WithEndpoint(base, auth))
	case base != "" || auth != "":
		return nil, invalid(EnvBaseURL+"/"+EnvAuthURL, "set both or neither")
	}
	c, err := NewClient(append(env, opts...)...)
	var ve *ValidationError
	if errors.As(err, &ve) && ve.Field == "endpoint" {
		return nil, invalid(EnvBaseURL, "environment variable must be set, with "+EnvAuthURL+" (or pass WithEndpoint)")
	}
	return c, err
}

// checkEndpoint parses an endpoint URL and enforces https unless the host
// is loopback or insecure HTTP was allowed.
func checkEndpoint(field, raw string, allowInsecure bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, &ValidationError{Field: field, Rule: "must be an absolute URL", Err: err}
	}
	if u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, invalid(field, "must be an absolute http(s) URL")
	}
	if u.User != nil {
		return nil, invalid(field, "must not carry user information")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, invalid(field, "must not have a query or fragment")
	}
	if u.Scheme == "http" && !allowInsecure && !isLoopback(u.Hostname()) {
		return nil, invalid(field, "must use https unless the host is loopback (or WithInsecureHTTP is given)")
	}
	return u, nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// tokenTransport returns the transport of token requests: never the API's
// own pool (see WithHTTPClient). Its connections are not kept: a token is
// fetched about once a day, and an idle connection (with its goroutines)
// left behind by it would outlive a caller's CloseIdleConnections.
func tokenTransport(user *http.Client, api http.RoundTripper) http.RoundTripper {
	var t *http.Transport
	switch ut := user.Transport.(type) {
	case nil:
		t = http.DefaultTransport.(*http.Transport).Clone()
	case *http.Transport:
		t = ut.Clone()
	default:
		return api
	}
	t.DisableKeepAlives = true
	return t
}

// sameOriginRedirects refuses redirects that change scheme, host or port,
// then defers to the caller's own policy (or Go's default of 10 hops).
// Known secrets are removed from the URLs of the error.
func sameOriginRedirects(next func(*http.Request, []*http.Request) error, red *redactor) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		if req.URL.Scheme != first.Scheme || !strings.EqualFold(req.URL.Host, first.Host) ||
			req.URL.Port() != first.Port() {
			return &RedirectError{From: red.redact(redactURL(via[len(via)-1].URL)), To: red.redact(redactURL(req.URL))}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("workflow: stopped after 10 redirects")
		}
		return nil
	}
}

// redactURL prints u without user information.
func redactURL(u *url.URL) string {
	if u.User == nil {
		return u.String()
	}
	v := *u
	v.User = nil
	return v.String()
}

// maxConnsPerHost is how many connections the default transport opens to
// one host; more concurrent requests wait for a free one.
const maxConnsPerHost = 64

// newTransport returns the default transport: http.DefaultTransport's
// settings with every connection kept for reuse (Go's default keeps only 2
// idle per host, so 64 goroutines would keep reconnecting) and at most
// maxConnsPerHost per host. Without that cap, a request that finds every
// connection busy dials a new one, and when another connection frees up
// first it takes that one and the new connection is left over: under load
// the pool keeps growing past the number of callers.
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 4 * maxConnsPerHost
	t.MaxIdleConnsPerHost = maxConnsPerHost
	t.MaxConnsPerHost = maxConnsPerHost
	t.IdleConnTimeout = 90 * time.Second
	return t
}

// segment validates one path segment (an alias or an id) and escapes it.
// Escaping turns "?", "#" and "%" into data, which stay allowed. Refused,
// because servers and proxies that normalise paths would still read them
// as path steps or cut the request there: "/" (even escaped, a proxy may
// decode it and send "../../users/u1" elsewhere with the caller's token),
// a whole "." or "..", control characters (newline, CR, NUL, ...), and a
// value that is empty or only white space.
func segment(field, v string) (string, error) {
	switch {
	case v == "":
		return "", invalid(field, "must not be empty")
	case v == "." || v == "..":
		return "", invalid(field, `must not be "." or ".."`)
	case strings.TrimSpace(v) == "":
		return "", invalid(field, "must not be only white space")
	case strings.Contains(v, "/"):
		return "", invalid(field, `must not contain "/"`)
	case strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }):
		return "", invalid(field, "must not contain control characters")
	}
	return url.PathEscape(v), nil
}

// buildPath joins already escaped segments.
func buildPath(escaped ...string) string { return strings.Join(escaped, "/") }

// NewRequest builds a request for the API. path is relative to the base URL
// (for example "tasks/it-requests"), with each segment already escaped with
// url.PathEscape; a leading "/" is ignored so the "/v1" prefix is kept. body,
// if not nil, is sent as JSON (an io.Reader is sent as it is, with the
// Content-Type left to the caller). The request carries the SDK's Accept and
// User-Agent headers; authentication is added when it is sent with Do.
// reqOpts apply to this request as to any service method's.
func (c *Client) NewRequest(ctx context.Context, method, path string, body any, reqOpts ...RequestOption) (*http.Request, error) {
	return c.newRequest(ctx, method, path, nil, body, reqOpts...)
}

// newRequest builds a request; q, if not nil, is a struct encoded with
// go-querystring "url" tags, or url.Values. reqOpts are checked first and
// travel with the request in its context.
func (c *Client) newRequest(ctx context.Context, method, path string, q any, body any, reqOpts ...RequestOption) (*http.Request, error) {
	if ctx == nil {
		return nil, invalid("ctx", "must not be nil")
	}
	cfg, err := newRequestConfig(reqOpts, c.retry)
	if err != nil {
		return nil, err
	}
	ctx = withRequestConfig(ctx, cfg)
	rel, err := url.Parse(strings.TrimLeft(path, "/"))
	if err != nil {
		return nil, &ValidationError{Field: "path", Rule: "must be a relative URL path", Err: err}
	}
	if rel.IsAbs() || rel.Host != "" {
		return nil, invalid("path", "must be relative to the base URL")
	}
	u := c.baseURL.ResolveReference(rel)
	if q != nil {
		var vals url.Values
		switch q := q.(type) {
		case url.Values:
			vals = q
		default:
			vals, err = query.Values(q)
			if err != nil {
				return nil, &ValidationError{Field: "options", Rule: "must encode as a query", Err: err}
			}
		}
		if enc := vals.Encode(); enc != "" {
			if u.RawQuery != "" {
				u.RawQuery += "&" + enc
			} else {
				u.RawQuery = enc
			}
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
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			return nil, &ValidationError{Field: "body", Rule: "must encode as JSON", Err: err}
		}
		rdr = bytes.NewReader(buf)
		contentType = "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rdr)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if err := cfg.applyToRequest(req); err != nil {
		return nil, err
	}
	return req, nil
}

// Do sends req (built with NewRequest, or any request to the API's host)
// with authentication, retries and error decoding. The bearer token is
// attached only to requests for the API's own scheme, host and port (those
// of the base URL): a request for any other is refused before anything is
// sent, with a *ValidationError. A status of 400 or more is returned as an
// *APIError. Otherwise, when v is an io.Writer the body is
// copied into it, and when v is any other non-nil value the JSON body is
// decoded into it. The response body is always read to the end and closed;
// the returned response is for its status and header.
func (c *Client) Do(req *http.Request, v any) (*http.Response, error) {
	return c.do(req, v)
}

// bodyDecoder is implemented by result types that decode themselves from a
// response body faster than encoding/json would.
type bodyDecoder interface {
	decodeBody(r io.Reader) error
}

func (c *Client) do(req *http.Request, v any) (resp *http.Response, err error) {
	if req == nil || req.URL == nil {
		return nil, invalid("request", "must not be nil and must have a URL")
	}
	if !sameOrigin(req.URL, c.baseURL) {
		closeRequestBody(req)
		return nil, foreignOrigin(req.URL)
	}
	req, finish := c.startCall(req)
	defer func() { finish(resp, err) }()
	resp, err = c.httpClient.Do(req)
	if err != nil {
		return nil, c.transportError(req, err)
	}
	defer closeBody(resp.Body)

	if resp.StatusCode >= 400 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return resp, c.apiError(resp, body)
	}
	rr, _ := v.(resourceResult)
	if v == nil || resp.StatusCode == http.StatusNoContent {
		if rr != nil && !rr.resourcePresent() {
			return resp, c.wrap(req, missingResource(resp.StatusCode, rr.resourceName()))
		}
		return resp, nil
	}
	switch v := v.(type) {
	case io.Writer:
		_, err = io.Copy(v, resp.Body)
	case bodyDecoder:
		err = v.decodeBody(resp.Body)
	default:
		err = json.NewDecoder(resp.Body).Decode(v)
		if errors.Is(err, io.EOF) {
			err = nil // an empty body leaves v as it was
		}
	}
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return resp, c.wrap(req, ctxErr)
		}
		return resp, c.wrap(req, fmt.Errorf("reading response: %w", err))
	}
	if rr != nil && !rr.resourcePresent() {
		return resp, c.wrap(req, missingResource(resp.StatusCode, rr.resourceName()))
	}
	return resp, nil
}

// wrap prefixes err with the request's method and URL, known secrets
// removed; errors.Is and errors.As still see err.
func (c *Client) wrap(req *http.Request, err error) error {
	msg := "workflow: " + req.Method + " " + c.red.redact(redactURL(req.URL)) + ": " + c.red.redact(err.Error())
	return &redactedError{msg: msg, err: err}
}

// apiError builds the *APIError of a response, known secrets removed from
// its message, header copy, body excerpt and URL.
func (c *Client) apiError(resp *http.Response, body []byte) *APIError {
	e := newAPIError(resp, c.red.redactBytes(body))
	e.Header = c.red.redactHeader(resp.Header)
	e.Message = c.red.redact(e.Message)
	e.URL = c.red.redact(e.URL)
	return e
}

// transportError unwraps what http.Client wraps, so that callers see
// *AuthError and *RedirectError directly, and the context's error wrapped
// with the request's method and URL.
func (c *Client) transportError(req *http.Request, err error) error {
	if ctxErr := req.Context().Err(); ctxErr != nil {
		return c.wrap(req, ctxErr)
	}
	var ae *AuthError
	if errors.As(err, &ae) {
		return ae
	}
	var re *RedirectError
	if errors.As(err, &re) {
		return re
	}
	var ve *ValidationError
	if errors.As(err, &ve) {
		return ve
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var le *limiterDeadlineError
	if errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, ErrTimeout) && !errors.As(err, &le) {
		// A deadline that is not the caller's (theirs was checked
		// above): a connect timeout of the transport, for example.
		err = &timeoutError{what: c.red.redact(err.Error()), err: err}
	}
	return c.wrap(req, err)
}

// closeBody drains a bounded amount of the body so the connection can be
// reused, then closes it.
func closeBody(b io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, b, 256<<10)
	_ = b.Close()
}

package workflow

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/time/rate"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
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
	userAgent string

	httpClient    *http.Client   // one attempt: bearer (limiter) -> base transport
	tokens        *tokenCache    // nil only when the caller supplied a token source
	defaults      *requestConfig // the RequestOptions given to NewClient, resolved
	red           *redactor      // removes the secret and tokens from what the SDK produces
	hooks         *hooks         // observers and the debug log of each attempt
	ownsTransport bool           // the base transport is the SDK's own (no WithHTTPClient)

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
	callOpts       []RequestOption
	limiter        *rate.Limiter
	logger         *slog.Logger
	userAgent      string
	allowInsecure  bool
	observers      []*Observer
	errs           []error
}

// Option configures a Client. Options are applied in order by NewClient.
// Besides the client options below, every RequestOption is an Option too:
// given to NewClient, it applies to every call (see RequestOption).
type Option interface{ applyClient(*config) }

// clientOption is an option of the client alone.
type clientOption func(*config)

func (o clientOption) applyClient(c *config) { o(c) }

// setNonNil is the option of an argument v that must not be nil: set
// applies it; a nil v is a *ValidationError naming the option.
func setNonNil[T comparable](option string, v T, set func(*config)) Option {
	return clientOption(func(c *config) {
		var none T
		if v == none {
			c.errs = append(c.errs, invalid(option, "must not be nil"))
			return
		}
		set(c)
	})
}

// WithCredentials sets the client ID and client secret of an API access
// token, created in the web application under user settings, OAuth section.
// The SDK exchanges them for an access token (OAuth 2.0 client credentials)
// and never prints them.
func WithCredentials(clientID, clientSecret string) Option {
	return clientOption(func(c *config) {
		c.id, c.secret, c.hasCredentials = clientID, clientSecret, true
	})
}

// WithEndpoint sets the API base URL (which must end in "/v1") and the
// address of the token endpoint's host; the token URL is authURL +
// "/oauth/token", outside "/v1". EU-region accounts pass their regional
// hosts here. Both must be https unless the host is loopback or
// WithInsecureHTTP is given. An authURL that ends in "/v1" or
// "/oauth/token" is refused: it is the host only (the SDK adds the path).
func WithEndpoint(baseURL, authURL string) Option {
	return clientOption(func(c *config) { c.baseURL, c.authURL = baseURL, authURL })
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
	return setNonNil("WithHTTPClient", hc, func(c *config) { c.httpClient = hc })
}

// WithTokenSource makes the client take its bearer tokens from ts instead of
// the client-credentials flow. The SDK caches nothing itself in that case:
// ts should cache (oauth2.ReuseTokenSource). On a 401 the request is
// retried once if ts then returns a different token.
func WithTokenSource(ts oauth2.TokenSource) Option {
	return setNonNil("WithTokenSource", ts, func(c *config) { c.tokenSource = ts })
}

// WithRateLimit makes the client wait for l before every attempt it sends,
// retries included, so that it stays below the service's rate limit instead
// of meeting 429s. Off by default.
func WithRateLimit(l *rate.Limiter) Option {
	return clientOption(func(c *config) { c.limiter = l })
}

// WithLogger makes the client log each request and retry at debug level,
// and token refreshes at info level. Nothing is logged by default. Tokens,
// secrets and the Authorization header are never logged.
func WithLogger(l *slog.Logger) Option {
	return clientOption(func(c *config) { c.logger = l })
}

// WithUserAgent puts ua in front of the SDK's own User-Agent
// ("workflow-go/<version>").
func WithUserAgent(ua string) Option {
	return clientOption(func(c *config) { c.userAgent = ua })
}

// WithInsecureHTTP allows plain http:// endpoints on hosts that are not
// loopback (loopback hosts are always allowed). Tokens and credentials then
// cross the network in clear text; use it only inside a trusted network.
func WithInsecureHTTP() Option {
	return clientOption(func(c *config) { c.allowInsecure = true })
}

// NewClient returns a client configured by opts. It does no I/O: the first
// token is requested with the first API call. It needs WithCredentials or
// WithTokenSource, and WithEndpoint: the spec names no fixed host (an
// account's hosts depend on its region), so there is no default endpoint
// that could send credentials to the wrong place.
func NewClient(opts ...Option) (*Client, error) {
	cfg := configOf(opts)
	if err := errors.Join(cfg.errs...); err != nil {
		return nil, err
	}
	switch {
	case cfg.tokenSource != nil: // no credentials needed
	case !cfg.hasCredentials:
		return nil, invalid("credentials", "WithCredentials or WithTokenSource is required")
	case cfg.id == "":
		return nil, invalid("client ID", "must not be empty")
	case cfg.secret == "":
		return nil, invalid("client secret", "must not be empty")
	}
	defaults, err := (&requestConfig{policy: DefaultRetryPolicy()}).resolve(cfg.callOpts)
	if err != nil {
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
		userAgent: defaultUserAgent,
		defaults:  defaults,
		red:       red,
		hooks:     newHooks(cfg.observers, cmp.Or(cfg.logger, slog.New(slog.DiscardHandler)), red, base, auth),
	}
	if cfg.userAgent != "" {
		c.userAgent = cfg.userAgent + " " + defaultUserAgent
	}

	// The caller's client is copied, never modified.
	hc := valueOf(cfg.httpClient)
	baseTransport := hc.Transport
	switch {
	case cfg.httpClient == nil:
		baseTransport = newTransport()
		c.ownsTransport = true
	case baseTransport == nil:
		baseTransport = http.DefaultTransport
	}
	hc.CheckRedirect = sameOriginRedirects(hc.CheckRedirect, red)

	var ts tokenProvider
	if cfg.tokenSource != nil {
		ts = staticProvider{cfg.tokenSource, red}
	} else {
		tokenHTTP := &http.Client{
			Transport:     tokenTransport(&hc, baseTransport),
			CheckRedirect: sameOriginRedirects(nil, red),
		}
		c.tokens = newTokenCache(cfg.id, cfg.secret, auth.JoinPath("oauth", "token").String(), c.userAgent, tokenHTTP, c.hooks)
		ts = c.tokens
	}
	hc.Transport = &bearerTransport{next: baseTransport, tokens: ts, limiter: cfg.limiter,
		origin: base, hooks: c.hooks}
	c.httpClient = &hc

	c.Records = &RecordsService{client: c,
		Comments: &CommentsService{recordList[Comment]{c, op.ListRecordComments}},
		Watchers: &WatchersService{recordList[Watcher]{c, op.ListRecordWatchers}},
		Related:  &RelatedService{recordList[RelatedItem]{c, op.GetRecordRelations}},
	}
	c.Attachments = &AttachmentsService{client: c}
	c.Users = &UsersService{topList[User]{c, op.ListUsers}}
	c.Groups = &GroupsService{topList: topList[Group]{c, op.ListGroups}, Members: &MembersService{client: c}}
	return c, nil
}

// NewClientFromEnv returns a client configured from the environment:
// WORKFLOW_CLIENT_ID, WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL (the API
// base, ending in /v1) and WORKFLOW_AUTH_URL (the token host). The URLs may
// be left out of the environment only when opts set WithEndpoint. opts are
// applied after the environment, so they can override it.
func NewClientFromEnv(opts ...Option) (*Client, error) {
	given := configOf(opts)
	env := map[string]string{}
	required := []string{EnvClientID, EnvClientSecret, EnvBaseURL, EnvAuthURL}
	for _, k := range required {
		env[k] = os.Getenv(k)
	}
	if (given.baseURL != "" || given.authURL != "") && env[EnvBaseURL] == "" && env[EnvAuthURL] == "" {
		required = required[:2] // both URLs may be left out when opts give WithEndpoint
	}
	missing := slices.DeleteFunc(required, func(k string) bool { return env[k] != "" })
	switch {
	case len(missing) == 1:
		return nil, invalid(missing[0], "environment variable must be set")
	case len(missing) > 1:
		return nil, invalid(strings.Join(missing, ", "), "environment variables must be set (the two URLs may be left out when WithEndpoint is given)")
	}
	base := []Option{WithCredentials(env[EnvClientID], env[EnvClientSecret])}
	if env[EnvBaseURL] != "" {
		base = append(base, WithEndpoint(env[EnvBaseURL], env[EnvAuthURL]))
	}
	return NewClient(append(base, opts...)...)
}

// configOf applies opts in order to a new config, skipping nil options.
func configOf(opts []Option) config {
	var c config
	for _, o := range opts {
		if o != nil {
			o.applyClient(&c)
		}
	}
	return c
}

// checkEndpoint parses an endpoint URL and enforces https unless the host
// is loopback or insecure HTTP was allowed.
func checkEndpoint(field, raw string, allowInsecure bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, invalid(field, "must be an absolute URL, and does not parse as one") // url.Parse's error quotes the URL
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

// isLoopback reports whether host is localhost or a loopback IP address
// (net.ParseIP gives nil for anything else, and nil is not loopback).
func isLoopback(host string) bool {
	return strings.EqualFold(host, "localhost") || net.ParseIP(host).IsLoopback()
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
// Known secrets and the values the request sent are removed from the
// URLs of the error.
func sameOriginRedirects(next func(*http.Request, []*http.Request) error, red *redactor) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		if req.URL.Scheme != first.Scheme || !strings.EqualFold(req.URL.Host, first.Host) { // Host holds the port
			scrub := red.scrubber(via[0])
			return &RedirectError{From: scrub(redactURL(via[len(via)-1].URL)), To: scrub(redactURL(req.URL))}
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

// CloseIdleConnections closes the connections the client keeps open for
// reuse that no request is using now. Requests in flight are not
// disturbed, and the client stays usable: later requests open new
// connections. It is safe to call at any time, more than once, and from
// several goroutines. Call it when a client is no longer needed, so its
// connections do not linger until the server or the idle timeout (90s)
// closes them.
//
// It acts on the transport the SDK made for the client. A client given
// its own *http.Client with WithHTTPClient is left alone: that transport
// is yours and may be shared; call its CloseIdleConnections yourself.
func (c *Client) CloseIdleConnections() {
	if c.ownsTransport {
		c.httpClient.CloseIdleConnections()
	}
}

// valueOf returns a copy of *p, or the zero T when p is nil: the options
// a caller may leave nil are read through it, never written.
func valueOf[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}

// closeIdle closes the idle connections of rt, if it has any.
func closeIdle(rt http.RoundTripper) {
	if ci, ok := rt.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

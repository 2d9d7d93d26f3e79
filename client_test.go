package workflow

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewClientValidation(t *testing.T) {
	creds := WithCredentials("id", "secret")
	tests := []struct {
		name  string
		opts  []Option
		field string
	}{
		{"no credentials", []Option{WithEndpoint("https://api.example.com/v1", "https://auth.example.com")}, "credentials"},
		{"no endpoint", []Option{creds}, "endpoint"},
		{"empty id", []Option{WithCredentials("", "s"), WithEndpoint("https://api.example.com/v1", "https://auth.example.com")}, "client ID"},
		{"empty secret", []Option{WithCredentials("i", ""), WithEndpoint("https://api.example.com/v1", "https://auth.example.com")}, "client secret"},
		{"base without v1", []Option{creds, WithEndpoint("https://api.example.com/v2", "https://auth.example.com")}, "base URL"},
		{"base without path", []Option{creds, WithEndpoint("https://api.example.com", "https://auth.example.com")}, "base URL"},
		{"http base, remote host", []Option{creds, WithEndpoint("http://api.example.com/v1", "https://auth.example.com")}, "base URL"},
		{"http auth, remote host", []Option{creds, WithEndpoint("https://api.example.com/v1", "http://auth.example.com")}, "auth URL"},
		{"http base, remote IP", []Option{creds, WithEndpoint("http://10.0.0.1/v1", "https://auth.example.com")}, "base URL"},
		{"relative base", []Option{creds, WithEndpoint("/v1", "https://auth.example.com")}, "base URL"},
		{"ftp base", []Option{creds, WithEndpoint("ftp://api.example.com/v1", "https://auth.example.com")}, "base URL"},
		{"userinfo", []Option{creds, WithEndpoint("https://u:p@api.example.com/v1", "https://auth.example.com")}, "base URL"},
		{"query", []Option{creds, WithEndpoint("https://api.example.com/v1?x=1", "https://auth.example.com")}, "base URL"},
		{"empty base URL", []Option{creds, WithEndpoint("", "https://auth.example.com")}, "base URL"},
		{"nil http client", []Option{creds, WithHTTPClient(nil)}, "WithHTTPClient"},
		{"nil token source", []Option{WithTokenSource(nil)}, "WithTokenSource"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewClient(tt.opts...)
			require.Nil(t, c)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tt.field, ve.Field)
			assert.NotEmpty(t, ve.Rule)
		})
	}
}

func TestNewClientEndpoints(t *testing.T) {
	tests := []struct {
		base, auth string
		opts       []Option
		wantBase   string
	}{
		{"https://api.example.com/v1", "https://auth.example.com", nil, "https://api.example.com/v1/"},
		{"https://eu.api.example.com/v1/", "https://eu.auth.example.com", nil, "https://eu.api.example.com/v1/"},
		{"http://127.0.0.1:8080/v1", "http://127.0.0.1:8080", nil, "http://127.0.0.1:8080/v1/"},
		{"http://localhost/v1", "http://localhost", nil, "http://localhost/v1/"},
		{"http://[::1]:9/v1", "http://[::1]:9", nil, "http://[::1]:9/v1/"},
		{"https://gw.example.com/workflow/v1", "https://gw.example.com/auth", nil, "https://gw.example.com/workflow/v1/"},
		{"http://intranet/v1", "http://intranet", []Option{WithInsecureHTTP()}, "http://intranet/v1/"},
	}
	for _, tt := range tests {
		opts := append([]Option{WithCredentials("id", "secret"), WithEndpoint(tt.base, tt.auth)}, tt.opts...)
		c, err := NewClient(opts...)
		require.NoError(t, err, tt.base)
		assert.Equal(t, tt.wantBase, c.BaseURL().String())
		assert.Equal(t, tt.auth+"/oauth/token", c.tokens.tokenURL, "token URL is outside /v1")
	}
}

func TestNewClientFromEnv(t *testing.T) {
	t.Setenv(EnvClientID, "env-id")
	t.Setenv(EnvClientSecret, "env-secret")
	t.Setenv(EnvBaseURL, "https://eu.api.example.com/v1")
	t.Setenv(EnvAuthURL, "https://eu.auth.example.com")
	c, err := NewClientFromEnv()
	require.NoError(t, err)
	assert.Equal(t, "https://eu.api.example.com/v1/", c.BaseURL().String())
	assert.Equal(t, "env-id", c.tokens.id)

	// Options given in code override the environment.
	c, err = NewClientFromEnv(WithEndpoint("https://other.example.com/v1", "https://other.example.com"))
	require.NoError(t, err)
	assert.Equal(t, "https://other.example.com/v1/", c.BaseURL().String())

	// Every missing variable is named, in one error.
	var ve *ValidationError
	for _, tc := range []struct {
		unset   []string
		opts    []Option
		field   string
		message string
	}{
		{unset: []string{EnvAuthURL}, field: EnvAuthURL},
		{unset: []string{EnvBaseURL, EnvAuthURL}, field: EnvBaseURL + ", " + EnvAuthURL},
		{unset: []string{EnvBaseURL, EnvAuthURL}, opts: []Option{WithEndpoint("https://other.example.com/v1", "https://other.example.com")}},
		{unset: []string{EnvClientSecret, EnvBaseURL, EnvAuthURL}, field: EnvClientSecret + ", " + EnvBaseURL + ", " + EnvAuthURL},
		{unset: []string{EnvClientID, EnvClientSecret, EnvBaseURL, EnvAuthURL},
			message: "workflow: invalid WORKFLOW_CLIENT_ID, WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL, WORKFLOW_AUTH_URL: environment variables must be set (the two URLs may be left out when WithEndpoint is given)"},
	} {
		for _, k := range []string{EnvClientID, EnvClientSecret, EnvBaseURL, EnvAuthURL} {
			t.Setenv(k, map[string]string{EnvClientID: "env-id", EnvClientSecret: "env-secret", EnvBaseURL: "https://eu.api.example.com/v1", EnvAuthURL: "https://eu.auth.example.com"}[k])
		}
		for _, k := range tc.unset {
			t.Setenv(k, "")
		}
		_, err = NewClientFromEnv(tc.opts...)
		switch {
		case tc.message != "":
			assert.EqualError(t, err, tc.message)
		case tc.field == "":
			assert.NoError(t, err, "unset %v", tc.unset)
		default:
			require.ErrorAs(t, err, &ve, "unset %v", tc.unset)
			assert.Equal(t, tc.field, ve.Field)
		}
	}
}

func TestCallerHTTPClientIsNotModified(t *testing.T) {
	var reached atomic.Bool
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		reached.Store(true)
		return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(`{}`)), Request: r, Header: http.Header{}}, nil
	})}
	before := *hc
	c, err := NewClient(WithTokenSource(staticTokenSource("t")), WithHTTPClient(hc),
		WithEndpoint("https://api.example.com/v1", "https://auth.example.com"))
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("%p", before.Transport), fmt.Sprintf("%p", hc.Transport))
	assert.Nil(t, hc.CheckRedirect)
	require.NoError(t, get(t.Context(), c))
	assert.True(t, reached.Load(), "requests go through the caller's transport")
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestRequestHeadersAndEscapeHatch(t *testing.T) {
	var got *http.Request
	var body []byte
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"answer":42}`))
	}), WithUserAgent("my-integration/1.2"))

	req, err := c.NewRequest(t.Context(), http.MethodPost, "/tasks/alias/unmodelled?x=1", map[string]int{"n": 1})
	require.NoError(t, err)
	var out struct{ Answer int }
	resp, err := c.Do(req, &out)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, 42, out.Answer)
	assert.Equal(t, "/tasks/alias/unmodelled", got.URL.Path, "the leading / keeps the /v1 prefix")
	assert.Equal(t, "x=1", got.URL.RawQuery)
	assert.Equal(t, "Bearer "+testToken, got.Header.Get("Authorization"))
	assert.Equal(t, "application/json", got.Header.Get("Accept"))
	assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
	assert.Equal(t, "my-integration/1.2 workflow-go/"+Version, got.Header.Get("User-Agent"))
	assert.JSONEq(t, `{"n":1}`, string(body))

	// An io.Writer receives the raw body.
	req, err = c.NewRequest(t.Context(), http.MethodGet, "raw", nil)
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = c.Do(req, &buf)
	require.NoError(t, err)
	assert.Equal(t, `{"answer":42}`, buf.String())

	_, err = c.NewRequest(t.Context(), http.MethodGet, "https://elsewhere.example.com/v1/x", nil)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
}

func TestPathSegmentsAreEscaped(t *testing.T) {
	var paths []string
	var mu sync.Mutex
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.EscapedPath())
		mu.Unlock()
		_, _ = w.Write([]byte(`{"id":"x"}`))
	}))
	for _, tt := range []struct{ id, want string }{
		{"a?b", "/tasks/it%20requests/a%3Fb"},
		{"..%2Fusers", "/tasks/it%20requests/..%252Fusers"},
		{"x?y#z", "/tasks/it%20requests/x%3Fy%23z"},
		{"%2F", "/tasks/it%20requests/%252F"},
		{"ä b", "/tasks/it%20requests/%C3%A4%20b"},
	} {
		mu.Lock()
		paths = nil
		mu.Unlock()
		_, err := c.Records.Get(t.Context(), Tasks, "it requests", tt.id)
		require.NoError(t, err, tt.id)
		mu.Lock()
		assert.Equal(t, []string{tt.want}, paths, tt.id)
		mu.Unlock()
	}
}

func TestBadSegmentsAreValidationErrors(t *testing.T) {
	var n atomic.Int64
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	for _, tt := range []struct{ alias, id, field string }{
		{"a", "", "id"},
		{"a", ".", "id"},
		{"a", "..", "id"},
		{"", "1", "alias"},
		{"..", "1", "alias"},
	} {
		_, err := c.Records.Get(t.Context(), Tasks, tt.alias, tt.id)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, "%q %q", tt.alias, tt.id)
		assert.Equal(t, tt.field, ve.Field)
	}
	_, err := c.Records.Get(t.Context(), RecordType("Tasks"), "a", "1")
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "record type", ve.Field)
	assert.Zero(t, n.Load(), "no request sent")
}

// RecordType.Validate is the one record-type rule every package uses.
func TestRecordTypeValidate(t *testing.T) {
	for _, rt := range []RecordType{Apps, Elements, Tasks, Transactions} {
		assert.NoError(t, rt.Validate(), rt)
	}
	for rt, rule := range map[RecordType]string{
		"":      "must not be empty (use Apps, Elements, Tasks or Transactions)",
		"Tasks": `must be one of "apps", "elements", "tasks", "transactions" (got "Tasks")`,
		"task":  `must be one of "apps", "elements", "tasks", "transactions" (got "task")`,
	} {
		ve, ok := errors.AsType[*ValidationError](rt.Validate())
		require.True(t, ok, "%q", rt)
		assert.Equal(t, "record type", ve.Field)
		assert.Equal(t, rule, ve.Rule)
	}
}

func TestResponseBodiesAreDrainedForReuse(t *testing.T) {
	var conns atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"t","expires_in":3600}`))
	})
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/missing" {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write(bytes.Repeat([]byte("x"), 10000))
			return
		}
		_, _ = w.Write([]byte(`{"a":1}   ` + strings.Repeat(" ", 5000)))
	})
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c, err := NewClient(WithCredentials("i", "s"), WithEndpoint(srv.URL+"/v1", srv.URL))
	require.NoError(t, err)
	for i := range 20 {
		path := "found"
		if i%2 == 0 {
			path = "missing"
		}
		req, err := c.NewRequest(t.Context(), http.MethodGet, path, nil)
		require.NoError(t, err)
		var v map[string]int
		_, _ = c.Do(req, &v)
	}
	// One connection for the token request (token requests have their
	// own transport), one reused by every API request.
	assert.EqualValues(t, 2, conns.Load(), "one connection, reused by every API request")
}

// redirectCase starts a first server that redirects every request to
// target, and a second (the target) that records what reaches it.
func TestRedirectsToAnotherOriginAreRefused(t *testing.T) {
	type hit struct{ auth string }
	var mu sync.Mutex
	var hits []hit
	second := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, hit{r.Header.Get("Authorization")})
		mu.Unlock()
		_, _ = w.Write([]byte(`{"access_token":"stolen"}`))
	})
	plain := httptest.NewServer(second) // 127.0.0.1, another port
	t.Cleanup(plain.Close)
	_, plainPort, _ := net.SplitHostPort(strings.TrimPrefix(plain.URL, "http://"))

	tests := []struct {
		name   string
		tls    bool
		target func(first string) string
		api    bool // redirect API requests (else the token request)
		status int
	}{
		{"302 to another host", false, func(string) string { return "http://localhost:" + plainPort + "/v1/x" }, true, http.StatusFound},
		{"307 to another host", false, func(string) string { return "http://localhost:" + plainPort + "/v1/x" }, true, http.StatusTemporaryRedirect},
		{"302 same host other port", false, func(string) string { return plain.URL + "/v1/x" }, true, http.StatusFound},
		{"307 https to http", true, func(first string) string {
			return "http://127.0.0.1:" + plainPort + "/v1/x"
		}, true, http.StatusTemporaryRedirect},
		{"token endpoint 307 elsewhere", false, func(string) string { return "http://localhost:" + plainPort + "/oauth/token" }, false, http.StatusTemporaryRedirect},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			hits = nil
			mu.Unlock()
			var firstURL string
			mux := http.NewServeMux()
			mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
				if !tt.api {
					http.Redirect(w, r, tt.target(firstURL), tt.status)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"access_token":"secret-bearer","expires_in":3600}`))
			})
			mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, tt.target(firstURL), tt.status)
			})
			var first *httptest.Server
			opts := []Option{WithCredentials("id", "secret"), WithRetryPolicy(RetryPolicy{MaxAttempts: 1})}
			if tt.tls {
				first = httptest.NewTLSServer(mux)
				opts = append(opts, WithHTTPClient(first.Client()))
			} else {
				first = httptest.NewServer(mux)
			}
			t.Cleanup(first.Close)
			firstURL = first.URL
			c, err := NewClient(append(opts, WithEndpoint(first.URL+"/v1", first.URL))...)
			require.NoError(t, err)

			err = get(t.Context(), c)
			var re *RedirectError
			require.ErrorAs(t, err, &re)
			if !tt.api {
				var ae *AuthError
				require.ErrorAs(t, err, &ae)
			}
			assert.NotContains(t, err.Error(), "secret")
			mu.Lock()
			defer mu.Unlock()
			for _, h := range hits {
				assert.Empty(t, h.auth, "no credentials may reach the second server")
			}
			assert.Empty(t, hits, "the redirect is not followed at all")
		})
	}
}

func TestSameOriginRedirectIsFollowedWithToken(t *testing.T) {
	var auth string
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/v1/new", http.StatusMovedPermanently)
			return
		}
		auth = r.Header.Get("Authorization")
		_, _ = w.Write([]byte(`{}`))
	}))
	req, err := c.NewRequest(t.Context(), http.MethodGet, "old", nil)
	require.NoError(t, err)
	_, err = c.Do(req, nil)
	require.NoError(t, err)
	assert.Equal(t, "Bearer "+testToken, auth)
}

func TestSecretsNeverAppearInLogsOrErrors(t *testing.T) {
	const (
		id     = "canary-client-id"
		secret = "canary-secret-Zq9+/="
		token  = "canary-token-Xy7"
	)
	canaries := []string{
		secret, token,
		base64.StdEncoding.EncodeToString([]byte(id + ":" + secret)),
		base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id) + ":" + url.QueryEscape(secret))),
		url.QueryEscape(secret),
	}
	var tokenStatus atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
		if s := tokenStatus.Load(); s != 0 {
			w.WriteHeader(int(s))
			_, _ = w.Write([]byte(`{"error":"invalid_client"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"` + token + `","expires_in":3600}`))
	})
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/unauthorized":
			w.WriteHeader(http.StatusUnauthorized)
		case "/v1/fail":
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"message":"boom"}`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	for _, h := range []string{"text", "json"} {
		// The token fetch logs its failure from its own goroutine, after
		// the caller has its error: a buffer safe for that write.
		var logs lockedBuffer
		var handler slog.Handler = slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})
		if h == "json" {
			handler = slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})
		}
		rec := &sleepRecorder{}
		c, err := NewClient(WithCredentials(id, secret), WithEndpoint(srv.URL+"/v1", srv.URL),
			WithLogger(slog.New(handler)), WithRetryPolicy(RetryPolicy{Sleep: rec.sleep}))
		require.NoError(t, err)

		var errs []error
		for _, p := range []string{"unauthorized", "fail", "missing"} {
			req, err := c.NewRequest(t.Context(), http.MethodGet, p, nil)
			require.NoError(t, err)
			_, err = c.Do(req, nil)
			var ae *APIError
			require.ErrorAs(t, err, &ae, "the API answered")
			errs = append(errs, err)
		}
		tokenStatus.Store(http.StatusUnauthorized)
		c.tokens.invalidate(c.tokens.tok)
		errs = append(errs, get(t.Context(), c))
		tokenStatus.Store(0)
		// Wait for that line, so that the check below covers it.
		require.Eventually(t, func() bool { return strings.Contains(logs.String(), "token request failed") },
			20*time.Second, time.Millisecond, "the failed token request is logged")

		texts := []string{logs.String(), fmt.Sprintf("%v|%+v|%#v|%s", c, c, c, c)}
		for _, err := range errs {
			require.Error(t, err)
			texts = append(texts, err.Error(), fmt.Sprintf("%v|%+v|%#v", err, err, err))
			if b, jerr := json.Marshal(err); jerr == nil {
				texts = append(texts, string(b))
			}
		}
		if b, err := json.Marshal(c); err == nil {
			texts = append(texts, string(b))
		}
		for _, text := range texts {
			for _, canary := range canaries {
				assert.NotContains(t, text, canary, "handler %s", h)
			}
		}
		assert.Contains(t, logs.String(), "workflow: request", "requests are logged at debug level")
	}
}

func TestWithEndpointRefusesAnAuthURLWithAPath(t *testing.T) {
	for _, auth := range []string{"https://auth.example/v1", "https://auth.example/oauth/token", "https://auth.example/oauth/token/", "https://auth.example/x/v1/"} {
		_, err := NewClient(WithCredentials("id", "secret"), WithEndpoint("https://api.example/v1", auth))
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, auth)
		assert.Equal(t, "auth URL", ve.Field)
		assert.Contains(t, ve.Rule, "/oauth/token")
	}
	_, err := NewClient(WithCredentials("id", "secret"), WithEndpoint("https://api.example/v1", "https://auth.example/tenant"))
	require.NoError(t, err, "another path prefix is allowed")
}

func TestClientValueIsSafeToPrint(t *testing.T) {
	c, err := NewClient(WithCredentials(canaryID, canarySecret), WithEndpoint("https://api.example/v1", "https://auth.example"))
	require.NoError(t, err)
	cp := *c
	want := c.String()
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%x", "%T %v"} {
		s := fmt.Sprintf(verb, cp)
		assertNoSecret(t, verb, s)
		assert.NotContains(t, s, canaryID, verb)
		if !strings.HasPrefix(verb, "%T") && verb != "%x" && verb != "%d" {
			assert.Equal(t, want, s, verb)
		}
	}
	assert.Equal(t, `"`+want+`"`, fmt.Sprintf("%q", cp))
	assertNoSecret(t, "pointer", fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), fmt.Sprintf("%q", c))
}

func TestPathSegmentsAndTextsAreChecked(t *testing.T) {
	var requests atomic.Int64
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		_, _ = w.Write([]byte(`{"id":"1","a":"1"}`))
	}))
	c := ts.client(t)
	bad := []struct{ name, field, value string }{
		{"traversal", "id", "../../users/u1"},
		{"slash", "id", "a/b"},
		{"dot", "id", "."},
		{"dot dot", "id", ".."},
		{"newline", "id", "a\nb"},
		{"carriage return", "id", "a\rb"},
		{"NUL", "id", "a\x00b"},
		{"DEL", "id", "a\x7fb"},
		{"spaces", "id", "   "},
		{"tab", "id", "\t"},
		{"alias slash", "alias", "a/.."},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			alias, id := "it", "1"
			if tc.field == "alias" {
				alias = tc.value
			} else {
				id = tc.value
			}
			_, err := c.Records.Get(t.Context(), Tasks, alias, id)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
		})
	}
	_, err := c.Users.Get(t.Context(), "../groups")
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)

	_, err = c.Records.Comments.Add(t.Context(), Tasks, "it", "1", " \n\t ")
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "text", ve.Field)

	for _, u := range []string{"mailto:team@example.com", "javascript:alert(1)", "ftp://example.com/x", "file:///etc/passwd", "//example.com/x", "https:///nohost"} {
		_, err = c.Attachments.AddLink(t.Context(), Tasks, "it", "1", Link{URL: u})
		require.ErrorAs(t, err, &ve, u)
		assert.Equal(t, "Link.URL", ve.Field)
	}
	assert.Zero(t, requests.Load(), "nothing was sent")
	assert.Zero(t, ts.tokenRequests.Load(), "not even a token request")

	// "?", "#" and "%" stay allowed, escaped.
	var got string
	ts2 := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.EscapedPath()
		_, _ = w.Write([]byte(`{"a":"1"}`))
	}))
	_, err = ts2.client(t).Records.Get(t.Context(), Tasks, "it", "a?b#c%d e")
	require.NoError(t, err)
	assert.Equal(t, "/tasks/it/"+url.PathEscape("a?b#c%d e"), got)
}

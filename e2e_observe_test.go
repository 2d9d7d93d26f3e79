package workflow_test

// End-to-end tests of what the SDK reports: per-attempt logs, observer
// events, and that no secret (client secret, access token, or their base64
// and URL-encoded forms) ever appears in logs, errors, or the printed or
// JSON form of SDK values, whatever fails.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
	"golang.org/x/time/rate"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// captureHandler is a slog handler that keeps every record.
type captureHandler struct {
	mu      sync.Mutex
	records []slog.Record
}

func (h *captureHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *captureHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	h.records = append(h.records, r.Clone())
	h.mu.Unlock()
	return nil
}
func (h *captureHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *captureHandler) WithGroup(string) slog.Handler      { return h }

// attempts returns the attributes of the per-attempt records, in order.
func (h *captureHandler) attempts() []map[string]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []map[string]string
	for _, r := range h.records {
		if !strings.HasPrefix(r.Message, "workflow: request") {
			continue
		}
		m := map[string]string{"msg": r.Message}
		r.Attrs(func(a slog.Attr) bool {
			m[a.Key] = a.Value.String()
			return true
		})
		out = append(out, m)
	}
	return out
}

// canaryFilterValue and canaryHeader must never be logged or observed.
const (
	canaryFilterValue = "CANARY-filter-7f3a"
	canaryHeader      = "CANARY-header-91be"
)

func TestDebugLogPerAttempt(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "a"})
	srv.Inject(workflowtest.Fault{Route: "GET /v1/{recordType}/{alias}", Count: 1, Status: http.StatusServiceUnavailable})
	h := &captureHandler{}
	// The token fetch logs from its own goroutine: a buffer safe for it.
	var text syncBuffer
	logger := slog.New(multiHandler{h, slog.NewTextHandler(&text, &slog.HandlerOptions{Level: slog.LevelDebug})})
	rr := &retryRecorder{}
	c := srv.Client(workflow.WithLogger(logger), workflow.WithRetryPolicy(rr.policy(3)))

	opts := &workflow.ListOptions{Filter: rsql.Field("Title").Ne(canaryFilterValue)}
	page, err := c.Records.List(t.Context(), workflow.Tasks, "it", opts, workflow.WithHeader("X-Note", canaryHeader))
	require.NoError(t, err)
	require.Len(t, page.Items, 1)

	reqs := srv.Requests()
	var ids []string
	for _, r := range reqs {
		if r.Method == http.MethodGet && r.Path == "/v1/tasks/it" {
			ids = append(ids, r.RequestID)
		}
	}
	require.Len(t, ids, 2)
	got := h.attempts()
	require.Len(t, got, 2, "one record per attempt")
	for i, want := range []map[string]string{
		{"msg": "workflow: request failed, retrying", "method": "GET", "route": "/{recordType}/{alias}", "attempt": "1", "status": "503", "request_id": ids[0], "wait": rr.recordedWaits()[0].String()},
		{"msg": "workflow: request", "method": "GET", "route": "/{recordType}/{alias}", "attempt": "2", "status": "200", "request_id": ids[1]},
	} {
		for k, v := range want {
			assert.Equal(t, v, got[i][k], "attempt %d: %s", i+1, k)
		}
		assert.NotEmpty(t, got[i]["duration"])
		if i == 1 {
			assert.NotContains(t, got[i], "wait", "the last attempt has no wait")
		}
	}
	_, secret := srv.Credentials()
	for _, canary := range []string{canaryFilterValue, canaryHeader, secret, "Bearer ", "tasks/it"} {
		assert.NotContains(t, text.String(), canary)
	}
}

// multiHandler sends each record to every handler.
type multiHandler []slog.Handler

func (m multiHandler) Enabled(context.Context, slog.Level) bool { return true }
func (m multiHandler) Handle(ctx context.Context, r slog.Record) error {
	for _, h := range m {
		if err := h.Handle(ctx, r.Clone()); err != nil {
			return err
		}
	}
	return nil
}
func (m multiHandler) WithAttrs([]slog.Attr) slog.Handler { return m }
func (m multiHandler) WithGroup(string) slog.Handler      { return m }

// eventLog is an Observer recording every event as a line.
type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (l *eventLog) add(s string) {
	l.mu.Lock()
	l.events = append(l.events, s)
	l.mu.Unlock()
}

func (l *eventLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.events...)
}

type ctxKey struct{}

func (l *eventLog) observer() *workflow.Observer {
	return &workflow.Observer{
		CallStart: func(ctx context.Context, c workflow.CallInfo) context.Context {
			l.add("call " + c.Method + " " + c.Route)
			return context.WithValue(ctx, ctxKey{}, "call")
		},
		CallEnd: func(ctx context.Context, c workflow.CallInfo, r workflow.CallResult) {
			l.add("end call " + strconv.Itoa(r.StatusCode) + " attempts=" + strconv.Itoa(r.Attempts) + " err=" + r.ErrorType + " ctx=" + ctx.Value(ctxKey{}).(string) + " id=" + r.RequestID)
		},
		AttemptStart: func(ctx context.Context, a workflow.AttemptInfo) context.Context {
			l.add("attempt " + strconv.Itoa(a.Attempt) + " " + a.Route + " parent=" + ctx.Value(ctxKey{}).(string))
			return context.WithValue(ctx, ctxKey{}, "attempt")
		},
		AttemptEnd: func(ctx context.Context, a workflow.AttemptInfo, r workflow.AttemptResult) {
			l.add("end attempt " + strconv.Itoa(a.Attempt) + " " + strconv.Itoa(r.StatusCode) + " retry=" + strconv.FormatBool(r.Retry) + " err=" + r.ErrorType)
		},
		TokenFetchStart: func(ctx context.Context, f workflow.TokenFetchInfo) context.Context {
			l.add("token " + f.Route + " parent=" + ctx.Value(ctxKey{}).(string))
			return nil
		},
		TokenFetchEnd: func(ctx context.Context, f workflow.TokenFetchInfo, r workflow.TokenFetchResult) {
			l.add("end token err=" + r.ErrorType)
		},
		RateLimitWait: func(ctx context.Context, w workflow.RateLimitWait) {
			l.add("rate limit " + w.Source + " " + w.Route)
		},
	}
}

func TestObserverEvents(t *testing.T) {
	srv := workflowtest.Start(t)
	ids := srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "a"})
	srv.Inject(workflowtest.Fault{Route: "GET /v1/{recordType}/{alias}/{id}", Count: 1, Status: http.StatusTooManyRequests, RetryAfter: time.Second})
	l := &eventLog{}
	rr := &retryRecorder{}
	c := srv.Client(workflow.WithObserver(l.observer()), workflow.WithRetryPolicy(rr.policy(3)))

	var resp workflow.Response
	_, err := c.Records.Get(t.Context(), workflow.Tasks, "it", ids[0], workflow.WithResponseInto(&resp))
	require.NoError(t, err)
	_, err = c.Records.Get(t.Context(), workflow.Tasks, "it", "nope")
	require.ErrorIs(t, err, workflow.ErrNotFound)
	var ae *workflow.APIError
	require.ErrorAs(t, err, &ae)

	assert.Equal(t, []string{
		"call GET /{recordType}/{alias}/{id}",
		"attempt 1 /{recordType}/{alias}/{id} parent=call",
		"token /oauth/token parent=attempt",
		"end token err=",
		"end attempt 1 429 retry=true err=429",
		"rate limit server /{recordType}/{alias}/{id}",
		"attempt 2 /{recordType}/{alias}/{id} parent=call",
		"end attempt 2 200 retry=false err=",
		"end call 200 attempts=2 err= ctx=call id=" + resp.RequestID,
		"call GET /{recordType}/{alias}/{id}",
		"attempt 1 /{recordType}/{alias}/{id} parent=call",
		"end attempt 1 404 retry=false err=404",
		"end call 404 attempts=1 err=404 ctx=call id=" + ae.RequestID,
	}, l.list())
	assert.NotEmpty(t, resp.RequestID)
	assert.Equal(t, 2, resp.Attempts)
}

func TestObserverClientRateLimit(t *testing.T) {
	srv := workflowtest.Start(t)
	ids := srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "a"})
	l := &eventLog{}
	// One token every 50ms, burst 1.
	lim := rate.NewLimiter(rate.Every(50*time.Millisecond), 1)
	c := srv.Client(workflow.WithObserver(l.observer()), workflow.WithRateLimit(lim))
	_, err := c.Records.Get(t.Context(), workflow.Tasks, "it", ids[0])
	require.NoError(t, err)
	const event = "rate limit client /{recordType}/{alias}/{id}"
	assert.NotContains(t, l.list(), event, "a token was there: no wait, no event")

	// Take the next 20 tokens ahead: the next call finds none for a
	// second, twenty times more than it needs on a busy machine to reach
	// the limiter, and the event is reported once its wait is over.
	for range 20 {
		require.True(t, lim.Reserve().OK())
	}
	_, err = c.Records.Get(t.Context(), workflow.Tasks, "it", ids[0])
	require.NoError(t, err)
	assert.Contains(t, l.list(), event, "a wait for the limiter is reported")
}

// Canary secrets, chosen so that their URL-encoded forms differ from them.
const (
	canaryClientID  = "canary-client-7Hq"
	canarySecret    = "canary-secret-Qw8/+=%&?x"
	canaryWrong     = "canary-wrong-secret-Zr5/+=&"
	canaryBearer    = "canary-bearer-Vn2+/=&"
	canaryUserEmail = "canary-owner@example.com"
)

// secretForms returns s and the forms it may take on the way: URL-encoded
// (query and path), base64 in its four variants, and, for credentials,
// the Basic header's base64 of "id:secret" both raw and form-encoded.
func secretForms(s string) []string {
	out := []string{s, url.QueryEscape(s), url.PathEscape(s)}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		out = append(out,
			enc.EncodeToString([]byte(s)),
			enc.EncodeToString([]byte(canaryClientID+":"+s)),
			enc.EncodeToString([]byte(url.QueryEscape(canaryClientID)+":"+url.QueryEscape(s))),
		)
	}
	return out
}

// tokenRecorder is a front that records the bearer tokens the SDK sends,
// so that the test knows the tokens the fake generated.
type tokenRecorder struct {
	mu     sync.Mutex
	tokens map[string]bool
}

func (r *tokenRecorder) record(req *http.Request) {
	if tok, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer "); ok {
		r.mu.Lock()
		r.tokens[tok] = true
		r.mu.Unlock()
	}
}

func (r *tokenRecorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for tok := range r.tokens {
		out = append(out, tok)
	}
	return out
}

// closedURL returns the address of a port nobody listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return "http://" + addr
}

// TestSecretsNeverLeak drives every error path (token endpoint 400, 401,
// 500, timeout, refused connection and refused redirect; API 4xx and 5xx,
// 429, a cut answer, a dropped connection, a timeout, a refused connection
// and a refused redirect) with debug logging into a buffer, under both
// slog handlers. No canary secret or token, nor their base64 or
// URL-encoded forms, appears in the logs, in err.Error(), in %v, %+v or
// %#v of the errors (and of their causes), of the options or of the
// client, or in the JSON of SDK values.
func TestSecretsNeverLeak(t *testing.T) {
	t.Parallel()
	srv := workflowtest.Start(t, workflowtest.WithUser(canaryUserEmail, canaryClientID, canarySecret),
		workflowtest.WithMaxUploadSize(1024))
	srv.Define(workflow.Tasks, "vault", "Title")
	srv.Seed(workflow.Tasks, "vault", workflow.Record{"Title": "kept"})
	srv.Define(workflow.Tasks, "denied")
	srv.Deny(workflowtest.DefaultUserID, workflow.Tasks, "denied")

	// Nothing may ever reach this second host: redirects to it are refused.
	var strayMu sync.Mutex
	var stray []string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		strayMu.Lock()
		stray = append(stray, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		strayMu.Unlock()
	}))
	t.Cleanup(elsewhere.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(elsewhere.URL, "http://"))
	elsewhereURL := "http://localhost:" + port // another host than 127.0.0.1

	seen := &tokenRecorder{tokens: map[string]bool{}}
	front := startFront(t, srv, func(w http.ResponseWriter, r *http.Request) bool {
		seen.record(r)
		switch {
		case strings.HasPrefix(r.URL.Path, "/v1/tasks/moved"):
			http.Redirect(w, r, elsewhereURL+r.URL.Path, http.StatusTemporaryRedirect)
			return true
		case r.URL.Path == "/oauth/token" && r.Header.Get("X-Test-Redirect") != "":
			http.Redirect(w, r, elsewhereURL+"/oauth/token", http.StatusTemporaryRedirect)
			return true
		}
		return false
	})
	refused := closedURL(t)

	type path struct {
		name string
		run  func(t *testing.T, ctx context.Context, o []workflow.Option) error
	}
	// client returns a client of the fake through the front, with the
	// canary credentials, the test's logger and options, and opts.
	client := func(t *testing.T, base []workflow.Option, opts ...workflow.Option) *workflow.Client {
		all := append([]workflow.Option{
			workflow.WithCredentials(canaryClientID, canarySecret),
			workflow.WithEndpoint(front.URL+"/v1", front.URL),
			workflow.WithHTTPClient(front.Client()),
		}, base...)
		c, err := workflow.NewClient(append(all, opts...)...)
		require.NoError(t, err)
		return c
	}
	get := func(c *workflow.Client, ctx context.Context, alias, id string) error {
		_, err := c.Records.Get(ctx, workflow.Tasks, alias, id)
		return err
	}
	once := workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 1})
	twice := workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 2, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	canaryTokens := workflow.WithTokenSource(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: canaryBearer, TokenType: "Bearer"}))
	// headerTransport adds a header to every request (to ask the front
	// for a token redirect).
	redirectToken := workflow.WithHTTPClient(&http.Client{Transport: headerTransport{front.Client().Transport}})

	paths := []path{
		{"token 400", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			in := srv.Inject(workflowtest.Fault{Route: "POST /oauth/token", Status: http.StatusBadRequest, Count: 1})
			defer in.Remove()
			return get(client(t, o, once), ctx, "vault", "1")
		}},
		{"token 401 (wrong secret)", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			return get(client(t, o, workflow.WithCredentials(canaryClientID, canaryWrong)), ctx, "vault", "1")
		}},
		{"token 500", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			in := srv.Inject(workflowtest.Fault{Route: "POST /oauth/token", Status: http.StatusInternalServerError, Count: 1})
			defer in.Remove()
			return get(client(t, o, once), ctx, "vault", "1")
		}},
		{"token timeout", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			in := srv.Inject(workflowtest.Fault{Route: "POST /oauth/token", Delay: 2 * time.Second, Count: 1})
			defer in.Remove()
			ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			defer cancel()
			return get(client(t, o, once), ctx, "vault", "1")
		}},
		{"token endpoint refuses connections", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			return get(client(t, o, once, workflow.WithEndpoint(front.URL+"/v1", refused)), ctx, "vault", "1")
		}},
		{"token endpoint redirects elsewhere", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			return get(client(t, o, once, redirectToken), ctx, "vault", "1")
		}},
		{"API 404", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			return get(client(t, o), ctx, "vault", "404")
		}},
		{"API 403", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			return get(client(t, o), ctx, "denied", "1")
		}},
		{"API 400", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			_, err := client(t, o).Records.Create(ctx, workflow.Tasks, "vault", workflow.Record{"Other": "x"})
			return err
		}},
		{"API 401 (unknown token)", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			return get(client(t, o, canaryTokens), ctx, "vault", "1")
		}},
		{"API 413", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			_, err := client(t, o).Attachments.Upload(ctx, workflow.Tasks, "vault", "1", "big.bin", bytes.NewReader(make([]byte, 4096)), nil)
			return err
		}},
		{"API 500 after a retry", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			in := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/vault/1", Status: http.StatusInternalServerError, Count: 2})
			defer in.Remove()
			return get(client(t, o, twice), ctx, "vault", "1")
		}},
		{"API 503 on a create", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			in := srv.Inject(workflowtest.Fault{Route: "POST /v1/tasks/vault", Status: http.StatusServiceUnavailable, Count: 1})
			defer in.Remove()
			_, err := client(t, o).Records.Create(ctx, workflow.Tasks, "vault", workflow.Record{"Title": "x"})
			return err
		}},
		{"API 429 after a retry", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			in := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/vault/1", Status: http.StatusTooManyRequests, RetryAfter: time.Second, Count: 2})
			defer in.Remove()
			return get(client(t, o, twice), ctx, "vault", "1")
		}},
		{"API answer cut in half", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			in := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/vault/1", Malformed: true})
			defer in.Remove()
			return get(client(t, o), ctx, "vault", "1")
		}},
		{"API connection dropped", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			in := srv.Inject(workflowtest.Fault{Route: "POST /v1/tasks/vault", Drop: true, Count: 1})
			defer in.Remove()
			_, err := client(t, o).Records.Create(ctx, workflow.Tasks, "vault", workflow.Record{"Title": "x"})
			return err
		}},
		{"API timeout", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			c := client(t, o)
			require.NoError(t, get(c, ctx, "vault", "1")) // the token first
			in := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/vault/1", Delay: 2 * time.Second, Count: 1})
			defer in.Remove()
			ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			defer cancel()
			return get(c, ctx, "vault", "1")
		}},
		{"API refuses connections", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			return get(client(t, o, twice, canaryTokens, workflow.WithEndpoint(refused+"/v1", refused)), ctx, "vault", "1")
		}},
		{"API redirects elsewhere", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			return get(client(t, o), ctx, "moved", "1")
		}},
		{"API redirects elsewhere (token source)", func(t *testing.T, ctx context.Context, o []workflow.Option) error {
			return get(client(t, o, canaryTokens), ctx, "moved", "1")
		}},
	}

	for _, h := range []string{"text", "json"} {
		t.Run(h, func(t *testing.T) {
			var logs syncBuffer
			var handler slog.Handler = slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})
			if h == "json" {
				handler = slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})
			}
			policy := workflow.RetryPolicy{MaxAttempts: 3, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
			base := []workflow.Option{workflow.WithLogger(slog.New(handler)), workflow.WithRetryPolicy(policy)}

			var texts []string
			show := func(what string, v any) {
				texts = append(texts, fmt.Sprintf("%s: %v | %+v | %#v | %s", what, v, v, v, v))
				if b, err := json.Marshal(v); err == nil {
					texts = append(texts, what+" JSON: "+string(b))
				}
			}
			for _, p := range paths {
				err := p.run(t, t.Context(), base)
				require.Error(t, err, p.name)
				assert.NotContains(t, err.Error(), "\n", "%s: the error is one line", p.name)
				texts = append(texts, p.name+": "+err.Error())
				// The error and each of its causes.
				for e := err; e != nil; e = errors.Unwrap(e) {
					show(p.name+" error", e)
				}
				t.Logf("%-38s -> %v", p.name, err)
			}
			// The client, its options and the SDK's option values.
			c := client(t, base)
			show("client", c)
			show("records service", c.Records)
			show("base URL", c.BaseURL())
			for i, o := range []workflow.Option{
				workflow.WithCredentials(canaryClientID, canarySecret), canaryTokens, workflow.WithRetryPolicy(policy),
			} {
				show(fmt.Sprintf("option %d", i), o)
			}
			show("retry policy", policy)
			show("default retry policy", workflow.DefaultRetryPolicy())
			show("list options", &workflow.ListOptions{First: 5, Filter: rsql.Field("a").Eq("b")})
			show("upload options", &workflow.UploadOptions{Description: "d"})
			show("auth error", &workflow.AuthError{StatusCode: 401, ErrorCode: "invalid_client"})
			texts = append(texts, logs.String())

			tokens := seen.list()
			require.NotEmpty(t, tokens, "the fake's tokens were captured")
			var canaries []string
			for _, s := range []string{canarySecret, canaryWrong, canaryBearer} {
				canaries = append(canaries, secretForms(s)...)
			}
			for _, tok := range tokens {
				canaries = append(canaries, secretForms(tok)...)
			}
			leaks := 0
			for _, text := range texts {
				for _, canary := range canaries {
					if i := strings.Index(text, canary); i >= 0 {
						leaks++
						t.Errorf("secret %q leaked in: …%s…", canary, text[max(0, i-200):min(len(text), i+len(canary)+50)])
					}
				}
			}
			log := logs.String()
			for _, want := range []string{"workflow: request", "workflow: request failed, retrying", "workflow: token request failed", "workflow: new access token"} {
				assert.Contains(t, log, want, "debug logging was exercised")
			}
			assert.NotContains(t, log, "Basic ")
			assert.NotContains(t, log, "Bearer ")
			t.Logf("%s handler: %d error paths, %d log lines (%d bytes), %d texts checked against %d canary forms of 3 secrets and %d tokens: %d leaks",
				h, len(paths), strings.Count(log, "\n"), len(log), len(texts), len(canaries), len(tokens), leaks)
		})
	}
	strayMu.Lock()
	defer strayMu.Unlock()
	assert.Empty(t, stray, "nothing reached the host redirected to")
}

// headerTransport asks the front to redirect token requests elsewhere.
type headerTransport struct{ next http.RoundTripper }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Test-Redirect", "1")
	return h.next.RoundTrip(r)
}

// startFront serves srv through a handler of the test's own: intercept
// gets every request first and returns true when it has answered it (a
// redirect, say: something the fake's faults do not do).
func startFront(t *testing.T, srv *workflowtest.Server, intercept func(w http.ResponseWriter, r *http.Request) bool) *httptest.Server {
	t.Helper()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if intercept != nil && intercept(w, r) {
			return
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	// Runs first: closing the fake ends the requests it holds in an
	// injected delay, which the front would otherwise wait for.
	t.Cleanup(srv.Close)
	return front
}

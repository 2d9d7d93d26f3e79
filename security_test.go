package workflow_test

// Security tests on the fake service: bad input is refused before any
// request (no token request either), and no secret (client secret, access
// token, or their base64 and URL-encoded forms) ever appears in logs,
// errors, or the printed or JSON form of SDK values, whatever fails.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// firstErr ranges over seq and returns its first error, if any.
func firstErr[T any](seq iter.Seq2[T, error]) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// dueTask is a typed record with a time field, for the codec cases.
type dueTask struct {
	Title string    `workflow:"Title"`
	Due   time.Time `workflow:"Due Date"`
	Score float64   `workflow:"Score,omitempty"`
}

// TestBadInputIsRefusedBeforeAnyRequest calls every public method with bad
// input: each returns a *ValidationError naming the field, and the fake
// receives no request at all, not even a token request.
func TestBadInputIsRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	srv := workflowtest.Start(t)
	c := srv.Client()
	ctx := t.Context()
	var nilCtx context.Context

	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.bin")
	require.NoError(t, os.WriteFile(huge, nil, 0o600))
	require.NoError(t, os.Truncate(huge, workflow.MaxUploadSize+1)) // sparse: no disk used
	small := filepath.Join(dir, "small.txt")
	require.NoError(t, os.WriteFile(small, []byte("hello"), 0o600))
	newClient := func(opts ...workflow.Option) error {
		_, err := workflow.NewClient(opts...)
		return err
	}
	creds := workflow.WithCredentials(srv.Credentials())
	rs := c.Records
	const T, A = workflow.Tasks, "it"

	tests := []struct {
		name  string
		field string // the ValidationError's Field (a prefix for the codec cases)
		call  func() error
		is    error // an error the ValidationError must also match
	}{
		// Record type, alias and ids.
		{"List: empty record type", "record type", func() error { _, err := rs.List(ctx, "", A, nil); return err }, nil},
		{"List: unknown record type", "record type", func() error { _, err := rs.List(ctx, "widgets", A, nil); return err }, nil},
		{"List: record type in capitals", "record type", func() error { _, err := rs.List(ctx, "Tasks", A, nil); return err }, nil},
		{"List: empty alias", "alias", func() error { _, err := rs.List(ctx, T, "", nil); return err }, nil},
		{"Get: alias ..", "alias", func() error { _, err := rs.Get(ctx, T, "..", "1"); return err }, nil},
		{"Get: empty id", "id", func() error { _, err := rs.Get(ctx, T, A, ""); return err }, nil},
		{"Get: id .", "id", func() error { _, err := rs.Get(ctx, T, A, "."); return err }, nil},
		{"Create: no fields", "fields", func() error { _, err := rs.Create(ctx, T, A, workflow.Record{}); return err }, nil},
		{"Create: bad record type", "record type", func() error { _, err := rs.Create(ctx, "task", A, workflow.Record{"a": "b"}); return err }, nil},
		{"Update: empty id", "id", func() error { _, err := rs.Update(ctx, T, A, "", workflow.Record{"a": "b"}); return err }, nil},
		{"Update: nil fields", "fields", func() error { _, err := rs.Update(ctx, T, A, "1", nil); return err }, nil},
		{"Get: nil context", "ctx", func() error { _, err := rs.Get(nilCtx, T, A, "1"); return err }, nil},

		// Paging and filters.
		{"List: first -1", "ListOptions.First", func() error { _, err := rs.List(ctx, T, A, &workflow.ListOptions{First: -1}); return err }, nil},
		{"List: first 1001", "ListOptions.First", func() error { _, err := rs.List(ctx, T, A, &workflow.ListOptions{First: 1001}); return err }, nil},
		{"List: last -1", "ListOptions.Last", func() error { _, err := rs.List(ctx, T, A, &workflow.ListOptions{Last: -1}); return err }, nil},
		{"List: last 1001", "ListOptions.Last", func() error { _, err := rs.List(ctx, T, A, &workflow.ListOptions{Last: 1001}); return err }, nil},
		{"List: first with before", "ListOptions", func() error {
			_, err := rs.List(ctx, T, A, &workflow.ListOptions{First: 10, Before: "c"})
			return err
		}, nil},
		{"List: malformed raw filter", "ListOptions.Filter", func() error {
			_, err := rs.List(ctx, T, A, &workflow.ListOptions{Filter: rsql.Raw("Status=oops=Open")})
			return err
		}, nil},
		{"List: builder error filter", "ListOptions.Filter", func() error {
			_, err := rs.List(ctx, T, A, &workflow.ListOptions{Filter: rsql.And(rsql.Field("").Eq("x"), rsql.Field("Status").In())})
			return err
		}, nil},
		{"All: last 1001", "ListOptions.Last", func() error { return firstErr(rs.All(ctx, T, A, &workflow.ListOptions{Last: 1001})) }, nil},
		{"All: after with last", "ListOptions", func() error {
			return firstErr(rs.All(ctx, T, A, &workflow.ListOptions{After: "c", Last: 5, Prefetch: true}))
		}, nil},
		{"All: nil context", "ctx", func() error { return firstErr(rs.All(nilCtx, T, A, nil)) }, nil},
		{"Pages: empty alias", "alias", func() error { return firstErr(rs.Pages(ctx, T, "", nil)) }, nil},
		{"Pages: unparsable filter", "ListOptions.Filter", func() error {
			return firstErr(rs.Pages(ctx, T, A, &workflow.ListOptions{Filter: rsql.Raw("a==b;")}))
		}, nil},

		// Typed records.
		{"AllAs: bad record type", "record type", func() error { return firstErr(workflow.AllAs[dueTask](ctx, rs, "x", A, nil)) }, nil},
		{"GetAs: empty id", "id", func() error { _, err := workflow.GetAs[dueTask](ctx, rs, T, A, ""); return err }, nil},
		{"CreateAs: time out of range", "Due", func() error {
			_, err := workflow.CreateAs(ctx, rs, T, A, dueTask{Title: "x", Due: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)})
			return err
		}, nil},
		{"UpdateAs: NaN", "Score", func() error {
			_, err := workflow.UpdateAs(ctx, rs, T, A, "1", dueTask{Title: "x", Score: math.NaN()})
			return err
		}, nil},
		{"Encode: time before year 1", "Due", func() error {
			_, err := workflow.Encode(dueTask{Due: time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC)})
			return err
		}, nil},

		// Related items, watchers, comments.
		{"ListRelatedItems: empty id", "id", func() error { _, err := rs.Related.List(ctx, T, A, "", nil); return err }, nil},
		{"ListRelatedItems: filter", "ListOptions.Filter", func() error {
			_, err := rs.Related.List(ctx, T, A, "1", &workflow.ListOptions{Filter: rsql.Field("alias").Eq("p")})
			return err
		}, nil},
		{"RelatedItemsAll: nil context", "ctx", func() error { return firstErr(rs.Related.All(nilCtx, T, A, "1", nil)) }, nil},
		{"AddRelatedItem: blank ref id", "ref.ID", func() error {
			return rs.Related.Add(ctx, T, A, "1", workflow.RelatedRef{ID: " ", Alias: "p"})
		}, nil},
		{"AddRelatedItem: blank ref alias", "ref.Alias", func() error {
			return rs.Related.Add(ctx, T, A, "1", workflow.RelatedRef{ID: "2", Alias: " "})
		}, nil},
		{"AddRelatedItems: none", "refs", func() error { return rs.Related.AddMany(ctx, T, A, "1", nil) }, nil},
		{"AddRelatedItems: second ref without id", "refs[1].ID", func() error {
			return rs.Related.AddMany(ctx, T, A, "1", []workflow.RelatedRef{{ID: "2", Alias: "p"}, {Alias: "p"}})
		}, nil},
		{"RemoveRelatedItem: empty related id", "relatedID", func() error { return rs.Related.Remove(ctx, T, A, "1", "") }, nil},
		{"ListWatchers: bad record type", "record type", func() error { _, err := rs.Watchers.List(ctx, "users", A, "1", nil); return err }, nil},
		{"WatchersPages: filter", "ListOptions.Filter", func() error {
			return firstErr(rs.Watchers.Pages(ctx, T, A, "1", &workflow.ListOptions{Filter: rsql.Raw("a==b")}))
		}, nil},
		{"AddWatchers: no addresses", "emails", func() error { return rs.Watchers.Add(ctx, T, A, "1", nil) }, nil},
		{"AddWatchers: a user id, not an address", "emails[0]", func() error { return rs.Watchers.Add(ctx, T, A, "1", []string{"u2"}) }, nil},
		{"RemoveWatchers: blank address", "emails[1]", func() error {
			return rs.Watchers.Remove(ctx, T, A, "1", []string{"a@example.com", ""})
		}, nil},
		{"ListComments: empty alias", "alias", func() error { _, err := rs.Comments.List(ctx, T, "", "1", nil); return err }, nil},
		{"CommentsAll: page size 0 is the default, 1001 is not", "ListOptions.First", func() error {
			return firstErr(rs.Comments.All(ctx, T, A, "1", &workflow.ListOptions{First: 1001}))
		}, nil},
		{"AddComment: empty text", "text", func() error { _, err := rs.Comments.Add(ctx, T, A, "1", ""); return err }, nil},

		// Attachments.
		{"Attachments.List: empty id", "id", func() error { _, err := c.Attachments.List(ctx, T, A, ""); return err }, nil},
		{"Attachments.Get: empty attachment id", "attachmentID", func() error {
			_, err := c.Attachments.Get(ctx, T, A, "1", "")
			return err
		}, nil},
		{"Attachments.Delete: attachment id ..", "attachmentID", func() error { return c.Attachments.Delete(ctx, T, A, "1", "..") }, nil},
		{"AddLink: empty URL", "Link.URL", func() error {
			_, err := c.Attachments.AddLink(ctx, T, A, "1", workflow.Link{Description: "x"})
			return err
		}, nil},
		{"AddLink: relative URL", "Link.URL", func() error {
			_, err := c.Attachments.AddLink(ctx, T, A, "1", workflow.Link{URL: "/docs/a.pdf"})
			return err
		}, nil},
		{"Upload: nil reader", "r", func() error { _, err := c.Attachments.Upload(ctx, T, A, "1", "a.txt", nil, nil); return err }, nil},
		{"Upload: empty name", "name", func() error {
			_, err := c.Attachments.Upload(ctx, T, A, "1", "", strings.NewReader("x"), nil)
			return err
		}, nil},
		{"Upload: name with a line break", "name", func() error {
			_, err := c.Attachments.Upload(ctx, T, A, "1", "a\r\nb.txt", strings.NewReader("x"), nil)
			return err
		}, nil},
		{"Upload: announced size over the limit", "file", func() error {
			_, err := c.Attachments.Upload(ctx, T, A, "1", "a.bin", unreadable{}, &workflow.UploadOptions{Size: workflow.MaxUploadSize + 1})
			return err
		}, workflow.ErrTooLarge},
		{"Upload: negative size", "UploadOptions.Size", func() error {
			_, err := c.Attachments.Upload(ctx, T, A, "1", "a.bin", strings.NewReader("x"), &workflow.UploadOptions{Size: -1})
			return err
		}, nil},
		{"Upload: bad media type", "UploadOptions.MediaType", func() error {
			_, err := c.Attachments.Upload(ctx, T, A, "1", "a.bin", strings.NewReader("x"), &workflow.UploadOptions{MediaType: "not a type"})
			return err
		}, nil},
		{"UploadFile: file over 250 MB", "file", func() error {
			_, err := c.Attachments.UploadFile(ctx, T, A, "1", huge, nil)
			return err
		}, workflow.ErrTooLarge},
		{"UploadFile: a directory", "path", func() error { _, err := c.Attachments.UploadFile(ctx, T, A, "1", dir, nil); return err }, nil},
		{"UploadFile: empty path", "path", func() error { _, err := c.Attachments.UploadFile(ctx, T, A, "1", "", nil); return err }, nil},
		{"UploadFile: empty id", "id", func() error { _, err := c.Attachments.UploadFile(ctx, T, A, "", small, nil); return err }, nil},
		{"WaitProcessed: bad poll interval", "WaitOptions.PollInterval", func() error {
			_, err := c.Attachments.WaitProcessed(ctx, T, A, "1", "a1", &workflow.WaitOptions{PollInterval: -time.Second})
			return err
		}, nil},
		{"WaitProcessed: no attachment id", "attachmentID", func() error {
			_, err := c.Attachments.WaitProcessed(ctx, T, A, "1", "", nil)
			return err
		}, nil},
		{"Download: empty attachment id", "attachmentID", func() error {
			_, err := c.Attachments.Download(ctx, T, A, "1", "")
			return err
		}, nil},
		{"DownloadAttachment: content URL on another host", "Attachment.ContentURL", func() error {
			_, err := c.Attachments.DownloadAttachment(ctx, T, A, "1", &workflow.Attachment{ContentURL: "https://files.example.net/a?sig=x"})
			return err
		}, workflow.ErrForeignHost},

		// Users and groups.
		{"Users.Create: no email", "NewUser.Email", func() error {
			_, err := c.Users.Create(ctx, workflow.NewUser{FirstName: "Ada", LastName: "L"})
			return err
		}, nil},
		{"Users.Create: not an email", "NewUser.Email", func() error {
			_, err := c.Users.Create(ctx, workflow.NewUser{Email: "ada@", FirstName: "Ada", LastName: "L"})
			return err
		}, nil},
		{"Users.Create: no last name", "NewUser.LastName", func() error {
			_, err := c.Users.Create(ctx, workflow.NewUser{Email: "ada@example.com", FirstName: "Ada"})
			return err
		}, nil},
		{"Users.Get: empty id", "userID", func() error { _, err := c.Users.Get(ctx, ""); return err }, nil},
		{"Users.Deactivate: id ..", "userID", func() error { _, err := c.Users.Deactivate(ctx, ".."); return err }, nil},
		{"Users.List: first 1001", "ListOptions.First", func() error { _, err := c.Users.List(ctx, &workflow.ListOptions{First: 1001}); return err }, nil},
		{"Users.All: mixed directions", "ListOptions", func() error {
			return firstErr(c.Users.All(ctx, &workflow.ListOptions{First: 5, Last: 5}))
		}, nil},
		{"Groups.Get: empty id", "groupID", func() error { _, err := c.Groups.Get(ctx, ""); return err }, nil},
		{"Groups.List: last -1", "ListOptions.Last", func() error { _, err := c.Groups.List(ctx, &workflow.ListOptions{Last: -1}); return err }, nil},
		{"Groups.All: builder error filter", "ListOptions.Filter", func() error {
			return firstErr(c.Groups.All(ctx, &workflow.ListOptions{Filter: rsql.Field("name").In()}))
		}, nil},
		{"Groups.ListUsers: empty group id", "groupID", func() error { _, err := c.Groups.Members.List(ctx, "", nil); return err }, nil},
		{"Groups.List: a filter", "ListOptions.Filter", func() error {
			_, err := c.Groups.List(ctx, &workflow.ListOptions{Filter: rsql.Field("name").Eq("x")})
			return err
		}, nil},
		{"Groups.Create: no name", "GroupRequest.Name", func() error { _, err := c.Groups.Create(ctx, workflow.GroupRequest{}); return err }, nil},
		{"Groups.Update: members of a dynamic group", "GroupRequest.UserIDs", func() error {
			_, err := c.Groups.Update(ctx, "g1", workflow.GroupRequest{Dynamic: new(true), UserIDs: []string{"u1"}})
			return err
		}, nil},
		{"Groups.AllUsers: group id .", "groupID", func() error { return firstErr(c.Groups.Members.All(ctx, ".", nil)) }, nil},
		{"Groups.AddUsers: no user ids", "userIDs", func() error { return c.Groups.Members.Add(ctx, "g1", nil) }, nil},
		{"Groups.RemoveUsers: blank user id", "userIDs[0]", func() error { return c.Groups.Members.Remove(ctx, "g1", []string{"  "}) }, nil},

		// Client construction and the escape hatch.
		{"NewClient: base URL without /v1", "base URL", func() error {
			return newClient(creds, workflow.WithEndpoint(srv.URL(), srv.AuthURL()))
		}, nil},
		{"NewClient: base URL with /v2", "base URL", func() error {
			return newClient(creds, workflow.WithEndpoint(srv.URL()+"/v2", srv.AuthURL()))
		}, nil},
		{"NewClient: http base URL on another host", "base URL", func() error {
			return newClient(creds, workflow.WithEndpoint("http://api.example.com/v1", srv.AuthURL()))
		}, nil},
		{"NewClient: http auth URL on another host", "auth URL", func() error {
			return newClient(creds, workflow.WithEndpoint(srv.BaseURL(), "http://10.1.2.3"))
		}, nil},
		{"NewClient: base URL with user info", "base URL", func() error {
			return newClient(creds, workflow.WithEndpoint("https://user:pw@api.example.com/v1", srv.AuthURL()))
		}, nil},
		{"NewClient: no credentials", "credentials", func() error { return newClient(workflow.WithEndpoint(srv.BaseURL(), srv.AuthURL())) }, nil},
		{"NewClient: empty secret", "client secret", func() error { return newClient(workflow.WithCredentials("id", "")) }, nil},
		{"NewClient: nil HTTP client", "WithHTTPClient", func() error { return newClient(creds, workflow.WithHTTPClient(nil)) }, nil},
		{"NewClient: nil token source", "WithTokenSource", func() error { return newClient(workflow.WithTokenSource(nil)) }, nil},
		{"NewClient: retry policy of 0 attempts", "RetryPolicy.MaxAttempts", func() error {
			return newClient(creds, workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: -1}))
		}, nil},
		{"NewRequest: nil context", "ctx", func() error { _, err := c.NewRequest(nilCtx, http.MethodGet, "tasks/it", nil); return err }, nil},
		{"NewRequest: absolute URL", "path", func() error {
			_, err := c.NewRequest(ctx, http.MethodGet, "https://elsewhere.example/v1/tasks", nil)
			return err
		}, nil},
	}
	require.GreaterOrEqual(t, len(tests), 30)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var ve *workflow.ValidationError
			require.ErrorAs(t, err, &ve, "got %v", err)
			if strings.HasPrefix(tt.name, "CreateAs") || strings.HasPrefix(tt.name, "UpdateAs") || strings.HasPrefix(tt.name, "Encode") {
				assert.True(t, strings.HasPrefix(ve.Field, "dueTask."+tt.field), "Field %q names %q", ve.Field, tt.field)
			} else {
				assert.Equal(t, tt.field, ve.Field)
			}
			assert.Contains(t, err.Error(), ve.Field, "the message names the field")
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
			assert.Empty(t, srv.Requests(), "nothing is sent, not even a token request")
		})
	}
	t.Logf("%d bad inputs refused with a *ValidationError naming the field; the fake received %d requests", len(tests), len(srv.Requests()))
}

// unreadable is a reader that cannot tell its size and must never be
// read: the size announced in UploadOptions is refused first.
type unreadable struct{}

func (unreadable) Read([]byte) (int, error) { panic("the content was read") }

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
			in := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/vault/1", Malformed: true, Count: 1})
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

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

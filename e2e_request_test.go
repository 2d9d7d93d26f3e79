package workflow_test

// End-to-end tests of the request path: bad input is refused before any
// request (no token request either), no retry where the server may have
// acted, and prompt cancellation at every stage without leaking goroutines.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"golang.org/x/oauth2"

	"github.com/seed-a15e58aa/workflow-go/rsql"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestCreateIsRetriedOnlyWhereTheServerDidNotAct: a create (POST) that
// meets a 5xx, a dropped connection or a cut answer is not retried, so the
// fake holds at most one record; a create that meets a 429 is retried and
// the fake holds exactly one.
func TestCreateIsRetriedOnlyWhereTheServerDidNotAct(t *testing.T) {
	t.Parallel()
	const alias = "orders"
	const route = "POST /v1/tasks/" + alias
	tests := []struct {
		name        string
		fault       workflowtest.Fault // injected on route, once
		wantErr     bool
		wantRecords int // what the fake holds afterwards
		wantPosts   int // POSTs the fake received
	}{
		{"500 before handling", workflowtest.Fault{Status: http.StatusInternalServerError}, true, 0, 1},
		{"503 before handling", workflowtest.Fault{Status: http.StatusServiceUnavailable, RetryAfter: time.Second}, true, 0, 1},
		{"connection dropped before handling", workflowtest.Fault{Drop: true}, true, 0, 1},
		{"handled, then the answer cut in half", workflowtest.Fault{Malformed: true}, true, 1, 1},
		{"handled, then the body cut off in transit", workflowtest.Fault{Cut: true}, true, 1, 1},
		{"handled, then the connection dropped", workflowtest.Fault{DropAfter: true}, true, 1, 1},
		{"429 is retried", workflowtest.Fault{Status: http.StatusTooManyRequests, RetryAfter: time.Second}, false, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := workflowtest.Start(t)
			srv.Define(workflow.Tasks, alias, "Title")
			f := tt.fault
			f.Route, f.Count = route, 1
			in := srv.Inject(f)
			rec := &retryRecorder{}
			c := srv.Client(workflow.WithRetryPolicy(rec.policy(4)))

			created, err := c.Records.Create(t.Context(), workflow.Tasks, alias, workflow.Record{"Title": "Laptop"})
			held := srv.Records(workflow.Tasks, alias)
			posts := countRequests(srv, http.MethodPost, "/v1/tasks/"+alias)
			if tt.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
				assert.Equal(t, held[0]["id"], created["id"])
			}
			assert.Len(t, held, tt.wantRecords)
			assert.LessOrEqual(t, len(held), 1, "never two records")
			assert.Equal(t, tt.wantPosts, posts)
			assert.Len(t, rec.retries(), tt.wantPosts-1)
			assert.Equal(t, 1, in.Fired())
			t.Logf("create: %d POST request(s), %d retries, fake holds %d record(s), error: %v",
				posts, len(rec.retries()), len(held), err)
		})
	}
}

// TestCutOffBodyIsRetriedLikeALostConnection: a GET whose answer's body
// was cut off, in transit (Cut) or inside its JSON (Malformed), is sent
// again under the same policy, like one whose connection was lost; when
// its attempts run out, the error says after how many bytes the body
// ended, matches io.ErrUnexpectedEOF, and Temporary agrees with the retry
// decision.
func TestCutOffBodyIsRetriedLikeALostConnection(t *testing.T) {
	t.Parallel()
	const route = "GET /v1/tasks/it"
	for name, f := range map[string]workflowtest.Fault{
		"cut in transit":         {Route: route, Cut: true},
		"cut in its JSON":        {Route: route, Malformed: true},
		"cut on a record":        {Route: route + "/1", Cut: true},
		"cut in a record's JSON": {Route: route + "/1", Malformed: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := workflowtest.Start(t)
			srv.Define(workflow.Tasks, "it", "Title")
			srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "a"}, workflow.Record{"Title": "b"})
			call := func(c *workflow.Client) error {
				if strings.HasSuffix(f.Route, "/1") {
					_, err := c.Records.Get(t.Context(), workflow.Tasks, "it", "1")
					return err
				}
				_, err := c.Records.List(t.Context(), workflow.Tasks, "it", nil)
				return err
			}

			once := f
			once.Count = 1
			in := srv.Inject(once)
			rec := &retryRecorder{}
			require.NoError(t, call(srv.Client(workflow.WithRetryPolicy(rec.policy(4)))), "the second attempt succeeds")
			assert.Equal(t, 1, in.Fired())
			require.Len(t, rec.retries(), 1)
			assert.ErrorIs(t, rec.retries()[0].Err, io.ErrUnexpectedEOF)
			assert.Zero(t, rec.retries()[0].StatusCode, "the event of a lost body has Err, not a status")
			in.Remove()

			in = srv.Inject(f)
			rec = &retryRecorder{}
			var resp workflow.Response
			err := call(srv.Client(workflow.WithRetryPolicy(rec.policy(3)), workflow.WithResponseInto(&resp)))
			require.Error(t, err)
			assert.Equal(t, 3, in.Fired(), "every attempt of the policy")
			assert.Equal(t, 3, resp.Attempts)
			assert.Regexp(t, `^workflow: GET /v1/tasks/it(/1)?: the response body was cut off after [1-9][0-9]* bytes$`, err.Error())
			assert.NotContains(t, err.Error(), "empty body")
			assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
			assert.NotErrorIs(t, err, workflow.ErrUnexpectedResponse)
			assert.True(t, workflow.Temporary(err), "retried, so temporary")
			assert.True(t, workflow.OutcomeUnknown(err), "the service acted: sent again only where that is safe")
		})
	}
}

// TestMalformedCompleteAnswerIsNotRetried: an answer that arrived whole
// but that the SDK cannot use is an error at once, never retried, and
// Temporary says so.
func TestMalformedCompleteAnswerIsNotRetried(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"items":null,"total":1,"paging":{}}`, `{"items":[],"total":"x","paging":{}}`, ``, `[1]`} {
		var n atomic.Int32
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, body)
		}))
		defer ts.Close()
		rec := &retryRecorder{}
		c, err := workflow.NewClient(workflow.WithTokenSource(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "t"})),
			workflow.WithEndpoint(ts.URL+"/v1", ts.URL), workflow.WithRetryPolicy(rec.policy(4)))
		require.NoError(t, err)
		_, err = c.Records.List(t.Context(), workflow.Tasks, "it", nil)
		require.ErrorIs(t, err, workflow.ErrUnexpectedResponse, body)
		assert.False(t, workflow.Temporary(err), body)
		assert.Equal(t, int32(1), n.Load(), "sent once: %s", body)
		assert.Empty(t, rec.retries(), body)
	}
}

// cancelBound is how long a cancelled call may take to return: a liveness
// check, not a benchmark, so it is wide enough for a busy machine under the
// race detector. Every stage would take longer without the cancellation (a
// minute's hold, a 50 s Retry-After, a 200 MB stream at 3.2 MB/s at most).
const cancelBound = 30 * time.Second

// cancelWhen runs call with a context that is cancelled once ready reports
// true, and returns how long call took to return after the cancellation,
// and its error.
func cancelWhen(t *testing.T, ready func() bool, call func(ctx context.Context) error) (time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- call(ctx) }()
	require.Eventually(t, ready, cancelBound, time.Millisecond, "the call never reached the stage to cancel")
	cancelled := time.Now()
	cancel()
	select {
	case err := <-done:
		return time.Since(cancelled), err
	case <-time.After(cancelBound):
		t.Fatalf("the call did not return within %v of the cancellation", cancelBound)
		return 0, nil
	}
}

// slowReader is an endless reader that hands out 32 KiB every 10 ms and
// counts what it handed out.
type slowReader struct{ n atomic.Int64 }

func (r *slowReader) Read(p []byte) (int, error) {
	time.Sleep(10 * time.Millisecond)
	p = p[:min(len(p), 32<<10)]
	clear(p)
	r.n.Add(int64(len(p)))
	return len(p), nil
}

// TestCancellationAtEveryStage cancels a call while the token is being
// fetched, while the request is in flight, during a backoff wait (with
// the real sleeper), while the next page is prefetched, and while an
// upload streams its content. Each returns context.Canceled promptly and
// no goroutine is left behind. Not parallel: it counts goroutines.
func TestCancellationAtEveryStage(t *testing.T) {
	const alias = "cancel"
	stages := []struct {
		name string
		// run sets the stage up on srv and cancels the call at it.
		run func(t *testing.T, srv *workflowtest.Server) (time.Duration, error)
	}{
		{"token fetch", func(t *testing.T, srv *workflowtest.Server) (time.Duration, error) {
			held := srv.Inject(workflowtest.Fault{Route: "POST /oauth/token", Delay: time.Minute})
			c := srv.Client()
			return cancelWhen(t, func() bool { return held.Fired() == 1 }, func(ctx context.Context) error {
				_, err := c.Records.Get(ctx, workflow.Tasks, alias, "1")
				return err
			})
		}},
		{"request in flight", func(t *testing.T, srv *workflowtest.Server) (time.Duration, error) {
			held := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/" + alias + "/1", Delay: time.Minute})
			c := srv.Client()
			return cancelWhen(t, func() bool { return held.Fired() == 1 }, func(ctx context.Context) error {
				_, err := c.Records.Get(ctx, workflow.Tasks, alias, "1")
				return err
			})
		}},
		{"backoff wait", func(t *testing.T, srv *workflowtest.Server) (time.Duration, error) {
			srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/" + alias + "/1", Status: http.StatusServiceUnavailable, RetryAfter: 50 * time.Second})
			var waiting atomic.Bool
			policy := workflow.DefaultRetryPolicy() // the real sleeper
			policy.OnRetry = func(workflow.RetryEvent) { waiting.Store(true) }
			c := srv.Client(workflow.WithRetryPolicy(policy))
			return cancelWhen(t, waiting.Load, func(ctx context.Context) error {
				_, err := c.Records.Get(ctx, workflow.Tasks, alias, "1")
				return err
			})
		}},
		{"prefetch of the next page", func(t *testing.T, srv *workflowtest.Server) (time.Duration, error) {
			held := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/" + alias, After: 1, Delay: time.Minute})
			c := srv.Client()
			var firstPage atomic.Bool
			return cancelWhen(t, func() bool { return firstPage.Load() && held.Fired() == 1 }, func(ctx context.Context) error {
				n := 0
				for _, err := range c.Records.All(ctx, workflow.Tasks, alias, &workflow.ListOptions{First: 10, Prefetch: true}) {
					if err != nil {
						if n != 10 {
							return fmt.Errorf("error after %d records, want 10: %w", n, err)
						}
						return err
					}
					n++
					if n == 1 {
						firstPage.Store(true)
						// Work on the first record until the prefetch
						// is held and the context is cancelled.
						<-ctx.Done()
					}
				}
				return errors.New("the iteration ended without an error")
			})
		}},
		{"upload stream", func(t *testing.T, srv *workflowtest.Server) (time.Duration, error) {
			c := srv.Client()
			r := &slowReader{}
			return cancelWhen(t, func() bool { return r.n.Load() > 1<<20 }, func(ctx context.Context) error {
				_, err := c.Attachments.Upload(ctx, workflow.Tasks, alias, "1", "big.bin", r,
					&workflow.UploadOptions{Size: 200 << 20})
				return err
			})
		}},
	}
	for _, st := range stages {
		t.Run(st.name, func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			srv := workflowtest.NewServer()
			seedNumbered(srv, workflow.Tasks, alias, 30)
			took, err := st.run(t, srv)
			assert.ErrorIs(t, err, context.Canceled)
			assert.Less(t, took, cancelBound)
			// Closing the fake ends its held requests (and a token fetch
			// that other callers could still be waiting for) and closes
			// the client's idle connections.
			srv.Close()
			goleak.VerifyNone(t, before)
			t.Logf("cancelled at %s: returned %v after %v", st.name, err, took.Round(time.Microsecond))
		})
	}
}

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
			return rs.Related.Add(ctx, T, A, "1", workflow.RelatedRef{ID: " ", Alias: new("p")})
		}, nil},
		{"AddRelatedItem: blank ref alias", "ref.Alias", func() error {
			return rs.Related.Add(ctx, T, A, "1", workflow.RelatedRef{ID: "2", Alias: new(" ")})
		}, nil},
		{"AddRelatedItems: none", "refs", func() error { return rs.Related.AddMany(ctx, T, A, "1", nil) }, nil},
		{"AddRelatedItems: second ref without id", "refs[1].ID", func() error {
			return rs.Related.AddMany(ctx, T, A, "1", []workflow.RelatedRef{{ID: "2", Alias: new("p")}, {Alias: new("p")}})
		}, nil},
		{"RemoveRelatedItem: empty related id", "relatedID", func() error { return rs.Related.Remove(ctx, T, A, "1", "") }, nil},
		{"ListWatchers: bad record type", "record type", func() error { _, err := rs.Watchers.List(ctx, "users", A, "1", nil); return err }, nil},
		{"WatchersPages: filter", "ListOptions.Filter", func() error {
			return firstErr(rs.Watchers.Pages(ctx, T, A, "1", &workflow.ListOptions{Filter: rsql.Raw("a==b")}))
		}, nil},
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
			_, err := c.Attachments.AddLink(ctx, T, A, "1", workflow.Link{Description: new("x")})
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
		{"Users.Create: display name", "NewUser.Email", func() error {
			_, err := c.Users.Create(ctx, workflow.NewUser{Email: "Ada <ada@example.com>", FirstName: "Ada", LastName: "L"})
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
		{"Groups.Create: members and domains", "GroupRequest.UserIDs", func() error {
			_, err := c.Groups.Create(ctx, workflow.GroupRequest{UserIDs: []string{"u1"}, Domains: []string{"a.com"}})
			return err
		}, nil},
		{"Groups.Update: members of a dynamic group", "GroupRequest.UserIDs", func() error {
			_, err := c.Groups.Update(ctx, "g1", workflow.GroupRequest{Dynamic: new(true), UserIDs: []string{"u1"}})
			return err
		}, nil},
		{"Groups.AllUsers: group id .", "groupID", func() error { return firstErr(c.Groups.Members.All(ctx, ".", nil)) }, nil},
		{"Groups.AddUsers: blank user id", "userIDs[1]", func() error {
			return c.Groups.Members.Add(ctx, "g1", []string{"5f0c8a8e-4c1b-4d2a-9e3f-0a1b2c3d4e01", ""})
		}, nil},
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

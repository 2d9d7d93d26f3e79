package workflow_test

// End-to-end reliability tests on the fake service with injected faults:
// nothing lost or duplicated under faults, no retry where the server may
// have acted, a bounded load on a failing token endpoint, and prompt
// cancellation at every stage without leaking goroutines. Each test logs
// its figures (go test -v -run 'Export|Token|Create|Upload|Refused|Cancel').

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/testperf"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// retryRecorder is a retry policy's Sleep and OnRetry: it records every
// wait and every retried attempt, and never really waits.
type retryRecorder struct {
	mu     sync.Mutex
	waits  []time.Duration
	events []workflow.RetryEvent
}

func (r *retryRecorder) sleep(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	r.waits = append(r.waits, d)
	r.mu.Unlock()
	return ctx.Err()
}

func (r *retryRecorder) onRetry(ev workflow.RetryEvent) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
}

// policy returns a retry policy of maxAttempts that reports to r.
func (r *retryRecorder) policy(maxAttempts int) workflow.RetryPolicy {
	return workflow.RetryPolicy{MaxAttempts: maxAttempts, Sleep: r.sleep, OnRetry: r.onRetry}
}

func (r *retryRecorder) retries() []workflow.RetryEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]workflow.RetryEvent(nil), r.events...)
}

func (r *retryRecorder) recordedWaits() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.waits...)
}

// countRequests counts the requests the fake received with this method
// and path (the token endpoint is "POST /oauth/token").
func countRequests(srv *workflowtest.Server, method, path string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

func tokenRequests(srv *workflowtest.Server) int {
	return countRequests(srv, http.MethodPost, "/oauth/token")
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

// seedNumbered stores n records {"n": "0"} ... {"n": "n-1"} (ids "1" to "n").
func seedNumbered(srv *workflowtest.Server, t workflow.RecordType, alias string, n int) {
	recs := make([]workflow.Record, n)
	for i := range recs {
		recs[i] = workflow.Record{"n": strconv.Itoa(i)}
	}
	srv.Seed(t, alias, recs...)
}

// checkSequence asserts that got holds the records 0..n-1 exactly once,
// in order.
func checkSequence(t *testing.T, got []workflow.RecordItem, n int) {
	t.Helper()
	require.Len(t, got, n, "every record exactly once")
	cursors := make(map[string]bool, n)
	for i, it := range got {
		if it.Data["n"] != strconv.Itoa(i) || it.Data["id"] != strconv.Itoa(i+1) {
			require.Failf(t, "out of order", "item %d is record %v", i, it.Data)
		}
		require.False(t, cursors[it.Cursor], "cursor %q seen twice", it.Cursor)
		cursors[it.Cursor] = true
	}
}

// TestExportUnderFaults exports 20,000 records while the fake answers 10%
// of the list requests with 503, 2% with 429 and a Retry-After, drops 1%
// of the connections and delays some: every record arrives exactly once
// and in order, each 503 and 429 costs one retry, and the waits are
// those the policy and the server asked for.
func TestExportUnderFaults(t *testing.T) {
	t.Parallel()
	const (
		total    = 4_000
		pageSize = 50 // 80 pages: enough requests for every kind of fault
		alias    = "export"
		seed     = 37 // 13×503, 7×429, 2 drops, 7+3 delays
	)
	for _, prefetch := range []bool{false, true} {
		t.Run(fmt.Sprintf("prefetch=%v", prefetch), func(t *testing.T) {
			t.Parallel()
			srv := workflowtest.Start(t, workflowtest.WithSeed(seed))
			seedNumbered(srv, workflow.Tasks, alias, total)
			const route = "GET /v1/tasks/" + alias
			// Only the first fault that fires applies to a request, so
			// each probability is conditional on the faults before it
			// not firing: the overall rates are 10%, 2%, 1% and 10%.
			f503 := srv.Inject(workflowtest.Fault{Route: route, Probability: 0.10, Status: http.StatusServiceUnavailable})
			f429 := srv.Inject(workflowtest.Fault{Route: route, Probability: 0.02 / 0.90, Status: http.StatusTooManyRequests, RetryAfter: time.Second})
			fDrop := srv.Inject(workflowtest.Fault{Route: route, Probability: 0.01 / 0.88, Drop: true})
			fShort := srv.Inject(workflowtest.Fault{Route: route, Probability: 0.05 / 0.87, Delay: time.Millisecond})
			fLong := srv.Inject(workflowtest.Fault{Route: route, Probability: 0.05 / 0.82, Delay: 5 * time.Millisecond})

			rec := &retryRecorder{}
			// Ten attempts: a request failing ten times in a row has a
			// probability of about 1e-9, and with the seed the run is
			// the same every time.
			c := srv.Client(workflow.WithRetryPolicy(rec.policy(10)))

			start := time.Now()
			got := make([]workflow.RecordItem, 0, total)
			for it, err := range c.Records.All(t.Context(), workflow.Tasks, alias,
				&workflow.ListOptions{First: pageSize, Prefetch: prefetch}) {
				require.NoError(t, err)
				got = append(got, it)
			}
			elapsed := time.Since(start)
			checkSequence(t, got, total)

			var by503, by429, byErr int
			for _, ev := range rec.retries() {
				switch {
				case ev.StatusCode == http.StatusServiceUnavailable:
					by503++
				case ev.StatusCode == http.StatusTooManyRequests:
					by429++
				case ev.Err != nil:
					byErr++
				default:
					t.Errorf("unexpected retry: %+v", ev)
				}
				assert.Equal(t, http.MethodGet, ev.Method)
			}
			for _, f := range []*workflowtest.Injection{f503, f429, fDrop, fShort, fLong} {
				assert.Positive(t, f.Fired(), "with this seed every kind of fault fires")
			}
			assert.Equal(t, f503.Fired(), by503, "each 503 is retried once")
			assert.Equal(t, f429.Fired(), by429, "each 429 is retried once")
			// Go's transport itself resends a GET whose reused connection
			// was dropped before any answer; the others reach the retry
			// policy.
			assert.LessOrEqual(t, byErr, fDrop.Fired())
			retryAfter := 0
			for i, w := range rec.recordedWaits() {
				if w == time.Second {
					retryAfter++
				}
				assert.LessOrEqual(t, w, workflow.DefaultRetryPolicy().MaxDelay, "wait %d", i)
			}
			assert.GreaterOrEqual(t, retryAfter, by429, "Retry-After is honoured")

			pages, served := 0, 0
			afters := map[string]bool{}
			for _, r := range srv.Requests() {
				if r.Method != http.MethodGet || r.Path != "/v1/tasks/"+alias {
					continue
				}
				served++
				if r.Status == http.StatusOK {
					pages++
					after := r.Query.Get("after")
					assert.False(t, afters[after], "page after %q served twice", after)
					afters[after] = true
				}
			}
			assert.Equal(t, total/pageSize, pages, "every page fetched successfully exactly once")
			assert.Equal(t, 1, tokenRequests(srv))
			t.Logf("exported %d records in %d pages (%d list requests) in %v: %d retries reported by OnRetry (%d after 503, %d after 429, %d after a dropped connection; %d drops resent by Go's transport itself); faults fired: %d×503, %d×429, %d drops, %d+%d delays; %d waits recorded, %d of them the 429's Retry-After; %d token request",
				len(got), pages, served, elapsed.Round(time.Millisecond), by503+by429+byErr, by503, by429, byErr, fDrop.Fired()-byErr,
				f503.Fired(), f429.Fired(), fDrop.Fired(), fShort.Fired(), fLong.Fired(),
				len(rec.recordedWaits()), retryAfter, tokenRequests(srv))
		})
	}
}

// TestTokenExpiryMidExport moves the fake's clock 24 hours forward in the
// middle of an export: the token expires, the next page meets a 401, the
// SDK fetches exactly one new token and the export goes on without error.
func TestTokenExpiryMidExport(t *testing.T) {
	t.Parallel()
	const total, pageSize = 5000, 500
	srv := workflowtest.Start(t)
	seedNumbered(srv, workflow.Tasks, "expiry", total)
	rec := &retryRecorder{}
	c := srv.Client(workflow.WithRetryPolicy(rec.policy(4)))

	var got []workflow.RecordItem
	for it, err := range c.Records.All(t.Context(), workflow.Tasks, "expiry", &workflow.ListOptions{First: pageSize}) {
		require.NoError(t, err)
		got = append(got, it)
		if len(got) == total/2 {
			require.Equal(t, 1, tokenRequests(srv))
			srv.Advance(workflowtest.TokenLifetime)
		}
	}
	checkSequence(t, got, total)
	assert.Equal(t, 2, tokenRequests(srv), "exactly one extra token request")
	unauthorized := 0
	for _, r := range srv.Requests() {
		if r.Status == http.StatusUnauthorized {
			unauthorized++
		}
	}
	assert.Equal(t, 1, unauthorized, "one request met the expired token")
	assert.Empty(t, rec.retries(), "the 401 refresh is not a retry")
	t.Logf("exported %d records across a token expiry: %d token requests, %d request answered 401, %d retries",
		len(got), tokenRequests(srv), unauthorized, len(rec.retries()))
}

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

// writeTestFile writes size deterministic pseudo-random bytes to a file
// and returns its path and hex SHA-256.
func writeTestFile(t *testing.T, name string, size int) (string, string) {
	t.Helper()
	data := make([]byte, size)
	r := rand.New(rand.NewPCG(uint64(size), 42))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	sum := sha256.Sum256(data)
	return path, hex.EncodeToString(sum[:])
}

// TestUploadCutByDroppedConnection: an upload whose connection drops
// returns an error and is not retried by the SDK, since the server may
// have stored the file; the fake holds at most one attachment, and the
// caller's own retry adds exactly one more, of the right size and hash.
func TestUploadCutByDroppedConnection(t *testing.T) {
	t.Parallel()
	const size = 1 << 20
	const alias = "docs"
	uploadPath := "/v1/tasks/" + alias + "/1/attachments"
	tests := []struct {
		name     string
		fault    workflowtest.Fault // injected on the upload, once
		wantHeld int                // attachments after the failed upload
	}{
		{"dropped before the server read the file", workflowtest.Fault{Drop: true}, 0},
		{"dropped after the server stored the file", workflowtest.Fault{DropAfter: true}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := workflowtest.Start(t)
			srv.Seed(workflow.Tasks, alias, workflow.Record{"Title": "Contract"})
			path, sum := writeTestFile(t, "contract.bin", size)
			f := tt.fault
			f.Route, f.Count = "POST "+uploadPath, 1
			in := srv.Inject(f)
			rec := &retryRecorder{}
			c := srv.Client(workflow.WithRetryPolicy(rec.policy(4)))

			_, cut := c.Attachments.UploadFile(t.Context(), workflow.Tasks, alias, "1", path, nil)
			require.Error(t, cut)
			var ae *workflow.APIError
			assert.False(t, errors.As(cut, &ae), "no answer arrived: %v", cut)
			held := srv.Attachments(workflow.Tasks, alias, "1")
			assert.Len(t, held, tt.wantHeld)
			assert.LessOrEqual(t, len(held), 1, "at most one attachment")
			assert.Equal(t, 1, countRequests(srv, http.MethodPost, uploadPath), "not retried automatically")
			assert.Empty(t, rec.retries())
			assert.Equal(t, 1, in.Fired())

			// The caller decides to upload again.
			att, err := c.Attachments.UploadFile(t.Context(), workflow.Tasks, alias, "1", path, nil)
			require.NoError(t, err)
			after := srv.Attachments(workflow.Tasks, alias, "1")
			require.Len(t, after, len(held)+1, "exactly one more")
			last := after[len(after)-1]
			assert.Equal(t, att.ID, last.ID)
			assert.EqualValues(t, size, last.Size)
			assert.Equal(t, sum, last.SHA256)
			t.Logf("upload of %d bytes cut (%v): fake held %d attachment(s); the caller's retry added %s (%d bytes, sha256 %.12s…)",
				size, cut, len(held), last.ID, last.Size, last.SHA256)
		})
	}
}

// TestUploadMeeting429IsRetriedFromTheStart: an upload answered 429 is
// sent again from the first byte (UploadFile reads the file again) and the
// fake holds exactly one attachment with the file's hash.
func TestUploadMeeting429IsRetriedFromTheStart(t *testing.T) {
	t.Parallel()
	const size = 3<<20 + 17
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "docs", workflow.Record{"Title": "Contract"})
	uploadPath := "/v1/tasks/docs/1/attachments"
	srv.Inject(workflowtest.Fault{Route: "POST " + uploadPath, Status: http.StatusTooManyRequests, RetryAfter: 2 * time.Second, Count: 1})
	path, sum := writeTestFile(t, "scan.bin", size)
	rec := &retryRecorder{}
	c := srv.Client(workflow.WithRetryPolicy(rec.policy(4)))

	att, err := c.Attachments.UploadFile(t.Context(), workflow.Tasks, "docs", "1", path, nil)
	require.NoError(t, err)
	held := srv.Attachments(workflow.Tasks, "docs", "1")
	require.Len(t, held, 1, "exactly one attachment")
	assert.Equal(t, att.ID, held[0].ID)
	assert.EqualValues(t, size, held[0].Size)
	assert.Equal(t, sum, held[0].SHA256)
	assert.Equal(t, 2, countRequests(srv, http.MethodPost, uploadPath))
	require.Len(t, rec.retries(), 1)
	assert.Equal(t, http.StatusTooManyRequests, rec.retries()[0].StatusCode)
	assert.Equal(t, []time.Duration{2 * time.Second}, rec.recordedWaits(), "Retry-After honoured")
	t.Logf("upload of %d bytes met a 429: %d POST requests, %d retry after %v, fake holds 1 attachment of %d bytes with the file's sha256",
		size, countRequests(srv, http.MethodPost, uploadPath), len(rec.retries()), rec.recordedWaits()[0], held[0].Size)
}

// TestFailingTokenEndpointBoundedRequests: 20 concurrent calls meet a
// token endpoint that answers 503, with the default retry policy and its
// real (jittered) waits. Every caller gets an *AuthError, no API request
// is sent, and the token endpoint receives a bounded number of requests:
// failures are shared, so the callers' retries do not each ask again.
func TestFailingTokenEndpointBoundedRequests(t *testing.T) {
	t.Parallel()
	const callers = 20
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "x"})
	srv.Inject(workflowtest.Fault{Route: "POST /oauth/token", Status: http.StatusServiceUnavailable})
	var retries atomic.Int64
	policy := workflow.DefaultRetryPolicy()
	// Three attempts: each waits out the one-second hold of the failure
	// before it, so the test takes about two seconds.
	policy.MaxAttempts = 3
	policy.OnRetry = func(workflow.RetryEvent) { retries.Add(1) }
	c := srv.Client(workflow.WithRetryPolicy(policy))

	start := time.Now()
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			_, errs[i] = c.Records.Get(t.Context(), workflow.Tasks, "it", "1")
		})
	}
	wg.Wait()
	for _, err := range errs {
		var ae *workflow.AuthError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, http.StatusServiceUnavailable, ae.StatusCode)
	}
	elapsed := time.Since(start)
	n := tokenRequests(srv)
	assert.Equal(t, n, len(srv.Requests()), "no API request without a token")
	// Without sharing, each caller would ask on each of its attempts (up
	// to 60 requests). With it, a failed token request is held for a
	// second: callers in that time share the next one.
	perSecond := 1 + int(elapsed/time.Second)
	assert.LessOrEqual(t, n, perSecond, "at most one token request per second of failure")
	assert.LessOrEqual(t, n, 2*policy.MaxAttempts, "token requests are bounded, whatever the number of callers")
	t.Logf("%d concurrent calls against a failing token endpoint: %d token requests (bounds: %d for %v, %d; %d without sharing), %d retries, all %d got *AuthError",
		callers, n, perSecond, elapsed.Round(time.Millisecond), 2*policy.MaxAttempts, callers*policy.MaxAttempts, retries.Load(), callers)
}

// TestTokenEndpointBlipRecovers: a token endpoint that fails once does
// not fail the call: the retry waits for the failure's one-second hold to
// pass (even with a sleeper that does not wait) and the next token
// request succeeds.
func TestTokenEndpointBlipRecovers(t *testing.T) {
	t.Parallel()
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "x"})
	srv.Inject(workflowtest.Fault{Route: "POST /oauth/token", Status: http.StatusServiceUnavailable, Count: 1})
	rec := &retryRecorder{}
	c := srv.Client(workflow.WithRetryPolicy(rec.policy(4)))
	start := time.Now()
	_, err := c.Records.Get(t.Context(), workflow.Tasks, "it", "1")
	require.NoError(t, err)
	assert.Equal(t, 2, tokenRequests(srv))
	require.Len(t, rec.retries(), 1)
	var ae *workflow.AuthError
	require.ErrorAs(t, rec.retries()[0].Err, &ae)
	assert.Equal(t, http.StatusServiceUnavailable, ae.StatusCode)
	t.Logf("token endpoint failed once: %d token requests, %d retry, the call succeeded after %v",
		tokenRequests(srv), len(rec.retries()), time.Since(start).Round(time.Millisecond))
}

// TestRefusedCredentialsFailFast: 20 concurrent calls with a wrong secret
// all get an *AuthError matching ErrUnauthorized at once (no retry, no
// wait), and the token endpoint is asked a bounded number of times.
func TestRefusedCredentialsFailFast(t *testing.T) {
	t.Parallel()
	const callers = 20
	srv := workflowtest.Start(t)
	id, _ := srv.Credentials()
	rec := &retryRecorder{}
	c := srv.Client(workflow.WithCredentials(id, "wrong-secret"), workflow.WithRetryPolicy(rec.policy(4)))
	start := time.Now()
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() { _, errs[i] = c.Records.Get(t.Context(), workflow.Tasks, "it", "1") })
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, err := range errs {
		var ae *workflow.AuthError
		require.ErrorAs(t, err, &ae)
		assert.ErrorIs(t, err, workflow.ErrUnauthorized)
	}
	assert.Empty(t, rec.retries(), "refused credentials are not retried")
	if testperf.Enabled() { // a wall-clock bound: WORKFLOW_PERF=1 only
		assert.Less(t, elapsed, time.Second, "no caller waits for the failure's hold")
	}
	n := tokenRequests(srv)
	assert.Equal(t, n, len(srv.Requests()), "no API request without a token")
	assert.LessOrEqual(t, n, 2, "callers share the refusal")
	t.Logf("%d concurrent calls with a wrong secret: %d token request(s), all refused in %v", callers, n, elapsed.Round(time.Millisecond))
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

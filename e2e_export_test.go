package workflow_test

// End-to-end tests of long walks: an export rides out cut-off pages and an
// outage of the service without a line of restart code.

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/testperf"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// serverClockPolicy is the default retry policy with waits that pass on
// the fake's clock instead of the wall clock: an outage of seconds on the
// server's clock costs the test nothing.
func serverClockPolicy(srv *workflowtest.Server, events *retryRecorder) workflow.RetryPolicy {
	p := workflow.DefaultRetryPolicy()
	p.Sleep = func(ctx context.Context, d time.Duration) error {
		srv.Advance(d)
		return ctx.Err()
	}
	p.OnRetry = events.onRetry
	return p
}

// seedWide stores n records with a 12-field shape in (Tasks, alias).
func seedWide(srv *workflowtest.Server, alias string, n int) {
	recs := make([]workflow.Record, n)
	for i := range recs {
		s := strconv.Itoa(i)
		recs[i] = workflow.Record{"Title": "Task " + s, "Status": "Open", "Priority": "2", "Owner": "owner-" + s,
			"Team": "ops", "Due Date": "2026-12-01", "Amount": s, "Region": "eu", "Source": "import",
			"Category": "hardware", "Ref": "R-" + s}
	}
	srv.Seed(workflow.Tasks, alias, recs...)
}

// TestExportRidesOutCutPagesAndAnOutage is the nightly export: 100,000
// records through the fake (10,000 in the default run; 100,000 take too
// long under the race detector on a busy machine) with 1% of the list's
// bodies cut off in transit and 5 s of 503s in the middle, and every record
// arrives exactly once, with no code around All. The waits pass on the
// fake's clock.
func TestExportRidesOutCutPagesAndAnOutage(t *testing.T) {
	t.Parallel()
	n := 10_000
	if testperf.Enabled() {
		n = 100_000
	}
	srv := workflowtest.Start(t, workflowtest.WithSeed(2))
	seedWide(srv, "big-export", n)
	const route = "GET /v1/tasks/big-export"
	cut := srv.Inject(workflowtest.Fault{Route: route, Probability: 0.01, Cut: true})
	outage := srv.Inject(workflowtest.Fault{Route: route, After: n / 100 / 2, For: 5 * time.Second, Status: http.StatusServiceUnavailable})
	events := &retryRecorder{}
	c := srv.Client(workflow.WithRetryPolicy(serverClockPolicy(srv, events)))

	seen := make(map[string]int, n)
	for it, err := range c.Records.All(t.Context(), workflow.Tasks, "big-export", &workflow.ListOptions{First: 100}) {
		require.NoError(t, err)
		seen[it.Data["id"]]++
	}

	require.Len(t, seen, n, "every record")
	for id, k := range seen {
		if k != 1 {
			require.Equal(t, 1, k, "record %s", id)
		}
	}
	assert.Positive(t, cut.Fired(), "bodies were cut")
	assert.Greater(t, outage.Fired(), 4, "the outage outlasted the attempts of one request")
	t.Logf("%d records; %d bodies cut, %d answers 503, %d retries", len(seen), cut.Fired(), outage.Fired(), len(events.retries()))
}

// TestWalkRequestsAFailedPageAgain: when a page's request has used up its
// attempts on failures that are retried, All and Pages request the same
// page again, from their own last cursor, until the outage ends; each wait
// is reported to OnRetry. A policy without retries ends the walk at the
// first failure.
func TestWalkRequestsAFailedPageAgain(t *testing.T) {
	t.Parallel()
	walks := map[string]func(c *workflow.Client, ctx context.Context) ([]string, error){
		"All": func(c *workflow.Client, ctx context.Context) (ids []string, err error) {
			for it, err := range c.Records.All(ctx, workflow.Tasks, "it", &workflow.ListOptions{First: 10}) {
				if err != nil {
					return ids, err
				}
				ids = append(ids, it.Data["id"])
			}
			return ids, nil
		},
		"Pages with prefetch": func(c *workflow.Client, ctx context.Context) (ids []string, err error) {
			for p, err := range c.Records.Pages(ctx, workflow.Tasks, "it", &workflow.ListOptions{First: 10, Prefetch: true}) {
				if err != nil {
					return ids, err
				}
				for _, it := range p.Items {
					ids = append(ids, it.Data["id"])
				}
			}
			return ids, nil
		},
	}
	for name, walk := range walks {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := workflowtest.Start(t)
			seedWide(srv, "it", 95)
			outage := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it", After: 3, For: time.Minute, Status: http.StatusServiceUnavailable})
			events := &retryRecorder{}
			c := srv.Client(workflow.WithRetryPolicy(serverClockPolicy(srv, events)))

			ids, err := walk(c, t.Context())
			require.NoError(t, err)
			want := make([]string, 95)
			for i := range want {
				want[i] = strconv.Itoa(i + 1)
			}
			assert.Equal(t, want, ids, "every record once, in order")
			assert.Greater(t, outage.Fired(), 4, "more failures than one request's attempts")
			var after []string
			for _, r := range srv.Requests() {
				if r.Status == http.StatusServiceUnavailable {
					after = append(after, r.Query.Get("after"))
				}
			}
			for _, a := range after {
				assert.Equal(t, after[0], a, "the same page every time")
			}
			evs := events.retries()
			require.NotEmpty(t, evs)
			walkEvents := 0
			for _, ev := range evs {
				assert.Equal(t, http.StatusServiceUnavailable, ev.StatusCode)
				if ev.Attempt > 4 { // the walk went on after the request's attempts
					walkEvents++
					assert.Contains(t, ev.URL, "/v1/tasks/it?")
				}
			}
			assert.Positive(t, walkEvents, "the walk went on after the request's attempts")

			// No retries: the walk ends at the first failure.
			srv.ClearFaults()
			srv.ResetRequests()
			in := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it", After: 1, Status: http.StatusServiceUnavailable})
			one := srv.Client(workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 1}))
			ids, err = walk(one, t.Context())
			assert.True(t, isStatus(err, http.StatusServiceUnavailable), "%v", err)
			assert.Len(t, ids, 10)
			assert.Equal(t, 1, in.Fired())
		})
	}
}

// TestWalkRideOutReadsRetryAfterLikeACall: when a walk requests a page
// again after its attempts ran out on 429s, it waits what Retry-After
// says, "0" included (not the backoff), and reports each wait to the
// RateLimitWait observers, as the attempt loop does.
func TestWalkRideOutReadsRetryAfterLikeACall(t *testing.T) {
	t.Parallel()
	srv := workflowtest.Start(t)
	seedWide(srv, "it", 25)
	const failures = 9 // more than two requests' attempts
	in := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it", After: 1, Count: failures, Status: http.StatusTooManyRequests,
		Header: http.Header{"Retry-After": {"0"}}})
	events := &retryRecorder{}
	policy := workflow.DefaultRetryPolicy()
	policy.BaseDelay, policy.MaxDelay = time.Hour, time.Hour // a backoff would be seen
	policy.Sleep, policy.OnRetry = events.sleep, events.onRetry
	var mu sync.Mutex
	var limited []workflow.RateLimitWait
	c := srv.Client(workflow.WithRetryPolicy(policy), workflow.WithObserver(&workflow.Observer{
		RateLimitWait: func(_ context.Context, w workflow.RateLimitWait) {
			mu.Lock()
			defer mu.Unlock()
			limited = append(limited, w)
		}}))

	n := 0
	for _, err := range c.Records.All(t.Context(), workflow.Tasks, "it", &workflow.ListOptions{First: 10}) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 25, n)
	assert.Equal(t, failures, in.Fired())
	evs := events.retries()
	require.Len(t, evs, failures, "a wait after each 429")
	walkEvents := 0
	for _, ev := range evs {
		assert.Zero(t, ev.Wait, "Retry-After: 0, attempt %d", ev.Attempt)
		if ev.Attempt >= policy.MaxAttempts {
			walkEvents++
		}
	}
	assert.Positive(t, walkEvents, "the walk requested the page again")
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, limited, failures, "every wait after a 429 is a rate-limit wait, the walk's too")
	for _, w := range limited {
		assert.Equal(t, workflow.RateLimitServer, w.Source)
		assert.Equal(t, "recordList", w.Operation)
		assert.Zero(t, w.Wait)
	}
}

// TestMaxElapsedEndsRetries: MaxElapsed bounds retrying by time as well as
// attempts, for one call and for a walk (counted from its last page): a
// service that stays down ends both with its last answer, long before
// their attempts (or the context) would.
func TestMaxElapsedEndsRetries(t *testing.T) {
	t.Parallel()
	srv := workflowtest.Start(t)
	seedWide(srv, "it", 30)
	srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it/*", Status: http.StatusServiceUnavailable})
	srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it", After: 1, Status: http.StatusServiceUnavailable})
	policy := workflow.RetryPolicy{MaxAttempts: 1 << 30, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond, MaxElapsed: 30 * time.Millisecond}
	c := srv.Client(workflow.WithRetryPolicy(policy))
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()

	_, err := c.Records.Get(ctx, workflow.Tasks, "it", "1")
	assert.True(t, isStatus(err, http.StatusServiceUnavailable), "the last answer, not the context's end: %v", err)

	var got int
	for _, err = range c.Records.All(ctx, workflow.Tasks, "it", &workflow.ListOptions{First: 10}) {
		if err != nil {
			break
		}
		got++
	}
	assert.Equal(t, 10, got)
	assert.True(t, isStatus(err, http.StatusServiceUnavailable), "the last answer, not the context's end: %v", err)
	assert.NoError(t, ctx.Err())
}

func isStatus(err error, status int) bool {
	ae, ok := errors.AsType[*workflow.APIError](err)
	return ok && ae.StatusCode == status
}

// TestMaxElapsedCountsWaitsSleepSkips: the waits a policy asks for count
// towards MaxElapsed even when its Sleep returns at once (a test's), so a
// call and a walk against a service that stays down end after the same
// waits as on the clock, instead of sending requests until MaxElapsed has
// passed in real time.
func TestMaxElapsedCountsWaitsSleepSkips(t *testing.T) {
	t.Parallel()
	srv := workflowtest.Start(t)
	seedWide(srv, "it", 30)
	srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it/*", Status: http.StatusServiceUnavailable, RetryAfter: time.Minute})
	srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it", After: 1, Status: http.StatusServiceUnavailable, RetryAfter: time.Minute})
	events := &retryRecorder{}
	policy := events.policy(1 << 30)
	// 30 s to spare for the time the requests take.
	policy.MaxElapsed = 10*time.Minute + 30*time.Second
	c := srv.Client(workflow.WithRetryPolicy(policy))

	_, err := c.Records.Get(t.Context(), workflow.Tasks, "it", "1")
	assert.True(t, isStatus(err, http.StatusServiceUnavailable), "%v", err)
	// Retry-After: 60 ten times is 10 min; an eleventh wait would pass
	// MaxElapsed.
	assert.Len(t, events.recordedWaits(), 10, "waits of the call")
	assert.Len(t, srv.Requests(), 1+11, "the token's request and the call's")

	srv.ResetRequests()
	policy.MaxAttempts = 2
	c = srv.Client(workflow.WithRetryPolicy(policy))
	got := 0
	for _, err = range c.Records.All(t.Context(), workflow.Tasks, "it", &workflow.ListOptions{First: 10}) {
		if err != nil {
			break
		}
		got++
	}
	assert.Equal(t, 10, got)
	assert.True(t, isStatus(err, http.StatusServiceUnavailable), "%v", err)
	// The token, the first page, then the second page's requests of 2
	// attempts each, one wait apart; the walk asks again after a wait
	// until its own waits reach 10 min (a request's waits are its own:
	// the walk's count is a floor of the time that passed).
	assert.Len(t, srv.Requests(), 1+1+2*11, "requests of the walk")
}

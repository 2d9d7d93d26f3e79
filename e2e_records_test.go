package workflow_test

// End-to-end tests of record lists: nothing lost or duplicated under
// faults.

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

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

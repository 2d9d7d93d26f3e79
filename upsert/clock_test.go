package upsert

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/testperf"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// A sync on the test's clock: the fake's clock stands still but for the
// waits of the client's retries and of the limiter, which move it
// (workflowtest.Server.Sleep) instead of waiting.

// clockRun is a sync of clockSync.
type clockRun struct {
	wall      time.Duration // real time taken
	elapsed   time.Duration // time on the server's clock
	sum       *Summary
	cuts      int
	probes    int
	successes int          // requests answered other than 429
	throttled map[int]bool // the requests answered 429, by arrival from 1
}

// clockSync creates n new records with Records on a fake whose clock the
// sync and the client keep (Options.Clock and RetryPolicy.Sleep are the
// server), each request answered 429 with Retry-After: 0 with
// probability p (drawn from the fake's seeded source, so the same
// requests by arrival each run).
func clockSync(tb testing.TB, n int, p float64) clockRun {
	tb.Helper()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	srv := workflowtest.NewServer(workflowtest.WithClock(func() time.Time { return start }), workflowtest.WithSeed(7))
	defer srv.Close()
	srv.Define(workflow.Apps, "customers", "Email")
	if p > 0 {
		srv.Inject(workflowtest.Fault{Route: "/v1/**", Probability: p, Status: http.StatusTooManyRequests,
			Header: http.Header{"Retry-After": {"0"}}})
	}
	c := srv.Client(workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 8, Sleep: srv.Sleep}))
	var lim *adaptiveLimiter
	srv.ResetRequests()
	t0 := time.Now()
	sum, err := Records(tb.Context(), c.Records, workflow.Apps, "customers", func(yield func(workflow.Record) bool) {
		for i := range n {
			if !yield(workflow.Record{"Email": fmt.Sprintf("new-%05d@example.com", i), "Plan": "pro"}) {
				return
			}
		}
	}, &Options{KeyField: "Email", Clock: srv, seeLimiter: func(l *adaptiveLimiter) { lim = l }})
	run := clockRun{wall: time.Since(t0), elapsed: srv.Now().Sub(start), sum: sum, throttled: map[int]bool{}}
	if err != nil || sum.Created != n {
		tb.Fatalf("created %d of %d: %v", sum.Created, n, err)
	}
	run.cuts, run.probes = lim.cuts, lim.probes
	arrival := 0
	for _, r := range srv.Requests() {
		if !strings.HasPrefix(r.Path, "/v1/") {
			continue
		}
		arrival++
		if r.Status == http.StatusTooManyRequests {
			run.throttled[arrival] = true
		} else {
			run.successes++
		}
	}
	return run
}

// simulated runs the real-clock simulation of the limiter on the same
// sequence as run: the same requests answered 429 (by arrival), with
// Retry-After: 0, and requests that take no time, as on the server's
// clock.
func simulated(run clockRun) simResult {
	return scenario{requests: run.successes, throttled: run.throttled}.run()
}

// TestRecordsOnTheServersClock: a sync of 2,000 records with 3% of its
// requests answered 429, on the server's clock, makes the limiter's
// decisions of the real-clock simulation of the same sequence: as many
// cuts and probes. Its pacing moves the server's clock (no real wait).
func TestRecordsOnTheServersClock(t *testing.T) {
	run := clockSync(t, 2000, 0.03)
	sim := simulated(run)
	t.Logf("%d requests, %d 429s: %d cuts, %d probes (simulated: %d, %d); %v on the server's clock, %v real",
		run.sum.Requests, run.sum.Throttled, run.cuts, run.probes, sim.cuts, sim.probes, run.elapsed, run.wall)
	if run.sum.Throttled != len(run.throttled) || run.sum.Throttled < 30 {
		t.Fatalf("%d 429s counted by the sync, %d by the server", run.sum.Throttled, len(run.throttled))
	}
	if run.cuts != sim.cuts || run.probes != sim.probes {
		t.Errorf("%d cuts and %d probes, the simulation of the same sequence %d and %d", run.cuts, run.probes, sim.cuts, sim.probes)
	}
	if run.cuts == 0 || run.elapsed <= 0 || run.sum.Elapsed != run.elapsed {
		t.Errorf("%d cuts, %v passed on the server's clock, Summary.Elapsed %v: the limiter did not pace on it", run.cuts, run.elapsed, run.sum.Elapsed)
	}
}

// BenchmarkRecords429OnTheTestClock syncs 2,000 new records on the
// server's clock without faults (s-clean), then with 3% of the requests
// answered 429 (s-429), and reports the ratio (x-clean; the goal is at
// most 2), the cuts and the probes, which equal those of the real-clock
// simulation of the same sequence (it fails otherwise).
func BenchmarkRecords429OnTheTestClock(b *testing.B) {
	for range b.N {
		clean := clockSync(b, 2000, 0)
		run := clockSync(b, 2000, 0.03)
		sim := simulated(run)
		if run.cuts != sim.cuts || run.probes != sim.probes {
			b.Fatalf("%d cuts and %d probes, the simulation %d and %d", run.cuts, run.probes, sim.cuts, sim.probes)
		}
		b.ReportMetric(clean.wall.Seconds(), "s-clean")
		b.ReportMetric(run.wall.Seconds(), "s-429")
		b.ReportMetric(float64(run.wall)/float64(clean.wall), "x-clean")
		b.ReportMetric(float64(run.sum.Throttled), "429s")
		b.ReportMetric(float64(run.cuts), "cuts")
		b.ReportMetric(float64(run.probes), "probes")
	}
}

// On the server's clock, a sync with 3% 429s takes at most twice the time
// of the same sync without them: the medians of 5 interleaved rounds.
func TestRecords429OnTheTestClockCost(t *testing.T) {
	testperf.Require(t)
	var clean, faulted []time.Duration
	for range 5 {
		clean = append(clean, clockSync(t, 2000, 0).wall)
		faulted = append(faulted, clockSync(t, 2000, 0.03).wall)
	}
	slices.Sort(clean)
	slices.Sort(faulted)
	ratio := float64(faulted[2]) / float64(clean[2])
	t.Logf("%v with 429s, %v without: %.2fx", faulted[2], clean[2], ratio)
	if ratio > 2 {
		t.Errorf("%.2fx the time without 429s, want at most 2", ratio)
	}
}

package upsert_test

// Benchmarks of Records against two hand-written baselines, on the
// fake with a rate limit and a latency per request (see BENCHMARKS.md for
// the recorded run). One run syncs 5,000 records at 50 requests/s, so it
// takes minutes: run each once, e.g.
//
//	go test -run '^$' -bench . -benchtime 1x -timeout 30m ./upsert
//
// -short syncs 500 records instead; -sync.records and -sync.latency change
// the number of records and the latency (e.g. -sync.latency 100ms). The benchmarks report, besides the
// time: req/s (requests the service accepted per second), pct-limit
// (that as a percentage of the rate limit), pct-best (the best possible
// time, the fewest requests the work needs at the limit, as a percentage
// of the time taken), failed-req (requests answered
// 4xx/5xx or dropped), extra-req (requests beyond creates + updates +
// look-up batches), dup and lost (records duplicated or missing on the
// fake afterwards) and wrong (records whose values differ from the input).

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sync/errgroup"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/testperf"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/upsert"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

const (
	benchRate  = 50
	benchAlias = "customers"
)

var (
	benchRecords = flag.Int("sync.records", 5000, "records synced by BenchmarkRecords* (500 with -short)")
	benchLatency = flag.Duration("sync.latency", 20*time.Millisecond, "latency per request of the fake in BenchmarkRecords*")
)

// benchInput returns the n inputs and seeds the server: the first half of
// the keys exist, every other one of them with an outdated plan, so half
// the inputs are new, a quarter changed and a quarter unchanged.
func benchInput(srv *workflowtest.Server, n int) []workflow.Record {
	srv.Define(workflow.Apps, benchAlias, "Email")
	in := make([]workflow.Record, n)
	var seed []workflow.Record
	for i := range n {
		in[i] = workflow.Record{"Email": fmt.Sprintf("customer-%05d@example.com", i), "Name": "Customer " + strconv.Itoa(i), "Plan": "pro"}
		if i < n/2 {
			old := workflow.Record{"Email": in[i]["Email"], "Name": in[i]["Name"], "Plan": "pro"}
			if i%2 == 0 {
				old["Plan"] = "basic"
			}
			seed = append(seed, old)
		}
	}
	srv.Seed(workflow.Apps, benchAlias, seed...)
	return in
}

// benchRun times one sync of the inputs by run and reports the metrics.
func benchRun(b *testing.B, faults bool, run func(ctx context.Context, c *workflow.Client, in []workflow.Record) (lookups int, err error)) {
	n := *benchRecords
	if testing.Short() {
		n = min(n, 500)
	}
	for range b.N {
		b.StopTimer()
		srv := workflowtest.NewServer(workflowtest.WithRateLimit(benchRate, benchRate),
			workflowtest.WithLatency(*benchLatency), workflowtest.WithSeed(11))
		in := benchInput(srv, n)
		c := srv.Client()
		if faults {
			srv.Inject(workflowtest.Fault{Route: "POST /v1/apps/" + benchAlias, Probability: 0.01, DropAfter: true})
			srv.Inject(workflowtest.Fault{Route: "/v1/**", Probability: 0.05, Status: http.StatusServiceUnavailable})
		}
		srv.ResetRequests()
		b.StartTimer()
		start := time.Now()
		lookups, err := run(b.Context(), c, in)
		elapsed := time.Since(start)
		b.StopTimer()
		if err != nil {
			b.Logf("run error: %v", err)
		}
		var accepted, failed, writes int
		for _, r := range srv.Requests() {
			if !strings.HasPrefix(r.Path, "/v1/") {
				continue
			}
			if r.Status != http.StatusTooManyRequests {
				accepted++
			}
			if r.Status == 0 || r.Status >= 400 {
				failed++
			}
		}
		counts := srv.KeyCounts(workflow.Apps, benchAlias, "Email")
		dup, lost, wrong := 0, 0, 0
		for _, r := range in {
			switch k := counts[r["Email"]]; {
			case k == 0:
				lost++
			case k > 1:
				dup += k - 1
			}
		}
		for _, r := range srv.Records(workflow.Apps, benchAlias) {
			if r["Plan"] != "pro" {
				wrong++
			}
		}
		writes = n/2 + n/4 // creates + updates
		total := len(srv.Requests())
		b.ReportMetric(float64(accepted)/elapsed.Seconds(), "req/s")
		b.ReportMetric(100*float64(accepted)/elapsed.Seconds()/benchRate, "pct-limit")
		// The best possible: the fewest requests the work needs, at the limit.
		b.ReportMetric(100*float64(writes+lookups)/benchRate/elapsed.Seconds(), "pct-best")
		b.ReportMetric(float64(failed), "failed-req")
		b.ReportMetric(float64(total-1-writes-lookups), "extra-req") // -1: the token request
		b.ReportMetric(float64(dup), "dup")
		b.ReportMetric(float64(lost), "lost")
		b.ReportMetric(float64(wrong), "wrong")
		b.ReportMetric(elapsed.Seconds(), "s/sync")
		srv.Close()
	}
}

// BenchmarkRecords is Records with its defaults.
func BenchmarkRecords(b *testing.B) {
	for _, faults := range []bool{false, true} {
		name := "clean"
		if faults {
			name = "faults"
		}
		b.Run(name, func(b *testing.B) {
			benchRun(b, faults, func(ctx context.Context, c *workflow.Client, in []workflow.Record) (int, error) {
				sum, err := upsert.Records(ctx, c.Records, workflow.Apps, benchAlias, func(yield func(workflow.Record) bool) {
					for _, r := range in {
						if !yield(r) {
							return
						}
					}
				}, &upsert.Options{KeyField: "Email"})
				if sum != nil {
					b.Logf("%d inputs: created %d, updated %d, unchanged %d, failed %d; %d requests, %d batches, %d look-ups, %d re-checks, %d throttled, %d overloaded, %s",
						sum.Read, sum.Created, sum.Updated, sum.Unchanged, sum.Failed, sum.Requests, sum.Batches, sum.Lookups, sum.Rechecks, sum.Throttled, sum.Overloaded, sum.Elapsed.Round(time.Millisecond))
					return sum.Batches, err
				}
				return 0, err
			})
		})
	}
}

// syncOne is the loop every integration writes by hand: find the record
// by its key, then create it or update it if it differs.
func syncOne(ctx context.Context, c *workflow.Client, r workflow.Record) error {
	page, err := c.Records.List(ctx, workflow.Apps, benchAlias, &workflow.ListOptions{First: 2, Filter: rsql.Field("Email").Eq(r["Email"])})
	if err != nil {
		return err
	}
	if len(page.Items) == 0 {
		_, err = c.Records.Create(ctx, workflow.Apps, benchAlias, r)
		return err
	}
	old := page.Items[0].Data
	for k, v := range r {
		if old[k] != v {
			_, err = c.Records.Update(ctx, workflow.Apps, benchAlias, old["id"], r)
			return err
		}
	}
	return nil
}

// BenchmarkBaselineSequential is baseline (a): one record after the
// other, find then create or update.
func BenchmarkBaselineSequential(b *testing.B) {
	benchRun(b, false, func(ctx context.Context, c *workflow.Client, in []workflow.Record) (int, error) {
		failed := 0
		for _, r := range in {
			if err := syncOne(ctx, c, r); err != nil {
				failed++
			}
		}
		b.Logf("%d records failed", failed)
		return len(in), nil
	})
}

// BenchmarkBaselineErrgroup is baseline (b): 16 workers of an
// errgroup, with the client's default retries and no attention to 429s.
func BenchmarkBaselineErrgroup(b *testing.B) {
	benchRun(b, false, func(ctx context.Context, c *workflow.Client, in []workflow.Record) (int, error) {
		var g errgroup.Group
		g.SetLimit(16)
		var failed atomic.Int64
		for _, r := range in {
			g.Go(func() error {
				if err := syncOne(ctx, c, r); err != nil {
					failed.Add(1)
				}
				return nil
			})
		}
		err := g.Wait()
		b.Logf("%d records failed", failed.Load())
		return len(in), err
	})
}

// createAll syncs n new records on srv with Records, and returns how long
// it took.
func createAll(tb testing.TB, srv *workflowtest.Server, n int, opts ...workflow.Option) (time.Duration, *upsert.Summary) {
	tb.Helper()
	srv.Define(workflow.Apps, benchAlias, "Email")
	c := srv.Client(opts...)
	start := time.Now()
	sum, err := upsert.Records(tb.Context(), c.Records, workflow.Apps, benchAlias, func(yield func(workflow.Record) bool) {
		for i := range n {
			if !yield(workflow.Record{"Email": fmt.Sprintf("new-%05d@example.com", i), "Plan": "pro"}) {
				return
			}
		}
	}, &upsert.Options{KeyField: "Email"})
	if err != nil || sum.Created != n {
		tb.Fatalf("created %d of %d: %v", sum.Created, n, err)
	}
	return time.Since(start), sum
}

// lone429 creates 2,000 records with Records on a fake without a rate
// limit (2,014 requests: 14 look-ups), the at-th request of which, look-ups
// and creates alike, is answered 429 with Retry-After ra (none when at is
// 0). It returns the time taken.
func lone429(tb testing.TB, at int, ra time.Duration) time.Duration {
	srv := workflowtest.NewServer()
	defer srv.Close()
	if at > 0 {
		srv.Inject(workflowtest.Fault{Route: "/v1/**", After: at - 1, Count: 1, Status: http.StatusTooManyRequests,
			Header: http.Header{"Retry-After": {strconv.Itoa(int(ra / time.Second))}}})
	}
	d, sum := createAll(tb, srv, 2000)
	if want := min(at, 1); sum.Throttled != want {
		tb.Fatalf("%d 429s, want %d", sum.Throttled, want)
	}
	return d
}

var lone429At = []int{1, 3, 50, 500}

// BenchmarkLone429 creates 2,000 records (see lone429), once as they are
// and once with a single 429 on the n-th request, with the Retry-After
// given; it reports the time with the 429, less the wait it asks for, as a
// multiple of the time without it (x-clean; the goal is at most 2).
// TestRecordsLone429 takes the medians of interleaved runs.
func BenchmarkLone429(b *testing.B) {
	for _, at := range lone429At {
		for _, ra := range []time.Duration{0, time.Second} {
			b.Run(fmt.Sprintf("request=%d/retry-after=%v", at, ra), func(b *testing.B) {
				for range b.N {
					clean := lone429(b, 0, 0)
					d := lone429(b, at, ra)
					b.ReportMetric(clean.Seconds(), "s-clean")
					b.ReportMetric(d.Seconds(), "s-429")
					b.ReportMetric(float64(d-ra)/float64(clean), "x-clean")
				}
			})
		}
	}
}

// A lone 429 costs at most twice the time without it, beyond the wait it
// asks for, wherever it comes: the medians of 5 rounds, each of which runs
// every case once, each just after a run without the 429.
func TestRecordsLone429(t *testing.T) {
	testperf.Require(t)
	const rounds = 5
	type cell struct {
		at int
		ra time.Duration
	}
	var cells []cell
	for _, at := range lone429At {
		for _, ra := range []time.Duration{0, time.Second} {
			cells = append(cells, cell{at, ra})
		}
	}
	clean := make(map[cell][]time.Duration)
	with := make(map[cell][]time.Duration)
	for range rounds {
		for _, c := range cells {
			clean[c] = append(clean[c], lone429(t, 0, 0))
			with[c] = append(with[c], lone429(t, c.at, c.ra))
		}
	}
	median := func(ds []time.Duration) time.Duration {
		ds = slices.Clone(ds)
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	for _, c := range cells {
		cl, w := median(clean[c]), median(with[c])
		ratio := float64(w-c.ra) / float64(cl)
		t.Logf("| %d | %v | %v | %v | %.2f |", c.at, c.ra, cl.Round(time.Millisecond), w.Round(time.Millisecond), ratio)
		assert.LessOrEqual(t, ratio, 2.0, "429 on request %d, Retry-After %v", c.at, c.ra)
	}
}

// lowLimit syncs new records for 8 seconds against a fake whose limit is
// 5 requests a second from the first request (a token bucket holding one
// second, 429 with Retry-After: 1; the token request takes one of its
// tokens) with the latency given, and returns the rate accepted from 4 to
// 8 seconds as a share of the limit, and the 429s in the first 4 seconds
// and in all 8.
func lowLimit(tb testing.TB, latency time.Duration) (share float64, early, throttled int) {
	const limit = 5
	srv := workflowtest.NewServer(workflowtest.WithRateLimit(limit, limit), workflowtest.WithLatency(latency))
	defer srv.Close()
	srv.Define(workflow.Apps, benchAlias, "Email")
	ctx, cancel := context.WithTimeout(tb.Context(), 8*time.Second)
	defer cancel()
	start := time.Now()
	upsert.Records(ctx, srv.Client().Records, workflow.Apps, benchAlias, func(yield func(workflow.Record) bool) {
		for i := 0; ; i++ {
			if !yield(workflow.Record{"Email": fmt.Sprintf("new-%05d@example.com", i)}) {
				return
			}
		}
	}, &upsert.Options{KeyField: "Email"}, workflow.WithMaxAttempts(20))
	ok := 0
	for _, r := range srv.Requests() {
		switch d := r.Time.Sub(start); {
		case r.Status == http.StatusTooManyRequests:
			throttled++
			if d < 4*time.Second {
				early++
			}
		case r.Status/100 == 2 && d >= 4*time.Second && d < 8*time.Second:
			ok++
		}
	}
	return float64(ok) / 4 / limit, early, throttled
}

// BenchmarkLowLimitFromTheStart runs lowLimit at -sync.latency, and
// reports the rate accepted from 4 to 8 seconds as a percentage of the
// limit (the goal: 85 to 105), and the 429s in the first 4 seconds (the
// goal: at most 10) and in all 8.
func BenchmarkLowLimitFromTheStart(b *testing.B) {
	for range b.N {
		share, early, throttled := lowLimit(b, *benchLatency)
		b.ReportMetric(100*share, "pct-of-limit")
		b.ReportMetric(float64(early), "throttled-4s")
		b.ReportMetric(float64(throttled), "throttled-8s")
	}
}

// The guard against ignoring early 429s, on loopback and at 20 ms of
// latency, 3 runs each, interleaved: within 4 seconds the sync runs at 85%
// to 105% of the limit of 5 requests a second it meets from the first
// request, with at most 10 429s in those 4 seconds.
func TestRecordsLowLimitFromTheStart(t *testing.T) {
	testperf.Require(t)
	for round := range 3 {
		for _, latency := range []time.Duration{0, 20 * time.Millisecond} {
			share, early, throttled := lowLimit(t, latency)
			t.Logf("round %d, latency %v: %.0f%% of the limit from 4 to 8 s; %d 429s in the first 4 s, %d in 8 s", round+1, latency, 100*share, early, throttled)
			assert.GreaterOrEqual(t, share, 0.85, "latency %v", latency)
			assert.LessOrEqual(t, share, 1.05, "latency %v", latency)
			assert.LessOrEqual(t, early, 10, "latency %v", latency)
		}
	}
}

// BenchmarkChangingLimit syncs new records for 24 seconds against a fake
// whose limit is 50, then 20, then 100 requests a second (8 seconds each,
// a token bucket holding one second, 429 with Retry-After: 1; latency
// -sync.latency), and reports the rate accepted from 4 to 8 seconds after
// each change as a percentage of the limit (the goal: 85 to 105).
func BenchmarkChangingLimit(b *testing.B) {
	limits := []int{50, 20, 100}
	for range b.N {
		srv := workflowtest.NewServer(workflowtest.WithRateLimit(float64(limits[0]), limits[0]), workflowtest.WithLatency(*benchLatency))
		ctx, cancel := context.WithTimeout(b.Context(), 24*time.Second)
		start := time.Now()
		go func() {
			for _, l := range limits[1:] {
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Until(start.Add(8 * time.Second * time.Duration(slices.Index(limits, l))))):
					srv.SetRateLimit(float64(l), l)
				}
			}
		}()
		srv.Define(workflow.Apps, benchAlias, "Email")
		sum, _ := upsert.Records(ctx, srv.Client().Records, workflow.Apps, benchAlias, func(yield func(workflow.Record) bool) {
			for i := 0; ; i++ {
				if !yield(workflow.Record{"Email": fmt.Sprintf("new-%05d@example.com", i)}) {
					return
				}
			}
		}, &upsert.Options{KeyField: "Email"}, workflow.WithMaxAttempts(20))
		cancel()
		for i, l := range limits {
			from := start.Add(time.Duration(i)*8*time.Second + 4*time.Second)
			n := 0
			for _, r := range srv.Requests() {
				if r.Status/100 == 2 && !r.Time.Before(from) && r.Time.Before(from.Add(4*time.Second)) {
					n++
				}
			}
			b.ReportMetric(100*float64(n)/4/float64(l), fmt.Sprintf("pct-of-%d", l))
		}
		b.ReportMetric(float64(sum.Throttled), "throttled")
		b.ReportMetric(float64(sum.Failed), "failed")
		srv.Close()
	}
}

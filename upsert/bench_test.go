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
// (that as a percentage of the rate limit), failed-req (requests answered
// 4xx/5xx or dropped), extra-req (requests beyond creates + updates +
// look-up batches), dup and lost (records duplicated or missing on the
// fake afterwards) and wrong (records whose values differ from the input).

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	workflow "github.com/seed-a15e58aa/workflow-go"
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

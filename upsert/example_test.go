package upsert_test

import (
	"context"
	"fmt"
	"log"
	"slices"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/upsert"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func ExampleRecords() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Apps, "customers",
		workflow.Record{"Email": "ada@example.com", "Plan": "basic"},
		workflow.Record{"Email": "alan@example.com", "Plan": "pro"})
	c := srv.Client()

	// The source of truth: a CSV, a database, another system. Any
	// iter.Seq works; it is read once, in windows, never all at once.
	source := []workflow.Record{
		{"Email": "ada@example.com", "Plan": "pro"},   // changed
		{"Email": "alan@example.com", "Plan": "pro"},  // unchanged
		{"Email": "grace@example.com", "Plan": "pro"}, // new
		{"Email": "", "Plan": "pro"},                  // bad input: fails alone
	}
	results := map[int]upsert.Result{}
	sum, err := upsert.Records(context.Background(), c.Records, workflow.Apps, "customers", slices.Values(source), &upsert.Options{
		KeyField: "Email",
		OnResult: func(r upsert.Result) { results[r.Index] = r },
	})
	if err != nil {
		log.Fatal(err)
	}
	for i := range source {
		r := results[i]
		fmt.Printf("%d %-9s %-18s changed=%v err=%v\n", i, r.Action, r.Key, r.Changed, r.Err)
	}
	fmt.Printf("created %d, updated %d, unchanged %d, failed %d, in %d requests\n",
		sum.Created, sum.Updated, sum.Unchanged, sum.Failed, sum.Requests)
	// Output:
	// 0 updated   ada@example.com    changed=[Plan] err=<nil>
	// 1 unchanged alan@example.com   changed=[] err=<nil>
	// 2 created   grace@example.com  changed=[] err=<nil>
	// 3 failed                       changed=[] err=workflow: invalid records[3].Email: must not be empty (the key field)
	// created 1, updated 1, unchanged 1, failed 1, in 3 requests
}

// A test of a sync against the fake on the fake's clock: the server is
// the sync's Clock and its Sleep the client's retry sleep, so the 429s
// of the fake's rate limit, their Retry-After and the sync's pacing cost
// no real time, and the sync keeps the server's time.
func ExampleRecords_testClock() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	srv := workflowtest.NewServer(workflowtest.WithClock(func() time.Time { return start }),
		workflowtest.WithRateLimit(10, 10)) // 10 requests a second
	defer srv.Close()
	srv.Define(workflow.Apps, "customers", "Email")
	c := srv.Client(workflow.WithRetryPolicy(workflow.RetryPolicy{Sleep: srv.Sleep, MaxAttempts: 10}))

	var source []workflow.Record
	for i := range 100 {
		source = append(source, workflow.Record{"Email": fmt.Sprintf("c%03d@example.com", i)})
	}
	sum, err := upsert.Records(context.Background(), c.Records, workflow.Apps, "customers", slices.Values(source),
		&upsert.Options{KeyField: "Email", Clock: srv})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("created %d; at least 9 s passed on the server's clock: %v\n", sum.Created, sum.Elapsed >= 9*time.Second)
	// Output:
	// created 100; at least 9 s passed on the server's clock: true
}

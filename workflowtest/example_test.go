package workflowtest_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func ExampleNewServer() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	srv.Define(workflow.Tasks, "it-requests", "Title")
	srv.Seed(workflow.Tasks, "it-requests",
		workflow.Record{"Title": "Printer jams", "Status": "Open"},
		workflow.Record{"Title": "VPN drops", "Status": "Done"})

	c := srv.Client()
	ctx := context.Background()
	rec, err := c.Records.Create(ctx, workflow.Tasks, "it-requests", workflow.Record{"Title": "New laptop", "Status": "Open"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("created", rec["id"])

	_, err = c.Records.Create(ctx, workflow.Tasks, "it-requests", workflow.Record{"Status": "Open"})
	var apiErr *workflow.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Message)
	}

	open := &workflow.ListOptions{Filter: rsql.Field("Status").Eq("Open")}
	for item, err := range c.Records.All(ctx, workflow.Tasks, "it-requests", open) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(item.Data["id"], item.Data["Title"])
	}
	// Output:
	// created 3
	// 400 missing required fields: Title
	// 1 Printer jams
	// 3 New laptop
}

func ExampleServer_Inject() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"Title": "Printer jams"})
	srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/*", Count: 2, Status: 503, RetryAfter: time.Second})

	// A client whose retries do not really wait.
	c := srv.Client(workflow.WithRetryPolicy(workflow.RetryPolicy{
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() },
	}))
	page, err := c.Records.List(context.Background(), workflow.Tasks, "it-requests", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(page.Items), "record after")
	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Path, r.Status)
	}
	// Output:
	// 1 record after
	// POST /oauth/token 200
	// GET /v1/tasks/it-requests 503
	// GET /v1/tasks/it-requests 503
	// GET /v1/tasks/it-requests 200
}

func ExampleServer_Advance() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"Title": "Printer jams"})
	c := srv.Client()
	ctx := context.Background()
	if _, err := c.Records.Get(ctx, workflow.Tasks, "it-requests", "1"); err != nil {
		fmt.Println(err)
	}

	// A day later the token has expired: the fake answers 401 and the
	// client fetches a new token by itself.
	srv.Advance(25 * time.Hour)
	srv.ResetRequests()
	if _, err := c.Records.Get(ctx, workflow.Tasks, "it-requests", "1"); err != nil {
		fmt.Println(err)
	}
	for _, r := range srv.Requests() {
		fmt.Println(r.Route, r.Status)
	}
	// Output:
	// GET /v1/{recordType}/{alias}/{id} 401
	// POST /oauth/token 200
	// GET /v1/{recordType}/{alias}/{id} 200
}

func ExampleServer_SeedDemo() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	demo := srv.SeedDemo()
	fmt.Println(demo.Lists)
	page, err := srv.Client().Records.List(context.Background(), workflow.Tasks, workflowtest.DemoTasks, &workflow.ListOptions{
		First:  2,
		Filter: rsql.And(rsql.Field("Category").Eq("Network"), rsql.Field("Priority").Ge(5)),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(page.Total, "matches")
	for _, it := range page.Items {
		fmt.Println(it.Data["Title"])
	}
	// Output:
	// [/tasks/it-requests /apps/crm-accounts /elements/parts /transactions/invoices]
	// 50 matches
	// Request 0015: network issue
	// Request 0035: network issue
}

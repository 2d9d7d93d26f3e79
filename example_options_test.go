package workflow_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// Per-call options: an extra header, and the final response's status and
// request ID captured into a variable.
func ExampleWithResponseInto() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	ids := srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	c := srv.Client()

	var resp workflow.Response
	rec, err := c.Records.Get(context.Background(), workflow.Tasks, "it-requests", ids[0],
		workflow.WithHeader("X-Ticket", "OPS-42"),
		workflow.WithResponseInto(&resp))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rec["Title"])
	fmt.Println(resp.StatusCode, resp.RequestID, resp.Attempts)
	// Output:
	// Printer jammed
	// 200 req-2 1
}

// A per-call attempt budget and per-attempt timeout: this call gives up
// after two attempts, whatever the client's retry policy says.
func ExampleWithMaxAttempts() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	ids := srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	srv.Inject(workflowtest.Fault{Route: "GET /v1/{recordType}/{alias}/{id}", Status: http.StatusServiceUnavailable})
	c := srv.Client()

	var resp workflow.Response
	_, err := c.Records.Get(context.Background(), workflow.Tasks, "it-requests", ids[0],
		workflow.WithMaxAttempts(2),
		workflow.WithAttemptTimeout(10*time.Second),
		workflow.WithResponseInto(&resp))
	fmt.Println(resp.StatusCode, "after", resp.Attempts, "attempts")
	var ae *workflow.APIError
	if errors.As(err, &ae) {
		fmt.Println("request ID for support:", ae.RequestID)
	}
	// Output:
	// 503 after 2 attempts
	// request ID for support: req-3
}

// Options are checked before anything is sent: a header the SDK owns is
// refused, never overridden silently.
func ExampleWithHeader() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	c := srv.Client()

	_, err := c.Records.Get(context.Background(), workflow.Tasks, "it-requests", "1",
		workflow.WithHeader("Authorization", "Bearer something-else"))
	fmt.Println(err)
	fmt.Println("requests sent:", len(srv.Requests()))
	// Output:
	// workflow: invalid WithHeader("Authorization"): cannot be set per call: it is set by the SDK from the client's credentials
	// requests sent: 0
}

// A typed export that saves its position and resumes: each item carries
// the decoded value and its cursor.
func ExampleAllItemsAs() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	c := srv.Client()
	ctx := context.Background()

	type request struct {
		ID    string `workflow:"id"`
		Title string `workflow:"Title"`
	}
	// The first run handles two records, saving the cursor after each.
	var saved string
	for it, err := range workflow.AllItemsAs[request](ctx, c.Records, workflow.Tasks, "it-requests", nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("run 1:", it.Value.ID, it.Value.Title)
		saved = it.Cursor
		if it.Value.ID == "2" {
			break // interrupted
		}
	}
	// A later run starts right after the saved cursor.
	for it, err := range workflow.AllItemsAs[request](ctx, c.Records, workflow.Tasks, "it-requests", &workflow.ListOptions{After: saved}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("run 2:", it.Value.ID, it.Value.Title)
	}
	// Output:
	// run 1: 1 Printer jammed
	// run 1: 2 New laptop
	// run 2: 3 VPN access
	// run 2: 4 Password reset
	// run 2: 5 Broken chair
}

// An observer sees every call and attempt with its route template; the
// otel module builds OpenTelemetry spans and metrics on the same hooks.
func ExampleWithObserver() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	ids := srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	srv.Inject(workflowtest.Fault{Route: "GET /v1/{recordType}/{alias}/{id}", Count: 1, Status: http.StatusBadGateway})

	var retries atomic.Int64
	obs := &workflow.Observer{
		AttemptEnd: func(ctx context.Context, at workflow.AttemptInfo, res workflow.AttemptResult) {
			fmt.Println(at.Method, at.Route, "attempt", at.Attempt, "status", res.StatusCode, "retry", res.Retry)
			if res.Retry {
				retries.Add(1)
			}
		},
	}
	c := srv.Client(workflow.WithObserver(obs), workflow.WithRetryPolicy(workflow.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}))
	if _, err := c.Records.Get(context.Background(), workflow.Tasks, "it-requests", ids[0]); err != nil {
		log.Fatal(err)
	}
	fmt.Println("retries:", retries.Load())
	// Output:
	// GET /{recordType}/{alias}/{id} attempt 1 status 502 retry true
	// GET /{recordType}/{alias}/{id} attempt 2 status 200 retry false
	// retries: 1
}

// At debug level the client logs each attempt: method, route template,
// attempt, status, duration, request ID and, when it retries, the wait.
// Never a URL, body, filter, secret or token.
func ExampleWithLogger() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" || a.Key == "expires" {
				return slog.Attr{} // varying values, left out of this example
			}
			return a
		},
	}))
	c := srv.Client(workflow.WithLogger(logger))
	if _, err := c.Records.List(context.Background(), workflow.Tasks, "it-requests", &workflow.ListOptions{First: 2}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// level=INFO msg="workflow: new access token"
	// level=DEBUG msg="workflow: request" method=GET route=/{recordType}/{alias} attempt=1 status=200 request_id=req-2
}

// Release the connections a client keeps open once it is no longer
// needed. The client stays usable.
func ExampleClient_CloseIdleConnections() {
	c, err := workflow.NewClient(
		workflow.WithCredentials("my-client-id", "my-client-secret"),
		workflow.WithEndpoint("https://api.workflow.example/v1", "https://auth.workflow.example"),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer c.CloseIdleConnections()
	// ... use c ...
	fmt.Println("done")
	// Output: done
}

// A retry policy given to the client is the default of every call; one
// given to a call replaces it for that call. OnRetry reports each retry,
// so that a long wait never looks like a hang.
func ExampleWithRetryPolicy() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	ids := srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	srv.Inject(workflowtest.Fault{Route: "GET /v1/{recordType}/{alias}/{id}", Count: 2, Status: http.StatusServiceUnavailable})
	c := srv.Client(workflow.WithRetryPolicy(workflow.RetryPolicy{
		MaxAttempts: 6,
		BaseDelay:   time.Millisecond, // short waits, for the example
		MaxDelay:    10 * time.Millisecond,
		OnRetry: func(ev workflow.RetryEvent) {
			fmt.Println("attempt", ev.Attempt, "failed with", ev.StatusCode, "- retrying")
		},
	}))
	ctx := context.Background()

	rec, err := c.Records.Get(ctx, workflow.Tasks, "it-requests", ids[0])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rec["Title"])

	// This call makes one attempt only.
	srv.Inject(workflowtest.Fault{Route: "GET /v1/{recordType}/{alias}/{id}", Count: 1, Status: http.StatusServiceUnavailable})
	_, err = c.Records.Get(ctx, workflow.Tasks, "it-requests", ids[0], workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 1}))
	var apiErr *workflow.APIError
	fmt.Println(errors.As(err, &apiErr), apiErr.StatusCode)
	// Output:
	// attempt 1 failed with 503 - retrying
	// attempt 2 failed with 503 - retrying
	// Printer jammed
	// true 503
}

// A walk rides out an outage longer than one request's attempts: when a
// page's request has used them up, the walk asks for the same page again
// after the next backoff, until MaxElapsed has passed without a page. The
// waits here pass on the fake's clock (Sleep), so the example takes no
// time; OnRetry shows the walk going on past the request's attempts.
func ExampleRetryPolicy_maxElapsed() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	// 30 seconds of 503s after the first page.
	srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it-requests", After: 1, For: 30 * time.Second, Status: http.StatusServiceUnavailable})
	policy := workflow.DefaultRetryPolicy() // 4 attempts a request, MaxElapsed 2 minutes
	policy.Sleep = func(ctx context.Context, d time.Duration) error { srv.Advance(d); return ctx.Err() }
	walked := false
	policy.OnRetry = func(ev workflow.RetryEvent) { walked = walked || ev.Attempt >= policy.MaxAttempts }
	c := srv.Client(workflow.WithRetryPolicy(policy))

	n := 0
	for _, err := range c.Records.All(context.Background(), workflow.Tasks, "it-requests", &workflow.ListOptions{First: 1}) {
		if err != nil {
			log.Fatal(err) // the outage outlasted MaxElapsed, or the context ended
		}
		n++
	}
	fmt.Println(n, "records; the walk asked again after a request's attempts:", walked)
	// Output: 5 records; the walk asked again after a request's attempts: true
}

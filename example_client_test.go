package workflow_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// A client for an account: the credentials and the hosts of the account's
// region. NewClient does no I/O: the token is requested with the first
// call.
func ExampleNewClient() {
	c, err := workflow.NewClient(
		workflow.WithCredentials("my-client-id", "my-client-secret"),
		workflow.WithEndpoint("https://api.workflow.example/v1", "https://auth.workflow.example"),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.BaseURL())
	fmt.Println(c) // never prints the secret
	// Output:
	// https://api.workflow.example/v1/
	// workflow.Client{base: https://api.workflow.example/v1/}
}

// EU-region accounts use their regional hosts for both the API and the
// token endpoint.
func ExampleWithEndpoint() {
	c, err := workflow.NewClient(
		workflow.WithCredentials("my-client-id", "my-client-secret"),
		workflow.WithEndpoint("https://eu.api.workflow.example/v1", "https://eu.auth.workflow.example"),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.BaseURL())
	// Output: https://eu.api.workflow.example/v1/
}

// NewClientFromEnv reads four variables, all required: WORKFLOW_CLIENT_ID,
// WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL (the API base, ending in /v1)
// and WORKFLOW_AUTH_URL (the token host). The SDK has no default host: a
// missing URL is an error naming the variable, unless WithEndpoint is
// passed as an option.
func ExampleNewClientFromEnv() {
	os.Setenv("WORKFLOW_CLIENT_ID", "my-client-id")
	os.Setenv("WORKFLOW_CLIENT_SECRET", "my-client-secret")
	os.Setenv("WORKFLOW_BASE_URL", "https://eu.api.workflow.example/v1")
	os.Setenv("WORKFLOW_AUTH_URL", "https://eu.auth.workflow.example")
	defer func() {
		for _, k := range []string{"WORKFLOW_CLIENT_ID", "WORKFLOW_CLIENT_SECRET", "WORKFLOW_BASE_URL", "WORKFLOW_AUTH_URL"} {
			os.Unsetenv(k)
		}
	}()

	c, err := workflow.NewClientFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.BaseURL())
	fmt.Println(c) // never prints the secret
	// Output:
	// https://eu.api.workflow.example/v1/
	// workflow.Client{base: https://eu.api.workflow.example/v1/}
}

// ExampleClient_Call sends an operation through the SDK's request path
// (authentication, retries, options, error decoding) with the caller's own
// types: here the first page of a record's watchers, one at a time, read
// for its total and the e-mail address of the first watcher. Each path
// segment taken from data is escaped with Segment, which refuses what could
// change the path.
func ExampleClient_Call() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"id": "T-1", "Title": "New laptop"})
	srv.AddUser("ann@example.com", "Ann", "Lee")
	srv.AddUser("bo@example.com", "Bo", "Berg")
	c := srv.Client()
	ctx := context.Background()
	if err := c.Records.Watchers.Add(ctx, workflow.Tasks, "it-requests", "T-1", []string{"ann@example.com", "bo@example.com"}); err != nil {
		log.Fatal(err)
	}

	id, err := workflow.Segment("id", "T-1")
	if err != nil {
		log.Fatal(err)
	}
	query := struct {
		First int `url:"first"`
	}{First: 1}
	var page struct {
		Total int `json:"total"`
		Items []struct {
			Target struct {
				Email string `json:"email"`
			} `json:"target"`
		} `json:"items"`
	}
	if err := c.Call(ctx, http.MethodGet, "tasks/it-requests/"+id+"/watchers", query, nil, &page); err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Total, "watchers; first:", page.Items[0].Target.Email)

	// A failure is an *APIError, as from every method.
	err = c.Call(ctx, http.MethodGet, "tasks/it-requests/T-404", nil, nil, nil)
	fmt.Println(errors.Is(err, workflow.ErrNotFound))

	_, err = workflow.Segment("id", "../users")
	fmt.Println(err)
	// Output:
	// 2 watchers; first: ann@example.com
	// true
	// workflow: invalid id: must not contain "/"
}

// ExampleClient_Do sends a request built with NewRequest; the per-call
// options go to Do.
func ExampleClient_Do() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"id": "T-1", "Title": "New laptop"})
	c := srv.Client()

	req, err := c.NewRequest(context.Background(), http.MethodGet, "tasks/it-requests/T-1", nil)
	if err != nil {
		log.Fatal(err)
	}
	var rec workflow.Record
	var resp workflow.Response
	if _, err := c.Do(req, &rec, workflow.WithMaxAttempts(2), workflow.WithResponseInto(&resp)); err != nil {
		log.Fatal(err)
	}
	fmt.Println(rec["Title"], resp.StatusCode, resp.Attempts)
	// Output: New laptop 200 1
}

// ExampleAPIError tells the failures apart: a status of 400 or more is an
// *APIError, matched by kind with the sentinels, carrying the service's
// message and the request ID to quote to support.
func ExampleAPIError() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"id": "T-1", "Title": "New laptop"})
	c := srv.Client()

	_, err := c.Records.Get(context.Background(), workflow.Tasks, "it-requests", "T-2")
	var apiErr *workflow.APIError
	switch {
	case errors.Is(err, workflow.ErrNotFound) && errors.As(err, &apiErr):
		fmt.Println("not found:", apiErr.StatusCode, apiErr.Message, "- request ID", apiErr.RequestID)
	case err != nil:
		log.Fatal(err) // network failure, context cancelled, ...
	}
	// Output: not found: 404 no record with id "T-2" in tasks/it-requests - request ID req-2
}

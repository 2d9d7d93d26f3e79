package workflow_test

import (
	"context"
	"fmt"
	"log"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// exampleRequests are the records of tasks/it-requests the examples below
// seed into the fake service; it gives them the ids "1" to "5".
var exampleRequests = []workflow.Record{
	{"Title": "Printer jammed", "Status": "Open", "Priority": "1", "Due Date": "2024-03-01T09:00:00.000Z"},
	{"Title": "New laptop", "Status": "Done", "Priority": "3"},
	{"Title": "VPN access", "Status": "Open", "Priority": "2"},
	{"Title": "Password reset", "Status": "Open", "Priority": "1", "Due Date": "2024-03-04T17:00:00.000Z"},
	{"Title": "Broken chair", "Status": "Done", "Priority": "3"},
}

func ExampleRecordsService_List() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	c := srv.Client()
	ctx := context.Background()

	// The first page of open requests of priority 1 or 2, two at a time.
	opts := &workflow.ListOptions{
		First:  2,
		Filter: rsql.And(rsql.Field("Status").Eq("Open"), rsql.Field("Priority").In(1, 2)),
	}
	page, err := c.Records.List(ctx, workflow.Tasks, "it-requests", opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("matching:", page.Total)
	for _, item := range page.Items {
		fmt.Println(item.Data["id"], item.Data["Title"])
	}
	fmt.Println("more:", page.Paging.HasNextPage)

	// The next page starts after the end cursor of this one.
	opts.After = page.Paging.EndCursor
	if page, err = c.Records.List(ctx, workflow.Tasks, "it-requests", opts); err != nil {
		log.Fatal(err)
	}
	for _, item := range page.Items {
		fmt.Println(item.Data["id"], item.Data["Title"])
	}
	fmt.Println("more:", page.Paging.HasNextPage)
	// Output:
	// matching: 3
	// 1 Printer jammed
	// 3 VPN access
	// more: true
	// 4 Password reset
	// more: false
}

func ExampleRecordsService_All() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	c := srv.Client()

	// All follows the page cursors (here three pages of two records).
	for item, err := range c.Records.All(context.Background(), workflow.Tasks, "it-requests", &workflow.ListOptions{First: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(item.Data["id"], item.Data["Status"], item.Data["Title"])
	}
	// Output:
	// 1 Open Printer jammed
	// 2 Done New laptop
	// 3 Open VPN access
	// 4 Open Password reset
	// 5 Done Broken chair
}

func ExampleRecordsService_All_backward() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	c := srv.Client()

	// Last (or Before) walks from the end of the list towards its start.
	for item, err := range c.Records.All(context.Background(), workflow.Tasks, "it-requests", &workflow.ListOptions{Last: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(item.Data["id"], item.Data["Title"])
	}
	// Output:
	// 5 Broken chair
	// 4 Password reset
	// 3 VPN access
	// 2 New laptop
	// 1 Printer jammed
}

func ExampleRecordsService_All_resume() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	c := srv.Client()
	ctx := context.Background()

	// Work through the records, remembering the cursor of the last one
	// handled; here the work stops after two records.
	var cursor string
	for item, err := range c.Records.All(ctx, workflow.Tasks, "it-requests", nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("handled", item.Data["id"])
		cursor = item.Cursor
		if item.Data["id"] == "2" {
			break
		}
	}

	// Later (even in another process), carry on right after it.
	for item, err := range c.Records.All(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{After: cursor}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("handled", item.Data["id"], "after resuming")
	}
	// Output:
	// handled 1
	// handled 2
	// handled 3 after resuming
	// handled 4 after resuming
	// handled 5 after resuming
}

// ITRequest is a record of the "it-requests" task definition.
type ITRequest struct {
	ID       string     `workflow:"id,omitempty"`
	Title    string     // record field "Title"
	Status   string     `workflow:"Status"`
	Priority int        `workflow:"Priority"`
	Due      *time.Time `workflow:"Due Date"` // nil when the record has no due date
	Notes    string     `workflow:"-"`        // never sent or read
}

func ExampleAllAs() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", exampleRequests...)
	c := srv.Client()

	opts := &workflow.ListOptions{Filter: rsql.Field("Status").Eq("Open"), Prefetch: true}
	for req, err := range workflow.AllAs[ITRequest](context.Background(), c.Records, workflow.Tasks, "it-requests", opts) {
		if err != nil {
			log.Fatal(err)
		}
		due := "no due date"
		if req.Due != nil {
			due = "due " + req.Due.Format(time.DateOnly)
		}
		fmt.Printf("%s %q priority %d, %s\n", req.ID, req.Title, req.Priority, due)
	}
	// Output:
	// 1 "Printer jammed" priority 1, due 2024-03-01
	// 3 "VPN access" priority 2, no due date
	// 4 "Password reset" priority 1, due 2024-03-04
}

func ExampleDecode() {
	rec := workflow.Record{"id": "1", "Title": "Printer jammed", "Status": "Open", "Priority": "1", "Due Date": "2024-03-01T09:00:00.000Z"}
	var req ITRequest
	if err := workflow.Decode(rec, &req); err != nil {
		log.Fatal(err)
	}
	fmt.Println(req.Title, req.Priority, req.Due.Format(time.RFC3339))

	// A value that does not fit names the record field, the Go field and
	// its type, not the value (users' data; DecodeError.Value has it).
	err := workflow.Decode(workflow.Record{"Priority": "high"}, &req)
	fmt.Println(err)
	// Output:
	// Printer jammed 1 2024-03-01T09:00:00Z
	// workflow: cannot decode record field "Priority" into ITRequest.Priority (int): not a base-10 int
}

func ExampleEncode() {
	due := time.Date(2024, 3, 1, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	rec, err := workflow.Encode(ITRequest{Title: "Printer jammed", Status: "Open", Priority: 1, Due: &due})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rec) // times are sent in UTC; the empty id is left out
	// Output:
	// map[Due Date:2024-03-01T09:00:00.000Z Priority:1 Status:Open Title:Printer jammed]
}

func ExampleFormatTime() {
	t := time.Date(2024, 3, 1, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	s := workflow.FormatTime(t)
	fmt.Println(s)
	back, _ := workflow.ParseTime(s)
	fmt.Println(back.Equal(t))
	// Output:
	// 2024-03-01T09:00:00.000Z
	// true
}

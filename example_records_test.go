package workflow_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

func ExampleRecordsService_List() {
	srv := newListExampleServer()
	defer srv.Close()
	c := newListExampleClient(srv)

	// The first page of open requests, two at a time.
	page, err := c.Records.List(context.Background(), workflow.Tasks, "it-requests", &workflow.ListOptions{
		First:  2,
		Filter: rsql.And(rsql.Field("Status").Eq("Open"), rsql.Field("Priority").In(1, 2)),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("matching:", page.Total)
	for _, item := range page.Items {
		fmt.Println(item.Data["id"], item.Data["Title"])
	}
	fmt.Println("more:", page.Paging.HasNextPage, "next page after:", page.Paging.EndCursor)
	// Output:
	// matching: 3
	// 1 Printer jammed
	// 3 VPN access
	// more: true next page after: cur-3
}

func ExampleRecordsService_All() {
	srv := newListExampleServer()
	defer srv.Close()
	c := newListExampleClient(srv)

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
	srv := newListExampleServer()
	defer srv.Close()
	c := newListExampleClient(srv)

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
	srv := newListExampleServer()
	defer srv.Close()
	c := newListExampleClient(srv)
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
	srv := newListExampleServer()
	defer srv.Close()
	c := newListExampleClient(srv)

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

	// A value that does not fit names the field and the value.
	err := workflow.Decode(workflow.Record{"Priority": "high"}, &req)
	fmt.Println(err)
	// Output:
	// Printer jammed 1 2024-03-01T09:00:00Z
	// workflow: cannot decode record field "Priority" = "high" into ITRequest.Priority (int): not a base-10 int
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

// newListExampleClient returns a client for the example server.
func newListExampleClient(srv *httptest.Server) *workflow.Client {
	c, err := workflow.NewClient(
		workflow.WithCredentials("example-id", "example-secret"),
		workflow.WithEndpoint(srv.URL+"/v1", srv.URL),
	)
	if err != nil {
		log.Fatal(err)
	}
	return c
}

// newListExampleServer is a tiny stand-in for the service: a token endpoint
// and the record list of tasks/it-requests, with cursors both ways and
// filters of ==, =in=, ';' and ','.
func newListExampleServer() *httptest.Server {
	records := []workflow.Record{
		{"id": "1", "Title": "Printer jammed", "Status": "Open", "Priority": "1", "Due Date": "2024-03-01T09:00:00.000Z"},
		{"id": "2", "Title": "New laptop", "Status": "Done", "Priority": "3"},
		{"id": "3", "Title": "VPN access", "Status": "Open", "Priority": "2"},
		{"id": "4", "Title": "Password reset", "Status": "Open", "Priority": "1", "Due Date": "2024-03-04T17:00:00.000Z"},
		{"id": "5", "Title": "Broken chair", "Status": "Done", "Priority": "3"},
	}
	var match func(e rsql.Expr, r workflow.Record) bool
	match = func(e rsql.Expr, r workflow.Record) bool {
		switch e := e.(type) {
		case *rsql.Comparison:
			return slices.ContainsFunc(e.Values, func(v rsql.Value) bool { return r[e.Field] == v.Text })
		case *rsql.AndExpr:
			return !slices.ContainsFunc(e.Operands, func(o rsql.Expr) bool { return !match(o, r) })
		case *rsql.OrExpr:
			return slices.ContainsFunc(e.Operands, func(o rsql.Expr) bool { return match(o, r) })
		}
		return false
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"example-token","token_type":"bearer","expires_in":86400}`))
	})
	mux.HandleFunc("GET /v1/tasks/it-requests", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		list := records
		if f := q.Get("filter"); f != "" {
			expr, err := rsql.Parse(f)
			if err != nil {
				http.Error(w, `{"status":400,"message":"bad filter"}`, http.StatusBadRequest)
				return
			}
			list = slices.DeleteFunc(slices.Clone(records), func(r workflow.Record) bool { return !match(expr, r) })
		}
		pos := func(cursor string) int { // index of the record the cursor marks
			return slices.IndexFunc(list, func(r workflow.Record) bool { return "cur-"+r["id"] == cursor })
		}
		lo, hi := 0, len(list)
		if n, _ := strconv.Atoi(q.Get("last")); n > 0 || q.Has("before") {
			if q.Has("before") {
				hi = pos(q.Get("before"))
			}
			lo = max(0, hi-cmp.Or(n, 100))
		} else {
			n, _ := strconv.Atoi(q.Get("first"))
			if q.Has("after") {
				lo = pos(q.Get("after")) + 1
			}
			hi = min(len(list), lo+cmp.Or(n, 100))
		}
		type item struct {
			Data   workflow.Record `json:"data"`
			Cursor string          `json:"cursor"`
		}
		items := []item{}
		for _, r := range list[lo:hi] {
			items = append(items, item{r, "cur-" + r["id"]})
		}
		paging := workflow.PagingState{HasNextPage: hi < len(list), HasPreviousPage: lo > 0}
		if len(items) > 0 {
			paging.StartCursor, paging.EndCursor = items[0].Cursor, items[len(items)-1].Cursor
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"items": items, "total": len(list), "paging": paging})
	})
	return httptest.NewServer(mux)
}

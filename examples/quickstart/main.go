// Command quickstart is a tour of the workflow-go SDK that needs no
// account.
//
// With no WORKFLOW_* environment variable set, it starts the in-process fake
// of the service (package workflowtest) with its demo data and walks through
// the SDK step by step: the access token, creating records, typed records,
// a search with an RSQL filter, paging forward, backward and resuming from a
// cursor, an update, related items, a file upload, watchers, comments, users
// and groups, and a handled error.
//
//	go run ./examples/quickstart
//
// With WORKFLOW_CLIENT_ID and WORKFLOW_CLIENT_SECRET set (plus
// WORKFLOW_BASE_URL and WORKFLOW_AUTH_URL for a regional host), it runs
// against that account instead, on the records named by -type and -alias,
// and only reads:
//
//	go run ./examples/quickstart -type tasks -alias it-requests   # on the WORKFLOW_* account
//
// -write adds the steps that change data there: it creates one record with
// the fields given by -field (repeatable), comments on it and attaches a
// small text file to it:
//
//	go run ./examples/quickstart -alias it-requests -write -field Title=Hello -field Status=Open   # on the WORKFLOW_* account
//
// -v logs every request to stderr (the SDK's WithLogger; no secret is
// logged).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h: the usage was printed; status 0, as the flag package's own
		}
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// idField is the record field that holds a record's id, as the SDK and
// workflowtest read it (the README's "What is still assumed" says why).
const idField = "id"

// envVars are the variables that switch the tour to a real account.
var envVars = []string{workflow.EnvClientID, workflow.EnvClientSecret, workflow.EnvBaseURL, workflow.EnvAuthURL}

// run parses the flags and runs the tour, on the embedded fake or, when a
// WORKFLOW_* variable is set, on the account they name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rt := fs.String("type", string(workflow.Tasks), "record type of the account tour: apps, elements, tasks or transactions")
	alias := fs.String("alias", workflowtest.DemoTasks, "definition alias of the account tour")
	write := fs.Bool("write", false, "account tour: also create a record, comment on it and attach a file")
	var fields []string
	fs.Func("field", "account tour with -write: a field of the record to create, as Name=Value (repeatable)", func(s string) error {
		if name, _, ok := strings.Cut(s, "="); !ok || strings.TrimSpace(name) == "" {
			return errors.New("want Name=Value")
		}
		fields = append(fields, s)
		return nil
	})
	verbose := fs.Bool("v", false, "log every request to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}

	// A transport that counts requests, to show that one token serves every
	// call. Your own code does not need one.
	counter := &countingTransport{}
	opts := []workflow.Option{workflow.WithUserAgent("workflow-quickstart")}
	if *verbose {
		opts = append(opts, workflow.WithLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}

	account := slices.ContainsFunc(envVars, func(k string) bool { return os.Getenv(k) != "" })
	if !account {
		if *write || len(fields) > 0 {
			return errors.New("-write and -field are for the account tour (set WORKFLOW_CLIENT_ID and WORKFLOW_CLIENT_SECRET); the tour on the fake writes anyway")
		}
		srv := workflowtest.NewServer(workflowtest.WithAttachmentPolicy(workflowtest.ReadyAfterPolls(1)))
		defer srv.Close()
		srv.SeedDemo()
		counter.next = srv.HTTPClient().Transport
		c := srv.Client(append(opts, workflow.WithHTTPClient(&http.Client{Transport: counter}))...)
		fmt.Fprintln(stdout, "No WORKFLOW_* variables set: running on an embedded fake server (package workflowtest) with demo data.")
		t := &tour{ctx: ctx, c: c, out: stdout, counter: counter, rt: workflow.Tasks, alias: workflowtest.DemoTasks}
		if err := t.fake(srv); err != nil {
			return err
		}
		t.done()
		return nil
	}

	if !workflow.RecordType(*rt).Valid() {
		return fmt.Errorf("-type %q: want apps, elements, tasks or transactions", *rt)
	}
	if *write && len(fields) == 0 {
		return errors.New("-write needs the fields of the record to create: -field Name=Value (repeatable)")
	}
	if !*write && len(fields) > 0 {
		return errors.New("-field is used only with -write")
	}
	counter.next = http.DefaultTransport
	c, err := workflow.NewClientFromEnv(append(opts, workflow.WithHTTPClient(&http.Client{Transport: counter}))...)
	if err != nil {
		return err
	}
	mode := "read-only; -write to create a record"
	if *write {
		mode = "with -write: creates one record"
	}
	fmt.Fprintf(stdout, "Using the account of %s at %s (%s).\n", workflow.EnvClientID, c.BaseURL(), mode)
	t := &tour{ctx: ctx, c: c, out: stdout, counter: counter, rt: workflow.RecordType(*rt), alias: *alias}
	if err := t.account(); err != nil {
		return err
	}
	if *write {
		rec := workflow.Record{}
		for _, f := range fields {
			name, value, _ := strings.Cut(f, "=")
			rec[strings.TrimSpace(name)] = value
		}
		if err := t.accountWrite(rec); err != nil {
			return err
		}
	}
	t.done()
	return nil
}

// countingTransport counts the token requests and the API requests sent
// through it.
type countingTransport struct {
	next          http.RoundTripper
	tokens, calls atomic.Int64
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/oauth/token") {
		t.tokens.Add(1)
	} else {
		t.calls.Add(1)
	}
	return t.next.RoundTrip(r)
}

// tour holds what every step needs.
type tour struct {
	ctx     context.Context
	c       *workflow.Client
	out     io.Writer
	counter *countingTransport
	rt      workflow.RecordType
	alias   string
	step    int
}

// heading starts the next step.
func (t *tour) heading(title string) {
	t.step++
	fmt.Fprintf(t.out, "\n== %d. %s\n", t.step, title)
}

// say prints one indented line of the current step.
func (t *tour) say(format string, args ...any) {
	fmt.Fprintf(t.out, "   "+format+"\n", args...)
}

// done prints the request counts.
func (t *tour) done() {
	fmt.Fprintf(t.out, "\nDone: %d API requests, %d token request(s).\n", t.counter.calls.Load(), t.counter.tokens.Load())
}

// Request is a record of the demo's "it-requests" task definition, as a Go
// struct: the workflow tags name the record fields.
type Request struct {
	ID       string    `workflow:"id,omitempty"`
	Title    string    `workflow:"Title"`
	Status   string    `workflow:"Status"`
	Priority int       `workflow:"Priority"`
	Category string    `workflow:"Category,omitempty"`
	Due      time.Time `workflow:"Due Date,omitempty"`
	Estimate float64   `workflow:"Estimate,omitempty"` // hours
}

// fake is the whole tour, on the fake server's demo data.
func (t *tour) fake(srv *workflowtest.Server) error {
	ctx, c := t.ctx, t.c

	if err := t.token(); err != nil {
		return err
	}

	t.heading("Define a record type and create records")
	// On a real account the administrators configure definitions; the fake
	// lets a test define one, with its required fields.
	srv.Define(workflow.Tasks, "office-moves", "Title", "Room")
	t.say(`srv.Define(workflow.Tasks, "office-moves", "Title", "Room")`)
	for _, rec := range []workflow.Record{
		{"Title": "Move the plotter", "Room": "2.14"},
		{"Title": "Move Chen's desk", "Room": "3.02", "Date": "2025-02-03T09:00:00.000Z"},
	} {
		created, err := c.Records.Create(ctx, workflow.Tasks, "office-moves", rec)
		if err != nil {
			return err
		}
		t.say("created tasks/office-moves/%s: %s, room %s", created["id"], created["Title"], created["Room"])
	}

	t.heading("Typed records")
	req, err := workflow.CreateAs(ctx, c.Records, t.rt, t.alias, Request{
		Title:    "Replace the toner of printer 3F",
		Status:   "Open",
		Priority: 2,
		Category: "Hardware",
		Due:      time.Date(2025, 3, 3, 17, 0, 0, 0, time.UTC),
		Estimate: 0.5,
	})
	if err != nil {
		return err
	}
	t.say("CreateAs: request %s %q (%s, priority %d, due %s)", req.ID, req.Title, req.Status, req.Priority, req.Due.Format(time.DateOnly))
	var n int
	var hours float64
	waiting := rsql.And(rsql.Field("Status").Eq("Waiting"), rsql.Field("Priority").Eq(5))
	for r, err := range workflow.AllAs[Request](ctx, c.Records, t.rt, t.alias, &workflow.ListOptions{Filter: waiting}) {
		if err != nil {
			return err
		}
		n++
		hours += r.Estimate
	}
	t.say("AllAs: %d waiting requests of priority 5, %.1f hours estimated in all", n, hours)

	if err := t.search(rsql.And(
		rsql.Field("Status").Eq("Open"),
		rsql.Field("Priority").Ge(4),
		rsql.Field("Due Date").Lt(time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)),
	)); err != nil {
		return err
	}

	if err := t.iterate(250, true); err != nil {
		return err
	}

	t.heading("Update a record")
	updated, err := c.Records.Update(ctx, t.rt, t.alias, req.ID, workflow.Record{"Status": "In Progress"})
	if err != nil {
		return err
	}
	t.say("request %s: Status %s -> %s", req.ID, req.Status, updated["Status"])

	t.heading("Related items")
	parts, err := c.Records.List(ctx, workflow.Elements, workflowtest.DemoElements, &workflow.ListOptions{
		First: 1, Filter: rsql.Field("Name").Eq("Part 07"),
	})
	if err != nil {
		return err
	}
	if len(parts.Items) == 0 {
		return errors.New("demo part not found")
	}
	part := workflow.RelatedRef{ID: parts.Items[0].Data["id"], Alias: new(workflowtest.DemoElements)}
	t.say("found %q: %s", parts.Items[0].Data["Name"], part)
	if err := c.Records.Related.Add(ctx, t.rt, t.alias, req.ID, part); err != nil {
		return err
	}
	t.say("related it to request %s", req.ID)
	for it, err := range c.Records.Related.All(ctx, t.rt, t.alias, req.ID, nil) {
		if err != nil {
			return err
		}
		rt, _ := it.RecordType()
		t.say("request %s relates to %s/%s/%s", req.ID, rt, it.Alias, it.ID)
	}

	if err := t.upload(req.ID); err != nil {
		return err
	}

	t.heading("Watchers")
	// Watchers are added and removed by e-mail address.
	alice, bruno := "alice.anders@example.com", "bruno.berg@example.com"
	if err := c.Records.Watchers.Add(ctx, t.rt, t.alias, req.ID, []string{alice, bruno}); err != nil {
		return err
	}
	t.say("added %s and %s as watchers", alice, bruno)
	for w, err := range c.Records.Watchers.All(ctx, t.rt, t.alias, req.ID, nil) {
		if err != nil {
			return err
		}
		t.say("watching request %s: %s <%s>", req.ID, w.Target.DisplayName(), w.Target.Email)
	}

	if err := t.comment(req.ID, "Toner ordered, it arrives on Tuesday."); err != nil {
		return err
	}

	t.heading("Users and groups")
	grace, err := c.Users.Create(ctx, workflow.NewUser{Email: "grace.hopper@example.com", FirstName: "Grace", LastName: "Hopper"})
	if err != nil {
		return err
	}
	t.say("created user %s %s (status %s, active: %t)", grace.ID, grace.Email, grace.Status, grace.Active())
	var support string
	for g, err := range c.Groups.All(ctx, nil) {
		if err != nil {
			return err
		}
		members, err := c.Groups.Members.List(ctx, g.ID, &workflow.ListOptions{First: 1})
		if err != nil {
			return err
		}
		t.say("group %s %q: %d members", g.ID, g.Name, members.Total)
		if g.Name == "IT Support" {
			support = g.ID
		}
	}
	if err := c.Groups.Members.Add(ctx, support, []string{grace.ID}); err != nil {
		return err
	}
	t.say("added %s to group %s; its members now:", grace.ID, support)
	for u, err := range c.Groups.Members.All(ctx, support, nil) {
		if err != nil {
			return err
		}
		t.say("  %s %s %s", u.ID, u.FirstName, u.LastName)
	}

	return t.notFound("999999")
}

// token makes the first call, which fetches the access token.
func (t *tour) token() error {
	t.heading("Access token")
	t.say("The first call exchanges the client id and secret for an access token")
	t.say("(OAuth 2.0 client credentials); later calls reuse it until it expires.")
	page, err := t.c.Records.List(t.ctx, t.rt, t.alias, &workflow.ListOptions{First: 1})
	if err != nil {
		return err
	}
	t.say("%s/%s holds %d records; token requests so far: %d", t.rt, t.alias, page.Total, t.counter.tokens.Load())
	return nil
}

// search lists the first records that match filter.
func (t *tour) search(filter rsql.Expr) error {
	t.heading("Search with an RSQL filter")
	t.say("filter: %s", filter)
	page, err := t.c.Records.List(t.ctx, t.rt, t.alias, &workflow.ListOptions{First: 3, Filter: filter})
	if err != nil {
		return err
	}
	t.say("%d matching records; the first %d:", page.Total, len(page.Items))
	for _, it := range page.Items {
		t.say("  %s", describe(it.Data))
	}
	return nil
}

// describe prints a record in one line: the demo's fields when it has
// them, else its id and field count.
func describe(r workflow.Record) string {
	if title, ok := r["Title"]; ok {
		return fmt.Sprintf("%s %s (%s, priority %s, due %.10s)", r["id"], title, r["Status"], r["Priority"], r["Due Date"])
	}
	return fmt.Sprintf("%s (%d fields)", r["id"], len(r))
}

// iterate pages through the list forward, backward and from a cursor. With
// all it walks the whole list; otherwise only the first items of it.
func (t *tour) iterate(pageSize int, all bool) error {
	ctx, c := t.ctx, t.c
	t.heading("Iterate pages both ways")
	if all {
		// Pages yields page by page; Prefetch fetches the next page while
		// this loop works on the current one.
		var pages, records int
		var first, last string
		for page, err := range c.Records.Pages(ctx, t.rt, t.alias, &workflow.ListOptions{First: pageSize, Prefetch: true}) {
			if err != nil {
				return err
			}
			pages++
			for _, it := range page.Items {
				if first == "" {
					first = it.Data["id"]
				}
				last = it.Data["id"]
				records++
			}
		}
		t.say("forward, %d a page, with prefetch: %d records in %d pages, ids %s .. %s", pageSize, records, pages, first, last)
	}

	var ids []string
	var cursor string
	for it, err := range c.Records.All(ctx, t.rt, t.alias, &workflow.ListOptions{First: 3}) {
		if err != nil {
			return err
		}
		ids = append(ids, it.Data["id"])
		if len(ids) == 2 {
			cursor = it.Cursor // where to resume, even in another process
			break
		}
	}
	t.say("forward, 3 a page: %s, then stop", strings.Join(ids, ", "))
	ids = nil
	for it, err := range c.Records.All(ctx, t.rt, t.alias, &workflow.ListOptions{First: 3, After: cursor}) {
		if err != nil {
			return err
		}
		if ids = append(ids, it.Data["id"]); len(ids) == 3 {
			break
		}
	}
	t.say("resumed with After: <cursor of the 2nd>: %s", strings.Join(ids, ", "))

	ids = nil
	for it, err := range c.Records.All(ctx, t.rt, t.alias, &workflow.ListOptions{Last: 3}) {
		if err != nil {
			return err
		}
		if ids = append(ids, it.Data["id"]); len(ids) == 3 {
			break
		}
	}
	t.say("backward, 3 a page (Last: 3), from the end: %s", strings.Join(ids, ", "))
	return nil
}

// upload attaches a small text file to record id, waits until the
// service has processed it, and downloads it again.
func (t *tour) upload(id string) error {
	t.heading("Upload a file and wait for processing")
	content := "Printer 3F: toner cartridge TN-421, ordered from the usual supplier.\n"
	att, err := t.c.Attachments.Upload(t.ctx, t.rt, t.alias, id, "notes.txt", strings.NewReader(content),
		&workflow.UploadOptions{Description: "Order notes", MediaType: "text/plain"})
	if err != nil {
		return err
	}
	t.say("uploaded %s (%d bytes, %s): %s", att.Name, att.Size, att.MediaType, att.State)
	ctx, cancel := context.WithTimeout(t.ctx, 2*time.Minute)
	defer cancel()
	att, err = t.c.Attachments.WaitProcessed(ctx, t.rt, t.alias, id, att.ID,
		&workflow.WaitOptions{PollInterval: 100 * time.Millisecond, MaxPollInterval: 2 * time.Second})
	if err != nil {
		return err // matches workflow.ErrAttachmentFailed when processing failed
	}
	t.say("after WaitProcessed: %s", att.State)

	dl, err := t.c.Attachments.DownloadAttachment(t.ctx, t.rt, t.alias, id, att)
	if err != nil {
		return err
	}
	var got strings.Builder
	n, err := dl.SaveTo(&got, nil)
	if err != nil {
		return err
	}
	t.say("downloaded %s (%s, %d bytes): %q", dl.Name, dl.MediaType, n, got.String())
	return nil
}

// comment adds a comment to record id and lists its comments.
func (t *tour) comment(id, text string) error {
	t.heading("Comments")
	reply, err := t.c.Records.Comments.Add(t.ctx, t.rt, t.alias, id, text)
	if err != nil {
		return err
	}
	t.say("added a comment; the service answered %q", reply)
	for cm, err := range t.c.Records.Comments.All(t.ctx, t.rt, t.alias, id, nil) {
		if err != nil {
			return err
		}
		t.say("comment by %s (%s): %s", cm.CreatedBy.Email, cm.Source, cm.Contents)
	}
	return nil
}

// notFound shows a 404 handled with errors.Is.
func (t *tour) notFound(id string) error {
	t.heading("A handled error")
	_, err := t.c.Records.Get(t.ctx, t.rt, t.alias, id)
	var apiErr *workflow.APIError
	switch {
	case errors.Is(err, workflow.ErrNotFound) && errors.As(err, &apiErr):
		t.say("Get %s/%s/%s: errors.Is(err, workflow.ErrNotFound) is true", t.rt, t.alias, id)
		t.say("status %d, message: %s", apiErr.StatusCode, apiErr.Message)
		return nil
	case err != nil:
		return err
	default:
		t.say("Get %s/%s/%s: found (the tour expected a 404)", t.rt, t.alias, id)
		return nil
	}
}

// account is the read-only tour of a real account.
func (t *tour) account() error {
	ctx, c := t.ctx, t.c
	if err := t.token(); err != nil {
		return err
	}
	first, err := c.Records.List(ctx, t.rt, t.alias, &workflow.ListOptions{First: 1})
	if err != nil {
		return err
	}
	if len(first.Items) == 0 {
		t.say("the list is empty: the record steps are skipped")
	} else {
		rec := first.Items[0].Data
		// A filter on one field of the first record (which it matches).
		name := ""
		for _, k := range slices.Sorted(maps.Keys(rec)) {
			if v := rec[k]; k != idField && v != "" && len(v) <= 40 {
				name = k
				break
			}
		}
		if name != "" {
			if err := t.search(rsql.Field(name).Eq(rec[name])); err != nil {
				return err
			}
		}
		if err := t.iterate(0, false); err != nil {
			return err
		}

		id := rec[idField]
		t.heading("Related items, attachments, watchers and comments")
		related, err := c.Records.Related.List(ctx, t.rt, t.alias, id, nil)
		if err != nil {
			return err
		}
		atts, err := c.Attachments.List(ctx, t.rt, t.alias, id)
		if err != nil {
			return err
		}
		watchers, err := c.Records.Watchers.List(ctx, t.rt, t.alias, id, nil)
		if err != nil {
			return err
		}
		comments, err := c.Records.Comments.List(ctx, t.rt, t.alias, id, nil)
		if err != nil {
			return err
		}
		t.say("record %s: %d related items, %d attachments, %d watchers, %d comments",
			id, related.Total, len(atts), watchers.Total, comments.Total)
	}

	t.heading("Users and groups")
	n := 0
	for u, err := range c.Users.All(ctx, &workflow.ListOptions{First: 5}) {
		if err != nil {
			return err
		}
		t.say("user %s %s %s <%s>", u.ID, u.FirstName, u.LastName, u.Email)
		if n++; n == 5 {
			break
		}
	}
	n = 0
	for g, err := range c.Groups.All(ctx, &workflow.ListOptions{First: 5}) {
		if err != nil {
			return err
		}
		members, err := c.Groups.Members.List(ctx, g.ID, &workflow.ListOptions{First: 1})
		if err != nil {
			return err
		}
		t.say("group %s %q: %d members", g.ID, g.Name, members.Total)
		if n++; n == 5 {
			break
		}
	}

	return t.notFound("quickstart-no-such-record")
}

// accountWrite creates a record with fields, comments on it and attaches
// a file to it.
func (t *tour) accountWrite(fields workflow.Record) error {
	t.heading("Create a record")
	rec, err := t.c.Records.Create(t.ctx, t.rt, t.alias, fields)
	if err != nil {
		return err
	}
	id := rec[idField]
	if id == "" {
		return fmt.Errorf("the created record has no %q field", idField)
	}
	t.say("created %s/%s/%s", t.rt, t.alias, id)
	if err := t.comment(id, "Created by the workflow-go quickstart."); err != nil {
		return err
	}
	return t.upload(id)
}

package workflowtest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// noWait is a retry policy whose waits return at once, recording them.
type noWait struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (n *noWait) option() workflow.Option {
	return workflow.WithRetryPolicy(workflow.RetryPolicy{Sleep: func(ctx context.Context, d time.Duration) error {
		n.mu.Lock()
		n.waits = append(n.waits, d)
		n.mu.Unlock()
		return ctx.Err()
	}})
}

func (n *noWait) recorded() []time.Duration {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]time.Duration(nil), n.waits...)
}

// seed defines tasks/it-requests (Title required) and seeds n tasks.
func seed(srv *workflowtest.Server, n int) []string {
	srv.Define(workflow.Tasks, "it-requests", "Title")
	recs := make([]workflow.Record, n)
	for i := range recs {
		recs[i] = workflow.Record{
			"Title":    fmt.Sprintf("Task %03d", i+1),
			"Status":   []string{"Open", "Done", "Waiting"}[i%3],
			"Priority": strconv.Itoa(i%5 + 1),
			"Due Date": workflow.FormatTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)),
		}
	}
	return srv.Seed(workflow.Tasks, "it-requests", recs...)
}

// uid is the id the fake gives its n-th user (the default user is the
// first), as workflowtest.AddUser documents.
func uid(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012x", n) }

func TestE2ERecordsCreateGetUpdate(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.Define(workflow.Tasks, "it-requests", "Title", "Status")
	c := srv.Client()
	ctx := t.Context()

	rec, err := c.Records.Create(ctx, workflow.Tasks, "it-requests", workflow.Record{"Title": "Printer", "Status": "Open"})
	require.NoError(t, err)
	assert.Equal(t, workflow.Record{"id": "1", "Title": "Printer", "Status": "Open"}, rec)

	got, err := c.Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)
	assert.Equal(t, rec, got)

	upd, err := c.Records.Update(ctx, workflow.Tasks, "it-requests", "1", workflow.Record{"Status": "Done"})
	require.NoError(t, err)
	assert.Equal(t, workflow.Record{"id": "1", "Title": "Printer", "Status": "Done"}, upd)

	_, err = c.Records.Create(ctx, workflow.Tasks, "it-requests", workflow.Record{"Title": "no status"})
	var apiErr *workflow.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.StatusCode)
	assert.Equal(t, "missing required fields: Status", apiErr.Message, "the SDK reads the fake's error body")

	_, err = c.Records.Get(ctx, workflow.Tasks, "it-requests", "42")
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	_, err = c.Records.Get(ctx, workflow.Apps, "it-requests", "1")
	assert.ErrorIs(t, err, workflow.ErrNotFound)

	other := srv.AddUser("eve@example.com", "Eve", "E")
	srv.Deny(other.UserID, workflow.Tasks, "it-requests")
	_, err = srv.Client(workflow.WithCredentials(other.ClientID, other.ClientSecret)).Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	assert.ErrorIs(t, err, workflow.ErrForbidden)

	_, err = srv.Client(workflow.WithCredentials("nobody", "wrong")).Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	assert.ErrorIs(t, err, workflow.ErrUnauthorized)
}

func TestE2EListFilterAndPagingBothWays(t *testing.T) {
	srv := workflowtest.Start(t)
	seed(srv, 250)
	c := srv.Client()
	ctx := t.Context()

	filter := rsql.And(rsql.Field("Status").Eq("Open"), rsql.Field("Priority").Ge(3))
	var want []string
	for _, r := range srv.Records(workflow.Tasks, "it-requests") {
		p, _ := strconv.Atoi(r["Priority"])
		if r["Status"] == "Open" && p >= 3 {
			want = append(want, r["id"])
		}
	}
	require.NotEmpty(t, want)

	page, err := c.Records.List(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{First: 10, Filter: filter})
	require.NoError(t, err)
	assert.Equal(t, len(want), page.Total)
	assert.Len(t, page.Items, 10)
	assert.True(t, page.Paging.HasNextPage)

	var forward []string
	for it, err := range c.Records.All(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{First: 7, Filter: filter}) {
		require.NoError(t, err)
		forward = append(forward, it.Data["id"])
	}
	assert.Equal(t, want, forward)

	var backward []string
	for it, err := range c.Records.All(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{Last: 6, Filter: filter, Prefetch: true}) {
		require.NoError(t, err)
		backward = append([]string{it.Data["id"]}, backward...)
	}
	assert.Equal(t, want, backward, "backward walks the same records from the end")

	// Resuming from an item's cursor.
	var resumed []string
	for it, err := range c.Records.All(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{After: page.Items[4].Cursor, Filter: filter}) {
		require.NoError(t, err)
		resumed = append(resumed, it.Data["id"])
	}
	assert.Equal(t, want[5:], resumed)

	// Time comparisons and a filter the service must read from the URL.
	due := time.Date(2024, 1, 1, 5, 0, 0, 0, time.UTC)
	page, err = c.Records.List(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{
		Filter: rsql.And(rsql.Field("Due Date").Lt(due), rsql.Field("Title").ILike("task 00")),
	})
	require.NoError(t, err)
	assert.Equal(t, 5, page.Total)

	// The fake refuses a cursor used with another filter.
	_, err = c.Records.List(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{
		After: page.Paging.EndCursor, Filter: rsql.Field("Status").Eq("Done"),
	})
	var apiErr *workflow.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "another filter")

	// The recorded request carries the parsed filter.
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	require.NotNil(t, last.Filter)
	assert.Equal(t, "Status==Done", last.Filter.String())
}

func TestE2EAllPagesWithConcurrentCreates(t *testing.T) {
	srv := workflowtest.Start(t)
	original := seed(srv, 300)
	c := srv.Client()
	ctx := t.Context()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := c.Records.Create(ctx, workflow.Tasks, "it-requests", workflow.Record{"Title": "late " + strconv.Itoa(i)}); err != nil {
				t.Errorf("create: %v", err)
				return
			}
		}
	})
	seen := map[string]int{}
	for it, err := range c.Records.All(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{First: 11, Filter: rsql.Field("Title").Like("Task")}) {
		require.NoError(t, err)
		seen[it.Data["id"]]++
	}
	close(stop)
	wg.Wait()
	assert.Len(t, seen, len(original))
	for _, id := range original {
		assert.Equal(t, 1, seen[id], id)
	}
}

// TestE2ETokenExpiry: once the fake's clock passes the token's 24 hours,
// the fake answers 401 and the SDK fetches a new token by itself.
func TestE2ETokenExpiry(t *testing.T) {
	srv := workflowtest.Start(t)
	seed(srv, 1)
	c := srv.Client()
	ctx := t.Context()
	_, err := c.Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)
	srv.Advance(25 * time.Hour)
	srv.ResetRequests()
	_, err = c.Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)
	var statuses []string
	for _, r := range srv.Requests() {
		statuses = append(statuses, r.Route+" "+strconv.Itoa(r.Status))
	}
	assert.Equal(t, []string{
		"GET /v1/{recordType}/{alias}/{id} 401",
		"POST /oauth/token 200",
		"GET /v1/{recordType}/{alias}/{id} 200",
	}, statuses)
}

func TestE2EDeactivatedUser(t *testing.T) {
	srv := workflowtest.Start(t)
	seed(srv, 1)
	acct := srv.AddUser("bob@example.com", "Bob", "B")
	bob := srv.Client(workflow.WithCredentials(acct.ClientID, acct.ClientSecret))
	ctx := t.Context()
	_, err := bob.Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)

	u, err := srv.Client().Users.Deactivate(ctx, acct.UserID)
	require.NoError(t, err)
	assert.Equal(t, workflow.UserInactive, u.Status)
	assert.False(t, u.Active())
	_, err = bob.Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	assert.ErrorIs(t, err, workflow.ErrUnauthorized)
}

func TestE2ERetriesInjectedFaults(t *testing.T) {
	srv := workflowtest.Start(t)
	seed(srv, 3)
	var nw noWait
	c := srv.Client(nw.option())
	ctx := t.Context()

	in := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it-requests", Count: 2, Status: 503, RetryAfter: 2 * time.Second})
	page, err := c.Records.List(ctx, workflow.Tasks, "it-requests", nil)
	require.NoError(t, err)
	assert.Len(t, page.Items, 3)
	assert.Equal(t, 2, in.Fired())
	assert.Equal(t, []time.Duration{2 * time.Second, 2 * time.Second}, nw.recorded(), "Retry-After is honoured")

	// A POST is not retried after a 500: the service may have acted.
	srv.Inject(workflowtest.Fault{Route: "POST /v1/tasks/it-requests", Count: 1, Status: 500})
	_, err = c.Records.Create(ctx, workflow.Tasks, "it-requests", workflow.Record{"Title": "x"})
	var apiErr *workflow.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 500, apiErr.StatusCode)

	// A body cut off is retried like a lost connection; cut off every
	// time, it is an error saying so, not a panic or a silent success.
	cut := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it-requests/1", Count: 1, Malformed: true})
	_, err = c.Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)
	assert.Equal(t, 1, cut.Fired())
	cut = srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it-requests/1", Malformed: true})
	_, err = c.Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.ErrorContains(t, err, "cut off after")
	cut.Remove()

	// A failure on page 2 of an iteration is yielded once, after page 1.
	srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/it-requests", After: 1, Status: 400})
	var n int
	var errs []error
	for _, err := range c.Records.All(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{First: 2}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	assert.Equal(t, 2, n)
	require.Len(t, errs, 1)
	assert.ErrorAs(t, errs[0], &apiErr)
}

func TestE2ERateLimit(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	srv := workflowtest.Start(t, workflowtest.WithRateLimit(1, 2), workflowtest.WithClock(func() time.Time { return t0 }))
	seed(srv, 1)
	var nw noWait
	c := srv.Client(nw.option())
	ctx := t.Context()
	// The token request and one request use the burst of 2.
	_, err := c.Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)
	// Every attempt of the next request meets the empty bucket (the
	// server's clock stands still); the SDK waits the Retry-After each time
	// and gives up with ErrRateLimited.
	_, err = c.Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	assert.ErrorIs(t, err, workflow.ErrRateLimited)
	assert.Equal(t, []time.Duration{time.Second, time.Second, time.Second}, nw.recorded())
	srv.Advance(time.Second)
	_, err = c.Records.Get(ctx, workflow.Tasks, "it-requests", "1")
	assert.NoError(t, err)
}

func TestE2EUsersAndGroups(t *testing.T) {
	srv := workflowtest.Start(t)
	c := srv.Client()
	ctx := t.Context()

	u, err := c.Users.Create(ctx, workflow.NewUser{
		Email: "new@example.com", FirstName: "New", LastName: "Person", JobTitle: new("Clerk"), NeverNotify: new(true),
	})
	require.NoError(t, err)
	assert.Equal(t, uid(2), u.ID)
	assert.True(t, u.Active())
	assert.Equal(t, "Clerk", u.JobTitle)
	assert.True(t, srv.Users()[1].NeverNotify)

	got, err := c.Users.Get(ctx, uid(2))
	require.NoError(t, err)
	assert.Equal(t, *u, *got)
	assert.Empty(t, got.Extra, "the SDK models every field the fake sends")

	for i := range 5 {
		srv.AddUser(fmt.Sprintf("user%d@example.com", i), "User", strconv.Itoa(i))
	}
	srv.DeactivateUser(uid(4))
	var ids []string
	for u, err := range c.Users.All(ctx, &workflow.ListOptions{First: 2}) {
		require.NoError(t, err)
		ids = append(ids, u.ID)
	}
	assert.Equal(t, []string{uid(1), uid(2), uid(3), uid(4), uid(5), uid(6), uid(7)}, ids)
	ids = nil
	for u, err := range c.Users.All(ctx, &workflow.ListOptions{Last: 3}) {
		require.NoError(t, err)
		ids = append(ids, u.ID)
	}
	assert.Equal(t, []string{uid(7), uid(6), uid(5), uid(4), uid(3), uid(2), uid(1)}, ids, "backward from the end")
	inactive, err := c.Users.List(ctx, &workflow.ListOptions{Filter: rsql.Field("status").Eq("INACTIVE")})
	require.NoError(t, err)
	require.Len(t, inactive.Items, 1)
	assert.Equal(t, uid(4), inactive.Items[0].ID)
	assert.False(t, inactive.Items[0].Active())

	_, err = c.Users.Get(ctx, uid(99))
	assert.ErrorIs(t, err, workflow.ErrNotFound)

	gid := srv.AddGroup("Support", uid(1))
	g, err := c.Groups.Get(ctx, gid)
	require.NoError(t, err)
	assert.Equal(t, workflow.Group{ID: gid, Name: "Support", Assignable: true, Watchable: true, Mentionable: true, Domains: []workflow.GroupDomain{}}, *g)
	gp, err := c.Groups.List(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, gp.Total)
	srv.AddGroup("Ops")
	srv.AddDynamicGroup("All", "example.com")
	var sizes []int
	var names []string
	for p, err := range c.Groups.Pages(ctx, &workflow.ListOptions{Last: 2}) {
		require.NoError(t, err)
		sizes = append(sizes, len(p.Items))
		for _, g := range p.Items {
			names = append(names, g.Name)
		}
	}
	assert.Equal(t, []int{2, 1}, sizes)
	assert.Equal(t, []string{"Ops", "All", "Support"}, names, "pages from the end, each in the service's order")
	_, err = c.Groups.List(ctx, &workflow.ListOptions{Filter: rsql.Field("name").Eq("Support")})
	var ve *workflow.ValidationError
	require.ErrorAs(t, err, &ve)

	require.NoError(t, c.Groups.Members.Add(ctx, gid, []string{uid(3), uid(4)}))
	require.NoError(t, c.Groups.Members.Remove(ctx, gid, []string{uid(1)}))
	assert.Equal(t, []string{uid(3), uid(4)}, srv.Members(gid))
	var members []string
	for u, err := range c.Groups.Members.All(ctx, gid, &workflow.ListOptions{First: 1}) {
		require.NoError(t, err)
		members = append(members, u.Email)
	}
	assert.Equal(t, []string{"user0@example.com", "user1@example.com"}, members)
	page, err := c.Groups.Members.List(ctx, gid, &workflow.ListOptions{Last: 1})
	require.NoError(t, err)
	assert.Equal(t, uid(4), page.Items[0].ID)
	assert.True(t, page.Paging.HasPreviousPage)

	err = c.Groups.Members.Add(ctx, gid, []string{uid(404)})
	var apiErr *workflow.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 422, apiErr.StatusCode)

	// Create and update.
	ng, err := c.Groups.Create(ctx, workflow.GroupRequest{
		Name: new("Approvers"), Approver: new(true), Assignable: new(true), Tags: []string{"finance"}, UserIDs: []string{uid(2)},
	})
	require.NoError(t, err)
	require.NotNil(t, ng)
	assert.Equal(t, "Approvers", ng.Name)
	assert.True(t, ng.Assignable)
	info, _ := srv.Group(ng.ID)
	assert.Equal(t, workflowtest.GroupFlags{Assignable: true, Approver: true}, info.Flags)
	assert.Equal(t, []string{uid(2)}, info.Members)
	ug, err := c.Groups.Update(ctx, ng.ID, workflow.GroupRequest{Assignable: new(false), Dynamic: new(true), Domains: []string{"example.com"}})
	require.NoError(t, err)
	assert.False(t, ug.Assignable)
	assert.True(t, ug.Dynamic)
	require.Len(t, ug.Domains, 1)
	assert.Equal(t, "example.com", ug.Domains[0].Domain)
	assert.NotEmpty(t, ug.Domains[0].ID)

	acct := srv.AddUser("limited@example.com", "L", "L")
	srv.DenyAdmin(acct.UserID)
	limited := srv.Client(workflow.WithCredentials(acct.ClientID, acct.ClientSecret))
	_, err = limited.Groups.Get(ctx, gid)
	assert.ErrorIs(t, err, workflow.ErrForbidden)
	_, err = limited.Users.List(ctx, nil)
	assert.True(t, errors.Is(err, workflow.ErrForbidden), "%v", err)
}

// task is a typed view of the seeded tasks.
type task struct {
	ID       string    `workflow:"id,omitempty"`
	Title    string    `workflow:"Title"`
	Status   string    `workflow:"Status,omitempty"`
	Priority int       `workflow:"Priority,omitempty"`
	Due      time.Time `workflow:"Due Date,omitempty"`
}

func TestE2ETypedRecords(t *testing.T) {
	srv := workflowtest.Start(t)
	seed(srv, 30)
	c := srv.Client()
	ctx := t.Context()

	due := time.Date(2024, 1, 1, 3, 0, 0, 0, time.UTC)
	var got []task
	for tk, err := range workflow.AllAs[task](ctx, c.Records, workflow.Tasks, "it-requests", &workflow.ListOptions{
		First:  2,
		Filter: rsql.And(rsql.Field("Due Date").Le(due), rsql.Field("Priority").Gt(1)),
	}) {
		require.NoError(t, err)
		got = append(got, tk)
	}
	assert.Equal(t, []task{
		{ID: "2", Title: "Task 002", Status: "Done", Priority: 2, Due: due.Add(-2 * time.Hour)},
		{ID: "3", Title: "Task 003", Status: "Waiting", Priority: 3, Due: due.Add(-time.Hour)},
		{ID: "4", Title: "Task 004", Status: "Open", Priority: 4, Due: due},
	}, got)

	created, err := workflow.CreateAs(ctx, c.Records, workflow.Tasks, "it-requests", task{Title: "Typed", Priority: 5, Due: due})
	require.NoError(t, err)
	assert.Equal(t, "31", created.ID)
	stored, ok := srv.Record(workflow.Tasks, "it-requests", "31")
	require.True(t, ok)
	assert.Equal(t, workflow.Record{"id": "31", "Title": "Typed", "Priority": "5", "Due Date": "2024-01-01T03:00:00.000Z"}, stored)

	one, err := workflow.GetAs[task](ctx, c.Records, workflow.Tasks, "it-requests", "31")
	require.NoError(t, err)
	assert.Equal(t, created, one)
}

package benchcmp

import (
	"context"
	"testing"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/listbench"
)

// newClient returns an SDK client of the benchmark server.
func newClient(tb testing.TB, srv *listbench.Server) *workflow.Client {
	tb.Helper()
	c, err := workflow.NewClient(workflow.WithCredentials("bench-id", "bench-secret"), workflow.WithEndpoint(srv.URL+"/v1", srv.Auth.URL))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// sdkList iterates with Records.All.
func sdkList(ctx context.Context, c *workflow.Client, perPage int) (int, error) {
	n := 0
	for it, err := range c.Records.All(ctx, workflow.Tasks, "bench", &workflow.ListOptions{First: perPage}) {
		if err != nil {
			return n, err
		}
		listbench.Sink = it.Data["id"]
		n++
	}
	return n, nil
}

// benchTask is the typed form of the records of listbench.Page.
type benchTask struct {
	ID          string    `workflow:"id"`
	Title       string    `workflow:"title"`
	Status      string    `workflow:"status"`
	Priority    string    `workflow:"priority"`
	Assignee    string    `workflow:"assignee"`
	Requester   string    `workflow:"requester"`
	Department  string    `workflow:"department"`
	CreatedAt   time.Time `workflow:"createdAt"`
	UpdatedAt   time.Time `workflow:"updatedAt"`
	DueDate     time.Time `workflow:"dueDate"`
	Category    string    `workflow:"category"`
	Description string    `workflow:"description"`
}

// sdkListAs iterates with AllAs into benchTask.
func sdkListAs(ctx context.Context, c *workflow.Client, perPage int) (int, error) {
	n := 0
	for task, err := range workflow.AllAs[benchTask](ctx, c.Records, workflow.Tasks, "bench", &workflow.ListOptions{First: perPage}) {
		if err != nil {
			return n, err
		}
		listbench.Sink = task.ID
		n++
	}
	return n, nil
}

// BenchmarkList10k lists 10,000 records, 10 pages of 1,000 with 12
// fields (listbench.Page), with each hand-written loop and then with the
// SDK. Run it with -count: each repetition runs every loop and then the
// SDK, whose ratios are to the loops of the same repetition.
func BenchmarkList10k(b *testing.B) {
	benchmarkList(b, listbench.NewFixture(10, 1000, func(first, n int, more bool) []byte {
		return listbench.Page(first, n, 12, more)
	}), true)
}

// BenchmarkList10kMixed is BenchmarkList10k on pages harder to read
// (listbench.MixedPage): escapes, text that is not ASCII, long values,
// empty strings, names that change from record to record.
func BenchmarkList10kMixed(b *testing.B) {
	benchmarkList(b, listbench.NewFixture(10, 1000, listbench.MixedPage), false)
}

func benchmarkList(b *testing.B, fx *listbench.Fixture, typed bool) {
	srv := listbench.StartServer(b, fx)
	ctx := context.Background()
	check := func(n int, err error) {
		if err != nil || n != fx.Records() {
			b.Fatalf("listed %d records: %v", n, err)
		}
	}
	for _, l := range loops {
		b.Run("baseline-"+l.name, func(b *testing.B) {
			hc, tok := srv.BaselineClient(b)
			list := func() { check(listbench.List(ctx, hc, srv.URL+"/v1", tok, fx.PerPage, l.newDecoder)) }
			list() // warm up: the connection
			b.SetBytes(fx.Bytes)
			listbench.Measure(b, "list", l.name, list)
		})
	}
	b.Run("transport-floor", func(b *testing.B) {
		hc, tok := srv.BaselineClient(b)
		floor := func() { check(listbench.Floor(ctx, hc, srv.URL+"/v1", tok, fx)) }
		floor()
		b.SetBytes(fx.Bytes)
		listbench.Measure(b, "list", "floor", floor, loopNames()[0])
	})
	b.Run("sdk-All", func(b *testing.B) {
		c := newClient(b, srv)
		list := func() { check(sdkList(ctx, c, fx.PerPage)) }
		list() // warm up: token, connection, pools, shared names
		b.SetBytes(fx.Bytes)
		listbench.Measure(b, "list", "All", list, loopNames()...)
	})
	if !typed {
		return
	}
	b.Run("sdk-AllAs", func(b *testing.B) {
		c := newClient(b, srv)
		list := func() { check(sdkListAs(ctx, c, fx.PerPage)) }
		list()
		b.SetBytes(fx.Bytes)
		listbench.Measure(b, "list", "AllAs", list, append(loopNames(), "All")...)
	})
}

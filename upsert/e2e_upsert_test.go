package upsert_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/upsert"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

const syncAlias = "customers"

// noWait is a retry sleeper that returns at once (unless ctx has ended).
func noWait(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// syncServer starts a fake with the customers definition and a client
// whose backoffs do not wait.
func syncServer(t *testing.T, opts ...workflowtest.Option) (*workflowtest.Server, *workflow.Client) {
	t.Helper()
	srv := workflowtest.Start(t, opts...)
	srv.Define(workflow.Apps, syncAlias, "Email")
	return srv, srv.Client(workflow.WithRetryPolicy(workflow.RetryPolicy{Sleep: noWait}))
}

// collect gathers the results of a sync by input position.
type collect struct {
	mu      sync.Mutex
	results map[int]upsert.Result
}

func (c *collect) add(r upsert.Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.results == nil {
		c.results = map[int]upsert.Result{}
	}
	if _, dup := c.results[r.Index]; dup {
		panic(fmt.Sprintf("input %d reported twice", r.Index))
	}
	c.results[r.Index] = r
}

// countRoutes counts the requests of the log by method (token requests
// left out).
func countRoutes(srv *workflowtest.Server) map[string]int {
	out := map[string]int{}
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Path, "/v1/") {
			out[r.Method]++
		}
	}
	return out
}

func customer(i int, plan string) workflow.Record {
	return workflow.Record{"Email": fmt.Sprintf("c%04d@example.com", i), "Name": "Customer " + strconv.Itoa(i), "Plan": plan}
}

func TestRecordsCreatesUpdatesAndSkips(t *testing.T) {
	srv, c := syncServer(t)
	// 0..9 exist unchanged, 10..19 exist with another plan, 20..29 are new.
	for i := range 20 {
		r := customer(i, "basic")
		r["Note"] = "kept" // a field the input does not have
		srv.Seed(workflow.Apps, syncAlias, r)
	}
	var in []workflow.Record
	for i := range 30 {
		plan := "basic"
		if i >= 10 {
			plan = "pro"
		}
		in = append(in, customer(i, plan))
	}
	srv.ResetRequests()
	var got collect
	var progress []upsert.Summary
	sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in), &upsert.Options{
		KeyField: "Email", BatchSize: 8, OnResult: got.add,
		OnProgress: func(s upsert.Summary) { progress = append(progress, s) },
	})
	require.NoError(t, err)

	assert.Equal(t, 30, sum.Read)
	assert.Equal(t, 10, sum.Created)
	assert.Equal(t, 10, sum.Updated)
	assert.Equal(t, 10, sum.Unchanged)
	assert.Equal(t, 0, sum.Failed)
	require.Len(t, got.results, 30)
	for i := range 30 {
		r := got.results[i]
		assert.Equal(t, in[i]["Email"], r.Key)
		want := map[bool]upsert.Action{true: upsert.Unchanged}[i < 10]
		switch {
		case i >= 20:
			want = upsert.Created
		case i >= 10:
			want = upsert.Updated
			assert.Equal(t, []string{"Plan"}, r.Changed, "input %d", i)
		}
		assert.Equal(t, want, r.Action, "input %d: %v", i, r.Err)
		assert.NotEmpty(t, r.ID, "input %d", i)
		assert.Equal(t, in[i]["Plan"], r.Record["Plan"], "input %d", i)
	}
	// Requests: ceil(30/8) = 4 look-ups, 10 creates, 10 updates, nothing
	// for the unchanged ones.
	assert.Equal(t, map[string]int{"GET": 4, "POST": 10, "PUT": 10}, countRoutes(srv))
	assert.Equal(t, 24, sum.Requests)
	assert.Equal(t, 4, sum.Lookups)
	require.Len(t, progress, 30)
	assert.Equal(t, 30, progress[29].Created+progress[29].Updated+progress[29].Unchanged)

	// The service matches the input; fields the input lacks are kept.
	counts := srv.KeyCounts(workflow.Apps, syncAlias, "Email")
	assert.Len(t, counts, 30)
	for _, r := range srv.Records(workflow.Apps, syncAlias) {
		i, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r["Email"], "c"), "@example.com"))
		assert.Equal(t, 1, counts[r["Email"]])
		assert.Equal(t, in[i]["Plan"], r["Plan"])
		if i < 20 {
			assert.Equal(t, "kept", r["Note"])
		}
	}

	// A second run changes nothing and sends only look-ups.
	srv.ResetRequests()
	sum, err = upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in), &upsert.Options{KeyField: "Email", BatchSize: 8})
	require.NoError(t, err)
	assert.Equal(t, 30, sum.Unchanged)
	assert.Equal(t, map[string]int{"GET": 4}, countRoutes(srv))
}

// The exactly-once test: creates fail with 503 or lose their answer after
// the record was created, look-ups and updates meet 503s; every input ends
// up exactly once in the service, none lost, none twice.
func TestRecordsExactlyOnceUnderFaults(t *testing.T) {
	srv, c := syncServer(t, workflowtest.WithSeed(7))
	const n = 400
	var in []workflow.Record
	for i := range n {
		in = append(in, customer(i, "pro"))
	}
	// A quarter exist, half of them with another plan.
	for i := range n / 4 {
		srv.Seed(workflow.Apps, syncAlias, customer(i, map[bool]string{true: "pro", false: "basic"}[i%2 == 0]))
	}
	post503 := srv.Inject(workflowtest.Fault{Route: "POST /v1/apps/" + syncAlias, Probability: 0.08, Status: http.StatusServiceUnavailable})
	lost := srv.Inject(workflowtest.Fault{Route: "POST /v1/apps/" + syncAlias, Probability: 0.05, DropAfter: true})
	get503 := srv.Inject(workflowtest.Fault{Route: "GET /v1/apps/" + syncAlias, Probability: 0.1, Status: http.StatusServiceUnavailable})
	put503 := srv.Inject(workflowtest.Fault{Route: "PUT /v1/apps/" + syncAlias + "/*", Probability: 0.1, Status: http.StatusBadGateway})

	var got collect
	sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in), &upsert.Options{
		KeyField: "Email", BatchSize: 50, MaxCreates: 20, OnResult: got.add,
	}, workflow.WithMaxAttempts(20))
	require.NoError(t, err)
	t.Logf("faults fired: POST 503 %d, POST lost answers %d, GET 503 %d, PUT 502 %d; summary %+v",
		post503.Fired(), lost.Fired(), get503.Fired(), put503.Fired(), *sum)
	require.Positive(t, post503.Fired()+lost.Fired(), "the faults must have fired for the test to mean anything")

	assert.Equal(t, 0, sum.Failed)
	assert.Equal(t, 3*n/4, sum.Created)
	assert.Equal(t, n/8, sum.Updated)
	assert.Equal(t, n/8, sum.Unchanged)
	// Every create whose outcome was unknown was looked up again.
	assert.Equal(t, post503.Fired()+lost.Fired(), sum.Rechecks)
	recovered := 0
	for _, r := range got.results {
		if r.Recovered {
			recovered++
		}
	}
	assert.Equal(t, lost.Fired(), recovered, "exactly the creates whose answer was lost are found done")

	counts := srv.KeyCounts(workflow.Apps, syncAlias, "Email")
	duplicates, missing := 0, 0
	for _, r := range in {
		switch k := counts[r["Email"]]; {
		case k == 0:
			missing++
		case k > 1:
			duplicates += k - 1
		}
	}
	assert.Zero(t, duplicates, "duplicates")
	assert.Zero(t, missing, "lost")
	assert.Len(t, srv.Records(workflow.Apps, syncAlias), n)
	for _, r := range srv.Records(workflow.Apps, syncAlias) {
		assert.Equal(t, "pro", r["Plan"])
	}
}

func TestRecordsBadInputFailsOnlyItself(t *testing.T) {
	srv, c := syncServer(t)
	in := []workflow.Record{
		customer(0, "pro"),
		nil,                        // 1: no fields
		{"Name": "no key"},         // 2: no key field
		{"Email": "", "Name": "x"}, // 3: empty key
		customer(0, "basic"),       // 4: duplicate of 0
		customer(5, "pro"),
		customer(5, "pro"), // 6: duplicate of 5
	}
	srv.ResetRequests()
	var got collect
	sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in), &upsert.Options{KeyField: "Email", OnResult: got.add})
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Created)
	assert.Equal(t, 5, sum.Failed)
	for i, field := range map[int]string{1: "records[1]", 2: "records[2].Email", 3: "records[3].Email", 4: "records[4].Email", 6: "records[6].Email"} {
		var ve *workflow.ValidationError
		require.ErrorAs(t, got.results[i].Err, &ve, "input %d", i)
		assert.Equal(t, field, ve.Field)
		assert.Equal(t, upsert.Failed, got.results[i].Action)
	}
	assert.Contains(t, got.results[4].Err.Error(), "records[0]", "names the first occurrence")
	// One look-up and the two creates: nothing for the bad inputs.
	assert.Equal(t, map[string]int{"GET": 1, "POST": 2}, countRoutes(srv))
	assert.Equal(t, "pro", srv.Records(workflow.Apps, syncAlias)[0]["Plan"], "the first occurrence wins")
}

func TestRecordsOptionsValidation(t *testing.T) {
	srv, c := syncServer(t)
	srv.ResetRequests()
	one := slices.Values([]workflow.Record{customer(1, "pro")})
	for _, tc := range []struct {
		name  string
		opts  *upsert.Options
		field string
	}{
		{"nil", nil, "Options.KeyField"},
		{"no key", &upsert.Options{}, "Options.KeyField"},
		{"key is id", &upsert.Options{KeyField: "id"}, "Options.KeyField"},
		{"key is IDField", &upsert.Options{KeyField: "Ref", IDField: "Ref"}, "Options.KeyField"},
		{"bad field name", &upsert.Options{KeyField: "a=b"}, "Options.KeyField"},
		{"batch too big", &upsert.Options{KeyField: "Email", BatchSize: 1001}, "Options.BatchSize"},
		{"window under batch", &upsert.Options{KeyField: "Email", BatchSize: 100, Window: 10}, "Options.Window"},
		{"negative concurrency", &upsert.Options{KeyField: "Email", MaxConcurrency: -1}, "Options.MaxConcurrency"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, one, tc.opts)
			var ve *workflow.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
		})
	}
	_, err := upsert.Records(t.Context(), c.Records, "", syncAlias, one, &upsert.Options{KeyField: "Email"})
	var ve *workflow.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Empty(t, srv.Requests(), "nothing sent")
}

func TestRecordsDuplicateKeyInService(t *testing.T) {
	srv, c := syncServer(t)
	srv.Seed(workflow.Apps, syncAlias, customer(1, "basic"), customer(1, "basic"), customer(2, "basic"))
	var got collect
	sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias,
		slices.Values([]workflow.Record{customer(1, "pro"), customer(2, "pro")}),
		&upsert.Options{KeyField: "Email", OnResult: got.add})
	require.NoError(t, err)
	assert.Equal(t, 1, sum.Failed)
	assert.ErrorIs(t, got.results[0].Err, upsert.ErrDuplicateKey)
	assert.Contains(t, got.results[0].Err.Error(), `"1", "2"`, "names the ids")
	assert.Equal(t, upsert.Updated, got.results[1].Action)
	recs := srv.Records(workflow.Apps, syncAlias)
	assert.Equal(t, "basic", recs[0]["Plan"])
	assert.Equal(t, "basic", recs[1]["Plan"])
	assert.Equal(t, "pro", recs[2]["Plan"])
}

func TestRecordsDryRunSendsNoWrites(t *testing.T) {
	srv, c := syncServer(t)
	srv.Seed(workflow.Apps, syncAlias, customer(1, "basic"), customer(2, "pro"))
	srv.ResetRequests()
	var got collect
	sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias,
		slices.Values([]workflow.Record{customer(1, "pro"), customer(2, "pro"), customer(3, "pro")}),
		&upsert.Options{KeyField: "Email", DryRun: true, OnResult: got.add})
	require.NoError(t, err)
	assert.True(t, sum.DryRun)
	assert.Equal(t, []int{1, 1, 1}, []int{sum.Created, sum.Updated, sum.Unchanged})
	assert.Equal(t, []string{"Plan"}, got.results[0].Changed)
	assert.Equal(t, upsert.Created, got.results[2].Action)
	assert.Equal(t, map[string]int{"GET": 1}, countRoutes(srv))
	assert.Equal(t, "basic", srv.Records(workflow.Apps, syncAlias)[0]["Plan"])
}

// Keys with ':' are printed as == alternatives by the rsql printer, and
// long keys make long URLs: batches are cut so that every look-up's query
// stays under MaxSyncLookupQuery, and every key is still found.
func TestRecordsLookupBatchesStayShort(t *testing.T) {
	srv, c := syncServer(t)
	var in []workflow.Record
	for i := range 300 {
		key := fmt.Sprintf("urn:%03d:%s@example.com", i, strings.Repeat("x", i%40))
		if i%3 == 0 {
			key = fmt.Sprintf("plain %d, with; \"quotes\" and spaces", i)
		}
		r := workflow.Record{"Email": key, "Plan": "pro"}
		in = append(in, r)
		if i%2 == 0 {
			srv.Seed(workflow.Apps, syncAlias, workflow.Record{"Email": key, "Plan": "pro"})
		}
	}
	srv.ResetRequests()
	sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in),
		&upsert.Options{KeyField: "Email", BatchSize: 1000})
	require.NoError(t, err)
	assert.Equal(t, 150, sum.Unchanged)
	assert.Equal(t, 150, sum.Created)
	gets := 0
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet {
			gets++
			assert.LessOrEqual(t, len(r.Query.Encode()), upsert.MaxLookupQuery)
		}
	}
	assert.Greater(t, gets, 1, "the batches were cut by length")
	assert.Equal(t, gets, sum.Lookups)
	for k, n := range srv.KeyCounts(workflow.Apps, syncAlias, "Email") {
		assert.Equal(t, 1, n, k)
	}
}

// The service compares numbers as numbers: a look-up of "1" also finds
// "1.0". Only the exact key counts.
func TestRecordsKeyMatchesExactly(t *testing.T) {
	srv, c := syncServer(t)
	srv.Define(workflow.Apps, syncAlias) // no required field
	srv.Seed(workflow.Apps, syncAlias, workflow.Record{"Ref": "1.0", "Name": "a"})
	var got collect
	_, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias,
		slices.Values([]workflow.Record{{"Ref": "1", "Name": "b"}}),
		&upsert.Options{KeyField: "Ref", OnResult: got.add})
	require.NoError(t, err)
	assert.Equal(t, upsert.Created, got.results[0].Action)
	assert.Equal(t, map[string]int{"1.0": 1, "1": 1}, srv.KeyCounts(workflow.Apps, syncAlias, "Ref"))
}

func TestRecordsStopsOnForbidden(t *testing.T) {
	srv, c := syncServer(t)
	srv.Deny(workflowtest.DefaultUserID, workflow.Apps, syncAlias)
	var in []workflow.Record
	for i := range 100 {
		in = append(in, customer(i, "pro"))
	}
	srv.ResetRequests()
	sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in),
		&upsert.Options{KeyField: "Email", BatchSize: 10, Window: 20})
	require.ErrorIs(t, err, workflow.ErrForbidden)
	assert.Equal(t, sum.Read, sum.NotAttempted, "the cause is not the inputs'")
	assert.Zero(t, sum.Failed)
	assert.Less(t, sum.Read, 100, "reading stopped")
	assert.LessOrEqual(t, countRoutes(srv)["GET"], 2, "at most the look-ups already sent")
}

func TestRecordsAsEncodesValues(t *testing.T) {
	type Customer struct {
		Email string
		Seats int `workflow:"Seats,omitempty"`
		Since time.Time
	}
	srv, c := syncServer(t)
	since := time.Date(2024, 5, 1, 8, 0, 0, 0, time.UTC)
	var got collect
	sum, err := upsert.RecordsAs(t.Context(), c.Records, workflow.Apps, syncAlias,
		slices.Values([]Customer{{Email: "a@example.com", Seats: 3, Since: since}, {Email: "b@example.com"}}),
		&upsert.Options{KeyField: "Email", OnResult: got.add})
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Created)
	rec, ok := srv.Record(workflow.Apps, syncAlias, got.results[0].ID)
	require.True(t, ok)
	assert.Equal(t, workflow.Record{"id": got.results[0].ID, "Email": "a@example.com", "Seats": "3", "Since": "2024-05-01T08:00:00.000Z"}, rec)
}

// Cancelling the context stops the sync promptly: every input read is
// reported, the error is the context's, and no goroutine is left behind
// (TestMain runs goleak).
func TestRecordsCancel(t *testing.T) {
	srv, c := syncServer(t)
	// Hold every create until the test lets it go, so that the sync is
	// surely in the middle of its work when it is cancelled.
	release := make(chan struct{})
	srv.Inject(workflowtest.Fault{Route: "POST /v1/apps/" + syncAlias, Delay: time.Hour})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		for {
			for _, r := range srv.Requests() {
				if r.Method == http.MethodPost {
					cancel()
					close(release)
					return
				}
			}
			select {
			case <-ctx.Done():
				close(release)
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	endless := func(yield func(workflow.Record) bool) {
		for i := 0; ; i++ {
			if !yield(customer(i, "pro")) {
				return
			}
		}
	}
	var got collect
	done := make(chan struct{})
	var (
		sum *upsert.Summary
		err error
	)
	go func() {
		defer close(done)
		sum, err = upsert.Records(ctx, c.Records, workflow.Apps, syncAlias, endless, &upsert.Options{KeyField: "Email", BatchSize: 10, Window: 50, OnResult: got.add})
	}()
	<-release
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Sync did not return after cancellation")
	}
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, sum.Read, len(got.results), "every input read is reported")
	assert.LessOrEqual(t, sum.Read, 50, "the window bounds what was read")
	for _, r := range got.results {
		if r.Action == upsert.Failed {
			assert.True(t, errors.Is(r.Err, context.Canceled), "%v", r.Err)
		}
	}
}

// Batches stay full when the window is the bottleneck: with 400 inputs,
// a window of 100 and batches of 20, there are exactly 20 look-ups.
func TestRecordsBatchesStayFullWhenTheWindowIsFull(t *testing.T) {
	srv, c := syncServer(t)
	var in []workflow.Record
	for i := range 400 {
		in = append(in, customer(i, "pro"))
		if i%2 == 1 {
			srv.Seed(workflow.Apps, syncAlias, customer(i, "basic"))
		}
	}
	srv.ResetRequests()
	sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in),
		&upsert.Options{KeyField: "Email", BatchSize: 20, Window: 100})
	require.NoError(t, err)
	assert.Equal(t, 20, sum.Batches)
	assert.Equal(t, map[string]int{"GET": 20, "POST": 200, "PUT": 200}, countRoutes(srv))
	assert.Equal(t, 420, sum.Requests)
}

// advanceOn429 is a transport that moves the fake's clock on by one second
// each time it answers 429, so the rate-limit bucket refills by the
// requests the client sends, not by how fast the machine runs them.
type advanceOn429 struct {
	srv  *workflowtest.Server
	next http.RoundTripper
}

func (a advanceOn429) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := a.next.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusTooManyRequests {
		a.srv.Advance(time.Second)
	}
	return resp, err
}

// Under the fake's rate limit, 429s are waited out (each throttled
// request waits its Retry-After, the others go on at the cut rate) and
// retried by the client's retry loop, whose every attempt the adaptive
// limiter sees: nothing fails and every 429 the fake sent is in the
// summary.
func TestRecordsUnderRateLimit(t *testing.T) {
	// The server's clock stands still: the burst of 40 is all there is
	// until a 429 moves the clock on and refills the bucket, whatever the
	// speed of the machine. 61 requests cannot fit, so the sync meets the
	// limit, waits for Retry-After, and finishes.
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := workflowtest.Start(t, workflowtest.WithRateLimit(40, 40),
		workflowtest.WithClock(func() time.Time { return base }))
	srv.Define(workflow.Apps, syncAlias, "Email")
	c := srv.Client(workflow.WithRetryPolicy(workflow.RetryPolicy{Sleep: noWait}),
		workflow.WithHTTPClient(&http.Client{Transport: advanceOn429{srv, srv.HTTPClient().Transport}}))
	var in []workflow.Record
	for i := range 60 {
		in = append(in, customer(i, "pro"))
	}
	sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in),
		&upsert.Options{KeyField: "Email"}, workflow.WithMaxAttempts(50))
	require.NoError(t, err)
	assert.Equal(t, 60, sum.Created)
	assert.Zero(t, sum.Failed)
	limited := 0
	for _, r := range srv.Requests() {
		if r.Status == http.StatusTooManyRequests {
			limited++
		}
	}
	assert.Positive(t, limited, "the burst of 40 cannot hold 61 requests")
	assert.Equal(t, limited, sum.Throttled, "each 429 reached Sync")
	assert.Equal(t, 61+limited, sum.Requests)
	for k, n := range srv.KeyCounts(workflow.Apps, syncAlias, "Email") {
		assert.Equal(t, 1, n, k)
	}
}

// TestRecordsRetriesAreTheClients: the client's retry loop retries the
// requests Records sends, by the per-call options' budget (OnRetry sees
// each retry), and the adaptive limiter still sees every 429.
func TestRecordsRetriesAreTheClients(t *testing.T) {
	for _, tc := range []struct {
		name            string
		opts            []workflow.RequestOption
		created, failed int
		retries         int
	}{
		{"per-call policy", nil, 2, 0, 2},
		{"one attempt after the policy", []workflow.RequestOption{workflow.WithMaxAttempts(1)}, 0, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, c := syncServer(t)
			throttled := srv.Inject(workflowtest.Fault{Route: "POST /v1/apps/" + syncAlias, Count: 2, Status: http.StatusTooManyRequests})
			var retries atomic.Int32
			policy := workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 6, Sleep: noWait, OnRetry: func(workflow.RetryEvent) {
				retries.Add(1)
			}})
			in := []workflow.Record{customer(1, "pro"), customer(2, "pro")}
			var got collect
			sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in),
				&upsert.Options{KeyField: "Email", OnResult: got.add}, append([]workflow.RequestOption{policy}, tc.opts...)...)
			require.NoError(t, err)
			require.Equal(t, 2, throttled.Fired())
			assert.Equal(t, tc.created, sum.Created)
			assert.Equal(t, tc.failed, sum.Failed)
			for _, r := range got.results {
				if r.Action == upsert.Failed {
					assert.ErrorIs(t, r.Err, workflow.ErrRateLimited)
				}
			}
			assert.Equal(t, 2, sum.Throttled, "the limiter saw every 429")
			assert.Equal(t, 1+2+tc.retries, sum.Requests, "the look-up, the creates and their retries")
			assert.Equal(t, tc.retries, int(retries.Load()), "retries by the client")
		})
	}
}

// TestRecordsLimiterWaitPastTheDeadline: a SyncOptions.Limiter wait that
// would pass ctx's deadline fails the input at once with an error that
// matches context.DeadlineExceeded, as the client's own limiter does, and
// nothing more is sent for it (no re-check of a create never sent).
func TestRecordsLimiterWaitPastTheDeadline(t *testing.T) {
	srv, c := syncServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
	defer cancel()
	lim := rate.NewLimiter(rate.Every(24*time.Hour), 1) // the look-up takes the only token
	var got collect
	sum, err := upsert.Records(ctx, c.Records, workflow.Apps, syncAlias, slices.Values([]workflow.Record{customer(1, "pro")}),
		&upsert.Options{KeyField: "Email", Limiter: lim, OnResult: got.add})
	require.NoError(t, err)
	assert.Equal(t, 1, sum.Failed)
	assert.Zero(t, sum.Rechecks)
	require.Contains(t, got.results, 0)
	assert.ErrorIs(t, got.results[0].Err, context.DeadlineExceeded)
	assert.Equal(t, map[string]int{http.MethodGet: 1}, countRoutes(srv), "only the look-up was sent")
}

// TestRecordsWithResponseInto: Sync's concurrent requests may all store their
// response in one WithResponseInto destination (no data race, run with
// -race); after Sync it describes one of Sync's responses.
func TestRecordsWithResponseInto(t *testing.T) {
	_, c := syncServer(t)
	var in []workflow.Record
	for i := range 40 {
		in = append(in, customer(i, "pro"))
	}
	var resp workflow.Response
	sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in),
		&upsert.Options{KeyField: "Email", BatchSize: 5, MaxConcurrency: 8}, workflow.WithResponseInto(&resp))
	require.NoError(t, err)
	assert.Equal(t, 40, sum.Created)
	assert.Contains(t, []int{http.StatusOK, http.StatusCreated}, resp.StatusCode)
	assert.Equal(t, 1, resp.Attempts)
}

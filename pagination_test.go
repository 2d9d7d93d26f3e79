package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
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
)

// pagingGuard bounds every wait on a channel in these tests, so that a
// broken iterator fails the test instead of hanging it. It is never slept,
// and wide enough for a busy machine under the race detector.
const pagingGuard = time.Minute

// pagingServer serves GET /tasks/list: n records r1..rn with cursors c1..cn,
// paged forward (first/after) or backward (last/before) like the service.
type pagingServer struct {
	*testServer
	n int

	mu      sync.Mutex
	queries []string // RawQuery of each list request, in order
	// hook, if set, runs first for each request (call counts from 1) and
	// answers it itself by returning true.
	hook func(w http.ResponseWriter, r *http.Request, call int) bool
	// edit, if set, changes a response before it is sent.
	edit func(call int, resp *pagingResponse)
}

type pagingResponse struct {
	Items  []RecordItem `json:"items"`
	Total  int          `json:"total"`
	Paging PagingState  `json:"paging"`
}

func newPagingClient(t *testing.T, n int) (*Client, *pagingServer) {
	t.Helper()
	ps := &pagingServer{n: n}
	ps.testServer = newTestServer(t, http.HandlerFunc(ps.serve))
	return ps.client(t), ps
}

func (ps *pagingServer) serve(w http.ResponseWriter, r *http.Request) {
	ps.mu.Lock()
	ps.queries = append(ps.queries, r.URL.RawQuery)
	call, hook, edit := len(ps.queries), ps.hook, ps.edit
	ps.mu.Unlock()
	if r.URL.Path != "/tasks/list" {
		http.NotFound(w, r)
		return
	}
	if hook != nil && hook(w, r, call) {
		return
	}
	q := r.URL.Query()
	size := func(name string) int {
		if v := q.Get(name); v != "" {
			n, _ := strconv.Atoi(v)
			return n
		}
		return DefaultPageSize
	}
	cursor := func(name string) int { // index of the item after which to start
		n, _ := strconv.Atoi(strings.TrimPrefix(q.Get(name), "c"))
		return n
	}
	var lo, hi int // the page is items lo..hi-1 (0-based)
	if q.Has("last") || q.Has("before") {
		hi = ps.n
		if q.Has("before") {
			hi = cursor("before") - 1
		}
		lo = max(0, hi-size("last"))
	} else {
		lo = cursor("after")
		hi = min(ps.n, lo+size("first"))
	}
	resp := pagingResponse{Items: []RecordItem{}, Total: ps.n}
	for i := lo; i < hi; i++ {
		resp.Items = append(resp.Items, RecordItem{
			Data:   Record{"id": fmt.Sprintf("r%d", i+1), "Number": strconv.Itoa(i + 1)},
			Cursor: fmt.Sprintf("c%d", i+1),
		})
	}
	resp.Paging = PagingState{HasNextPage: hi < ps.n, HasPreviousPage: lo > 0}
	if len(resp.Items) > 0 {
		resp.Paging.StartCursor = resp.Items[0].Cursor
		resp.Paging.EndCursor = resp.Items[len(resp.Items)-1].Cursor
	}
	if edit != nil {
		edit(call, &resp)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

func (ps *pagingServer) seen() []string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return append([]string(nil), ps.queries...)
}

func (ps *pagingServer) setHook(h func(w http.ResponseWriter, r *http.Request, call int) bool) {
	ps.mu.Lock()
	ps.hook = h
	ps.mu.Unlock()
}

func (ps *pagingServer) setEdit(e func(call int, resp *pagingResponse)) {
	ps.mu.Lock()
	ps.edit = e
	ps.mu.Unlock()
}

// failWith answers a request with an error status the client does not retry.
func failWith(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"status":%d,"message":"page failed"}`, status)
}

// collect ranges over All and returns the ids, and the errors with the
// position (number of items before them) at which they came.
type yielded struct {
	ids  []string
	errs []error
	at   []int
}

func collectAll(ctx context.Context, c *Client, opts *ListOptions) yielded {
	var y yielded
	for it, err := range c.Records.All(ctx, Tasks, "list", opts) {
		if err != nil {
			y.errs = append(y.errs, err)
			y.at = append(y.at, len(y.ids))
			continue
		}
		y.ids = append(y.ids, it.Data["id"])
	}
	return y
}

func ids(from, to int) []string {
	var out []string
	step := 1
	if to < from {
		step = -1
	}
	for i := from; ; i += step {
		out = append(out, fmt.Sprintf("r%d", i))
		if i == to {
			return out
		}
	}
}

func TestAllForwardThreePages(t *testing.T) {
	t.Parallel()
	for _, prefetch := range []bool{false, true} {
		t.Run(fmt.Sprintf("prefetch=%v", prefetch), func(t *testing.T) {
			t.Parallel()
			c, srv := newPagingClient(t, 9)
			y := collectAll(t.Context(), c, &ListOptions{First: 3, Prefetch: prefetch})
			assert.Empty(t, y.errs)
			assert.Equal(t, ids(1, 9), y.ids)
			assert.Equal(t, []string{"first=3", "after=c3&first=3", "after=c6&first=3"}, srv.seen())
		})
	}
}

func TestAllBackwardThreePages(t *testing.T) {
	t.Parallel()
	for _, prefetch := range []bool{false, true} {
		t.Run(fmt.Sprintf("prefetch=%v", prefetch), func(t *testing.T) {
			t.Parallel()
			c, srv := newPagingClient(t, 9)
			y := collectAll(t.Context(), c, &ListOptions{Last: 3, Prefetch: prefetch})
			assert.Empty(t, y.errs)
			// From the end of the list towards its start.
			assert.Equal(t, ids(9, 1), y.ids)
			// Each next page is before the start cursor of the previous one.
			assert.Equal(t, []string{"last=3", "before=c7&last=3", "before=c4&last=3"}, srv.seen())
		})
	}
}

func TestAllBackwardFromCursor(t *testing.T) {
	t.Parallel()
	c, srv := newPagingClient(t, 9)
	y := collectAll(t.Context(), c, &ListOptions{Before: "c8"}) // default page size
	assert.Empty(t, y.errs)
	assert.Equal(t, ids(7, 1), y.ids)
	assert.Equal(t, []string{"before=c8&last=100"}, srv.seen(), "the spec gives last no default")
}

func TestPagesYieldsWholePages(t *testing.T) {
	t.Parallel()
	c, srv := newPagingClient(t, 7)
	var got [][]string
	for p, err := range c.Records.Pages(t.Context(), Tasks, "list", &ListOptions{First: 3}) {
		require.NoError(t, err)
		assert.Equal(t, 7, p.Total)
		var page []string
		for _, it := range p.Items {
			page = append(page, it.Data["id"])
		}
		got = append(got, page)
	}
	assert.Equal(t, [][]string{{"r1", "r2", "r3"}, {"r4", "r5", "r6"}, {"r7"}}, got)
	assert.Len(t, srv.seen(), 3)

	// Backward, a page's items keep the service's order.
	got = nil
	for p, err := range c.Records.Pages(t.Context(), Tasks, "list", &ListOptions{Last: 4}) {
		require.NoError(t, err)
		var page []string
		for _, it := range p.Items {
			page = append(page, it.Data["id"])
		}
		got = append(got, page)
	}
	assert.Equal(t, [][]string{{"r4", "r5", "r6", "r7"}, {"r1", "r2", "r3"}}, got)
}

func TestAllEmptyList(t *testing.T) {
	t.Parallel()
	c, srv := newPagingClient(t, 0)
	y := collectAll(t.Context(), c, nil)
	assert.Empty(t, y.errs)
	assert.Empty(t, y.ids)
	assert.Equal(t, []string{""}, srv.seen())
}

func TestAllIsLazy(t *testing.T) {
	t.Parallel()
	c, srv := newPagingClient(t, 3)
	seq := c.Records.All(t.Context(), Tasks, "list", &ListOptions{Prefetch: true})
	_ = c.Records.Pages(t.Context(), Tasks, "list", nil)
	_ = AllAs[recTask](t.Context(), c.Records, Tasks, "list", nil)
	assert.Empty(t, srv.seen(), "nothing is requested before ranging")
	assert.Zero(t, srv.tokenRequests.Load())
	n := 0
	for _, err := range seq {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 3, n)
	// The sequence can be ranged again, from the start.
	n = 0
	for _, err := range seq {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 3, n)
	assert.Len(t, srv.seen(), 2)
}

func TestAllBreakAfterFirstItem(t *testing.T) {
	t.Parallel()
	c, srv := newPagingClient(t, 9)
	for _, opts := range []*ListOptions{{First: 3}, {Last: 3}, nil} {
		for it, err := range c.Records.All(t.Context(), Tasks, "list", opts) {
			require.NoError(t, err)
			require.NotEmpty(t, it.Data["id"])
			break
		}
	}
	assert.Equal(t, []string{"first=3", "last=3", ""}, srv.seen(), "exactly one request per loop")

	// The same for Pages and AllAs.
	for _, err := range c.Records.Pages(t.Context(), Tasks, "list", &ListOptions{First: 2}) {
		require.NoError(t, err)
		break
	}
	for _, err := range AllAs[recTask](t.Context(), c.Records, Tasks, "list", &ListOptions{First: 2}) {
		require.NoError(t, err)
		break
	}
	assert.Len(t, srv.seen(), 5)
}

func TestAllErrorOnSecondPage(t *testing.T) {
	t.Parallel()
	for _, prefetch := range []bool{false, true} {
		t.Run(fmt.Sprintf("prefetch=%v", prefetch), func(t *testing.T) {
			t.Parallel()
			c, srv := newPagingClient(t, 9)
			srv.setHook(func(w http.ResponseWriter, r *http.Request, call int) bool {
				if call == 2 {
					failWith(w, http.StatusUnprocessableEntity)
					return true
				}
				return false
			})
			y := collectAll(t.Context(), c, &ListOptions{First: 3, Prefetch: prefetch})
			assert.Equal(t, ids(1, 3), y.ids, "page 1's items come first")
			require.Len(t, y.errs, 1, "the error is yielded once")
			assert.Equal(t, []int{3}, y.at)
			var ae *APIError
			require.ErrorAs(t, y.errs[0], &ae)
			assert.Equal(t, http.StatusUnprocessableEntity, ae.StatusCode)
			assert.Len(t, srv.seen(), 2, "no request after the failed page")
		})
	}
}

func TestAllErrorOnFirstPage(t *testing.T) {
	t.Parallel()
	c, srv := newPagingClient(t, 9)
	srv.setHook(func(w http.ResponseWriter, r *http.Request, call int) bool {
		failWith(w, http.StatusNotFound)
		return true
	})
	y := collectAll(t.Context(), c, &ListOptions{Prefetch: true})
	assert.Empty(t, y.ids)
	require.Len(t, y.errs, 1)
	assert.ErrorIs(t, y.errs[0], ErrNotFound)
	assert.Len(t, srv.seen(), 1)
}

func TestAllRepeatedCursor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		opts     ListOptions
		edit     func(call int, resp *pagingResponse)
		wantIDs  []string
		requests int
	}{
		{
			name: "server keeps sending the same end cursor",
			opts: ListOptions{First: 3},
			edit: func(call int, resp *pagingResponse) {
				resp.Paging.EndCursor = "c3"
			},
			wantIDs:  append(ids(1, 3), ids(4, 6)...),
			requests: 2,
		},
		{
			name: "cursor comes back two pages later",
			opts: ListOptions{First: 2},
			edit: func(call int, resp *pagingResponse) {
				if call == 3 {
					resp.Paging.EndCursor = "c2"
				}
			},
			wantIDs:  ids(1, 6),
			requests: 3,
		},
		{
			name: "server echoes the cursor the walk resumed from",
			opts: ListOptions{First: 3, After: "c3"},
			edit: func(call int, resp *pagingResponse) {
				resp.Paging.EndCursor = "c3"
			},
			wantIDs:  ids(4, 6),
			requests: 1,
		},
		{
			name: "backward: same start cursor",
			opts: ListOptions{Last: 3},
			edit: func(call int, resp *pagingResponse) {
				resp.Paging.StartCursor = "c7"
			},
			wantIDs:  append(ids(9, 7), ids(6, 4)...),
			requests: 2,
		},
	}
	for _, tt := range tests {
		for _, prefetch := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/prefetch=%v", tt.name, prefetch), func(t *testing.T) {
				t.Parallel()
				c, srv := newPagingClient(t, 9)
				srv.setEdit(tt.edit)
				opts := tt.opts
				opts.Prefetch = prefetch
				y := collectAll(t.Context(), c, &opts)
				assert.Equal(t, tt.wantIDs, y.ids)
				require.Len(t, y.errs, 1)
				assert.ErrorIs(t, y.errs[0], ErrRepeatedCursor)
				assert.NotRegexp(t, `c[0-9]`, y.errs[0].Error(), "a cursor is users' data")
				assert.ErrorIs(t, y.errs[0], ErrUnexpectedResponse, "a repeated cursor is an answer the SDK cannot use")
				assert.Len(t, srv.seen(), tt.requests)
			})
		}
	}
}

func TestAllMoreButNoCursor(t *testing.T) {
	t.Parallel()
	for _, opts := range []ListOptions{{First: 3}, {Last: 3}, {First: 3, Prefetch: true}} {
		t.Run(fmt.Sprintf("%+v", opts), func(t *testing.T) {
			t.Parallel()
			c, srv := newPagingClient(t, 9)
			srv.setEdit(func(call int, resp *pagingResponse) {
				resp.Paging.EndCursor, resp.Paging.StartCursor = "", ""
			})
			y := collectAll(t.Context(), c, &opts)
			assert.Len(t, y.ids, 3, "the page's items are yielded before the error")
			require.Len(t, y.errs, 1)
			assert.Contains(t, y.errs[0].Error(), "no cursor")
			assert.Len(t, srv.seen(), 1)
		})
	}
}

func TestAllResumeFromCursor(t *testing.T) {
	t.Parallel()
	c, srv := newPagingClient(t, 9)
	var cursor string
	var got []string
	for it, err := range c.Records.All(t.Context(), Tasks, "list", &ListOptions{First: 3}) {
		require.NoError(t, err)
		got = append(got, it.Data["id"])
		if len(got) == 4 {
			cursor = it.Cursor // stop after r4, remember where
			break
		}
	}
	require.Equal(t, "c4", cursor)
	for it, err := range c.Records.All(t.Context(), Tasks, "list", &ListOptions{First: 3, After: cursor}) {
		require.NoError(t, err)
		got = append(got, it.Data["id"])
	}
	assert.Equal(t, ids(1, 9), got)
	assert.Equal(t, []string{"first=3", "after=c3&first=3", "after=c4&first=3", "after=c7&first=3"}, srv.seen())

	// Backward: resume with Before.
	got = nil
	for it, err := range c.Records.All(t.Context(), Tasks, "list", &ListOptions{Last: 2}) {
		require.NoError(t, err)
		got = append(got, it.Data["id"])
		if len(got) == 3 {
			cursor = it.Cursor
			break
		}
	}
	require.Equal(t, "c7", cursor)
	for it, err := range c.Records.All(t.Context(), Tasks, "list", &ListOptions{Last: 2, Before: cursor}) {
		require.NoError(t, err)
		got = append(got, it.Data["id"])
	}
	assert.Equal(t, ids(9, 1), got)
}

func TestAllDoesNotModifyOptions(t *testing.T) {
	t.Parallel()
	c, _ := newPagingClient(t, 9)
	for _, opts := range []*ListOptions{{First: 2}, {Last: 2, Prefetch: true}, {First: 4, After: "c1", Prefetch: true}} {
		want := *opts
		for _, err := range c.Records.All(t.Context(), Tasks, "list", opts) {
			require.NoError(t, err)
		}
		for _, err := range c.Records.Pages(t.Context(), Tasks, "list", opts) {
			require.NoError(t, err)
		}
		assert.Equal(t, want, *opts)
	}
}

func TestAllStopsWhenContextCancelled(t *testing.T) {
	t.Parallel()
	c, srv := newPagingClient(t, 9)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var got []string
	var errs []error
	for it, err := range c.Records.All(ctx, Tasks, "list", &ListOptions{First: 3}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, it.Data["id"])
		cancel()
	}
	assert.Equal(t, ids(1, 1), got, "the rest of the page is not yielded after the context ended")
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
	assert.Len(t, srv.seen(), 1, "no request with a cancelled context")
}

func TestAllAsTyped(t *testing.T) {
	t.Parallel()
	c, _ := newPagingClient(t, 5)
	var got []int
	for task, err := range AllAs[recTask](t.Context(), c.Records, Tasks, "list", &ListOptions{First: 2, Prefetch: true}) {
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("r%d", task.Number), task.ID)
		got = append(got, task.Number)
	}
	assert.Equal(t, []int{1, 2, 3, 4, 5}, got)

	var back []int
	for task, err := range AllAs[*recTask](t.Context(), c.Records, Tasks, "list", &ListOptions{Last: 3}) {
		require.NoError(t, err)
		back = append(back, task.Number)
	}
	assert.Equal(t, []int{5, 4, 3, 2, 1}, back)
}

func TestAllAsDecodeError(t *testing.T) {
	t.Parallel()
	c, srv := newPagingClient(t, 9)
	srv.setEdit(func(call int, resp *pagingResponse) {
		for _, it := range resp.Items {
			if it.Data["id"] == "r5" {
				it.Data["Number"] = "five"
			}
		}
	})
	var got []int
	var errs []error
	for task, err := range AllAs[recTask](t.Context(), c.Records, Tasks, "list", &ListOptions{First: 3}) {
		if err != nil {
			errs = append(errs, err)
			assert.Zero(t, task)
			continue
		}
		got = append(got, task.Number)
	}
	assert.Equal(t, []int{1, 2, 3, 4}, got)
	require.Len(t, errs, 1, "a decode error is yielded once and ends the iteration")
	var de *DecodeError
	require.ErrorAs(t, errs[0], &de)
	assert.Equal(t, "Number", de.Field)
	assert.Equal(t, "five", de.Value)
	assert.Equal(t, "c5", de.Cursor, "the cursor of the bad record")
	assert.Len(t, srv.seen(), 2)

	// Resuming after the bad record finishes the walk.
	for task, err := range AllAs[recTask](t.Context(), c.Records, Tasks, "list", &ListOptions{First: 3, After: de.Cursor}) {
		require.NoError(t, err)
		got = append(got, task.Number)
	}
	assert.Equal(t, []int{1, 2, 3, 4, 6, 7, 8, 9}, got)
}

// The prefetch tests are not parallel: they check for leaked goroutines.

func TestAllPrefetchOverlaps(t *testing.T) {
	defer checkLeaks(t)()
	c, srv := newPagingClient(t, 9)
	defer srv.Close() // before the leak check: the server's goroutines end

	page2 := make(chan struct{})
	var started atomic.Int64 // requests the server has seen
	srv.setHook(func(w http.ResponseWriter, r *http.Request, call int) bool {
		started.Store(int64(call))
		if r.URL.Query().Get("after") == "c3" {
			close(page2)
		}
		return false
	})

	var got []string
	for it, err := range c.Records.All(t.Context(), Tasks, "list", &ListOptions{First: 3, Prefetch: true}) {
		require.NoError(t, err)
		got = append(got, it.Data["id"])
		if len(got) == 1 {
			// Still on page 1: the server sees page 2 being asked for.
			select {
			case <-page2:
			case <-time.After(pagingGuard):
				t.Fatal("page 2 was not requested while page 1 was being handled")
			}
		}
		page := (len(got)-1)/3 + 1
		assert.LessOrEqual(t, started.Load(), int64(page+1), "at most one page ahead")
	}
	assert.Equal(t, ids(1, 9), got)
	assert.Equal(t, []string{"first=3", "after=c3&first=3", "after=c6&first=3"}, srv.seen())
}

func TestAllPrefetchBreakCancelsFetch(t *testing.T) {
	defer checkLeaks(t)()
	c, srv := newPagingClient(t, 9)
	defer srv.Close()

	inFlight := make(chan struct{})
	cancelled := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	srv.setHook(func(w http.ResponseWriter, r *http.Request, call int) bool {
		if call != 2 {
			return false
		}
		close(inFlight)
		select {
		case <-r.Context().Done():
			close(cancelled)
		case <-release:
		}
		return true
	})

	for it, err := range c.Records.All(t.Context(), Tasks, "list", &ListOptions{First: 3, Prefetch: true}) {
		require.NoError(t, err)
		require.Equal(t, "r1", it.Data["id"])
		select {
		case <-inFlight:
		case <-time.After(pagingGuard):
			t.Fatal("page 2 was not prefetched")
		}
		break
	}
	// Breaking returned only after the fetch of page 2 ended; the server
	// sees the request cancelled.
	select {
	case <-cancelled:
	case <-time.After(pagingGuard):
		t.Fatal("the prefetch in flight was not cancelled")
	}
	assert.Len(t, srv.seen(), 2)
}

func TestAllPrefetchErrorCancelsNothingLeft(t *testing.T) {
	defer checkLeaks(t)()
	c, srv := newPagingClient(t, 9)
	defer srv.Close()
	srv.setHook(func(w http.ResponseWriter, r *http.Request, call int) bool {
		if call == 3 {
			failWith(w, http.StatusBadRequest)
			return true
		}
		return false
	})
	y := collectAll(t.Context(), c, &ListOptions{Last: 3, Prefetch: true})
	assert.Equal(t, ids(9, 4), y.ids)
	require.Len(t, y.errs, 1)
	assert.Equal(t, []int{6}, y.at)
	assert.Len(t, srv.seen(), 3)
}

// Tests of the generic pager with a fetch function instead of a server.

// fakeFetch serves pages of 2 items from a list of n ints.
func fakeFetch(n int, calls *atomic.Int64) fetchPage[int] {
	return func(ctx context.Context, o *ListOptions) (*Page[int], error) {
		calls.Add(1)
		start := 0
		if o.After != "" {
			start, _ = strconv.Atoi(o.After)
		}
		end := min(n, start+2)
		p := &Page[int]{Total: n}
		for i := start; i < end; i++ {
			p.Items = append(p.Items, i+1)
		}
		p.Paging = PagingState{HasNextPage: end < n, EndCursor: strconv.Itoa(end)}
		return p, nil
	}
}

// A page whose items have all been yielded is left, cleared, as the room a
// later page is read into; a page being yielded, or left early, is not.
func TestItemsLeaveYieldedPagesAsRoom(t *testing.T) {
	for _, prefetch := range []bool{false, true} {
		t.Run(fmt.Sprint("prefetch ", prefetch), func(t *testing.T) {
			defer checkLeaks(t)()
			var calls atomic.Int64
			var room atomic.Pointer[[]int]
			seq := items(t.Context(), pages(t.Context(), &ListOptions{Prefetch: prefetch}, fakeFetch(5, &calls)), false, func(err error) error { return err }, &room)
			var got []int
			var rooms [][]int
			for v, err := range seq {
				require.NoError(t, err)
				got = append(got, v)
				if r := room.Load(); r != nil {
					rooms = append(rooms, slices.Clone(*r))
				} else {
					rooms = append(rooms, nil)
				}
			}
			assert.Equal(t, []int{1, 2, 3, 4, 5}, got)
			assert.Equal(t, [][]int{nil, nil, {0, 0}, {0, 0}, {0, 0}}, rooms, "the room while each item is yielded")
			require.NotNil(t, room.Load())
			assert.Equal(t, []int{0}, *room.Load(), "the last page, once yielded")

			room.Store(nil)
			for range seq {
				break
			}
			assert.Nil(t, room.Load(), "a page left early is not room")
		})
	}
}

func TestPagesPrefetchCancelsBlockedFetch(t *testing.T) {
	defer checkLeaks(t)()
	var calls atomic.Int64
	base := fakeFetch(10, &calls)
	blocked := make(chan struct{})
	var sawCancel atomic.Bool
	fetch := func(ctx context.Context, o *ListOptions) (*Page[int], error) {
		if o.After == "" {
			return base(ctx, o)
		}
		close(blocked)
		<-ctx.Done() // the next page never arrives unless cancelled
		sawCancel.Store(true)
		return nil, ctx.Err()
	}
	n := 0
	for v, err := range items(t.Context(), pages(t.Context(), &ListOptions{Prefetch: true}, fetch), false, func(err error) error { return err }, nil) {
		require.NoError(t, err)
		require.Equal(t, 1, v)
		<-blocked
		n++
		break
	}
	assert.Equal(t, 1, n)
	assert.True(t, sawCancel.Load(), "the loop ended only after the fetch in flight was cancelled and returned")
}

func TestPagesPrefetchParentContextCancelled(t *testing.T) {
	defer checkLeaks(t)()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var calls atomic.Int64
	base := fakeFetch(10, &calls)
	fetch := func(ctx context.Context, o *ListOptions) (*Page[int], error) {
		if o.After == "" {
			return base(ctx, o)
		}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	var got []int
	var errs []error
	for v, err := range items(ctx, pages(ctx, &ListOptions{Prefetch: true}, fetch), false, func(err error) error { return err }, nil) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, v)
		cancel()
	}
	assert.Equal(t, []int{1}, got, "the rest of the page is not yielded after the context ended")
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
}

func TestPagesAtMostOnePageAhead(t *testing.T) {
	defer checkLeaks(t)()
	var calls atomic.Int64
	fetch := fakeFetch(9, &calls)
	var got []int
	for v, err := range items(t.Context(), pages(t.Context(), &ListOptions{Prefetch: true}, fetch), false, func(err error) error { return err }, nil) {
		require.NoError(t, err)
		got = append(got, v)
		page := (len(got)-1)/2 + 1
		// While the caller holds page p, page p+2 cannot have been asked for.
		assert.LessOrEqual(t, calls.Load(), int64(page+1))
	}
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9}, got)
	assert.Equal(t, int64(5), calls.Load())
}

func TestPagesFetchErrorNotWrapped(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	fetch := func(ctx context.Context, o *ListOptions) (*Page[int], error) { return nil, boom }
	for _, prefetch := range []bool{false, true} {
		n := 0
		for p, err := range pages(t.Context(), &ListOptions{Prefetch: prefetch}, fetch) {
			n++
			assert.Nil(t, p)
			assert.Same(t, boom, err)
		}
		assert.Equal(t, 1, n)
	}
}

func TestListOptionsQuery(t *testing.T) {
	t.Parallel()
	q, err := (*ListOptions)(nil).query()
	require.NoError(t, err)
	assert.Equal(t, &listQuery{}, q)
	for _, o := range []ListOptions{{First: 1}, {First: 1000}, {Last: 1}, {Last: 1000}, {After: "a"}, {Before: "b"}, {First: 0, Last: 0}} {
		_, err := o.query()
		assert.NoError(t, err, "%+v", o)
	}
}

// TestIteratorsNameTheRequestWhenCanceled: a walk ended by its context,
// before a page or between two items, says which list it was walking, as
// a single call names its request; errors.Is still sees the context's
// error, and nothing more is sent.
func TestIteratorsNameTheRequestWhenCanceled(t *testing.T) {
	page := `{"items":[{"data":{"id":"1"},"cursor":"c1"},{"data":{"id":"2"},"cursor":"c2"}],"total":2,"paging":{"has_next_page":false}}`
	walks := map[string]func(ctx context.Context, c *Client) iter.Seq2[any, error]{
		"Records.All": func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.Records.All(ctx, Tasks, "it-requests", nil))
		},
		"Users.All": func(ctx context.Context, c *Client) iter.Seq2[any, error] { return anySeq(c.Users.All(ctx, nil)) },
		"Records.Comments.All": func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.Records.Comments.All(ctx, Tasks, "it-requests", "1", nil))
		},
		"Groups.Members.All": func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.Groups.Members.All(ctx, "g1", nil))
		},
	}
	for name, walk := range walks {
		t.Run(name+" before the first page", func(t *testing.T) {
			c, m := newMockClient(t, mockReply(http.StatusOK, page))
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			for _, err := range walk(ctx, c) {
				require.ErrorIs(t, err, context.Canceled)
				assert.Regexp(t, `^workflow: GET /v1/[^\s?]+: context canceled$`, err.Error())
				break
			}
			assert.Empty(t, m.requests())
		})
		t.Run(name+" between two items", func(t *testing.T) {
			c, m := newMockClient(t, mockReply(http.StatusOK, page))
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			n := 0
			for _, err := range walk(ctx, c) {
				if n++; n == 1 {
					require.NoError(t, err)
					cancel()
					continue
				}
				require.ErrorIs(t, err, context.Canceled)
				assert.Regexp(t, `^workflow: GET /v1/[^\s?]+: context canceled$`, err.Error())
			}
			assert.Equal(t, 2, n, "one item, then the error")
			assert.Len(t, m.requests(), 1)
		})
	}
}

// anySeq makes an iterator of any item type comparable in a table.
func anySeq[T any](seq iter.Seq2[T, error]) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		for v, err := range seq {
			if !yield(v, err) {
				return
			}
		}
	}
}

func TestEndlessEmptyPagesStop(t *testing.T) {
	for _, prefetch := range []bool{false, true} {
		t.Run(fmt.Sprint("prefetch=", prefetch), func(t *testing.T) {
			var requests atomic.Int64
			c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := requests.Add(1)
				fmt.Fprintf(w, `{"items":[],"total":5,"paging":{"has_next_page":true,"end_cursor":"c%d"}}`, n)
			}))
			var err error
			for _, e := range c.Records.All(t.Context(), Tasks, "it", &ListOptions{Prefetch: prefetch}) {
				if e != nil {
					err = e
					break
				}
			}
			require.ErrorIs(t, err, ErrUnexpectedResponse)
			assert.LessOrEqual(t, requests.Load(), int64(maxEmptyPages+1), "a small bounded run of requests")
		})
	}
	t.Run("a few empty pages between full ones are fine", func(t *testing.T) {
		var requests atomic.Int64
		c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := requests.Add(1)
			switch {
			case n%3 == 0 && n < 9:
				fmt.Fprintf(w, `{"items":[{"data":{"n":"%d"},"cursor":"c%d"}],"total":9,"paging":{"has_next_page":true,"end_cursor":"c%d"}}`, n, n, n)
			case n < 9:
				fmt.Fprintf(w, `{"items":[],"total":9,"paging":{"has_next_page":true,"end_cursor":"c%d"}}`, n)
			default:
				fmt.Fprint(w, `{"items":[],"total":9,"paging":{"has_next_page":false}}`)
			}
		}))
		var got int
		for _, err := range c.Records.All(t.Context(), Tasks, "it", nil) {
			require.NoError(t, err)
			got++
		}
		assert.Equal(t, 2, got)
	})
}

func TestCancelMidPageStopsAtOnce(t *testing.T) {
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"items":[{"data":{"n":"1"}},{"data":{"n":"2"}},{"data":{"n":"3"}},{"data":{"n":"4"}}],"total":9,"paging":{"has_next_page":false}}`)
	}))
	for _, backward := range []bool{false, true} {
		ctx, cancel := context.WithCancel(t.Context())
		opts := &ListOptions{}
		if backward {
			opts.Last = 4
		}
		var seen int
		var last error
		for _, err := range c.Records.All(ctx, Tasks, "it", opts) {
			if err != nil {
				last = err
				break
			}
			seen++
			cancel()
		}
		assert.Equal(t, 1, seen, "no item after the context ended")
		assert.ErrorIs(t, last, context.Canceled)
		cancel()
	}
}

func TestBeforeAloneSendsTheDefaultPageSize(t *testing.T) {
	var queries []string
	var mu sync.Mutex
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.RawQuery)
		n := len(queries)
		mu.Unlock()
		if n == 1 {
			fmt.Fprint(w, `{"items":[{"data":{"n":"2"},"cursor":"c2"}],"total":9,"paging":{"has_previous_page":true,"start_cursor":"c2"}}`)
			return
		}
		fmt.Fprint(w, `{"items":[{"data":{"n":"1"},"cursor":"c1"}],"total":9,"paging":{"has_previous_page":false,"start_cursor":"c1"}}`)
	}))
	var got int
	for _, err := range c.Records.All(t.Context(), Tasks, "it", &ListOptions{Before: "c9"}) {
		require.NoError(t, err)
		got++
	}
	assert.Equal(t, 2, got)
	assert.Equal(t, []string{"before=c9&last=100", "before=c2&last=100"}, queries)

	queries = nil
	_, err := c.Records.List(t.Context(), Tasks, "it", &ListOptions{Before: "c9", Last: 7})
	require.NoError(t, err)
	assert.Equal(t, []string{"before=c9&last=7"}, queries, "an explicit Last is kept")
}

// TestPageSayingMoreWithoutACursor: a page that says more items follow but
// gives no cursor to them is a malformed list, for every iterator.
func TestPageSayingMoreWithoutACursor(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		walk       func(c *Client) error
	}{
		{"records forward", `{"items":[{"data":{"a":"1"}}],"total":2,"paging":{"has_next_page":true}}`, func(c *Client) error {
			for _, err := range c.Records.All(t.Context(), Tasks, "it", nil) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"users backward", `{"items":[{"id":"x"}],"total":2,"paging":{"has_previous_page":true}}`, func(c *Client) error {
			for _, err := range c.Users.All(t.Context(), &ListOptions{Last: 1}) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(tc.body))
			}))
			require.ErrorIs(t, tc.walk(c), ErrUnexpectedResponse)
		})
	}
}

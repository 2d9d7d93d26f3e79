package workflow

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// Page sizes accepted by the service for First and Last.
const (
	MinPageSize     = 1
	MaxPageSize     = 1000
	DefaultPageSize = 100
)

// ListOptions selects a page of a list, or where an iterator starts.
//
// First/After page forward (the default, from the start of the list);
// Last/Before page backward (from the end of the list). Mixing the two
// directions is an error. To resume an iteration, pass the Cursor of the
// last item you handled as After (or Before, going backward), with the
// same list and the same Filter: a cursor is a position in one filtered
// list and means nothing in another (the service may refuse it), so store
// the filter with the cursor.
type ListOptions struct {
	// First is the number of items per page going forward, 1 to 1000.
	// Zero leaves the server's default (100).
	First int
	// After is the cursor after which forward paging begins: an item's
	// Cursor or a page's EndCursor from the same list (record type and
	// alias) listed with the same Filter. A cursor resumes only that
	// list; store the filter with it.
	After string
	// Last is the number of items per page going backward, 1 to 1000.
	// Zero with Before set sends DefaultPageSize (100): the spec gives
	// last no default.
	Last int
	// Before is the cursor before which backward paging begins, from
	// the same list with the same Filter, as for After.
	Before string
	// Filter is an RSQL filter built with the rsql package, or
	// rsql.Raw("...") for a ready-made one. Nil lists everything.
	Filter rsql.Expr
	// Prefetch makes iterators (All, Pages, AllAs) fetch the next page
	// while the caller works on the current one: at most one page ahead,
	// cancelled when the iteration stops. List ignores it.
	Prefetch bool
}

// backward reports whether the options page from the end of the list.
func (o *ListOptions) backward() bool {
	return o != nil && (o.Last != 0 || o.Before != "")
}

// listQuery is the query string of a list request.
type listQuery struct {
	First  int    `url:"first,omitempty"`
	After  string `url:"after,omitempty"`
	Last   int    `url:"last,omitempty"`
	Before string `url:"before,omitempty"`
	Filter string `url:"filter,omitempty"`
}

// query validates the options and returns their query string form.
func (o *ListOptions) query() (*listQuery, error) {
	v := valueOf(o) // nil: the first page at the service's default size
	if v.First != 0 && (v.First < MinPageSize || v.First > MaxPageSize) {
		return nil, invalid("ListOptions.First", "must be between 1 and 1000 (got "+strconv.Itoa(v.First)+")")
	}
	if v.Last != 0 && (v.Last < MinPageSize || v.Last > MaxPageSize) {
		return nil, invalid("ListOptions.Last", "must be between 1 and 1000 (got "+strconv.Itoa(v.Last)+")")
	}
	if (v.First != 0 || v.After != "") && (v.Last != 0 || v.Before != "") {
		return nil, invalid("ListOptions", "First/After (forward) and Last/Before (backward) must not be mixed")
	}
	q := &listQuery{First: v.First, After: v.After, Last: v.Last, Before: v.Before}
	if q.Before != "" && q.Last == 0 {
		// The spec gives last no default: backward paging from Before
		// alone asks for the documented page size.
		q.Last = DefaultPageSize
	}
	if v.Filter != nil {
		if err := v.Filter.Validate(); err != nil {
			return nil, &ValidationError{Field: "ListOptions.Filter", Rule: "must be a valid RSQL filter", Err: err}
		}
		q.Filter = v.Filter.String()
	}
	return q, nil
}

// PagingState is the page position the service reports with a list. Part
// of a list's envelope, it keeps its items' position (these four members),
// not unknown envelope members, when it is read and written again.
type PagingState struct {
	HasNextPage     bool   `json:"has_next_page"`     // more items after this page
	HasPreviousPage bool   `json:"has_previous_page"` // more items before this page
	StartCursor     string `json:"start_cursor"`      // cursor of the first item
	EndCursor       string `json:"end_cursor"`        // cursor of the last item
}

// Page is one page of a list: its items in the order the service sent
// them, the total the service reported, and the paging state. A list
// envelope: read and written again (with encoding/json or
// go-json-experiment/json), a page keeps its items whole, with their
// unknown members, and its total and paging state, not unknown envelope
// members.
type Page[T any] struct {
	Items  []T         `json:"items"`  // the page's items
	Total  int         `json:"total"`  // total count the service reported for the list
	Paging PagingState `json:"paging"` // where the page stands in the list
}

// ErrRepeatedCursor is returned by an iterator when the service hands back
// a cursor it already gave, which would otherwise loop forever. It is an
// answer the SDK cannot use, so it also matches ErrUnexpectedResponse.
var ErrRepeatedCursor = fmt.Errorf("%w: the service repeated a page cursor", ErrUnexpectedResponse)

// maxEmptyPages is how many pages in a row may be empty while the service
// says more follow: an iterator stops with an error matching
// ErrUnexpectedResponse at the next one, instead of following fresh
// cursors to empty pages forever.
const maxEmptyPages = 3

// fetchPage fetches the page the options point at.
type fetchPage[T any] func(ctx context.Context, opts *ListOptions) (*Page[T], error)

// pages walks a list page by page from opts (copied, never written), forward
// or backward, optionally fetching one page ahead. Validation errors of
// opts are yielded before any request is sent.
func pages[T any](ctx context.Context, opts *ListOptions, fetch fetchPage[T]) iter.Seq2[*Page[T], error] {
	o := valueOf(opts)
	return func(yield func(*Page[T], error) bool) {
		_, qerr := o.query()
		if err := cmp.Or(checkCtx(ctx), qerr); err != nil {
			yield(nil, err)
			return
		}
		backward := o.backward()
		// Cursors are remembered by a 64-bit hash, so a long walk holds a
		// few bytes per page, not every cursor's text. The cursor the walk
		// starts from counts as seen: a service that hands it back would
		// serve the same page again.
		seed := maphash.MakeSeed()
		seen := map[uint64]bool{}
		if start := o.After + o.Before; start != "" { // at most one is set
			seen[maphash.String(seed, start)] = true
		}
		empty := 0 // empty pages in a row that said more would follow
		// next returns the options of the page after p, or nil at the end.
		next := func(cur ListOptions, p *Page[T]) (*ListOptions, error) {
			more, cursor := p.Paging.HasNextPage, p.Paging.EndCursor
			if backward {
				more, cursor = p.Paging.HasPreviousPage, p.Paging.StartCursor
			}
			if !more {
				return nil, nil
			}
			if len(p.Items) > 0 {
				empty = 0
			} else if empty++; empty >= maxEmptyPages {
				return nil, fmt.Errorf("%w: %d empty pages in a row, each saying more items follow", ErrUnexpectedResponse, empty)
			}
			if cursor == "" {
				return nil, fmt.Errorf("%w: more items reported but no cursor to them", errMalformed)
			}
			h := maphash.String(seed, cursor)
			if seen[h] {
				return nil, ErrRepeatedCursor // the cursor is users' data: not in the text
			}
			seen[h] = true
			if backward {
				cur.Before = cursor
			} else {
				cur.After = cursor
			}
			return &cur, nil
		}

		walkFrom(ctx, &o, fetch, next, yield)
	}
}

type pageResult[T any] struct {
	page *Page[T]
	err  error
}

// walkFrom yields the pages from first on. With first.Prefetch the next
// page is fetched while the caller works on the current one; breaking out
// of the loop then cancels the fetch in flight and waits for it, so no
// goroutine is left behind. Without it, each page is fetched when the
// loop asks for it. A context that has ended fails the fetch at once,
// naming its request, and nothing is sent.
func walkFrom[T any](ctx context.Context, first *ListOptions, fetch fetchPage[T],
	next func(ListOptions, *Page[T]) (*ListOptions, error), yield func(*Page[T], error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	var pending chan pageResult[T]
	defer func() {
		cancel()
		if pending != nil {
			<-pending
		}
	}()
	// start returns how to get the page o points at.
	start := func(o *ListOptions) func() pageResult[T] {
		get := func() pageResult[T] {
			p, err := fetch(ctx, o)
			return pageResult[T]{p, err}
		}
		if !first.Prefetch {
			return get
		}
		ch := make(chan pageResult[T], 1)
		go func() { ch <- get() }()
		pending = ch
		return func() pageResult[T] { pending = nil; return <-ch }
	}
	cur, get := first, start(first)
	for {
		r := get()
		if r.err != nil {
			yield(nil, r.err)
			return
		}
		nxt, nerr := next(*cur, r.page)
		if nxt != nil {
			get = start(nxt)
		}
		if !yield(r.page, nil) {
			return
		}
		if nerr != nil {
			yield(nil, nerr)
			return
		}
		if nxt == nil {
			return
		}
		cur = nxt
	}
}

// items flattens pages into items. Going backward, each page's items are
// yielded last to first, so the whole walk runs from the end of the list
// towards its start. ctx is checked before each item: once it has ended,
// the rest of the page is not yielded, only ctx's error. A page whose
// items have all been yielded is cleared and left in room, if not nil.
func items[T any](ctx context.Context, seq iter.Seq2[*Page[T], error], backward bool, stopped func(error) error, room *atomic.Pointer[[]T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		for p, err := range seq {
			if err != nil {
				yield(zero, err)
				return
			}
			for i := range p.Items {
				if backward {
					i = len(p.Items) - 1 - i
				}
				if ctx != nil && ctx.Err() != nil {
					yield(zero, stopped(ctx.Err()))
					return
				}
				if !yield(p.Items[i], nil) {
					return
				}
			}
			if room != nil {
				clear(p.Items)
				room.Store(&p.Items)
			}
		}
	}
}

// requestPage requests one page of the paged list at r. A filter on a list for
// which the service publishes none is refused before sending. The page's
// items may be read into the room of *room, a slice nothing else uses.
func requestPage[T any](ctx context.Context, c *Client, r target, opts *ListOptions, reqOpts []RequestOption, room *[]T) (*Page[T], error) {
	if r.err != nil {
		return nil, r.err
	}
	if !r.filter && opts != nil && opts.Filter != nil {
		return nil, invalid("ListOptions.Filter", "must be nil: the service publishes no filter for "+r.path)
	}
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	p := &Page[T]{Items: valueOf(room)}
	if err := c.call(ctx, r, q, nil, reqOpts, page(p, cmp.Or(q.First, q.Last, DefaultPageSize))); err != nil {
		return nil, err
	}
	return p, nil
}

// walkPages returns the lazy page iterator of the paged list at r.
func walkPages[T any](ctx context.Context, c *Client, r target, opts *ListOptions, reqOpts []RequestOption) iter.Seq2[*Page[T], error] {
	// A bad argument of the target is the first fetch's error.
	return func(yield func(*Page[T], error) bool) {
		pages(ctx, opts, rideOut(c, r, reqOpts, func(ctx context.Context, o *ListOptions) (*Page[T], error) {
			return requestPage[T](ctx, c, r, o, reqOpts, nil)
		}))(yield)
	}
}

// rideOut makes a walk ride out an outage: when the request of a page
// fails with a failure its retry policy retried (Temporary: a page
// request is a GET, always safe to send again) and its attempts ran out,
// the walk requests the same page again, from its own last cursor, after
// the policy's next backoff wait (or the Retry-After of the last answer),
// until the policy's MaxElapsed has passed since the walk last received a
// page, or the caller's context ends. Each such wait is reported to the
// policy's OnRetry. A policy of one attempt (no retries) leaves the walk
// to end at the first failure.
func rideOut[T any](c *Client, r target, reqOpts []RequestOption, fetch fetchPage[T]) fetchPage[T] {
	var progress time.Time // when the walk last received a page
	return func(ctx context.Context, o *ListOptions) (*Page[T], error) {
		cfg, cerr := c.callConfig(reqOpts)
		if progress.IsZero() {
			progress = time.Now()
		}
		for n := 1; ; n++ {
			p, err := fetch(ctx, o)
			if err == nil {
				progress = time.Now()
				return p, nil
			}
			if cerr != nil || cfg.policy.MaxAttempts < 2 || !retryable(ctx, http.MethodGet, nil, err) {
				return nil, err
			}
			ae, _ := errors.AsType[*APIError](err)
			ra, hasRA := retryAfter(valueOf(ae).Header, time.Now()) // "0" is a Retry-After too; none without an answer
			// The request made MaxAttempts attempts: the backoff goes on
			// growing from there.
			wait, ok := cfg.policy.wait(ctx, n*cfg.policy.MaxAttempts, progress, ra, hasRA)
			if !ok {
				return nil, err
			}
			ev := RetryEvent{Attempt: n * cfg.policy.MaxAttempts, Err: err, Wait: wait}
			if ae != nil {
				ev.StatusCode, ev.Err = ae.StatusCode, nil
			}
			q, _ := o.query() // o was checked when the page was first asked for
			req, rerr := c.newRequest(ctx, r, q, nil)
			if rerr != nil {
				return nil, err
			}
			if perr := c.pause(req, cfg.policy, ev, &progress); perr != nil {
				return nil, perr
			}
		}
	}
}

// walkItems returns the lazy item iterator of the paged list at r: forward,
// or from the end towards the start when opts page backward.
// The items of a page, once yielded (as copies), are the room a later page
// of the walk is read into.
func walkItems[T any](ctx context.Context, c *Client, r target, opts *ListOptions, reqOpts []RequestOption) iter.Seq2[T, error] {
	// A walk ended by its context between two requests names the list,
	// as a single call's error names its request.
	stopped := func(err error) error {
		return c.wrap(&http.Request{Method: http.MethodGet, URL: c.baseURL.JoinPath(r.path)}, err)
	}
	return func(yield func(T, error) bool) {
		var room atomic.Pointer[[]T]
		fetch := rideOut(c, r, reqOpts, func(ctx context.Context, o *ListOptions) (*Page[T], error) {
			return requestPage(ctx, c, r, o, reqOpts, room.Swap(nil))
		})
		items(ctx, pages(ctx, opts, fetch), opts.backward(), stopped, &room)(yield)
	}
}

// recordList is a paged list under one record: its comments, watchers or
// related items. CommentsService, WatchersService and RelatedService embed
// it for their List, Pages and All.
type recordList[T any] struct {
	client *Client
	list   op.ID // the list's operation
}

func (l *recordList[T]) at(t RecordType, alias, id string) target {
	return recordPath(l.list, t, alias, "id", id)
}

// List returns one page of the list under a record: a *Page[Comment] for
// CommentsService (GET /{recordType}/{alias}/{id}/comment), a
// *Page[Watcher] for WatchersService (GET
// /{recordType}/{alias}/{id}/watchers) and a *Page[RelatedItem] for
// RelatedService (GET /{recordType}/{alias}/{id}/related-items), with the
// paging fields of opts (nil for the service's first page), answered with
// the paged list envelope. The service publishes no filter for these
// lists: a Filter is a *ValidationError, and nothing is sent.
func (l *recordList[T]) List(ctx context.Context, t RecordType, alias, id string, opts *ListOptions, reqOpts ...RequestOption) (*Page[T], error) {
	return requestPage[T](ctx, l.client, l.at(t, alias, id), opts, reqOpts, nil)
}

// Pages walks the list under a record page by page from where opts
// points, with List's requests (GET /{recordType}/{alias}/{id}/comment,
// GET /{recordType}/{alias}/{id}/watchers or GET
// /{recordType}/{alias}/{id}/related-items): pages of Comment for
// CommentsService, of Watcher for WatchersService, of RelatedItem for
// RelatedService. See
// RecordsService.Pages for direction, laziness, errors and prefetching.
func (l *recordList[T]) Pages(ctx context.Context, t RecordType, alias, id string, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[*Page[T], error] {
	return walkPages[T](ctx, l.client, l.at(t, alias, id), opts, reqOpts)
}

// All iterates over every item of the list under a record from where opts
// points, with List's requests (GET /{recordType}/{alias}/{id}/comment,
// GET /{recordType}/{alias}/{id}/watchers or GET
// /{recordType}/{alias}/{id}/related-items): a Comment for
// CommentsService, a Watcher for WatchersService, a RelatedItem for
// RelatedService. Going backward, items come from the end of the list
// towards its start. To resume, pass an item's cursor (where it has one) or the page's
// Paging.EndCursor (from Pages) as ListOptions.After.
func (l *recordList[T]) All(ctx context.Context, t RecordType, alias, id string, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[T, error] {
	return walkItems[T](ctx, l.client, l.at(t, alias, id), opts, reqOpts)
}

// topList is a paged list of the workspace: its users or groups.
// UsersService and GroupsService embed it for their List, Pages and All.
type topList[T any] struct {
	client *Client
	list   op.ID // the list's operation
}

// List returns one page of the list, a *Page[User] for UsersService and a
// *Page[Group] for GroupsService: GET /users or GET /groups, with the
// paging options of opts (nil for the first page at the service's default
// size of 100) and, for users, its RSQL filter. The service publishes no
// filter for groups: a Filter there is a *ValidationError, and nothing is
// sent. Resume from the page's Paging.EndCursor (StartCursor going
// backward).
func (l *topList[T]) List(ctx context.Context, opts *ListOptions, reqOpts ...RequestOption) (*Page[T], error) {
	return requestPage[T](ctx, l.client, pathTo(l.list), opts, reqOpts, nil)
}

// Pages walks the list page by page from where opts points (GET /users or
// GET /groups, as List; each page a *Page[User] for UsersService, a
// *Page[Group] for GroupsService), forward
// by default, backward when opts.Last or opts.Before is set. See
// RecordsService.Pages for laziness, errors and prefetching.
func (l *topList[T]) Pages(ctx context.Context, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[*Page[T], error] {
	return walkPages[T](ctx, l.client, pathTo(l.list), opts, reqOpts)
}

// All iterates over every item of the list from where opts points (GET
// /users or GET /groups, as List; a User for UsersService, a Group for
// GroupsService), page after page (see Pages); going backward, items come from the end of the list towards its
// start.
func (l *topList[T]) All(ctx context.Context, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[T, error] {
	return walkItems[T](ctx, l.client, pathTo(l.list), opts, reqOpts)
}

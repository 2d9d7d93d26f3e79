package workflowtest

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"net/http"
	"slices"
	"sort"
	"strconv"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// Page sizes of the record list (and of every paged list of the fake).
const (
	minPageSize     = 1
	maxPageSize     = 1000
	defaultPageSize = 100
)

// A cursor is the position of an item in its list's insertion order (its
// sequence number), not an index, so it stays valid while items are
// added; plus a hash of the list and the filter that produced it, so that
// a cursor cannot be used with another list or filter. It is sent as
// unpadded base64url of 16 bytes.
const cursorLen = 16

func encodeCursor(seq, key uint64) string {
	var b [cursorLen]byte
	binary.BigEndian.PutUint64(b[:8], seq)
	binary.BigEndian.PutUint64(b[8:], key)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func decodeCursor(s string, key uint64) (uint64, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != cursorLen {
		return 0, errors.New("malformed cursor")
	}
	if binary.BigEndian.Uint64(b[8:]) != key {
		return 0, errors.New("the cursor was made by another list or another filter")
	}
	return binary.BigEndian.Uint64(b[:8]), nil
}

// listKey identifies a list and a filter for the cursors.
func listKey(list string, filter rsql.Expr) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(list))
	_, _ = h.Write([]byte{0})
	writeCanonical(h, filter)
	return h.Sum64()
}

// paging is the parsed paging and filter query of a list request.
type paging struct {
	n         int
	backward  bool
	cursor    uint64 // after (forward) or before (backward)
	hasCursor bool
	key       uint64
	match     matcher // nil: every item
}

// readPaging reads the paging query of a list that takes the parameters
// names (first/after/last/before, and filter when it has one). list
// names the list for the cursors. The parsed filter is stored on rq for
// the request log.
func readPaging(rq *request, list string, names []string) (*paging, *httpError) {
	q := rq.query
	if e := knownParams(q, names); e != nil {
		return nil, e
	}
	p := &paging{n: defaultPageSize}
	if text := q.Get("filter"); text != "" {
		rq.log.FilterText = text
		var err error
		if rq.log.Filter, err = rsql.Parse(text); err == nil {
			p.match, err = compile(rq.log.Filter)
		}
		var rule *rsql.RuleError
		switch {
		case errors.As(err, &rule): // well formed, but breaks a rule of the language
			return nil, errf(http.StatusUnprocessableEntity, "unusable filter %q: %v", text, err)
		case err != nil:
			return nil, errf(http.StatusBadRequest, "invalid filter %q: %v", text, err)
		}
	}
	p.key = listKey(list, rq.log.Filter)
	for _, name := range []string{"first", "last"} {
		if vs, given := q[name]; given {
			n, err := strconv.Atoi(vs[0])
			if err != nil || n < minPageSize || n > maxPageSize {
				return nil, errf(http.StatusBadRequest, "%s must be an integer from %d to %d (got %q)", name, minPageSize, maxPageSize, vs[0])
			}
			p.n = n
		}
	}
	name := "after"
	if q.Has("last") || q.Has("before") {
		if q.Has("first") || q.Has("after") {
			return nil, errf(http.StatusBadRequest, "first/after (forward) and last/before (backward) must not be mixed")
		}
		p.backward, name = true, "before"
	}
	if raw := q.Get(name); raw != "" {
		seq, err := decodeCursor(raw, p.key)
		if err != nil {
			return nil, errf(http.StatusBadRequest, "invalid %s cursor %q: %v", name, raw, err)
		}
		p.cursor, p.hasCursor = seq, true
	} else if q.Has(name) {
		return nil, errf(http.StatusBadRequest, "%s must not be empty", name)
	}
	return p, nil
}

// pageResult is a selected page.
type pageResult[T any] struct {
	items            []T
	total            int
	hasPrev, hasNext bool
}

// selectPage picks the page p points at from items, which are sorted by
// seq: those that p's filter matches (every item is tested once, the
// total needs it). The record lists, which may hold millions, go through
// the index of each filter's matches instead (definition.selectRecords).
func selectPage[T any](items []T, seq func(T) uint64, fields func(T) map[string]string, p *paging) pageResult[T] {
	if p.match != nil {
		items = slices.DeleteFunc(slices.Clone(items), func(it T) bool { return !p.match(fields(it)) })
	}
	return pageOf(len(items), func(k int) T { return items[k] }, seq, p)
}

// pageOf picks the page p points at from the n items that p's filter
// matches, the k-th of them at(k), sorted by seq: a binary search and the
// page's items.
func pageOf[T any](n int, at func(k int) T, seq func(T) uint64, p *paging) pageResult[T] {
	lo, hi := 0, n
	switch {
	case p.backward && p.hasCursor:
		hi = sort.Search(n, func(k int) bool { return seq(at(k)) >= p.cursor })
	case p.hasCursor:
		lo = sort.Search(n, func(k int) bool { return seq(at(k)) > p.cursor })
	}
	if p.backward {
		lo = max(hi-p.n, 0)
	} else {
		hi = min(lo+p.n, n)
	}
	res := pageResult[T]{items: make([]T, hi-lo), total: n, hasPrev: lo > 0, hasNext: hi < n}
	for k := range res.items {
		res.items[k] = at(lo + k)
	}
	return res
}

// listPage answers the page of items that the paging query of rq points
// at, each item as item makes it (given its cursor). The query takes the
// parameters of the operation in the table (a filter, on fields, where
// the service publishes one), or first/after/last/before where it
// publishes none (related items: the fake pages them as the record
// list). list names the list for the cursors.
func listPage[T any](rq *request, list string, items []T, seq func(T) uint64, fields func(T) map[string]string, item func(T, string) any) response {
	return listSelected(rq, list, func(p *paging) pageResult[T] { return selectPage(items, seq, fields, p) }, seq, item)
}

// listSelected is listPage with the page selected by sel: the record
// lists select through their filters' indexes (definition.selectRecords).
func listSelected[T any](rq *request, list string, sel func(*paging) pageResult[T], seq func(T) uint64, item func(T, string) any) response {
	names := rq.rt.op.Op().Query
	if len(names) == 0 {
		names = pagingParams[:4]
	}
	p, e := readPaging(rq, list, names)
	if e != nil {
		return fail(e)
	}
	res := sel(p)
	out := pagedList{Items: make([]any, len(res.items)), Total: res.total}
	for i, it := range res.items {
		cursor := encodeCursor(seq(it), p.key)
		out.Items[i] = item(it, cursor)
		if i == 0 {
			out.Paging.StartCursor = cursor
		}
		out.Paging.EndCursor = cursor
	}
	out.Paging.HasNextPage, out.Paging.HasPreviousPage = res.hasNext, res.hasPrev
	return reply(http.StatusOK, out)
}

// plain is the item of a Paged<X> list: the object alone.
func plain[T any](data func(T) any) func(T, string) any {
	return func(t T, _ string) any { return data(t) }
}

package workflowtest

import "fmt"

// The paged lists of a record's related items, watchers and comments are
// the service's Paged<X>: the items are the objects themselves (a related
// item carries its own "cursor" member, watchers and comments none), with
// "total" and "paging" as in the record list. Paging parameters, cursors
// and page selection are those of the record list; a filter is refused,
// since the service publishes none for these lists.

// noFields is the field map of items that are never filtered.
func noFields[T any](T) map[string]string { return nil }

// subList is the body of a Paged<X> list.
type subList struct {
	Items  []any        `json:"items"`
	Total  int          `json:"total"`
	Paging pagingStatus `json:"paging"`
}

// buildSubList turns a selected page into the response body; item is
// called with the lock still held, with the item's cursor.
func buildSubList[T any](res pageResult[T], p *paging, seq func(T) uint64, item func(T, string) any) subList {
	out := subList{Items: make([]any, len(res.items)), Total: res.total}
	for i, it := range res.items {
		cursor := encodeCursor(seq(it), p.key)
		out.Items[i] = item(it, cursor)
		if i == 0 {
			out.Paging.StartCursor = cursor
		}
		out.Paging.EndCursor = cursor
	}
	out.Paging.HasNextPage, out.Paging.HasPreviousPage = res.hasNext, res.hasPrev
	return out
}

// seqUUID returns a fixed-form UUID (version 4 layout) whose first hex
// digit names the kind of object and whose last twelve count them, so ids
// are deterministic and recognisable: seqUUID('c', 1) is
// "c0000000-0000-4000-8000-000000000001".
func seqUUID(kind byte, n uint64) string {
	return fmt.Sprintf("%c0000000-0000-4000-8000-%012x", kind, n)
}

// The kinds of seqUUID.
const (
	uuidUser    = '0' // users: DefaultUserID is the first
	uuidGroup   = '1' // groups
	uuidWatch   = 'a' // watches (a watcher's own id)
	uuidComment = 'c' // comments
	uuidDomain  = 'd' // the domains of dynamic groups
)

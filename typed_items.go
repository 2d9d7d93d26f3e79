package workflow

import (
	"context"
	"errors"
	"iter"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Item is one decoded record of a typed list, with the cursor of its
// position: pass Cursor as ListOptions.After (Before, going backward) to
// resume right after (before) it.
type Item[T any] struct {
	Value  T      // the decoded record
	Cursor string // opaque position of the record in the list
}

// AllItemsAs iterates over the records like RecordsService.All, decoding
// each into a new T (a struct type, see Decode, or a pointer to one) and
// yielding it with its cursor, so that a long typed walk can save where it
// is and carry on later, in another process too:
//
//	for it, err := range workflow.AllItemsAs[Task](ctx, c.Records, workflow.Tasks, "it-requests", opts) {
//		if err != nil { ... }
//		handle(it.Value)
//		save(it.Cursor) // later: opts.After = saved cursor
//	}
//
// It walks the same pager as All (forward, or backward when Last or
// Before is set; prefetching with opts.Prefetch; reqOpts on every page
// request). A record that does not decode ends the iteration with a
// *DecodeError whose Cursor resumes after that record, yielded with the
// failing record's cursor and a zero Value; any other error is yielded
// once, with an empty Item.
func AllItemsAs[T any](ctx context.Context, s *RecordsService, t RecordType, alias string, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[Item[T], error] {
	return func(yield func(Item[T], error) bool) {
		for it, err := range walkItems[asItem[T]](ctx, s.client, recordPath(op.RecordList, t, alias), opts, reqOpts) {
			if err == nil && it.err != nil {
				if de, ok := errors.AsType[*DecodeError](it.err); ok {
					de.Cursor = it.Cursor
				}
				err = it.err
			}
			if err != nil {
				yield(Item[T]{Cursor: it.Cursor}, err)
				return
			}
			if !yield(it.Item, nil) {
				return
			}
		}
	}
}

// asItem is a list item decoded straight into T from the text of its
// record, with no Record in between. A record that does not decode keeps
// its error, so that the items before it on the page are still yielded.
type asItem[T any] struct {
	Item[T]
	err error
}

// UnmarshalJSONFrom reads the item as RecordItem's does.
func (it *asItem[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() == 'n' { // a null item decodes as a record without fields
		it.err = decodeTo(nil, nil, "", &it.Value)
	}
	return readItem(dec, it)
}

// fromText decodes the record's fields into Value (a null record has none).
func (it *asItem[T]) fromText(rt *recordText, _ bool, all, cursor string, hasCursor bool) {
	it.err = decodeTo(nil, rt, all, &it.Value)
	if hasCursor {
		it.Cursor = cursor
	}
}

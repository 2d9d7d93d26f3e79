package workflow

import (
	"context"
	"iter"
	"net/http"
	"slices"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// RecordType is the kind of a record: one of Apps, Elements, Tasks or
// Transactions. Any other value is rejected before a request is sent.
type RecordType string

// The record types of the service.
const (
	Apps         RecordType = "apps"
	Elements     RecordType = "elements"
	Tasks        RecordType = "tasks"
	Transactions RecordType = "transactions"
)

// Valid reports whether t is one of the four record types.
func (t RecordType) Valid() bool {
	return slices.Contains([]RecordType{Apps, Elements, Tasks, Transactions}, t)
}

// Validate returns nil when t is one of the four record types, and
// otherwise a *ValidationError of the field "record type" that says which
// values it takes. Every function of this module that takes a RecordType
// checks it so, before sending anything.
func (t RecordType) Validate() error {
	switch {
	case t.Valid():
		return nil
	case t == "":
		return invalid(fieldRecordType, "must not be empty (use Apps, Elements, Tasks or Transactions)")
	}
	return invalid(fieldRecordType, `must be one of "apps", "elements", "tasks", "transactions" (got "`+string(t)+`")`)
}

// Record is a record's fields: a flat map from field name to value, as the
// record type's definition names them. Dates and date-times are strings in
// the API's form (see FormatTime); use Decode and Encode to work with your
// own struct types instead.
type Record map[string]string

// RecordItem is one record of a list, with the cursor of its position:
// pass it as ListOptions.After (or Before, going backward) to resume right
// after (or before) it. Part of a list's envelope, it keeps its items (the
// record and the cursor), not unknown envelope members, when it is read
// and written again.
type RecordItem struct {
	Data   Record `json:"data"`   // the record's fields
	Cursor string `json:"cursor"` // opaque position of the item in the list
}

// RecordPage is one page of a record list (the spec's RecordPagedList).
type RecordPage = Page[RecordItem]

// RecordsService is the part of the API about records: Client.Records.
// The lists under a record are services of their own, with the same List,
// Pages and All as every paged list.
type RecordsService struct {
	client *Client
	// Comments lists and adds the comments on a record.
	Comments *CommentsService
	// Watchers lists, adds and removes the watchers of a record.
	Watchers *WatchersService
	// Related lists, adds and removes the items related to a record.
	Related *RelatedService
}

// List returns one page of the records of type t in the definition alias:
// GET /{recordType}/{alias}, with the paging options and filter of opts
// (nil for the first 100 records).
//
// Listing elements goes through /elements/{alias}. The service's
// interactive API explorer may resolve that path to a different operation
// (a lookup of the element definition by alias); a direct HTTP client such
// as this one reaches the record list.
func (s *RecordsService) List(ctx context.Context, t RecordType, alias string, opts *ListOptions, reqOpts ...RequestOption) (*RecordPage, error) {
	return requestPage[RecordItem](ctx, s.client, recordPath(op.RecordList, t, alias), opts, reqOpts, nil)
}

// Pages walks the records page by page (GET /{recordType}/{alias}, as
// List), starting where opts points (forward by default, backward when
// Last or Before is set). The iteration
// is lazy: nothing is requested until the loop starts. It stops without
// another request when the loop breaks, yields an error once and stops,
// and with opts.Prefetch fetches the next page while the loop body runs.
// opts is copied, never modified.
//
// A walk rides out an outage: when a page's request has used up its
// retry policy's attempts on failures that are retried (a 429 or 5xx, a
// lost connection, a body cut off; Temporary), the walk requests the same
// page again, from its own last cursor, after the policy's next wait, and
// goes on until RetryPolicy.MaxElapsed (2 minutes by default) has passed
// since it last received a page; OnRetry reports each wait. The error it
// yields has outlasted that: no restart loop is needed around it. A policy
// of one attempt ends the walk at the first failure.
//
// For exactly-once output across a kill, save a cursor only once the
// output before it is flushed to disk, with the output's size; on resume,
// cut the output back to that size and pass the cursor as After (the
// package documentation and examples/export show how).
func (s *RecordsService) Pages(ctx context.Context, t RecordType, alias string, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[*RecordPage, error] {
	return walkPages[RecordItem](ctx, s.client, recordPath(op.RecordList, t, alias), opts, reqOpts)
}

// All iterates over every record (GET /{recordType}/{alias}, as List)
// from where opts points, following the page cursors: forward (end_cursor, has_next_page) by default, backward
// (start_cursor, has_previous_page) when Last or Before is set, in which
// case records come from the end of the list towards its start. Each
// item's Cursor resumes the walk right after it (ListOptions.After, or
// Before going backward). See Pages for laziness, errors, prefetching, how
// a walk rides out an outage, and exactly-once output across a restart.
func (s *RecordsService) All(ctx context.Context, t RecordType, alias string, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[RecordItem, error] {
	return walkItems[RecordItem](ctx, s.client, recordPath(op.RecordList, t, alias), opts, reqOpts)
}

// Get returns one record: GET /{recordType}/{alias}/{id}. For elements
// this is also the documented GET /elements/{namespace}/{recordId}.
func (s *RecordsService) Get(ctx context.Context, t RecordType, alias, id string, reqOpts ...RequestOption) (Record, error) {
	return s.send(ctx, recordPath(op.GetRecord, t, alias, "id", id), nil, reqOpts)
}

// Create creates a record with the given fields and returns it as the
// service sent it back: POST /{recordType}/{alias}. Every field the
// definition marks as required must be present. The request body is the
// flat field map; the reply is the created record, the field map itself
// as the service publishes it (a reply wrapped as {"data": {...}} is
// accepted too).
//
// A create is not retried after a 5xx or a dropped connection, since the
// service may have created the record; it is retried after a 429.
func (s *RecordsService) Create(ctx context.Context, t RecordType, alias string, fields Record, reqOpts ...RequestOption) (Record, error) {
	return s.send(ctx, recordPath(op.CreateRecord, t, alias), fields, reqOpts)
}

// Update changes the given fields of a record and returns the record as
// the service sent it back: PUT /{recordType}/{alias}/{id}. Fields not in
// the map are left as they are. The reply is read as Create's.
func (s *RecordsService) Update(ctx context.Context, t RecordType, alias, id string, fields Record, reqOpts ...RequestOption) (Record, error) {
	return s.send(ctx, recordPath(op.UpdateRecord, t, alias, "id", id), fields, reqOpts)
}

// send sends a record request; fields, the body of a create or update,
// must not be empty.
func (s *RecordsService) send(ctx context.Context, r target, fields Record, reqOpts []RequestOption) (Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	var body any // a nil Record would be sent as the JSON body "null"
	if r.method != http.MethodGet {
		if len(fields) == 0 {
			return nil, invalid("fields", "must not be empty")
		}
		body = fields
	}
	var rec Record // stays nil when the call fails (decodeResource zeroes a bad answer)
	err := s.client.call(ctx, r, nil, body, reqOpts, record(&rec))
	return rec, err
}

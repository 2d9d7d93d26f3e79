package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// RelatedItem is a link from a record to another record.
//
// The spec does not show the fields of a related item. The typed fields
// below are an assumption: a JSON object
//
//	{"id": "<relationId>", "recordType": "elements", "alias": "parts", "recordId": "123"}
//
// where "id" identifies the relation itself (for RemoveRelatedItem) and the
// other three name the related record. Every other field the service sends
// is kept in Extra and written back when the item is encoded again. A
// modelled field whose value the typed field cannot hold exactly (a null,
// a number where a string is expected) is kept verbatim in Extra under its
// own name, as for User; ids sent as JSON numbers are read as their
// decimal text.
type RelatedItem struct {
	// ID identifies the relation, for RemoveRelatedItem. It is not the id
	// of the related record (that is RecordID).
	ID string
	// RecordType is the type of the related record.
	RecordType RecordType
	// Alias is the definition alias of the related record.
	Alias string
	// RecordID is the id of the related record.
	RecordID string
	// Extra holds every field of the service's JSON that the typed fields
	// do not model, and modelled fields whose value they cannot hold
	// exactly, as raw JSON.
	Extra map[string]json.RawMessage
}

// Ref returns the related record the item points to.
func (it RelatedItem) Ref() RelatedRef {
	return RelatedRef{RecordType: it.RecordType, Alias: it.Alias, RecordID: it.RecordID}
}

// relatedItemWire is the JSON object of a related item, and (with ID left
// out) the body that adds one. The JSON names of the related-item routes
// are all here.
type relatedItemWire struct {
	ID         json.RawMessage `json:"id,omitempty"`
	RecordType json.RawMessage `json:"recordType,omitempty"`
	Alias      json.RawMessage `json:"alias,omitempty"`
	RecordID   json.RawMessage `json:"recordId,omitempty"`
}

// UnmarshalJSON reads a related item; see RelatedItem for how unexpected
// values of the modelled fields are kept.
func (it *RelatedItem) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var w relatedItemWire
	extra, err := unmarshalExtra(data, &w)
	if err != nil {
		return err
	}
	*it = RelatedItem{}
	k := keeper{extra: extra}
	k.keep("id", readString(w.ID, &it.ID, true))
	k.keep("recordType", readString(w.RecordType, (*string)(&it.RecordType), false))
	k.keep("alias", readString(w.Alias, &it.Alias, false))
	k.keep("recordId", readString(w.RecordID, &it.RecordID, true))
	it.Extra = k.extra
	return nil
}

// MarshalJSON writes the related item with its Extra fields.
func (it RelatedItem) MarshalJSON() ([]byte, error) {
	w := relatedItemWire{
		ID:         writeString(it.ID, it.Extra["id"], true),
		RecordType: writeString(string(it.RecordType), it.Extra["recordType"], false),
		Alias:      writeString(it.Alias, it.Extra["alias"], false),
		RecordID:   writeString(it.RecordID, it.Extra["recordId"], true),
	}
	return marshalExtra(w, it.Extra)
}

// RelatedRef names a record to relate to another one: its type, its
// definition alias and its id.
type RelatedRef struct {
	RecordType RecordType
	Alias      string
	RecordID   string
}

// String returns "recordType/alias/recordID".
func (r RelatedRef) String() string {
	return string(r.RecordType) + "/" + r.Alias + "/" + r.RecordID
}

// validate checks the reference; field prefixes the field names in errors.
func (r RelatedRef) validate(field string) error {
	if !r.RecordType.Valid() {
		return invalid(field+".RecordType", `must be one of "apps", "elements", "tasks", "transactions" (got "`+string(r.RecordType)+`")`)
	}
	if strings.TrimSpace(r.Alias) == "" {
		return invalid(field+".Alias", "must not be blank")
	}
	if strings.TrimSpace(r.RecordID) == "" {
		return invalid(field+".RecordID", "must not be blank")
	}
	return nil
}

// body is the request body that adds r: {"recordType", "alias", "recordId"}.
func (r RelatedRef) body() relatedItemWire {
	str := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	return relatedItemWire{
		RecordType: str(string(r.RecordType)),
		Alias:      str(r.Alias),
		RecordID:   str(r.RecordID),
	}
}

// RelatedItems returns the items related to a record:
// GET /{recordType}/{alias}/{id}/related-items.
//
// The spec does not show the response; it is assumed to be a list of
// related items (see RelatedItem), sent as a bare JSON array or as an
// object whose "items" holds them. The spec shows no paging for this list:
// every item of the response is returned.
func (s *RecordsService) RelatedItems(ctx context.Context, t RecordType, alias, id string) ([]RelatedItem, error) {
	path, err := recordPath(t, alias, "id", id, "", "related-items")
	if err != nil {
		return nil, err
	}
	return listSubresource[RelatedItem](ctx, s.client, path)
}

// AddRelatedItem relates the record ref to a record:
// POST /{recordType}/{alias}/{id}/related-items. The service adds exactly
// one item per call; use AddRelatedItems for several.
//
// The spec does not show the body or the response. The body is assumed to
// be {"recordType": "...", "alias": "...", "recordId": "..."}, and the
// response (assumed 201) the created related item. When the service sends
// no body, the returned item holds ref with an empty ID.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have added the item; it is retried after a 429.
func (s *RecordsService) AddRelatedItem(ctx context.Context, t RecordType, alias, id string, ref RelatedRef) (*RelatedItem, error) {
	path, err := recordPath(t, alias, "id", id, "", "related-items")
	if err != nil {
		return nil, err
	}
	if err := ref.validate("ref"); err != nil {
		return nil, err
	}
	return s.addRelated(ctx, path, ref)
}

func (s *RecordsService) addRelated(ctx context.Context, path string, ref RelatedRef) (*RelatedItem, error) {
	req, err := s.client.newRequest(ctx, http.MethodPost, path, nil, ref.body())
	if err != nil {
		return nil, err
	}
	out := oneBody[RelatedItem]{v: RelatedItem{RecordType: ref.RecordType, Alias: ref.Alias, RecordID: ref.RecordID}}
	if _, err := s.client.do(req, &out); err != nil {
		return nil, err
	}
	return &out.v, nil
}

// AddRelatedItems relates several records to a record, one call of
// AddRelatedItem per ref, in order (the service adds one item per call).
//
// Every ref is checked before the first request; one that is invalid is a
// *ValidationError and nothing is sent. A ref the service refuses does not
// stop the others. The items that were added are returned in the order of
// refs, and if any ref failed the error is a *RelatedItemsError listing
// each failed ref with its index and cause, so a partial success is never
// silent. When ctx ends, the refs not yet sent are listed as failed with
// ctx's error and are not sent.
//
// A ref whose request failed without an answer (a dropped connection) may
// have been added by the service nevertheless; check with RelatedItems
// before adding it again.
func (s *RecordsService) AddRelatedItems(ctx context.Context, t RecordType, alias, id string, refs ...RelatedRef) ([]RelatedItem, error) {
	path, err := recordPath(t, alias, "id", id, "", "related-items")
	if err != nil {
		return nil, err
	}
	if ctx == nil {
		return nil, invalid("ctx", "must not be nil")
	}
	if len(refs) == 0 {
		return nil, invalid("refs", "must name at least one record")
	}
	for i, ref := range refs {
		if err := ref.validate("refs[" + strconv.Itoa(i) + "]"); err != nil {
			return nil, err
		}
	}
	var (
		added  []RelatedItem
		failed []RelatedItemFailure
	)
	for i, ref := range refs {
		if err := ctx.Err(); err != nil {
			failed = append(failed, RelatedItemFailure{Index: i, Ref: ref, Err: err})
			continue
		}
		it, err := s.addRelated(ctx, path, ref)
		if err != nil {
			failed = append(failed, RelatedItemFailure{Index: i, Ref: ref, Err: err})
			continue
		}
		added = append(added, *it)
	}
	if len(failed) > 0 {
		return added, &RelatedItemsError{Total: len(refs), Failures: failed}
	}
	return added, nil
}

// RelatedItemsError is returned by AddRelatedItems when some refs could not
// be added. The items that were added are returned beside it.
type RelatedItemsError struct {
	// Total is the number of refs AddRelatedItems was given.
	Total int
	// Failures lists the refs that were not added, in the order given.
	Failures []RelatedItemFailure
}

// RelatedItemFailure is one ref that AddRelatedItems could not add.
type RelatedItemFailure struct {
	Index int        // position of the ref in the call's arguments
	Ref   RelatedRef // the ref itself
	Err   error      // why it failed (an *APIError, a transport error, ctx's error)
}

// Error lists every failed ref and its cause on one line.
func (e *RelatedItemsError) Error() string {
	var b strings.Builder
	b.WriteString("workflow: ")
	b.WriteString(strconv.Itoa(len(e.Failures)))
	b.WriteString(" of ")
	b.WriteString(strconv.Itoa(e.Total))
	b.WriteString(" related items not added")
	for i, f := range e.Failures {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString("refs[")
		b.WriteString(strconv.Itoa(f.Index))
		b.WriteString("] ")
		b.WriteString(f.Ref.String())
		b.WriteString(": ")
		b.WriteString(f.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause of every failure, so that errors.Is and
// errors.As look at each of them (errors.Is(err, ErrNotFound) is true when
// any ref was not found).
func (e *RelatedItemsError) Unwrap() []error {
	errs := make([]error, len(e.Failures))
	for i, f := range e.Failures {
		errs[i] = f.Err
	}
	return errs
}

// RemoveRelatedItem removes a relation from a record:
// DELETE /{recordType}/{alias}/{id}/related-items/{relationId}, where
// relationID is the ID of a RelatedItem (not the related record's id). Any
// success status (assumed 204) is accepted, its body ignored.
func (s *RecordsService) RemoveRelatedItem(ctx context.Context, t RecordType, alias, id, relationID string) error {
	path, err := recordPath(t, alias, "id", id, "", "related-items", "relationID", relationID)
	if err != nil {
		return err
	}
	req, err := s.client.newRequest(ctx, http.MethodDelete, path, nil, nil)
	if err != nil {
		return err
	}
	_, err = s.client.do(req, nil)
	return err
}

// listSubresource fetches a list that belongs to a record (related items,
// watchers, comments). Their shape is not shown; listBody
// accepts a bare array, {"items": [...]} and the paged shape.
func listSubresource[T any](ctx context.Context, c *Client, path string) ([]T, error) {
	req, err := c.newRequest(ctx, http.MethodGet, path, nil, nil)
	if err != nil {
		return nil, err
	}
	var lb listBody[T]
	if _, err := c.do(req, &lb); err != nil {
		return nil, err
	}
	if lb.page.Items == nil {
		return []T{}, nil
	}
	return lb.page.Items, nil
}

// oneBody is a single object in a response: the object itself, or the
// same wrapped as {"data": {...}}. An empty or null body leaves v as it
// was, so callers can preset what an empty answer means.
type oneBody[T any] struct{ v T }

func (b *oneBody[T]) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	return json.Unmarshal(unwrapData(data), &b.v)
}

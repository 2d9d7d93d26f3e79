package workflow

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// RecordType returns the record type of Type, compared without regard to
// case ("TASK" is Tasks, "APP" is Apps, "ELEMENT" is Elements,
// "TRANSACTION" is Transactions; the plural forms are accepted too), and
// false for any other kind. With Alias and ID it names the related record
// for RecordsService.Get.
func (it RelatedItem) RecordType() (RecordType, bool) {
	singular := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(it.Type)), "s")
	if t := RecordType(singular + "s"); t.Valid() {
		return t, true
	}
	return "", false
}

// Ref returns the reference that relates the same record again.
func (it RelatedItem) Ref() RelatedRef {
	r := RelatedRef{ID: it.ID}
	if it.Alias != "" {
		r.Alias = &it.Alias
	}
	return r
}

// String returns "alias/id", or the id alone when Alias is empty.
func (r RelatedRef) String() string {
	if valueOf(r.Alias) == "" {
		return r.ID
	}
	return *r.Alias + "/" + r.ID
}

// checkRef checks a reference; field prefixes the field names in errors.
func checkRef(field string, r RelatedRef) error {
	switch {
	case strings.TrimSpace(r.ID) == "":
		return invalid(field+".ID", "must not be blank")
	case r.Alias != nil && strings.TrimSpace(*r.Alias) == "":
		return invalid(field+".Alias", "must be empty or not blank")
	}
	return nil
}

// RelatedService is the part of the API about the items related to a
// record: Client.Records.Related.
type RelatedService struct{ recordList[RelatedItem] }

// Add relates the record ref names to a record:
// POST /{recordType}/{alias}/{id}/related-items with {"id", "alias"}. The
// service answers 201 with no body; any 2xx is success and a body, if one
// comes, is ignored. The service adds exactly one item per call; use
// AddMany for several.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have added the item; it is retried after a 429.
func (s *RelatedService) Add(ctx context.Context, t RecordType, alias, id string, ref RelatedRef, reqOpts ...RequestOption) error {
	r := recordPath(op.CreateRecordRelatedItems, t, alias, "id", id)
	r.err = cmp.Or(r.err, checkRef("ref", ref))
	return s.client.call(ctx, r, nil, ref, reqOpts, reply{})
}

// AddMany relates several records to a record, one
// POST /{recordType}/{alias}/{id}/related-items per ref, in order (the
// service adds one item per call).
//
// Every ref is checked before the first request; one that is invalid is a
// *ValidationError and nothing is sent. A ref the service refuses does not
// stop the others. When any ref was not added, the error is a
// *RelatedItemsError listing each failed ref with its index and cause;
// every ref it does not list was added, so a partial success is never
// silent. When ctx ends, the refs not yet sent are listed as failed with
// ctx's error and are not sent.
//
// A ref whose request failed without an answer (a dropped connection) may
// have been added by the service nevertheless; check with All
// before adding it again.
func (s *RelatedService) AddMany(ctx context.Context, t RecordType, alias, id string, refs []RelatedRef, reqOpts ...RequestOption) error {
	r := recordPath(op.CreateRecordRelatedItems, t, alias, "id", id)
	if err := cmp.Or(r.err, checkCtx(ctx)); err != nil {
		return err
	}
	if len(refs) == 0 {
		return invalid("refs", "must name at least one record")
	}
	for i, ref := range refs {
		if err := checkRef("refs["+strconv.Itoa(i)+"]", ref); err != nil {
			return err
		}
	}
	if _, err := s.client.callConfig(reqOpts); err != nil {
		return err
	}
	var failed []RelatedItemFailure
	for i, ref := range refs {
		err := ctx.Err()
		if err == nil {
			err = s.client.call(ctx, r, nil, ref, reqOpts, reply{})
		}
		if err != nil {
			failed = append(failed, RelatedItemFailure{Index: i, Ref: ref, Err: err})
		}
	}
	if len(failed) > 0 {
		return &RelatedItemsError{Total: len(refs), Failures: failed}
	}
	return nil
}

// RelatedItemsError is returned by RelatedService.AddMany when some refs could not
// be added. Every ref it does not list was added.
type RelatedItemsError struct {
	// Total is the number of refs AddMany was given.
	Total int
	// Failures lists the refs that were not added, in the order given.
	Failures []RelatedItemFailure
}

// RelatedItemFailure is one ref that AddMany could not add.
type RelatedItemFailure struct {
	Index int        // position of the ref in refs
	Ref   RelatedRef // the ref itself
	Err   error      // why it failed (an *APIError, a transport error, ctx's error)
}

// Error lists every failed ref by its index, and its cause, on one line.
// The refs themselves (the request bodies) are left out: see Failures.
func (e *RelatedItemsError) Error() string {
	parts := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		parts[i] = fmt.Sprintf("refs[%d]: %s", f.Index, causeText(fmt.Sprint(f.Err)))
	}
	return fmt.Sprintf("workflow: %d of %d related items not added: %s", len(e.Failures), e.Total, strings.Join(parts, "; "))
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

// Remove removes an item from a record's related items:
// DELETE /{recordType}/{alias}/{id}/related-items/{itemId}. The service
// calls itemId "the ID of the related item"; the items it lists carry the
// related record's id as their id, so relatedID is RelatedItem.ID, the id
// of the related record (for example "TSK-4"). The service answers 200
// with no body; any 2xx is success and a body, if one comes, is ignored.
func (s *RelatedService) Remove(ctx context.Context, t RecordType, alias, id, relatedID string, reqOpts ...RequestOption) error {
	return s.client.call(ctx, recordPath(op.DeleteRecordRelatedItems, t, alias, "id", id, "relatedID", relatedID), nil, nil, reqOpts, reply{})
}

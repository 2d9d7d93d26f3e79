package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// Creates that happen once. The API takes no idempotency key, so a create
// whose answer is lost (a 5xx, a dropped connection, a time-out) may have
// made the object or not. A family whose objects the API can find by a
// natural key (a user's e-mail, a view's handle in its app, a table's
// handle, ...) is created through createOnce: the object of that key is
// looked up first and adopted when it exists (an earlier apply made it and
// its answer was lost, a destroy forgot it, or someone made it by hand);
// a create whose outcome is unknown is followed by another look-up before
// anything is sent again. Nothing is created twice, and nothing is left
// half-known.

// createTries bounds how many creates createOnce sends when each outcome
// is unknown and each look-up after it finds nothing.
const createTries = 3

// createOnce returns the object that what (its family and natural key, in
// words: `agent "Helper" of the app crm-accounts`) names: the one find
// finds, adopted with adopt (which writes the configuration over it; nil
// keeps it as found) and a warning naming it, or else a new one made by
// create. After a create that failed, find looks again: an object it finds
// is adopted as well; when none is found, a create whose outcome was
// unknown is sent again, up to createTries creates, and any other failure
// is returned.
func createOnce[T any](ctx context.Context, d *diag.Diagnostics, what string,
	find func() (*T, error), create func() (*T, error), adopt func(*T) (*T, error)) (*T, error) {
	adopted := func(t *T, why string) (*T, error) {
		if adopt != nil {
			var err error
			if t, err = adopt(t); err != nil {
				return nil, fmt.Errorf("the %s already exists (%s), and taking it over failed: %w", what, why, err)
			}
		}
		d.AddWarning("Adopted the existing "+what,
			"The "+what+" already existed ("+why+"): it was not created again. It is now in the state, "+
				"as the configuration says.")
		return t, nil
	}
	t, err := find()
	if err != nil {
		return nil, fmt.Errorf("looking up the %s before creating it: %w", what, err)
	}
	if t != nil {
		return adopted(t, "made outside this state, by hand or by an apply whose answer was lost, or forgotten by a destroy")
	}
	for try := 1; ; try++ {
		t, err := create()
		if err == nil {
			return t, nil
		}
		found, ferr := find()
		if ferr != nil {
			return nil, fmt.Errorf("%w; and looking the %s up after it: %w", err, what, ferr)
		}
		if found != nil {
			return adopted(found, "the create's answer was lost, or it was made meanwhile")
		}
		if !workflow.OutcomeUnknown(err) || try == createTries || pause(ctx, try) != nil {
			return nil, err
		}
	}
}

// againAfter is the wait before the second send of createOnce and resend;
// each later one waits as much again more. (A var: tests set it to 0.)
var againAfter = 500 * time.Millisecond

// pause waits before the send after try, or until ctx ends.
func pause(ctx context.Context, try int) error {
	t := time.NewTimer(time.Duration(try) * againAfter)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// each is the items of a list read whole, as a walk's sequence.
func each[T any](items []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for _, t := range items {
			if !yield(t, nil) {
				return
			}
		}
	}
}

// errSeveral is the error of a look-up by a natural key that finds more
// than one object: which to manage is for the user to say, by import.
var errSeveral = errors.New("several objects have it: name the one meant by its id (an import block, or the id itself)")

// only returns the one item of all that match accepts, nil when none
// does, and an error naming what when several do.
func only[T any](all iter.Seq2[T, error], match func(T) bool, what string) (*T, error) {
	var found *T
	for item, err := range all {
		if err != nil {
			return nil, err
		}
		if !match(item) {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("%s: %w", what, errSeveral)
		}
		found = &item
	}
	return found, nil
}

// resend calls send, a request that may be sent again whatever the
// service made of it (a deactivation, a validation), again after a
// failure whose outcome is unknown, up to createTries times: the SDK
// sends a POST again only after a 429.
func resend(ctx context.Context, send func() error) error {
	for try := 1; ; try++ {
		err := send()
		if err == nil || !workflow.OutcomeUnknown(err) || try == createTries || pause(ctx, try) != nil {
			return err
		}
	}
}

// blind explains err, the failure of a create of a family the API cannot
// look up by a natural key (apps, flows, search tables, organisation
// domains), when its outcome is unknown: the object may exist, and it is
// not sent again, for that could make a second one.
func blind(what, importAs string, err error) error {
	if !workflow.OutcomeUnknown(err) {
		return err
	}
	return fmt.Errorf("%w\n\nThe outcome of the create is unknown: the %s may have been made. The API cannot look a %s up "+
		"by what the configuration says, so the create is not sent again (that could make a second one). Check the "+
		"workspace: if the %s exists, import it (an import block with id = %s); if it does not, apply again", err, what, what, what, importAs)
}

package upsert

import (
	"context"
	"errors"
	"strconv"
	"time"

	"golang.org/x/time/rate"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// Defaults and bounds of Options.
const (
	DefaultBatchSize   = 200  // keys per look-up
	DefaultConcurrency = 8    // most requests in flight
	DefaultWindow      = 1000 // most inputs held at once
	DefaultMaxCreates  = 4    // creates of one input whose outcome is unknown
	// MaxLookupQuery is the longest query string, URL-encoded, of a
	// look-up: a batch holds fewer keys when they would make it longer,
	// so that no proxy or server refuses the request line.
	MaxLookupQuery = 4000
	// maxColonKeys bounds the keys containing ':' in one look-up: the rsql
	// printer writes each as its own == alternative, and a filter holds
	// at most 256 comparisons.
	maxColonKeys = 200
)

// ErrDuplicateKey is the error of an input whose key more than one record
// of the service holds: Records cannot tell which one to update, and
// changes none of them.
var ErrDuplicateKey = errors.New("upsert: more than one record has this key")

// Options configures Records. Only KeyField is required.
type Options struct {
	// KeyField is the field that identifies a record in the caller's
	// world (an external id, an e-mail address, a SKU): every input must
	// have it, with a non-empty value, and no two inputs may share it.
	KeyField string
	// IDField is the field of a record that holds the service's record
	// id, used to update it. Empty means "id". An input's own IDField is
	// ignored: never compared, never sent.
	IDField string
	// DryRun looks every input up and reports what Records would do
	// (Created, Updated with the Changed fields, Unchanged, Failed)
	// without sending any create or update.
	DryRun bool
	// BatchSize is the most keys looked up with one request, 1 to 1000
	// (the page size limit). Zero means DefaultBatchSize. A batch is
	// also cut where its query string would pass MaxLookupQuery bytes.
	BatchSize int
	// MaxConcurrency is the most requests in flight at once. Zero means
	// DefaultConcurrency. The adaptive limit stays at or below it.
	MaxConcurrency int
	// Window is the most inputs held in memory at once (read, not yet
	// reported). Zero means DefaultWindow, or BatchSize if larger.
	Window int
	// MaxCreates is the most create requests sent for one input: a create
	// whose outcome is unknown is looked up, and sent again only when the
	// record is absent. Zero means DefaultMaxCreates. (How often one
	// request is retried after a 429 or a server error is the client's
	// retry policy: give workflow.WithMaxAttempts or WithRetryPolicy among
	// the request options.)
	MaxCreates int
	// Limiter, if set, is waited for before every request Records sends
	// (retries included), as a fixed ceiling under the adaptive limit (for
	// a rate limit the caller knows, or shares with other work).
	Limiter *rate.Limiter
	// Clock, if set, is the clock the adaptive limit keeps its time by
	// (time.Now and timers otherwise): it reads the time from it and
	// waits on it, to pace requests, after a 503's Retry-After, and
	// nowhere else. On it, requests take no time: a wait first lets the
	// requests in flight end (in real time), then sleeps. The limit
	// decides as on the real clock (cuts, probes, pacing), in the time
	// Clock keeps. Summary.Elapsed is measured on it. A test of a sync
	// against workflowtest passes its server, whose Sleep moves the
	// server's clock instead of waiting, here and as the client's
	// workflow.RetryPolicy.Sleep: a sync with 429s then costs what its
	// requests cost, and the server's rate limit and Retry-After are kept
	// in the same time.
	Clock Clock
	// OnResult, if set, is called with the outcome of each input, in the
	// order the outcomes become known (not the input order), one call at
	// a time, from the goroutine that called Records.
	OnResult func(Result)
	// OnProgress, if set, is called after each OnResult with the running
	// totals, from the same goroutine.
	OnProgress func(Summary)

	// seeLimiter, when set (by this package's tests), is given the
	// limiter of the run.
	seeLimiter func(*adaptiveLimiter)
}

// Clock is a source of time that can also wait (see Options.Clock).
// *workflowtest.Server is one.
type Clock interface {
	// Now returns the clock's time.
	Now() time.Time
	// Sleep returns once d has passed on the clock, or with ctx's error
	// when ctx ends first.
	Sleep(ctx context.Context, d time.Duration) error
}

// Action is what Records did with one input.
type Action int

// The outcomes of an input. With DryRun, Created and Updated say what
// Records would have done.
const (
	Failed    Action = iota // the input was not synced; see Err
	Created                 // no record had the key: one was created
	Updated                 // the record with the key differed: its changed fields were sent
	Unchanged               // the record with the key had the input's values: nothing was sent
	// NotAttempted: Records stopped, for the cause it returns (ctx ended,
	// or the service refused the credentials or the definition), before
	// anything was changed for the input; Err is nil.
	NotAttempted
)

// String returns "failed", "created", "updated", "unchanged" or "not
// attempted".
func (a Action) String() string {
	switch a {
	case Created:
		return "created"
	case Updated:
		return "updated"
	case Unchanged:
		return "unchanged"
	case Failed:
		return "failed"
	case NotAttempted:
		return "not attempted"
	}
	return "Action(" + strconv.Itoa(int(a)) + ")"
}

// Result is the outcome of one input.
type Result struct {
	Index  int    // position of the input, from 0
	Key    string // its key ("" when it had none)
	Action Action // what Records did
	// ID is the id of the service's record: the one created, updated or
	// found unchanged ("" when failed, or for a dry-run create).
	ID string
	// Record is the record as the service returned it after the create
	// or update, or as found (unchanged, and in a dry run); nil on
	// failure or for a dry-run create.
	Record workflow.Record
	// Changed names the fields an update sent (or would send), sorted.
	Changed []string
	// Recovered is set on a create whose answer was lost (a server error
	// or a dropped connection) and that a look-up then found done.
	Recovered bool
	// Err is why the input failed: a *workflow.ValidationError naming the
	// input's position for bad input, an error wrapping ErrDuplicateKey, a
	// *workflow.APIError, or a transport or context error. It is nil
	// unless Action is Failed.
	Err error
}

// Summary holds the totals of Records.
type Summary struct {
	Read      int // inputs read
	Created   int // inputs created (or that would be, in a dry run)
	Updated   int // inputs updated (or that would be)
	Unchanged int // inputs that needed nothing
	Failed    int // inputs that failed
	// NotAttempted counts the inputs left alone because Records stopped.
	NotAttempted int
	DryRun       bool // whether nothing was written
	// Requests counts the attempts Records sent, the client's retries
	// included: look-ups, re-checks, creates and updates.
	Requests int
	// Batches counts the batches of keys looked up.
	Batches int
	// Lookups counts the attempts of look-ups: one per page of each batch,
	// retries, and the re-checks of creates whose answer was lost.
	Lookups int
	// Rechecks counts the creates whose answer was lost and that were
	// looked up again before anything else was sent for them.
	Rechecks int
	// Throttled counts the 429 answers; Overloaded the 502, 503 and 504
	// answers. Each slowed Records down.
	Throttled  int
	Overloaded int
	// FailedRequests counts the attempts that did not succeed, for any
	// reason (429s and server errors included).
	FailedRequests int
	Elapsed        time.Duration // time from the start of Records
}

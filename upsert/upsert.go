// Package upsert makes the records of a definition match a stream of
// inputs by a key field: batched look-ups, creates and updates of changed
// fields only, concurrency that adapts to the service's rate limit, and a
// look-up before creating again when the answer to a create was lost,
// instead of creating it again (Records says precisely what is
// guaranteed). It is built on the exported API of package workflow only.
package upsert

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/check"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// Records makes the records of type t in the definition alias match
// records: for each input it looks up the record whose KeyField has the
// input's key value, creates it when there is none, updates it when a
// field of the input differs (sending only the differing fields), and
// sends nothing when none does. Fields of the record that the input does
// not have are left as they are. An empty input value equals an absent
// field.
//
// Requests: look-ups are batched (s.All with the filter KeyField=in=(keys),
// up to BatchSize keys and MaxLookupQuery bytes of query, every page
// followed); creates are s.Create and updates s.Update, one per input.
// They run concurrently under an adaptive limit that sees every attempt
// (through workflow.WithAttemptHook): requests in flight grow while the
// service answers, halve on 502, 503 and 504; the rate of requests is cut
// on a 429 to just under the rate the service accepted over the last
// second, and then probes upward; a 429's Retry-After holds back the
// request it answered, a 503's pauses every request once. The client
// retries each request by its retry policy (the client's, or the one
// reqOpts give), as it retries any call: a 429, a server error of a
// look-up or an update, a connection refused. A client-wide limiter
// (workflow.WithRateLimit) and Options.Limiter still apply. reqOpts apply
// to every request Records sends; a WithAttemptHook among them is replaced
// by Records' own.
//
// Memory stays bounded for any number of inputs: at most Window inputs
// are held, plus a 64-bit hash and the position of each key read (a few
// tens of bytes per key), to detect duplicates. Two different keys with
// the same hash (about one chance in 37 million among a million keys) would
// be reported as a duplicate, never silently merged.
//
// Exactly once. The API has no idempotency key, so a create whose answer
// is lost (workflow.OutcomeUnknown: a 5xx, a connection closed after the
// request was sent, an unreadable answer) may or may not have happened.
// Records then looks the key up before anything else: it reports the
// record as created (Recovered) when found, and creates again only when
// absent, at most MaxCreates creates in all. Guaranteed: Records itself
// never creates two records with one key, provided the service's search
// shows a created record by the time of that look-up (read after write),
// and no one else creates records with those keys while it runs. Not
// guaranteed: with a search that lags behind writes, the look-up may miss
// the record just created and a duplicate follow; a writer outside
// Records can create a record between the look-up and the create; a create
// whose answer is lost when Records stops (cancellation, MaxCreates
// reached) is reported failed though it may exist. Running Records again
// with the same inputs repairs the last case: it is idempotent.
//
// Input errors fail only their input, before any request is sent for it:
// a nil or empty record, no KeyField, an empty key value (each a
// *workflow.ValidationError whose Field names the position, e.g.
// "records[7].Email"), and a key seen earlier in the input (the first
// occurrence is synced; each later one fails: streaming, the first may be
// sent before the second is read). An input whose key more than one
// record of the service holds fails with ErrDuplicateKey; those records
// are left alone. Other inputs proceed. Options that are invalid or
// conflict return a *workflow.ValidationError and send nothing.
//
// Records returns when every input read has been reported. It returns an
// error only when it could not go on: ctx ended (no goroutine is left
// behind), or the service refused the credentials or the definition (401,
// 403, a failed token request, a 404 or a request refused before sending
// on a look-up, a 404 on a create), which ends the sync. The cause is
// returned once: the inputs it left alone are reported NotAttempted, with
// no error of their own; an input whose write was in flight and whose
// outcome is unknown is reported Failed with its own error. Failed inputs
// alone are not an error: see Summary.Failed and OnResult.
//
// The input sequence is read from one goroutine, once, and may be
// unbounded; reading stops early when Records stops.
func Records(ctx context.Context, s *workflow.RecordsService, t workflow.RecordType, alias string, records iter.Seq[workflow.Record], opts *Options, reqOpts ...workflow.RequestOption) (*Summary, error) {
	if records == nil {
		return nil, invalid("records", "must not be nil (the inputs to sync)")
	}
	return run(ctx, s, t, alias, func(yield func(workflow.Record, error) bool) {
		for r := range records {
			if !yield(r, nil) {
				return
			}
		}
	}, opts, reqOpts)
}

// RecordsAs is Records for values of a struct type T (or pointers to
// one), each encoded with workflow.Encode. A value that does not encode
// fails as a *workflow.ValidationError naming its position, with nothing
// sent for it.
func RecordsAs[T any](ctx context.Context, s *workflow.RecordsService, t workflow.RecordType, alias string, values iter.Seq[T], opts *Options, reqOpts ...workflow.RequestOption) (*Summary, error) {
	if values == nil {
		return nil, invalid("values", "must not be nil (the inputs to sync)")
	}
	return run(ctx, s, t, alias, func(yield func(workflow.Record, error) bool) {
		for v := range values {
			r, err := workflow.Encode(v)
			if !yield(r, err) {
				return
			}
		}
	}, opts, reqOpts)
}

// invalid is the *workflow.ValidationError of field breaking rule.
var invalid = check.Invalid[workflow.ValidationError]

// item is an input on its way through Records.
type item struct {
	index    int
	key      string
	fields   workflow.Record // the input, without its IDField
	existing workflow.Record // the service's record with the key, if found
	id       string
	sent     bool // a write was sent for it
}

// task is a unit of work: a look-up of a batch, or the write of one item.
type task struct {
	batch []*item
	item  *item
}

type syncer struct {
	reqCtx   context.Context // the caller's, for the requests
	svc      *workflow.RecordsService
	ropts    []workflow.RequestOption // the caller's
	rt       workflow.RecordType
	alias    string
	o        Options
	lim      *adaptiveLimiter
	tasks    chan task
	results  chan Result
	cancel   context.CancelCauseFunc
	fatalMu  sync.Mutex
	fatal    error
	requests atomic.Int64
	lookups  atomic.Int64
	rechecks atomic.Int64
	failedRq atomic.Int64
	throttle atomic.Int64
	overload atomic.Int64
}

// validate fills in the defaults of o and checks it.
func (o *Options) validate() (Options, error) {
	if o == nil {
		return Options{}, invalid("Options.KeyField", "must not be empty")
	}
	v := *o
	if v.IDField == "" {
		v.IDField = "id"
	}
	switch {
	case v.KeyField == "":
		return v, invalid("Options.KeyField", "must not be empty")
	case v.KeyField == v.IDField:
		return v, invalid("Options.KeyField", "must not be the IDField ("+strconv.Quote(v.IDField)+"): the service assigns ids, use Get or Update to work by id")
	case v.BatchSize < 0 || v.BatchSize > workflow.MaxPageSize:
		return v, invalid("Options.BatchSize", "must be between 1 and 1000 (got "+strconv.Itoa(v.BatchSize)+")")
	case v.MaxConcurrency < 0:
		return v, invalid("Options.MaxConcurrency", "must not be negative")
	case v.Window < 0:
		return v, invalid("Options.Window", "must not be negative")
	case v.MaxCreates < 0:
		return v, invalid("Options.MaxCreates", "must not be negative")
	}
	if err := rsql.Field(v.KeyField).Eq("x").Validate(); err != nil {
		return v, &workflow.ValidationError{Field: "Options.KeyField", Rule: "must be usable in a filter", Err: err}
	}
	if v.BatchSize == 0 {
		v.BatchSize = DefaultBatchSize
	}
	if v.MaxConcurrency == 0 {
		v.MaxConcurrency = DefaultConcurrency
	}
	if v.MaxCreates == 0 {
		v.MaxCreates = DefaultMaxCreates
	}
	if v.Window == 0 {
		v.Window = max(DefaultWindow, v.BatchSize)
	} else if v.Window < v.BatchSize {
		if o.BatchSize != 0 {
			return v, invalid("Options.Window", "must not be less than BatchSize ("+strconv.Itoa(v.BatchSize)+")")
		}
		v.BatchSize = v.Window
	}
	return v, nil
}

func run(ctx context.Context, s *workflow.RecordsService, t workflow.RecordType, alias string, in iter.Seq2[workflow.Record, error], opts *Options, reqOpts []workflow.RequestOption) (*Summary, error) {
	now := time.Now
	if opts != nil && opts.Clock != nil {
		now = opts.Clock.Now
	}
	start := now()
	switch {
	case ctx == nil:
		return nil, invalid("ctx", "must not be nil")
	case s == nil:
		return nil, invalid("s", "must not be nil (use the client's Records)")
	case !t.Valid():
		return nil, t.Validate()
	case alias == "":
		return nil, invalid("alias", "must not be empty")
	}
	o, err := opts.validate()
	if err != nil {
		return nil, err
	}
	// ctx ends when the sync stops: no request starts after that, but the
	// requests in flight run on under the caller's context, so that their
	// outcome is known.
	reqCtx := ctx
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	e := &syncer{
		reqCtx:  reqCtx,
		svc:     s,
		ropts:   slices.Clip(reqOpts),
		rt:      t,
		alias:   alias,
		o:       o,
		lim:     newAdaptiveLimiter(o.MaxConcurrency, min(initialConc, o.MaxConcurrency), now),
		tasks:   make(chan task, 2*o.Window+1),
		results: make(chan Result, o.Window),
		cancel:  cancel,
	}
	if o.Clock != nil {
		e.lim.sleep = o.Clock.Sleep
	}
	if o.seeLimiter != nil {
		o.seeLimiter(e.lim)
	}
	sum := &Summary{DryRun: o.DryRun}
	var wg sync.WaitGroup
	for range o.MaxConcurrency * 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tk := range e.tasks {
				if tk.item != nil {
					e.write(ctx, tk.item)
				} else {
					e.lookup(ctx, tk.batch)
				}
			}
		}()
	}
	defer func() {
		close(e.tasks)
		wg.Wait()
	}()

	inflight := 0
	report := func(r Result) {
		inflight--
		switch r.Action {
		case Created:
			sum.Created++
		case Updated:
			sum.Updated++
		case Unchanged:
			sum.Unchanged++
		case NotAttempted:
			sum.NotAttempted++
		default:
			sum.Failed++
		}
		e.totals(sum, start)
		if o.OnResult != nil {
			o.OnResult(r)
		}
		if o.OnProgress != nil {
			o.OnProgress(*sum)
		}
	}
	seed := maphash.MakeSeed()
	seen := map[uint64]int{}
	var (
		batch      []*item
		batchQuery int
		colonKeys  int
	)
	base := lookupQueryBase(o.KeyField)
	flush := func() {
		if len(batch) > 0 {
			sum.Batches++
			e.tasks <- task{batch: batch}
			batch, batchQuery, colonKeys = nil, base, 0
		}
	}
	batchQuery = base

	next, stop := iter.Pull2(in)
	defer stop()
	done := false
	for !done || inflight > 0 {
		// Report what is done first, then read while the window allows.
		select {
		case r := <-e.results:
			report(r)
			continue
		default:
		}
		if ctx.Err() != nil && !done {
			done = true
			stop()
		}
		if done || inflight >= o.Window {
			// A partial batch is sent only when nothing else is in flight
			// that could free room in the window: otherwise waiting for a
			// result lets it fill up.
			if done || len(batch) == inflight {
				flush()
			}
			if inflight == 0 {
				break
			}
			report(<-e.results)
			continue
		}
		rec, encErr, ok := next()
		if !ok {
			done = true
			flush()
			continue
		}
		idx := sum.Read
		sum.Read++
		inflight++
		it, verr := e.prepare(idx, rec, encErr)
		if verr == nil {
			h := maphash.String(seed, it.key)
			if first, dup := seen[h]; dup {
				verr = &workflow.ValidationError{Field: "records[" + strconv.Itoa(idx) + "]." + o.KeyField,
					Rule: "must be unique in the input: records[" + strconv.Itoa(first) + "] has the same key"} // not quoted: a key is users' data
			} else {
				seen[h] = idx
			}
		}
		if verr != nil {
			report(Result{Index: idx, Key: keyOf(rec, o.KeyField), Action: Failed, Err: verr})
			continue
		}
		cost, colon := lookupKeyCost(o.KeyField, it.key)
		if len(batch) > 0 && (len(batch) >= o.BatchSize || batchQuery+cost > MaxLookupQuery ||
			(colon && colonKeys >= maxColonKeys)) {
			flush()
		}
		batch = append(batch, it)
		batchQuery += cost
		if colon {
			colonKeys++
		}
	}
	e.totals(sum, start)
	if err := context.Cause(ctx); err != nil {
		if f := e.fatalErr(); f != nil {
			return sum, f
		}
		return sum, err
	}
	return sum, nil
}

func (e *syncer) totals(sum *Summary, start time.Time) {
	sum.Requests = int(e.requests.Load())
	sum.Lookups = int(e.lookups.Load())
	sum.Rechecks = int(e.rechecks.Load())
	sum.Throttled = int(e.throttle.Load())
	sum.Overloaded = int(e.overload.Load())
	sum.FailedRequests = int(e.failedRq.Load())
	sum.Elapsed = e.lim.now().Sub(start)
}

func keyOf(r workflow.Record, field string) string { return r[field] }

// prepare validates one input.
func (e *syncer) prepare(idx int, rec workflow.Record, encErr error) (*item, error) {
	pos := "records[" + strconv.Itoa(idx) + "]"
	if encErr != nil {
		var ve *workflow.ValidationError
		if errors.As(encErr, &ve) {
			return nil, &workflow.ValidationError{Field: pos + "." + ve.Field, Rule: ve.Rule, Err: ve.Err}
		}
		return nil, &workflow.ValidationError{Field: pos, Rule: "must encode as a record", Err: encErr}
	}
	if len(rec) == 0 {
		return nil, invalid(pos, "must have fields")
	}
	key, ok := rec[e.o.KeyField]
	switch {
	case !ok:
		return nil, invalid(pos+"."+e.o.KeyField, "must be present (the key field)")
	case key == "":
		return nil, invalid(pos+"."+e.o.KeyField, "must not be empty (the key field)")
	}
	fields := make(workflow.Record, len(rec))
	for k, v := range rec {
		if k != e.o.IDField {
			fields[k] = v
		}
	}
	return &item{index: idx, key: key, fields: fields}, nil
}

// lookupQueryBase is the length of a look-up's query string without keys.
func lookupQueryBase(field string) int {
	return len(url.Values{"filter": {field + "=in="}, "first": {strconv.Itoa(workflow.MaxPageSize)}}.Encode())
}

// lookupKeyCost is an upper bound of what one key adds to the encoded
// query of a look-up, and whether the key holds ':' (printed as its own
// == alternative).
func lookupKeyCost(field, key string) (int, bool) {
	text := rsql.Field(field).Eq(key).String()
	if strings.Contains(key, ":") {
		return len(url.QueryEscape(text)) + 3, true // ",field==key"
	}
	return len(url.QueryEscape(text)) - len(url.QueryEscape(field+"==")) + 3, false // ":key"
}

// call runs one call of the SDK (fn, with the context and the request
// options to give it) under the limits: each of its attempts, the client's
// retries included, waits for the adaptive limiter and Options.Limiter,
// and none starts once ctx, the sync's, has ended; each reports its
// outcome to the limiter and the counters. *sent, if sent is not nil, is
// set once an attempt starts.
func (e *syncer) call(ctx context.Context, lookup bool, sent *bool, fn func(context.Context, []workflow.RequestOption) error) error {
	var limErr error // the wait for Options.Limiter that ended the call
	hook := workflow.WithAttemptHook(func(context.Context) (func(workflow.AttemptResult), error) {
		t, err := e.lim.acquire(ctx)
		if err != nil {
			return nil, err
		}
		if limErr = waitLimiter(ctx, e.o.Limiter); limErr != nil {
			e.lim.release(t, outcomeOK, 0)
			return nil, limErr
		}
		if sent != nil {
			*sent = true
		}
		return func(r workflow.AttemptResult) {
			e.requests.Add(1)
			if lookup {
				e.lookups.Add(1)
			}
			o := outcomeOK
			switch r.StatusCode {
			case http.StatusTooManyRequests:
				o = outcomeThrottled
				e.throttle.Add(1)
			case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
				o = outcomeOverloaded
				e.overload.Add(1)
			}
			if r.Err != nil || r.StatusCode >= 400 {
				e.failedRq.Add(1)
			}
			e.lim.release(t, o, r.RetryAfter)
		}, nil
	})
	err := fn(e.reqCtx, append(e.ropts, hook))
	if err != nil && limErr != nil {
		return limErr
	}
	return err
}

// errLimiterDeadline is a wait for Options.Limiter that would pass ctx's
// deadline: it matches context.DeadlineExceeded, as the client's own
// limiter's does.
var errLimiterDeadline = fmt.Errorf("upsert: waiting for Options.Limiter would pass the context's deadline: %w", context.DeadlineExceeded)

func waitLimiter(ctx context.Context, l *rate.Limiter) error {
	if l == nil {
		return nil
	}
	err := l.Wait(ctx)
	if _, ok := ctx.Deadline(); ok && err != nil && ctx.Err() == nil {
		return errLimiterDeadline
	}
	return err
}

// stop reports whether err ends this input's work for a cause that is not
// the input's: ctx ended, or err ends the whole sync (the credentials or
// the definition were refused), which stops every worker. definition says
// whether the request named the definition only (a look-up or a create),
// so that a 404 means it does not exist; refused says whether a request
// refused before sending is the sync's fault (a look-up, whose request is
// made of the sync's own arguments).
func (e *syncer) stop(ctx context.Context, err error, definition, refused bool) bool {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	if fatal(err, definition, refused) {
		e.fatalMu.Lock()
		if e.fatal == nil {
			e.fatal = err
		}
		e.fatalMu.Unlock()
		e.cancel(err)
		return true
	}
	return false
}

// fatal reports whether err ends the whole sync; see stop.
func fatal(err error, definition, refused bool) bool {
	var (
		auth *workflow.AuthError
		ve   *workflow.ValidationError
	)
	return errors.Is(err, workflow.ErrUnauthorized) || errors.Is(err, workflow.ErrForbidden) || errors.As(err, &auth) ||
		definition && errors.Is(err, workflow.ErrNotFound) || refused && errors.As(err, &ve)
}

func (e *syncer) fatalErr() error {
	e.fatalMu.Lock()
	defer e.fatalMu.Unlock()
	return e.fatal
}

// halted is the result of an item whose write ended with err, for a cause
// not its own: when the sync stopped, not attempted if nothing was sent
// for it or the service refused it for that cause, failed if a write in
// flight may have been done.
func halted(ctx context.Context, it *item, err error, definition bool) Result {
	if ctx.Err() != nil && (!it.sent || fatal(err, definition, false)) {
		return Result{Action: NotAttempted}
	}
	return Result{Err: err}
}

// find looks keys up (every page) and returns the service's records by key.
// Only records whose key field equals a key exactly are kept (the service
// may compare numbers as numbers).
func (e *syncer) find(ctx context.Context, keys []string) (map[string][]workflow.Record, error) {
	vals := make([]any, len(keys))
	want := make(map[string]bool, len(keys))
	for i, k := range keys {
		vals[i] = k
		want[k] = true
	}
	opts := &workflow.ListOptions{First: workflow.MaxPageSize, Filter: rsql.Field(e.o.KeyField).In(vals...)}
	found := map[string][]workflow.Record{}
	err := e.call(ctx, true, nil, func(ctx context.Context, ropts []workflow.RequestOption) error {
		for it, err := range e.svc.All(ctx, e.rt, e.alias, opts, ropts...) {
			if err != nil {
				return err
			}
			if k, ok := it.Data[e.o.KeyField]; ok && want[k] {
				found[k] = append(found[k], it.Data)
			}
		}
		return nil
	})
	if err != nil {
		e.stop(ctx, err, true, true)
		return nil, err
	}
	return found, nil
}

// lookup looks a batch up and sends each item on: its result, or its write.
func (e *syncer) lookup(ctx context.Context, batch []*item) {
	keys := make([]string, len(batch))
	for i, it := range batch {
		keys[i] = it.key
	}
	found, err := e.find(ctx, keys)
	if err != nil {
		r := Result{Err: err}
		if ctx.Err() != nil {
			r = Result{Action: NotAttempted}
		}
		for _, it := range batch {
			r.Index, r.Key = it.index, it.key
			e.results <- r
		}
		return
	}
	for _, it := range batch {
		recs := found[it.key]
		switch len(recs) {
		case 0:
			if e.o.DryRun {
				e.results <- Result{Index: it.index, Key: it.key, Action: Created}
				continue
			}
		case 1:
			it.existing, it.id = recs[0], recs[0][e.o.IDField]
			changed := changedFields(it.fields, it.existing)
			switch {
			case len(changed) == 0:
				e.results <- Result{Index: it.index, Key: it.key, Action: Unchanged, ID: it.id, Record: it.existing}
				continue
			case it.id == "":
				e.results <- Result{Index: it.index, Key: it.key, Err: fmt.Errorf("upsert: the record with this %s has no %q field to update it by: %w", e.o.KeyField, e.o.IDField, workflow.ErrUnexpectedResponse)}
				continue
			case e.o.DryRun:
				e.results <- Result{Index: it.index, Key: it.key, Action: Updated, ID: it.id, Record: it.existing, Changed: changed}
				continue
			}
		default:
			e.results <- Result{Index: it.index, Key: it.key, Err: e.duplicates(recs)}
			continue
		}
		e.tasks <- task{item: it}
	}
}

func (e *syncer) duplicates(recs []workflow.Record) error {
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = strconv.Quote(r[e.o.IDField])
	}
	return fmt.Errorf("%w: %d records have this %s (ids %s)", ErrDuplicateKey, len(recs), e.o.KeyField, strings.Join(ids, ", "))
}

// changedFields returns the sorted names of the fields of in whose value
// differs from rec's (an absent field counts as empty).
func changedFields(in, rec workflow.Record) []string {
	var out []string
	for k, v := range in {
		if rec[k] != v {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// write creates or updates one item and reports its result.
func (e *syncer) write(ctx context.Context, it *item) {
	var r Result
	if it.existing == nil {
		r = e.create(ctx, it)
	} else {
		r = e.update(ctx, it)
	}
	r.Index, r.Key = it.index, it.key
	e.results <- r
}

func (e *syncer) update(ctx context.Context, it *item) Result {
	changed := changedFields(it.fields, it.existing)
	send := make(workflow.Record, len(changed))
	for _, k := range changed {
		send[k] = it.fields[k]
	}
	var rec workflow.Record
	err := e.call(ctx, false, &it.sent, func(ctx context.Context, ropts []workflow.RequestOption) error {
		var err error
		rec, err = e.svc.Update(ctx, e.rt, e.alias, it.id, send, ropts...)
		return err
	})
	if err != nil {
		if e.stop(ctx, err, false, false) {
			return halted(ctx, it, err, false)
		}
		return Result{Err: err}
	}
	return Result{Action: Updated, ID: it.id, Record: rec, Changed: changed}
}

// create creates one item, exactly once: after an answer that leaves the
// outcome unknown, the key is looked up before anything else is sent.
func (e *syncer) create(ctx context.Context, it *item) Result {
	for creates := 1; ; creates++ {
		var rec workflow.Record
		err := e.call(ctx, false, &it.sent, func(ctx context.Context, ropts []workflow.RequestOption) error {
			var err error
			rec, err = e.svc.Create(ctx, e.rt, e.alias, it.fields, ropts...)
			return err
		})
		switch {
		case err == nil:
			return Result{Action: Created, ID: rec[e.o.IDField], Record: rec}
		case e.stop(ctx, err, true, false):
			return halted(ctx, it, err, true)
		case !workflow.OutcomeUnknown(err):
			return Result{Err: err}
		case creates >= e.o.MaxCreates:
			return Result{Err: fmt.Errorf("upsert: the outcome of creating the record is unknown after %d creates (run the sync again to settle it): %w", creates, err)}
		}
		// The record may exist: look before creating again.
		e.rechecks.Add(1)
		found, ferr := e.find(ctx, []string{it.key})
		if ferr != nil {
			return Result{Err: fmt.Errorf("upsert: the outcome of creating the record is unknown (%s) and looking it up failed (run the sync again to settle it): %w", strings.TrimPrefix(err.Error(), "workflow: "), ferr)}
		}
		switch recs := found[it.key]; len(recs) {
		case 0: // not created: create again
		case 1:
			return Result{Action: Created, ID: recs[0][e.o.IDField], Record: recs[0], Recovered: true}
		default:
			return Result{Err: e.duplicates(recs)}
		}
	}
}

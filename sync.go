package workflow

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"math/rand/v2"
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

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// Defaults and bounds of SyncOptions.
const (
	DefaultSyncBatchSize   = 200  // keys per look-up
	DefaultSyncConcurrency = 8    // most requests in flight
	DefaultSyncWindow      = 1000 // most inputs held at once
	DefaultSyncMaxAttempts = 8    // tries per input
	// MaxSyncLookupQuery is the longest query string, URL-encoded, of a
	// look-up: a batch holds fewer keys when they would make it longer,
	// so that no proxy or server refuses the request line.
	MaxSyncLookupQuery = 4000
	// maxColonKeys bounds the keys containing ':' in one look-up: the rsql
	// printer writes each as its own == alternative, and a filter holds
	// at most 256 comparisons.
	maxColonKeys = 200
)

// ErrDuplicateKey is the error of an input whose key more than one record
// of the service holds: Sync cannot tell which one to update, and changes
// none of them.
var ErrDuplicateKey = errors.New("workflow: more than one record has this key")

// SyncOptions configures RecordsService.Sync. Only KeyField is required.
type SyncOptions struct {
	// KeyField is the field that identifies a record in the caller's
	// world (an external id, an e-mail address, a SKU): every input must
	// have it, with a non-empty value, and no two inputs may share it.
	KeyField string
	// IDField is the field of a record that holds the service's record
	// id, used to update it. Empty means "id". An input's own IDField is
	// ignored: never compared, never sent.
	IDField string
	// DryRun looks every input up and reports what Sync would do
	// (Created, Updated with the Changed fields, Unchanged, Failed)
	// without sending any create or update.
	DryRun bool
	// BatchSize is the most keys looked up with one request, 1 to 1000
	// (the page size limit). Zero means DefaultSyncBatchSize. A batch is
	// also cut where its query string would pass MaxSyncLookupQuery bytes.
	BatchSize int
	// MaxConcurrency is the most requests in flight at once. Zero means
	// DefaultSyncConcurrency. The adaptive limit stays at or below it.
	MaxConcurrency int
	// Window is the most inputs held in memory at once (read, not yet
	// reported). Zero means DefaultSyncWindow, or BatchSize if larger.
	Window int
	// MaxAttempts is the most tries of one input's requests (429s,
	// server errors, lost answers) before it fails. Zero means
	// DefaultSyncMaxAttempts.
	MaxAttempts int
	// Limiter, if set, is waited for before every request Sync sends, as
	// a fixed ceiling under the adaptive limit (for a rate limit the
	// caller knows, or shares with other work).
	Limiter *rate.Limiter
	// OnResult, if set, is called with the outcome of each input, in the
	// order the outcomes become known (not the input order), one call at
	// a time, from the goroutine that called Sync.
	OnResult func(SyncResult)
	// OnProgress, if set, is called after each OnResult with the running
	// totals, from the same goroutine.
	OnProgress func(SyncSummary)
}

// SyncAction is what Sync did with one input.
type SyncAction int

// The outcomes of an input. With DryRun, Created and Updated say what Sync
// would have done.
const (
	SyncFailed    SyncAction = iota // the input was not synced; see Err
	SyncCreated                     // no record had the key: one was created
	SyncUpdated                     // the record with the key differed: its changed fields were sent
	SyncUnchanged                   // the record with the key had the input's values: nothing was sent
)

// String returns "failed", "created", "updated" or "unchanged".
func (a SyncAction) String() string {
	switch a {
	case SyncCreated:
		return "created"
	case SyncUpdated:
		return "updated"
	case SyncUnchanged:
		return "unchanged"
	case SyncFailed:
		return "failed"
	}
	return "SyncAction(" + strconv.Itoa(int(a)) + ")"
}

// SyncResult is the outcome of one input of Sync.
type SyncResult struct {
	Index  int        // position of the input, from 0
	Key    string     // its key ("" when it had none)
	Action SyncAction // what Sync did
	// ID is the id of the service's record: the one created, updated or
	// found unchanged ("" when failed, or for a dry-run create).
	ID string
	// Record is the record as the service returned it after the create
	// or update, or as found (unchanged, and in a dry run); nil on
	// failure or for a dry-run create.
	Record Record
	// Changed names the fields an update sent (or would send), sorted.
	Changed []string
	// Recovered is set on a create whose answer was lost (a server error
	// or a dropped connection) and that a look-up then found done.
	Recovered bool
	// Err is why the input failed: a *ValidationError naming the input's
	// position for bad input, an error wrapping ErrDuplicateKey, an
	// *APIError, or a transport or context error.
	Err error
}

// SyncSummary holds the totals of a Sync.
type SyncSummary struct {
	Read      int  // inputs read
	Created   int  // inputs created (or that would be, in a dry run)
	Updated   int  // inputs updated (or that would be)
	Unchanged int  // inputs that needed nothing
	Failed    int  // inputs that failed
	DryRun    bool // whether nothing was written
	// Requests counts the API requests Sync sent, retries included:
	// look-ups, re-checks, creates and updates.
	Requests int
	// Batches counts the batches of keys looked up.
	Batches int
	// Lookups counts the look-up requests: a request per page of each
	// batch, retries, and the re-checks of creates whose answer was lost.
	Lookups int
	// Rechecks counts the creates whose answer was lost and that were
	// looked up again before anything else was sent for them.
	Rechecks int
	// Throttled counts the 429 answers; Overloaded the 502, 503 and 504
	// answers. Each slowed Sync down.
	Throttled  int
	Overloaded int
	// FailedRequests counts the requests that did not succeed, for any
	// reason (429s and server errors included).
	FailedRequests int
	Elapsed        time.Duration // time from the start of Sync
}

// Sync makes the records of type t in the definition alias match records:
// for each input it looks up the record whose KeyField has the input's key
// value, creates it when there is none, updates it when a field of the
// input differs (sending only the differing fields), and sends nothing
// when none does. Fields of the record that the input does not have are
// left as they are. An empty input value equals an absent field.
//
// Requests: look-ups are batched (GET /{recordType}/{alias} with the
// filter KeyField=in=(keys), up to BatchSize keys and MaxSyncLookupQuery
// bytes of query, every page followed); creates are POST and updates PUT,
// one per input. They run concurrently under an adaptive limit: requests
// in flight grow while the service answers, halve on 502, 503 and 504;
// the rate of requests is cut sharply on a 429 and then probes upward
// slowly; a Retry-After pauses every request once. Sync's requests are
// not retried by the client's RetryPolicy (OnRetry does not see them):
// Sync retries them itself, at most MaxAttempts tries per input, so that
// every 429 reaches the adaptive limit. Waits between tries after a
// server error or a lost answer (full jitter from 100ms, doubling, at most
// 5s) use the client's RetryPolicy.Sleep, so tests can skip them. A
// client-wide limiter (WithRateLimit) and SyncOptions.Limiter still apply.
// reqOpts apply to every request Sync sends (look-ups, creates, updates),
// except that each is sent in one attempt whatever they say.
//
// Memory stays bounded for any number of inputs: at most Window inputs
// are held, plus a 64-bit hash and the position of each key read (a few
// tens of bytes per key), to detect duplicates. Two different keys with
// the same hash (about one chance in 37 million among a million keys) would be
// reported as a duplicate, never silently merged.
//
// Exactly once. The API has no idempotency key, so a create whose answer
// is lost (a 5xx, a connection closed after the request was sent, an
// unreadable answer) may or may not have happened. Sync then looks the key
// up before anything else: it reports the record as created (Recovered)
// when found, and creates again only when absent. Guaranteed: Sync itself
// never creates two records with one key, provided the service's search
// shows a created record by the time of that look-up (read after write),
// and no one else creates records with those keys while Sync runs. Not
// guaranteed: with a search that lags behind writes, the look-up may miss
// the record just created and a duplicate follow; a writer outside Sync
// can create a record between the look-up and the create; a create whose
// answer is lost when Sync stops (cancellation, MaxAttempts reached) is
// reported failed though it may exist. Running Sync again with the same
// inputs repairs the last case: Sync is idempotent.
//
// Input errors fail only their input, before any request is sent for it:
// a nil or empty record, no KeyField, an empty key value (each a
// *ValidationError whose Field names the position, e.g.
// "records[7].Email"), and a key seen earlier in the input (the first
// occurrence is synced; each later one fails: streaming, the first may be
// sent before the second is read). An input whose key more than one
// record of the service holds fails with ErrDuplicateKey; those records
// are left alone. Other inputs proceed. Options that are invalid or
// conflict return a *ValidationError and send nothing.
//
// Sync returns when every input read has been reported. It returns an
// error only when it could not go on: ctx ended (inputs not done are
// reported failed with ctx's error; no goroutine is left behind), or the
// service refused the credentials or the definition (401, 403, or 404 on
// a look-up or create), which ends the sync. Failed inputs alone are not
// an error: see SyncSummary.Failed and OnResult.
//
// The input sequence is read from one goroutine, once, and may be
// unbounded; reading stops early when Sync stops.
func (s *RecordsService) Sync(ctx context.Context, t RecordType, alias string, records iter.Seq[Record], opts *SyncOptions, reqOpts ...RequestOption) (*SyncSummary, error) {
	return s.syncInputs(ctx, t, alias, func(yield func(Record, error) bool) {
		if records == nil {
			return
		}
		for r := range records {
			if !yield(r, nil) {
				return
			}
		}
	}, opts, reqOpts)
}

// SyncAs is RecordsService.Sync for values of a struct type T (or pointers
// to one), each encoded with Encode. A value that does not encode fails as
// a *ValidationError naming its position, with nothing sent for it.
func SyncAs[T any](ctx context.Context, s *RecordsService, t RecordType, alias string, values iter.Seq[T], opts *SyncOptions, reqOpts ...RequestOption) (*SyncSummary, error) {
	return s.syncInputs(ctx, t, alias, func(yield func(Record, error) bool) {
		if values == nil {
			return
		}
		for v := range values {
			r, err := Encode(v)
			if !yield(r, err) {
				return
			}
		}
	}, opts, reqOpts)
}

// syncItem is an input on its way through Sync.
type syncItem struct {
	index    int
	key      string
	fields   Record // the input, without its IDField
	existing Record // the service's record with the key, if found
	id       string
	attempts int
}

// syncTask is a unit of work: a look-up of a batch, or the write of one
// item.
type syncTask struct {
	batch []*syncItem
	item  *syncItem
}

type syncer struct {
	svc      *RecordsService
	ropts    []RequestOption // the caller's, then one attempt per request
	rt       RecordType
	alias    string
	path     string
	o        SyncOptions
	lim      *adaptiveLimiter
	sleep    func(context.Context, time.Duration) error
	tasks    chan syncTask
	results  chan SyncResult
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
func (o *SyncOptions) validate() (SyncOptions, error) {
	if o == nil {
		return SyncOptions{}, invalid("SyncOptions.KeyField", "must not be empty")
	}
	v := *o
	if v.IDField == "" {
		v.IDField = "id"
	}
	switch {
	case v.KeyField == "":
		return v, invalid("SyncOptions.KeyField", "must not be empty")
	case v.KeyField == v.IDField:
		return v, invalid("SyncOptions.KeyField", "must not be the IDField ("+strconv.Quote(v.IDField)+"): the service assigns ids, use Get or Update to work by id")
	case v.BatchSize < 0 || v.BatchSize > MaxPageSize:
		return v, invalid("SyncOptions.BatchSize", "must be between 1 and 1000 (got "+strconv.Itoa(v.BatchSize)+")")
	case v.MaxConcurrency < 0:
		return v, invalid("SyncOptions.MaxConcurrency", "must not be negative")
	case v.Window < 0:
		return v, invalid("SyncOptions.Window", "must not be negative")
	case v.MaxAttempts < 0:
		return v, invalid("SyncOptions.MaxAttempts", "must not be negative")
	}
	if err := rsql.Field(v.KeyField).Eq("x").Validate(); err != nil {
		return v, &ValidationError{Field: "SyncOptions.KeyField", Rule: "must be usable in a filter", Err: err}
	}
	if v.BatchSize == 0 {
		v.BatchSize = DefaultSyncBatchSize
	}
	if v.MaxConcurrency == 0 {
		v.MaxConcurrency = DefaultSyncConcurrency
	}
	if v.MaxAttempts == 0 {
		v.MaxAttempts = DefaultSyncMaxAttempts
	}
	if v.Window == 0 {
		v.Window = max(DefaultSyncWindow, v.BatchSize)
	} else if v.Window < v.BatchSize {
		if o.BatchSize != 0 {
			return v, invalid("SyncOptions.Window", "must not be less than BatchSize ("+strconv.Itoa(v.BatchSize)+")")
		}
		v.BatchSize = v.Window
	}
	return v, nil
}

func (s *RecordsService) syncInputs(ctx context.Context, t RecordType, alias string, in iter.Seq2[Record, error], opts *SyncOptions, reqOpts []RequestOption) (*SyncSummary, error) {
	start := time.Now()
	if ctx == nil {
		return nil, invalid("ctx", "must not be nil")
	}
	path, err := recordPath(t, alias)
	if err != nil {
		return nil, err
	}
	o, err := opts.validate()
	if err != nil {
		return nil, err
	}
	// Each request is sent once by the client: Sync retries by itself, so
	// that every 429 and 5xx reaches its adaptive limit, and so that a
	// create is never resent blindly. This option comes last, so it wins
	// over an attempt budget among the caller's.
	ropts := append(slices.Clip(reqOpts), WithMaxAttempts(1))
	if _, err := newRequestConfig(ropts, s.client.retry); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	e := &syncer{
		svc:     s,
		ropts:   ropts,
		rt:      t,
		alias:   alias,
		path:    path,
		o:       o,
		lim:     newAdaptiveLimiter(o.MaxConcurrency, min(4, o.MaxConcurrency), nil),
		sleep:   s.client.retry.Sleep,
		tasks:   make(chan syncTask, 2*o.Window+1),
		results: make(chan SyncResult, o.Window),
		cancel:  cancel,
	}
	sum := &SyncSummary{DryRun: o.DryRun}
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
	report := func(r SyncResult) {
		inflight--
		switch r.Action {
		case SyncCreated:
			sum.Created++
		case SyncUpdated:
			sum.Updated++
		case SyncUnchanged:
			sum.Unchanged++
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
		batch      []*syncItem
		batchQuery int
		colonKeys  int
	)
	base := lookupQueryBase(o.KeyField)
	flush := func() {
		if len(batch) > 0 {
			sum.Batches++
			e.tasks <- syncTask{batch: batch}
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
				verr = &ValidationError{Field: "records[" + strconv.Itoa(idx) + "]." + o.KeyField,
					Rule: "must be unique in the input: records[" + strconv.Itoa(first) + "] has the same key " + strconv.Quote(it.key)}
			} else {
				seen[h] = idx
			}
		}
		if verr != nil {
			report(SyncResult{Index: idx, Key: keyOf(rec, o.KeyField), Action: SyncFailed, Err: verr})
			continue
		}
		cost, colon := lookupKeyCost(o.KeyField, it.key)
		if len(batch) > 0 && (len(batch) >= o.BatchSize || batchQuery+cost > MaxSyncLookupQuery ||
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

func (e *syncer) totals(sum *SyncSummary, start time.Time) {
	sum.Requests = int(e.requests.Load())
	sum.Lookups = int(e.lookups.Load())
	sum.Rechecks = int(e.rechecks.Load())
	sum.Throttled = int(e.throttle.Load())
	sum.Overloaded = int(e.overload.Load())
	sum.FailedRequests = int(e.failedRq.Load())
	sum.Elapsed = time.Since(start)
}

func keyOf(r Record, field string) string { return r[field] }

// prepare validates one input.
func (e *syncer) prepare(idx int, rec Record, encErr error) (*syncItem, error) {
	pos := "records[" + strconv.Itoa(idx) + "]"
	if encErr != nil {
		var ve *ValidationError
		if errors.As(encErr, &ve) {
			return nil, &ValidationError{Field: pos + "." + ve.Field, Rule: ve.Rule, Err: ve.Err}
		}
		return nil, &ValidationError{Field: pos, Rule: "must encode as a record", Err: encErr}
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
	fields := make(Record, len(rec))
	for k, v := range rec {
		if k != e.o.IDField {
			fields[k] = v
		}
	}
	return &syncItem{index: idx, key: key, fields: fields}, nil
}

// lookupQueryBase is the length of a look-up's query string without keys.
func lookupQueryBase(field string) int {
	return len(url.Values{"filter": {field + "=in="}, "first": {strconv.Itoa(MaxPageSize)}}.Encode())
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

// send runs one request under the limits and classifies its outcome.
func (e *syncer) send(ctx context.Context, fn func(context.Context) error) error {
	t, err := e.lim.acquire(ctx)
	if err != nil {
		return err
	}
	// As the client's limiter: a wait that would pass ctx's deadline
	// fails at once, matching context.DeadlineExceeded, and nothing is
	// sent.
	if err := waitLimiter(ctx, e.o.Limiter); err != nil {
		e.lim.release(t, outcomeOK, 0)
		return err
	}
	err = fn(ctx)
	if ctx.Err() == nil {
		e.requests.Add(1)
	}
	o, ra := outcomeOK, time.Duration(0)
	if err != nil {
		if ctx.Err() == nil {
			e.failedRq.Add(1)
		}
		var ae *APIError
		switch {
		case errors.As(err, &ae) && ae.StatusCode == http.StatusTooManyRequests:
			o, ra = outcomeThrottled, ae.RetryAfter
			e.throttle.Add(1)
		case errors.As(err, &ae) && (ae.StatusCode == http.StatusBadGateway ||
			ae.StatusCode == http.StatusServiceUnavailable || ae.StatusCode == http.StatusGatewayTimeout):
			o, ra = outcomeOverloaded, ae.RetryAfter
			e.overload.Add(1)
		}
	}
	e.lim.release(t, o, ra)
	return err
}

// errKind classifies a failed request.
type errKind int

const (
	errPermanent errKind = iota // the request is wrong: do not retry
	errRetry                    // retry the same request (429, not sent, idempotent 5xx)
	errUnknown                  // the request may have been acted on (for a create)
	errFatal                    // stop the whole sync
	errStop                     // ctx ended
)

func classifySync(ctx context.Context, err error) errKind {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errStop
	}
	var ae *APIError
	if errors.As(err, &ae) {
		switch {
		case ae.StatusCode == http.StatusTooManyRequests:
			return errRetry
		case ae.StatusCode == http.StatusUnauthorized || ae.StatusCode == http.StatusForbidden:
			return errFatal
		case ae.StatusCode >= 500:
			return errUnknown
		}
		return errPermanent
	}
	var au *AuthError
	if errors.As(err, &au) {
		if au.temporary() {
			return errRetry
		}
		return errFatal
	}
	var ve *ValidationError
	var re *RedirectError
	if errors.As(err, &ve) || errors.As(err, &re) {
		return errPermanent
	}
	if notSent(err) {
		return errRetry
	}
	return errUnknown // a connection lost after sending, an unreadable answer
}

// stopWith ends the sync with err (kept if it is the first such).
func (e *syncer) stopWith(err error) {
	e.fatalMu.Lock()
	if e.fatal == nil {
		e.fatal = err
	}
	e.fatalMu.Unlock()
	e.cancel(err)
}

func (e *syncer) fatalErr() error {
	e.fatalMu.Lock()
	defer e.fatalMu.Unlock()
	return e.fatal
}

// failure is the error an item reports after err ended its work.
func (e *syncer) failure(ctx context.Context, err error) error {
	if f := e.fatalErr(); f != nil && ctx.Err() != nil {
		return f
	}
	return err
}

// backoff waits before another try of an item: full jitter from 100ms,
// doubling, at most 5s. 429s wait in the limiter instead.
func (e *syncer) backoff(ctx context.Context, attempt int) error {
	ceiling := min(100*time.Millisecond<<min(attempt-1, 10), 5*time.Second)
	return e.sleep(ctx, rand.N(ceiling+1))
}

// find looks keys up (every page) and returns the service's records by key.
// Only records whose key field equals a key exactly are kept (the service
// may compare numbers as numbers).
func (e *syncer) find(ctx context.Context, keys []string) (map[string][]Record, error) {
	vals := make([]any, len(keys))
	want := make(map[string]bool, len(keys))
	for i, k := range keys {
		vals[i] = k
		want[k] = true
	}
	opts := &ListOptions{First: MaxPageSize, Filter: rsql.Field(e.o.KeyField).In(vals...)}
	fetch := func(ctx context.Context, o *ListOptions) (*RecordPage, error) {
		var page *RecordPage
		err := e.send(ctx, func(ctx context.Context) error {
			var err error
			page, err = e.svc.list(ctx, e.path, o, e.ropts)
			return err
		})
		e.lookups.Add(1)
		return page, err
	}
	found := map[string][]Record{}
	for page, err := range pages(ctx, opts, fetch) {
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			if k, ok := it.Data[e.o.KeyField]; ok && want[k] {
				found[k] = append(found[k], it.Data)
			}
		}
	}
	return found, nil
}

// findRetrying is find with retries of temporary failures, counted
// against the attempts of the items it looks up for.
func (e *syncer) findRetrying(ctx context.Context, keys []string, attempts *int) (map[string][]Record, error) {
	for {
		*attempts++
		found, err := e.find(ctx, keys)
		if err == nil {
			return found, nil
		}
		switch classifySync(ctx, err) {
		case errRetry, errUnknown: // a look-up changes nothing: retry
			if *attempts >= e.o.MaxAttempts {
				return nil, err
			}
			var ae *APIError
			if !errors.As(err, &ae) || ae.StatusCode != http.StatusTooManyRequests {
				if err := e.backoff(ctx, *attempts); err != nil {
					return nil, err
				}
			}
		case errFatal:
			e.stopWith(err)
			return nil, err
		default:
			var ae *APIError
			if errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound {
				e.stopWith(err) // the definition does not exist
			}
			return nil, err
		}
	}
}

// lookup looks a batch up and sends each item on: its result, or its write.
func (e *syncer) lookup(ctx context.Context, batch []*syncItem) {
	keys := make([]string, len(batch))
	for i, it := range batch {
		keys[i] = it.key
	}
	attempts := 0
	found, err := e.findRetrying(ctx, keys, &attempts)
	if err != nil {
		err = e.failure(ctx, err)
		for _, it := range batch {
			e.results <- SyncResult{Index: it.index, Key: it.key, Err: err}
		}
		return
	}
	for _, it := range batch {
		recs := found[it.key]
		switch len(recs) {
		case 0:
			if e.o.DryRun {
				e.results <- SyncResult{Index: it.index, Key: it.key, Action: SyncCreated}
				continue
			}
		case 1:
			it.existing, it.id = recs[0], recs[0][e.o.IDField]
			changed := changedFields(it.fields, it.existing)
			switch {
			case len(changed) == 0:
				e.results <- SyncResult{Index: it.index, Key: it.key, Action: SyncUnchanged, ID: it.id, Record: it.existing}
				continue
			case it.id == "":
				e.results <- SyncResult{Index: it.index, Key: it.key, Err: fmt.Errorf("workflow: the record with %s=%q has no %q field to update it by", e.o.KeyField, it.key, e.o.IDField)}
				continue
			case e.o.DryRun:
				e.results <- SyncResult{Index: it.index, Key: it.key, Action: SyncUpdated, ID: it.id, Record: it.existing, Changed: changed}
				continue
			}
		default:
			e.results <- SyncResult{Index: it.index, Key: it.key, Err: e.duplicates(it.key, recs)}
			continue
		}
		e.tasks <- syncTask{item: it}
	}
}

func (e *syncer) duplicates(key string, recs []Record) error {
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = strconv.Quote(r[e.o.IDField])
	}
	return fmt.Errorf("%w: %d records have %s=%q (ids %s)", ErrDuplicateKey, len(recs), e.o.KeyField, key, strings.Join(ids, ", "))
}

// changedFields returns the sorted names of the fields of in whose value
// differs from rec's (an absent field counts as empty).
func changedFields(in, rec Record) []string {
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
func (e *syncer) write(ctx context.Context, it *syncItem) {
	var r SyncResult
	if it.existing == nil {
		r = e.create(ctx, it)
	} else {
		r = e.update(ctx, it)
	}
	r.Index, r.Key = it.index, it.key
	if r.Err != nil {
		r.Action = SyncFailed
		r.Err = e.failure(ctx, r.Err)
	}
	e.results <- r
}

func (e *syncer) update(ctx context.Context, it *syncItem) SyncResult {
	changed := changedFields(it.fields, it.existing)
	send := make(Record, len(changed))
	for _, k := range changed {
		send[k] = it.fields[k]
	}
	for {
		it.attempts++
		var rec Record
		err := e.send(ctx, func(ctx context.Context) error {
			var err error
			rec, err = e.svc.Update(ctx, e.rt, e.alias, it.id, send, e.ropts...)
			return err
		})
		if err == nil {
			return SyncResult{Action: SyncUpdated, ID: it.id, Record: rec, Changed: changed}
		}
		switch classifySync(ctx, err) {
		case errRetry, errUnknown: // PUT is idempotent
			if it.attempts >= e.o.MaxAttempts {
				return SyncResult{Err: err}
			}
			if !isThrottle(err) {
				if err := e.backoff(ctx, it.attempts); err != nil {
					return SyncResult{Err: err}
				}
			}
		case errFatal:
			e.stopWith(err)
			return SyncResult{Err: err}
		default:
			return SyncResult{Err: err}
		}
	}
}

func isThrottle(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.StatusCode == http.StatusTooManyRequests
}

// create creates one item, exactly once: after an answer that leaves the
// outcome unknown, the key is looked up before anything else is sent.
func (e *syncer) create(ctx context.Context, it *syncItem) SyncResult {
	for {
		it.attempts++
		var rec Record
		err := e.send(ctx, func(ctx context.Context) error {
			var err error
			rec, err = e.svc.Create(ctx, e.rt, e.alias, it.fields, e.ropts...)
			return err
		})
		if err == nil {
			return SyncResult{Action: SyncCreated, ID: rec[e.o.IDField], Record: rec}
		}
		switch classifySync(ctx, err) {
		case errRetry: // the service did not act
			if it.attempts >= e.o.MaxAttempts {
				return SyncResult{Err: err}
			}
			if !isThrottle(err) {
				if err := e.backoff(ctx, it.attempts); err != nil {
					return SyncResult{Err: err}
				}
			}
			continue
		case errUnknown:
		case errFatal:
			e.stopWith(err)
			return SyncResult{Err: err}
		default:
			var ae *APIError
			if errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound {
				e.stopWith(err)
			}
			return SyncResult{Err: err}
		}
		// The record may exist: look before creating again.
		e.rechecks.Add(1)
		if it.attempts >= e.o.MaxAttempts {
			return SyncResult{Err: fmt.Errorf("workflow: the outcome of creating the record is unknown after %d attempts (run the sync again to settle it): %w", it.attempts, err)}
		}
		if err := e.backoff(ctx, it.attempts); err != nil {
			return SyncResult{Err: err}
		}
		found, ferr := e.findRetrying(ctx, []string{it.key}, &it.attempts)
		if ferr != nil {
			return SyncResult{Err: fmt.Errorf("workflow: the outcome of creating the record is unknown (%v) and looking it up failed (run the sync again to settle it): %w", err, ferr)}
		}
		switch recs := found[it.key]; len(recs) {
		case 0: // not created: try again
			if it.attempts >= e.o.MaxAttempts {
				return SyncResult{Err: err}
			}
		case 1:
			return SyncResult{Action: SyncCreated, ID: recs[0][e.o.IDField], Record: recs[0], Recovered: true}
		default:
			return SyncResult{Err: e.duplicates(it.key, recs)}
		}
	}
}

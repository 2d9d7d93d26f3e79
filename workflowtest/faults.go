package workflowtest

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/seed-a15e58aa/workflow-go/internal/fakehook"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// FaultHeader ("X-Workflowtest-Fault: 1") marks a reply that an injected
// fault produced instead of the service's answer: a Status, a Malformed
// body, or the 503 of a delay cut short by Close. Replies that only
// arrive late (Delay) or lead to a failed processing (ProcessingError)
// are the service's and carry no mark.
const FaultHeader = fakehook.FaultHeader

// Fault is a failure injected into the requests that match Route and
// Operation.
//
// Operation, when set, is the id of an operation of the service's
// published document, as RequestRecord.Operation gives it: recordList,
// createRecord, requestAccessToken (the token endpoint), ...; Inject
// panics on an id the fake does not serve. It names a route whatever its
// path, so that a fault on getRecord does not also hit a list of
// agents or views, whose paths have the same shape.
//
// Route is "[METHOD] [PATH]": a method (or "*" for any) and a path
// pattern, each optional ("" matches every request). The path pattern is
// matched segment by segment against the request path (segments
// unescaped): "*" or a name in braces ("{alias}") matches any one
// segment, a final "**" matches any number of remaining segments (also
// none), and any other segment must be equal. Examples:
//
//	"GET /v1/tasks/*"                  the record list of any tasks alias
//	"GET /v1/{recordType}/{alias}"     every record list (the Route of a RequestRecord)
//	"POST /oauth/token"                the token endpoint
//	"/v1/**"                           every API request
//
// A fault fires on matching requests after the first After of them, at
// most Count times (0: no limit), for at most For on the server's clock
// from the first request it fires on (0: no limit; an outage of that
// length), and, when Probability is set, only with that probability (drawn from the server's seeded random source, see
// WithSeed). When several injected faults match a request, the first one
// injected that fires is applied.
//
// Effects, in this order: Delay waits (ending early when the client goes
// away or the server closes); then Drop closes the connection without an
// answer (the request is not handled); or DropAfter lets the request be
// handled, its effects kept (the record created, the upload stored, and
// so on, whatever the answer would have been), then closes the connection
// without sending the answer: the client cannot know that the server
// acted, the case a test of idempotency needs; or Status answers with that
// status, a Retry-After of RetryAfter if set (in whole seconds, rounded
// up), the headers of Header, and the usual error body (the request is
// not handled); or Malformed with a Status answers that status with a
// truncated JSON body (and Header); Malformed alone lets the request be
// handled and cuts its JSON answer in half; ProcessingError (on the
// file-upload route) lets the upload be handled and answered 202
// PROCESSING as usual, and makes its processing end in ERROR instead of
// VALID, when the attachment policy moves it on; Cut lets the request be
// handled and sends its answer's status and headers, with the
// Content-Length of the whole body, then the first half of the body, and
// closes the connection: a body cut off in transit, which a client reads
// as an unexpected end. A Delay alone only slows the request down. Drop,
// DropAfter and Cut cannot be combined with each other, with Status or
// with Malformed. A request that meets Drop or DropAfter is
// logged with Status 0 (see RequestRecord), and before its connection is
// closed, so Requests already holds it when the client sees the error.
//
// Note that Go's http.Transport itself resends a GET (or another request
// it considers replayable) on a reused connection that was dropped before
// any answer, so a single Drop or DropAfter on a GET may not reach the
// caller of an http.Client; with DropAfter the GET is then handled twice.
type Fault struct {
	Route       string
	Operation   string
	After       int
	Count       int
	Probability float64
	Status      int
	RetryAfter  time.Duration
	For         time.Duration
	Delay       time.Duration
	Drop        bool
	DropAfter   bool
	Malformed   bool
	Cut         bool
	// ProcessingError makes an upload's processing end in ERROR (see
	// above). It cannot be combined with Drop, DropAfter, Status or
	// Malformed.
	ProcessingError bool
	// Header is set on the answer of a Status, over the fake's own
	// headers: any Retry-After ({"Retry-After": {"0"}}, an HTTP date, a
	// malformed value), or any other header. It needs a Status.
	Header http.Header
}

// Injection is an injected fault.
type Injection struct {
	s       *Server
	f       Fault
	method  string
	pattern []string // the path's segments; nil: any path
	seen    int
	fired   int
	firstAt time.Time // when it first fired, on the server's clock
}

// Inject adds a fault and returns its handle. It panics on a fault that
// has no effect, contradicts itself (Drop with Status or Malformed,
// DropAfter with Drop, Status or Malformed), or has a malformed Route.
func (s *Server) Inject(f Fault) *Injection {
	method, pattern, err := parseRoute(f.Route)
	switch {
	case err != nil:
	case f.Operation != "" && op.Lookup(op.ID(f.Operation)) == nil:
		err = fmt.Errorf("fault: no operation %q", f.Operation)
	case f.Status == 0 && f.Delay <= 0 && !f.Drop && !f.DropAfter && !f.Malformed && !f.Cut && !f.ProcessingError:
		err = errors.New("fault: no effect (set Status, Delay, Drop, DropAfter, Malformed, Cut or ProcessingError)")
	case f.Cut && (f.Drop || f.DropAfter || f.Status != 0 || f.Malformed || f.ProcessingError):
		err = errors.New("fault: Cut cannot be combined with Drop, DropAfter, Status, Malformed or ProcessingError")
	case f.ProcessingError && (f.Drop || f.DropAfter || f.Status != 0 || f.Malformed):
		err = errors.New("fault: ProcessingError cannot be combined with Drop, DropAfter, Status or Malformed")
	case f.DropAfter && (f.Drop || f.Status != 0 || f.Malformed):
		err = errors.New("fault: DropAfter cannot be combined with Drop, Status or Malformed")
	case f.Drop && (f.Status != 0 || f.Malformed):
		err = errors.New("fault: Drop cannot be combined with Status or Malformed")
	case f.Header != nil && f.Status == 0:
		err = errors.New("fault: Header needs a Status")
	case f.Status != 0 && (f.Status < 100 || f.Status > 599):
		err = fmt.Errorf("fault: Status %d is not an HTTP status", f.Status)
	case f.Probability < 0 || f.Probability > 1:
		err = fmt.Errorf("fault: Probability %g is not between 0 and 1", f.Probability)
	case f.Count < 0 || f.After < 0 || f.For < 0:
		err = errors.New("fault: Count, After and For must not be negative")
	}
	if err != nil {
		panic("workflowtest: Inject: " + err.Error())
	}
	in := &Injection{s: s, f: f, method: method, pattern: pattern}
	s.faultMu.Lock()
	s.faults = append(s.faults, in)
	s.faultMu.Unlock()
	return in
}

// Fired returns how many requests the fault has affected.
func (in *Injection) Fired() int {
	in.s.faultMu.Lock()
	defer in.s.faultMu.Unlock()
	return in.fired
}

// Remove stops the fault.
func (in *Injection) Remove() {
	in.s.faultMu.Lock()
	defer in.s.faultMu.Unlock()
	in.s.faults = slices.DeleteFunc(in.s.faults, func(f *Injection) bool { return f == in })
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.faultMu.Lock()
	defer s.faultMu.Unlock()
	s.faults = nil
}

// parseRoute reads a Fault's Route: its method ("" or "*" for any) and
// its path pattern (nil for any).
func parseRoute(route string) (method string, pattern []string, err error) {
	p := strings.TrimSpace(route)
	if !strings.HasPrefix(p, "/") {
		method, p, _ = strings.Cut(p, " ")
		p = strings.TrimSpace(p)
	}
	switch {
	case p != "" && !strings.HasPrefix(p, "/"):
		return "", nil, fmt.Errorf("the path of Route %q must start with /", route)
	case p != "":
		pattern = strings.Split(p[1:], "/")
	}
	if i := slices.Index(pattern, "**"); i >= 0 && i != len(pattern)-1 {
		return "", nil, fmt.Errorf("** must be the last segment of Route %q", route)
	}
	return strings.ToUpper(method), pattern, nil
}

// matches reports whether a request (its method, its path's segments
// unescaped and its operation) matches the injection's route and
// operation.
func (in *Injection) matches(method string, segs []string, id op.ID) bool {
	pattern := in.pattern
	if n := len(pattern); n > 0 && pattern[n-1] == "**" {
		pattern, segs = pattern[:n-1], segs[:min(n-1, len(segs))]
	}
	wild := func(p string) bool { return p == "*" || strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") }
	return (in.method == "" || in.method == "*" || in.method == method) && (in.f.Operation == "" || op.ID(in.f.Operation) == id) &&
		(in.pattern == nil || slices.EqualFunc(pattern, segs, func(p, seg string) bool { return p == seg || wild(p) }))
}

// pickFault returns the fault that fires for rq, if any, and marks rq as
// meeting it.
func (s *Server) pickFault(rq *request) *Fault {
	s.faultMu.Lock()
	defer s.faultMu.Unlock()
	if len(s.faults) == 0 {
		return nil
	}
	segs := strings.Split(strings.TrimPrefix(rq.r.URL.EscapedPath(), "/"), "/")
	for i, seg := range segs {
		if u, err := url.PathUnescape(seg); err == nil {
			segs[i] = u
		}
	}
	now := s.Now()
	for _, in := range s.faults {
		if !in.matches(rq.r.Method, segs, rq.op) {
			continue
		}
		in.seen++
		if in.seen <= in.f.After || in.f.Count > 0 && in.fired >= in.f.Count ||
			in.f.For > 0 && in.fired > 0 && now.Sub(in.firstAt) >= in.f.For ||
			in.f.Probability > 0 && s.rng.Float64() >= in.f.Probability {
			continue
		}
		if in.fired == 0 {
			in.firstAt = now
		}
		in.fired++
		rq.log.Fault = true
		f := in.f
		return &f
	}
	return nil
}

// applyFault applies f to rq, which has waited its latency, and answers
// it (see Fault for the effects and their order); the zero Fault serves
// rq as usual.
func (s *Server) applyFault(f *Fault, w http.ResponseWriter, rq *request) {
	if !s.pause(rq, w, f.Delay, true) {
		return
	}
	if f.DropAfter {
		// The handlers return their answer instead of writing it, so
		// nothing has reached the connection yet: the answer is simply
		// not sent.
		if resp := s.serve(rq); resp.stream != nil {
			_ = resp.stream.Close()
		}
	}
	if f.Drop || f.DropAfter {
		// Aborting the handler closes the connection (resets the stream
		// of HTTP/2) without an answer, after ServeHTTP's deferred
		// logRequest: a client which has seen its connection close finds
		// the request in Requests.
		panic(http.ErrAbortHandler)
	}
	if f.Status != 0 || f.Malformed || f.Cut {
		w.Header().Set(FaultHeader, "1")
	}
	var resp response
	if f.Status != 0 {
		resp = failf(f.Status, "injected fault")
		resp.retryAfter, resp.header = f.RetryAfter, f.Header
	} else {
		rq.processingError = f.ProcessingError
		resp = s.serve(rq)
	}
	s.write(w, rq, resp, f)
}

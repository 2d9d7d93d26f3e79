package workflowtest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
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
	pattern []string
	seen    int
	fired   int
	firstAt time.Time // when it first fired, on the server's clock
	removed bool
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
	in.removed = true
	for i, f := range in.s.faults {
		if f == in {
			in.s.faults = append(in.s.faults[:i:i], in.s.faults[i+1:]...)
			break
		}
	}
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.faultMu.Lock()
	defer s.faultMu.Unlock()
	for _, f := range s.faults {
		f.removed = true
	}
	s.faults = nil
}

func parseRoute(route string) (method string, pattern []string, err error) {
	route = strings.TrimSpace(route)
	p := route
	if route != "" && !strings.HasPrefix(route, "/") {
		var rest string
		method, rest, _ = strings.Cut(route, " ")
		p = strings.TrimSpace(rest)
		if p != "" && !strings.HasPrefix(p, "/") {
			return "", nil, fmt.Errorf("the path of Route %q must start with /", route)
		}
	}
	if p != "" {
		pattern = splitPattern(p)
	}
	for i, seg := range pattern {
		if seg == "**" && i != len(pattern)-1 {
			return "", nil, fmt.Errorf("** must be the last segment of Route %q", route)
		}
	}
	if method == "*" {
		method = ""
	}
	return strings.ToUpper(method), pattern, nil
}

// matches reports whether a request matches the injection's route and
// operation.
func (in *Injection) matches(method string, segs []string, id op.ID) bool {
	if (in.method != "" && in.method != method) || (in.f.Operation != "" && op.ID(in.f.Operation) != id) {
		return false
	}
	if in.pattern == nil {
		return true
	}
	for i, p := range in.pattern {
		if p == "**" {
			return true
		}
		if i >= len(segs) {
			return false
		}
		if p != "*" && !(strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}")) && p != segs[i] {
			return false
		}
	}
	return len(segs) == len(in.pattern)
}

// pickFault returns the fault that fires for rq, if any.
func (s *Server) pickFault(rq *request) *Fault {
	r := rq.r
	s.faultMu.Lock()
	defer s.faultMu.Unlock()
	if len(s.faults) == 0 {
		return nil
	}
	segs := splitPattern(r.URL.EscapedPath())
	for i, seg := range segs {
		if u, err := url.PathUnescape(seg); err == nil {
			segs[i] = u
		}
	}
	for _, in := range s.faults {
		if !in.matches(r.Method, segs, rq.op) {
			continue
		}
		in.seen++
		if in.seen <= in.f.After {
			continue
		}
		if in.f.Count > 0 && in.fired >= in.f.Count {
			continue
		}
		if in.f.For > 0 && in.fired > 0 && s.Now().Sub(in.firstAt) >= in.f.For {
			continue
		}
		if in.f.Probability > 0 && s.rng.Float64() >= in.f.Probability {
			continue
		}
		if in.fired == 0 {
			in.firstAt = s.Now()
		}
		in.fired++
		f := in.f
		return &f
	}
	return nil
}

// applyFault applies f; it reports whether the request has been answered
// (or dropped), false when it should now be served normally.
func (s *Server) applyFault(f *Fault, w http.ResponseWriter, sw *statusWriter, rq *request) bool {
	if !s.pause(rq, sw, f.Delay, true) {
		return true
	}
	switch {
	case f.Drop:
		s.drop(w, rq)
		return true
	case f.DropAfter:
		// The handlers return their answer instead of writing it, so
		// nothing has reached the connection yet: the answer is simply
		// not sent.
		s.serve(rq).discard()
		s.drop(w, rq)
		return true
	case f.Cut:
		w.Header().Set(FaultHeader, "1")
		cw := &cutWriter{statusWriter: sw}
		s.write(cw, s.serve(rq))
		_ = http.NewResponseController(w).Flush()
		panic(http.ErrAbortHandler) // closes the connection
	}
	if f.Malformed || f.Status != 0 {
		w.Header().Set(FaultHeader, "1")
	}
	switch {
	case f.Malformed && f.Status != 0:
		body := fmt.Sprintf(`{"status":%d,"message":"injected fau`, f.Status)
		s.write(sw, response{status: f.Status, rawBody: []byte(body), retryAfter: f.RetryAfter, header: f.Header})
		return true
	case f.Malformed:
		resp := s.serve(rq)
		if resp.stream != nil {
			// A download: the first half of its bytes.
			resp.length /= 2
			resp.stream = struct {
				io.Reader
				io.Closer
			}{io.LimitReader(resp.stream, resp.length), resp.stream}
		} else if resp.status != http.StatusNoContent {
			body := resp.rawBody
			if body == nil && resp.body != nil {
				body = encodeJSON(resp.body)
			}
			resp.rawBody = []byte("{")
			if len(body) >= 2 {
				resp.rawBody = body[:len(body)/2]
			}
		}
		s.write(sw, resp)
		return true
	case f.Status != 0:
		resp := failf(f.Status, "injected fault")
		resp.retryAfter, resp.header = f.RetryAfter, f.Header
		s.write(sw, resp)
		return true
	}
	rq.processingError = f.ProcessingError
	return false
}

// cutWriter passes on the first half of a body whose Content-Length has
// been set, and drops the rest.
type cutWriter struct {
	*statusWriter
	left int
}

func (w *cutWriter) WriteHeader(code int) {
	n, _ := strconv.Atoi(w.Header().Get("Content-Length"))
	w.left = n / 2
	w.statusWriter.WriteHeader(code)
}

func (w *cutWriter) Write(b []byte) (int, error) {
	n := min(len(b), w.left)
	w.left -= n
	_, err := w.statusWriter.Write(b[:n])
	return len(b), err
}

// drop logs rq with status 0, then closes the connection of w without
// writing anything on it. Logging first means that a client which has
// seen its connection close finds the request in Requests. Where the
// connection cannot be taken over (HTTP/2), the handler is aborted, which
// resets the stream.
func (s *Server) drop(w http.ResponseWriter, rq *request) {
	s.logRequest(rq, 0)
	rq.logged = true
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

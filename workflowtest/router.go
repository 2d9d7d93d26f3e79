package workflowtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
)

// The one request path of the API under /v1: a request is matched to its
// operation, authenticated and rate-limited, its path parameters decoded
// by name and its query read (query.go); its body is read, checked and
// decoded once, into the type its handler takes (bodies.go); then the
// handler runs under the server's lock, the read lock for a GET and the
// write lock for the others, taken once around it. A handler is state
// in, result out: it reads and changes s.st and returns its answer,
// which is written after the lock is released.

// route is one operation of the API (its method and path template come
// from the operation table, package op) and its handler.
type route struct {
	method  string
	pattern []string // the words of the path template
	name    string   // as RequestRecord.Route gives it: "GET /v1/{recordType}/{alias}"
	op      op.ID
	// read reads the body before the lock: readBody for a JSON body,
	// the route's own reader (readingRecord) for another media type; nil when
	// the operation takes none.
	read func(s *Server, rq *request) *httpError
	// decode decodes the JSON body, read and checked, into what the
	// handler takes (in); nil: the handler takes none.
	decode func(raw []byte) (any, *httpError)
	h      func(s *Server, rq *request) response
}

// on is the route of operation id, whose handler takes no body, or reads
// it itself with read (run before the lock); an operation that takes a
// JSON body has it read and checked (readBody).
func on(id op.ID, h func(*Server, *request) response) route {
	o := id.Op()
	rt := route{method: o.Method, pattern: strings.Split(o.Path[1:], "/"), name: o.Method + " /v1" + o.Path, op: id, h: h}
	if wire.Takes(id) {
		rt.read = readBody
	}
	return rt
}

// onJSON is the route of operation id, whose handler takes the JSON
// body, checked against the operation's schema, decoded into a B (in).
func onJSON[B any](id op.ID, h func(*Server, *request) response) route {
	rt := on(id, h)
	rt.decode = func(raw []byte) (any, *httpError) {
		b := new(B)
		if err := json.Unmarshal(raw, b); err != nil {
			return nil, errf(http.StatusBadRequest, "malformed body: %v", err)
		}
		return b, nil
	}
	return rt
}

// onObject is the route of operation id, whose handler takes the JSON
// body as an object of T, numbers kept as sent (json.Number): in gives a
// map[string]T.
func onObject[T any](id op.ID, h func(*Server, *request) response) route {
	rt := on(id, h)
	rt.decode = func(raw []byte) (any, *httpError) { return parseObject[T](raw, "body") }
	return rt
}

// in returns the decoded body of rq, of the type its route decodes.
func in[B any](rq *request) B { return rq.in.(B) }

// found is a handler that runs with what lookup finds for the request
// (the definition of a record route, its record, an attachment of the
// record), or answers lookup's 404 or 403.
func found[T any](lookup func(*Server, *request) (T, *httpError), h func(*Server, *request, T) response) func(*Server, *request) response {
	return func(s *Server, rq *request) response {
		t, e := lookup(s, rq)
		if e != nil {
			return fail(e)
		}
		return h(s, rq, t)
	}
}

// readingRecord sets the body reader of rt, a route of a record's
// sub-resource whose body is not JSON (an upload, a comment): it runs
// once the record is looked up under the read lock, so that a request for
// a record that does not exist, or that the user may not use, is answered
// with 404 or 403 before its body is read.
func (rt route) readingRecord(read func(*Server, *request) *httpError) route {
	rt.read = func(s *Server, rq *request) *httpError {
		s.mu.RLock()
		_, e := s.lookupRecord(rq)
		s.mu.RUnlock()
		if e != nil {
			return e
		}
		return read(s, rq)
	}
	return rt
}

// routes lists every operation of the API under /v1, each family's as
// its file registers them.
var routes = slices.Concat(userRoutes, groupRoutes, domainRoutes,
	automationRoutes, viewRoutes, elementRoutes, appRoutes, flowRoutes, agentRoutes, skillRoutes, tableRoutes, searchTableRoutes,
	recordRoutes, relatedRoutes, attachmentRoutes, watcherRoutes, commentRoutes,
)

// routeOf is routes by operation.
var routeOf = func() map[op.ID]*route {
	m := map[op.ID]*route{}
	for i := range routes {
		m[routes[i].op] = &routes[i]
	}
	return m
}()

// find matches a request to its operation, first, so that the request
// log, the faults and the latency can name it, and decodes its path
// parameters by name. An API path of no operation gets its answer in
// rq.miss: 405 naming the methods of the path, when it has some, or 404
// (op.Match: where several templates fit, a word beats a parameter, so
// the configuration routes come before the record routes whose shapes
// they share).
func (s *Server) find(rq *request) {
	r, p := rq.r, rq.r.URL.EscapedPath()
	rest, isAPI := strings.CutPrefix(p, "/v1/")
	if p == "/oauth/token" {
		rq.log.Route, rq.op = "POST /oauth/token", op.RequestAccessToken
	}
	if !isAPI {
		return
	}
	segs, e := splitPath(rest)
	if e != nil {
		rq.miss = fail(e)
		return
	}
	o, allow := op.Match(r.Method, segs)
	switch {
	case len(allow) > 0:
		rq.miss = methodNotAllowed(allow...)
	case o == nil && !workflow.RecordType(segs[0]).Valid() && segs[0] != "users" && segs[0] != "groups":
		rq.miss = failf(http.StatusNotFound, "%s", withSuggestion(fmt.Sprintf("unknown record type %q (one of apps, elements, tasks, transactions)", segs[0]), r.Method, segs))
	case o == nil:
		rq.miss = failf(http.StatusNotFound, "%s", withSuggestion(fmt.Sprintf("no such route: %s %s", r.Method, r.URL.Path), r.Method, segs))
	default:
		rq.rt = routeOf[o.ID]
		rq.log.Route, rq.op, rq.params = rq.rt.name, o.ID, make(map[string]string, len(segs))
		for i, p := range rq.rt.pattern {
			if name, ok := strings.CutPrefix(p, "{"); ok {
				rq.params[strings.TrimSuffix(name, "}")] = segs[i]
			}
		}
	}
}

// serve answers a request.
func (s *Server) serve(rq *request) response {
	r, rt := rq.r, rq.rt
	switch {
	case rq.op == op.RequestAccessToken && r.Method != http.MethodPost:
		return methodNotAllowed(http.MethodPost)
	case rq.op == op.RequestAccessToken:
		return s.handleToken(rq)
	case rt == nil && rq.miss.status == 0:
		return failf(http.StatusNotFound, "no such route: %s (API paths start with /v1/, the token endpoint is /oauth/token)", r.URL.Path)
	}
	if e := s.authenticate(rq); e != nil {
		resp := fail(e)
		resp.header = http.Header{"Www-Authenticate": {`Bearer error="invalid_token"`}}
		return resp
	}
	if resp, limited := s.limit(rq.clientID); limited {
		return resp
	}
	if rt == nil {
		return rq.miss
	}
	var e *httpError
	if rq.query, e = readQuery(r.URL.RawQuery); e == nil && rt.read != nil {
		e = rt.read(s, rq)
	}
	if e == nil && rt.decode != nil {
		rq.in, e = rt.decode(rq.body)
	}
	if e != nil {
		return fail(e)
	}
	var lock sync.Locker = &s.mu
	if rt.method == http.MethodGet {
		lock = s.mu.RLocker()
	}
	lock.Lock()
	defer lock.Unlock()
	resp := rt.h(s, rq)
	if up, ok := rq.in.(*attachment); ok && resp.status >= 400 {
		up.content.remove() // an upload the handler refused (its record went meanwhile)
	}
	return resp
}

func methodNotAllowed(allow ...string) response {
	resp := failf(http.StatusMethodNotAllowed, "method not allowed (allowed: %s)", strings.Join(allow, ", "))
	resp.header = http.Header{"Allow": {strings.Join(allow, ", ")}}
	return resp
}

// splitPath splits the escaped path after /v1/ into unescaped segments.
func splitPath(rest string) ([]string, *httpError) {
	parts := strings.Split(rest, "/")
	for i, p := range parts {
		u, err := url.PathUnescape(p)
		if err != nil {
			return nil, errf(http.StatusBadRequest, "malformed path segment %q: %v", p, err)
		}
		if u == "" {
			return nil, errf(http.StatusNotFound, "no such route: empty path segment")
		}
		parts[i] = u
	}
	return parts, nil
}

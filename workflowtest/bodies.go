package workflowtest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
)

// The one reading and check of request bodies. Every request whose
// operation takes a JSON body (by the operationId of its route) is read
// and checked here, once, before its handler runs (router.go): against the operation's request schema in the
// contract document (400 "invalid <pointer>: <rule>"), then against the
// rules the document states in prose and the fake's own rules (422, worded
// the same). A body that is not JSON, or not the JSON value the operation
// takes, is 400 "malformed body: ...". Handlers then decode a body that
// has the published types, and keep to state and to the rules that need
// state (a handle already taken, a user that does not exist). A body of
// another media type (an upload, a comment) is read by its route's own
// reader, after a 404 or 403 for the resource it goes to.

// WithStrictBodies makes the server refuse, with 400, a member of a
// request body that the service's schema does not declare, where the
// schema does not keep such members (additionalProperties: true, as in
// view variants, agent subtypes, tools and Passthrough objects). The
// service accepts and drops them, and so does the fake by default; the
// option catches misspelt member names.
func WithStrictBodies() Option {
	return func(c *config) { c.strictBodies = true }
}

// readBody reads and checks the JSON body of a request into rq.body: the
// reader of every route whose operation takes one (on).
func readBody(s *Server, rq *request) *httpError {
	body, e := readJSONBody(rq.r)
	if e != nil {
		return e
	}
	rq.body = body
	return problem(wire.Check(rq.rt.op, body, wire.Options{Strict: s.cfg.strictBodies}))
}

// readJSONBody reads a request body that must be JSON. Every JSON body
// the contract defines is an object, so an empty body and the value null
// are malformed here, for every route, as an array or a string is where
// the body is decoded.
func readJSONBody(r *http.Request) ([]byte, *httpError) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return nil, errf(http.StatusBadRequest, "Content-Type must be application/json (got %q)", ct)
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxJSONBody))
	if err != nil {
		return nil, errf(http.StatusBadRequest, "reading the body: %v", err)
	}
	if t := bytes.TrimSpace(body); len(t) == 0 || string(t) == "null" {
		return nil, errf(http.StatusBadRequest, "malformed body: %s (a JSON object is required)", cmp.Or(string(t), "empty"))
	}
	return body, nil
}

// problem turns the finding of wire.Check into the fake's answer.
func problem(err error) *httpError {
	var p *wire.Problem
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &p):
		return errf(http.StatusInternalServerError, "checking the body: %v", err)
	case p.Malformed():
		return errf(http.StatusBadRequest, "malformed body: %s", p.Rule)
	}
	status := http.StatusBadRequest
	if p.Prose {
		status = http.StatusUnprocessableEntity
	}
	return errf(status, "invalid %s: %s", cmp.Or(p.Pointer, "body"), p.Rule)
}

// mustConform panics when body, encoded as JSON, is not a body the
// operation id accepts: the seeding helpers (Define, AddView, ...) store
// only what a request could have stored, so that no reply breaks the
// published response schema.
func mustConform(helper string, id op.ID, body any) {
	raw, err := json.Marshal(body)
	if err == nil {
		err = wire.Check(id, raw, wire.Options{})
	}
	if err != nil {
		panic("workflowtest: " + helper + ": " + err.Error())
	}
}

// valueOf returns *p, or the zero value for nil: a member a body left
// out, read as empty.
func valueOf[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// setIf sets *dst to *src when src is not nil: what a body leaves out
// stays as it is.
func setIf[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

// parseObject reads raw, which must be one JSON object named what, into a
// map of T: json.RawMessage keeps the members as sent, any decodes them
// with numbers kept as sent (json.Number).
func parseObject[T any](raw []byte, what string) (map[string]T, *httpError) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]T
	if err := dec.Decode(&m); err != nil || m == nil || dec.More() {
		return nil, errf(http.StatusBadRequest, "malformed %s: a JSON object is required", what)
	}
	return m, nil
}

// someIf is the Opt of v, absent for the zero value.
func someIf[T comparable](v T) admin.Opt[T] {
	var zero T
	if v == zero {
		return admin.Opt[T]{}
	}
	return admin.Some(v)
}

// rawJSON is v encoded, as a member kept as raw JSON.
func rawJSON(v any) jsontext.Value { return jsontext.Value(bytes.TrimSpace(encodeJSON(v))) }

// someOf is the Opt of *p, absent for nil.
func someOf[T any](p *T) admin.Opt[T] {
	if p == nil {
		return admin.Opt[T]{}
	}
	return admin.Some(*p)
}

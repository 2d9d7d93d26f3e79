package workflowtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// IDField is the field into which the fake stamps a record's id.
const IDField = "id"

// maxJSONBody bounds JSON request bodies.
const maxJSONBody = 10 << 20

// defKey names a record definition: record type and alias.
type defKey struct {
	rt    workflow.RecordType
	alias string
}

func (k defKey) String() string { return string(k.rt) + "/" + k.alias }

// definition is a record definition and its records.
type definition struct {
	key      defKey
	required []string
	records  []*record // in insertion order, so sorted by seq
	byID     map[string]*record
	definitionIndex
}

// record is one record. Its fields map is never modified once stored:
// an update stores a new map, so a map handed to a response encoder after
// the lock is released stays consistent.
type record struct {
	seq       uint64
	id        string
	def       *definition
	fields    fieldSet
	createdBy string
	updatedBy string

	related     []*relation
	attachments []*attachment
	watchers    []*watch
	comments    []*comment
}

func recordSeq(r *record) uint64 { return r.seq }
func recordData(r *record) any   { return r.fields }
func (d *definition) missing(f workflow.Record) []string {
	var out []string
	for _, name := range d.required {
		if f[name] == "" {
			out = append(out, name)
		}
	}
	return out
}

// insert stores a new record, stamping its id into the id field. A
// record that already has an id keeps it.
func (st *state) insert(d *definition, fields workflow.Record, by string) (*record, error) {
	f := maps.Clone(fields)
	if f == nil {
		f = workflow.Record{}
	}
	id := f[IDField]
	if id == "" {
		id = st.nextID(d)
	} else if d.byID[id] != nil {
		return nil, fmt.Errorf("a record with id %q already exists in %s", id, d.key)
	}
	f[IDField] = id
	rec := &record{seq: st.next.nextSeq(), def: d, fields: d.newFieldSet(f), createdBy: by, updatedBy: by}
	rec.id, _ = rec.fields.get(IDField)
	d.records = append(d.records, rec)
	d.byID[id] = rec
	return rec, nil
}

// nextID returns the next id of the server's sequence that the
// definition does not use.
func (st *state) nextID(d *definition) string {
	for {
		st.next.record++
		if id := strconv.FormatUint(st.next.record, 10); d.byID[id] == nil {
			return id
		}
	}
}

func mustType(rt workflow.RecordType) {
	if !rt.Valid() {
		panic(fmt.Sprintf("workflowtest: unknown record type %q (use workflow.Apps, Elements, Tasks or Transactions)", rt))
	}
}

// Define creates the record definition (rt, alias), or replaces the
// required fields of an existing one (its records are kept). Creating a
// record through the API without every required field (absent or empty)
// is answered with 400. It panics if rt is not one of the four record
// types or alias is empty.
func (s *Server) Define(rt workflow.RecordType, alias string, required ...string) {
	mustType(rt)
	if alias == "" {
		panic("workflowtest: Define: empty alias")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.define(defKey{rt, alias}).required = slices.Clone(required)
}

func (st *state) define(k defKey) *definition {
	d := st.defs[k]
	if d == nil {
		d = &definition{key: k, byID: map[string]*record{}}
		st.defs[k] = d
	}
	return d
}

// Seed stores records in (rt, alias) as if they had been created, and
// returns their ids in order. The definition is created (with no required
// fields) if it does not exist; required fields are not checked. A record
// with a non-empty "id" field keeps that id; the others get the next id
// of the server's sequence ("1", "2", ...). Seed panics if rt is not a
// record type or an id is already used in the definition.
func (s *Server) Seed(rt workflow.RecordType, alias string, records ...workflow.Record) []string {
	mustType(rt)
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.st.define(defKey{rt, alias})
	ids := make([]string, len(records))
	for i, f := range records {
		rec, err := s.st.insert(d, f, "")
		if err != nil {
			panic("workflowtest: Seed: " + err.Error())
		}
		ids[i] = rec.id
	}
	return ids
}

// Records returns copies of the records of (rt, alias) in insertion
// order, or nil if the definition does not exist.
func (s *Server) Records(rt workflow.RecordType, alias string) []workflow.Record {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d := s.st.defs[defKey{rt, alias}]
	if d == nil {
		return nil
	}
	out := make([]workflow.Record, len(d.records))
	for i, r := range d.records {
		out[i] = r.fields.record()
	}
	return out
}

// Record returns a copy of one record.
func (s *Server) Record(rt workflow.RecordType, alias, id string) (workflow.Record, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec := s.st.record(rt, alias, id)
	if rec == nil {
		return nil, false
	}
	return rec.fields.record(), true
}

// Attribution returns the ids of the users who created and last updated a
// record through the API (the spec: records are attributed to the user
// whose credentials obtained the token). Seeded records have none.
func (s *Server) Attribution(rt workflow.RecordType, alias, id string) (createdBy, updatedBy string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if rec := s.st.record(rt, alias, id); rec != nil {
		return rec.createdBy, rec.updatedBy
	}
	return "", ""
}

func (st *state) record(rt workflow.RecordType, alias, id string) *record {
	if d := st.defs[defKey{rt, alias}]; d != nil {
		return d.byID[id]
	}
	return nil
}

// Deny makes every record route under (rt, alias) answer 403 to the user.
func (s *Server) Deny(userID string, rt workflow.RecordType, alias string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.st.denied[userID]
	if m == nil {
		m = map[defKey]bool{}
		s.st.denied[userID] = m
	}
	m[defKey{rt, alias}] = true
}

// DenyAdmin makes every /users and /groups route answer 403 to the user.
func (s *Server) DenyAdmin(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.deniedAdmin[userID] = true
}

// lookupDef finds the definition of a record route's first two segments,
// checking the user's permission first. The caller holds s.mu.
func (s *Server) lookupDef(rq *request, segs []string) (*definition, *httpError) {
	k := defKey{workflow.RecordType(segs[0]), segs[1]}
	if s.st.denied[rq.user.id][k] {
		return nil, errf(http.StatusForbidden, "user %s has no permission for %s", rq.user.id, k)
	}
	d := s.st.defs[k]
	if d == nil {
		return nil, errf(http.StatusNotFound, "no %s definition with alias %q", k.rt, k.alias)
	}
	return d, nil
}

// lookupRecord finds the record of a record route's first three segments.
// The caller holds s.mu.
func (s *Server) lookupRecord(rq *request, segs []string) (*record, *httpError) {
	d, e := s.lookupDef(rq, segs)
	if e != nil {
		return nil, e
	}
	rec := d.byID[segs[2]]
	if rec == nil {
		return nil, errf(http.StatusNotFound, "no record with id %q in %s", segs[2], d.key)
	}
	return rec, nil
}

// listRecords is GET /{recordType}/{alias}: the spec's recordList.
func (s *Server) listRecords(rq *request, segs []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, e := s.lookupDef(rq, segs)
	if e != nil {
		return fail(e)
	}
	p, e := parsePaging(rq, "records "+d.key.String())
	if e != nil {
		return fail(e)
	}
	res := d.selectRecords(p)
	return reply(http.StatusOK, buildList(res, p, recordSeq, recordData))
}

// getRecord is GET /{recordType}/{alias}/{id}.
func (s *Server) getRecord(rq *request, segs []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec, e := s.lookupRecord(rq, segs)
	if e != nil {
		return fail(e)
	}
	return reply(http.StatusOK, rec.fields)
}

// createRecord is POST /{recordType}/{alias}.
func (s *Server) createRecord(rq *request, segs []string) response {
	if e := s.precheck(func() *httpError { _, e := s.lookupDef(rq, segs); return e }); e != nil {
		return fail(e)
	}
	fields, e := decodeFields(rq.r)
	if e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, e := s.lookupDef(rq, segs)
	if e != nil {
		return fail(e)
	}
	if len(fields) == 0 {
		return failf(http.StatusBadRequest, "the record has no fields")
	}
	if missing := d.missing(fields); len(missing) > 0 {
		return failf(http.StatusBadRequest, "missing required fields: %s", strings.Join(missing, ", "))
	}
	delete(fields, IDField) // the service assigns ids
	rec, err := s.st.insert(d, fields, rq.user.id)
	if err != nil {
		return failf(http.StatusBadRequest, "%v", err)
	}
	return reply(http.StatusCreated, rec.fields)
}

// updateRecord is PUT /{recordType}/{alias}/{id}: the body's fields are
// set, the others kept.
func (s *Server) updateRecord(rq *request, segs []string) response {
	if e := s.precheckRecord(rq, segs); e != nil {
		return fail(e)
	}
	fields, e := decodeFields(rq.r)
	if e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, e := s.lookupRecord(rq, segs)
	if e != nil {
		return fail(e)
	}
	if len(fields) == 0 {
		return failf(http.StatusBadRequest, "no fields to update")
	}
	if id, ok := fields[IDField]; ok && id != rec.id {
		return failf(http.StatusBadRequest, "the id field cannot be changed (record %q, body says %q)", rec.id, id)
	}
	merged := rec.fields.record()
	maps.Copy(merged, fields)
	if missing := rec.def.missing(merged); len(missing) > 0 {
		return failf(http.StatusBadRequest, "required fields cannot be emptied: %s", strings.Join(missing, ", "))
	}
	rec.fields, rec.updatedBy = rec.def.newFieldSet(merged), rq.user.id
	rec.def.changed()
	return reply(http.StatusOK, rec.fields)
}

// precheck runs a lookup under the read lock, so that a request for a
// resource that does not exist, or that the user may not use, is answered
// with 404 or 403 before its body is read.
func (s *Server) precheck(lookup func() *httpError) *httpError {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return lookup()
}

// checkedBody makes a handler's first check under the read lock (so that
// a 404 or 403 is answered before anything is said about the body), then
// reads the JSON body into v. The handler checks again under its lock.
func (s *Server) checkedBody(check func() *httpError, r *http.Request, v any) *httpError {
	if e := s.precheck(check); e != nil {
		return e
	}
	return decodeBody(r, v)
}

func (s *Server) precheckRecord(rq *request, segs []string) *httpError {
	return s.precheck(func() *httpError { _, e := s.lookupRecord(rq, segs); return e })
}

// decodeFields reads a record's fields (checked by checkBody: an object
// of string values).
func decodeFields(r *http.Request) (workflow.Record, *httpError) {
	var out workflow.Record
	if e := decodeBody(r, &out); e != nil {
		return nil, e
	}
	return out, nil
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
	switch t := bytes.TrimSpace(body); {
	case len(t) == 0:
		return nil, errf(http.StatusBadRequest, "malformed body: empty (a JSON object is required)")
	case bytes.Equal(t, []byte("null")):
		return nil, errf(http.StatusBadRequest, "malformed body: null (a JSON object is required)")
	}
	return body, nil
}

// decodeBody decodes the JSON body of a request into v. The body has been
// checked against the operation's schema (checkBody), so v gets the
// published types; members v does not declare are dropped, as the
// service drops them.
func decodeBody(r *http.Request, v any) *httpError {
	body, e := readJSONBody(r)
	if e != nil {
		return e
	}
	if err := json.Unmarshal(body, v); err != nil {
		return errf(http.StatusBadRequest, "malformed body: %v", err)
	}
	return nil
}

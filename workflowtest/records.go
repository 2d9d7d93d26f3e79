package workflowtest

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
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

// missing returns the required fields of d that f leaves out or empty.
func (d *definition) missing(f workflow.Record) []string {
	return slices.DeleteFunc(slices.Clone(d.required), func(name string) bool { return f[name] != "" })
}

// insert stores a new record, stamping its id into the id field. A
// record that already has an id keeps it.
func (st *state) insert(d *definition, fields workflow.Record, by string) (*record, error) {
	f := workflow.Record{}
	maps.Copy(f, fields)
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
	if st.defs[k] == nil {
		st.defs[k] = &definition{key: k, byID: map[string]*record{}}
	}
	return st.defs[k]
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
	return mapped(records, func(f workflow.Record) string {
		rec, err := s.st.insert(d, f, "")
		if err != nil {
			panic("workflowtest: Seed: " + err.Error())
		}
		return rec.id
	})
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
	return mapped(d.records, func(r *record) workflow.Record { return r.fields.record() })
}

// Record returns a copy of one record.
func (s *Server) Record(rt workflow.RecordType, alias, id string) (workflow.Record, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if rec := s.st.record(rt, alias, id); rec != nil {
		return rec.fields.record(), true
	}
	return nil, false
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
	if s.st.denied[userID] == nil {
		s.st.denied[userID] = map[defKey]bool{}
	}
	s.st.denied[userID][defKey{rt, alias}] = true
}

// DenyAdmin makes every /users and /groups route answer 403 to the user.
func (s *Server) DenyAdmin(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.deniedAdmin[userID] = true
}

// recordRoutes are the operations on records.
var recordRoutes = []route{
	on(op.RecordList, (*Server).listRecords),
	onJSON[workflow.Record](op.CreateRecord, onDef((*Server).createRecord)),
	on(op.GetRecord, onRecord((*Server).getRecord)),
	onJSON[workflow.Record](op.UpdateRecord, onRecord((*Server).updateRecord)),
}

// lookupDef finds the definition of a record route (its recordType and
// alias), checking the user's permission first.
func (s *Server) lookupDef(rq *request) (*definition, *httpError) {
	k := defKey{workflow.RecordType(rq.params["recordType"]), rq.params["alias"]}
	if s.st.denied[rq.user.id][k] {
		return nil, errf(http.StatusForbidden, "user %s has no permission for %s", rq.user.id, k)
	}
	if d := s.st.defs[k]; d != nil {
		return d, nil
	}
	return nil, errf(http.StatusNotFound, "no %s definition with alias %q", k.rt, k.alias)
}

// lookupRecord finds the record of a record route (recordType, alias,
// id).
func (s *Server) lookupRecord(rq *request) (*record, *httpError) {
	d, e := s.lookupDef(rq)
	if e != nil {
		return nil, e
	}
	if rec := d.byID[rq.params["id"]]; rec != nil {
		return rec, nil
	}
	return nil, errf(http.StatusNotFound, "no record with id %q in %s", rq.params["id"], d.key)
}

// onRecord is a handler of a record or its sub-resources: it runs with
// the record of the route, found.
func onRecord(h func(*Server, *request, *record) response) func(*Server, *request) response {
	return found((*Server).lookupRecord, h)
}

// onDef is a handler of a definition or its sub-resources: it runs with
// the definition of the route, found.
func onDef(h func(*Server, *request, *definition) response) func(*Server, *request) response {
	return found((*Server).lookupDef, h)
}

// listRecords is GET /{recordType}/{alias}: the spec's recordList.
func (s *Server) listRecords(rq *request) response {
	d, e := s.lookupDef(rq)
	if e != nil {
		return fail(e)
	}
	return listSelected(rq, "records "+d.key.String(), d.selectRecords, recordSeq,
		func(r *record, cursor string) any { return recordItem{Data: r.fields, Cursor: cursor} })
}

// getRecord is GET /{recordType}/{alias}/{id}.
func (s *Server) getRecord(_ *request, rec *record) response { return reply(http.StatusOK, rec.fields) }

// createRecord is POST /{recordType}/{alias}.
func (s *Server) createRecord(rq *request, d *definition) response {
	fields := *in[*workflow.Record](rq)
	if len(fields) == 0 {
		return failf(http.StatusBadRequest, "the record has no fields")
	}
	if missing := d.missing(fields); len(missing) > 0 {
		return failf(http.StatusBadRequest, "missing required fields: %s", strings.Join(missing, ", "))
	}
	delete(fields, IDField) // the service assigns ids, so insert cannot find the id taken
	rec, _ := s.st.insert(d, fields, rq.user.id)
	return reply(http.StatusCreated, rec.fields)
}

// updateRecord is PUT /{recordType}/{alias}/{id}: the body's fields are
// set, the others kept.
func (s *Server) updateRecord(rq *request, rec *record) response {
	fields := *in[*workflow.Record](rq)
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

// KeyCounts returns how many records of (rt, alias) hold each value of
// field (records without the field, or with it empty, are not counted):
// a test of a sync by that key finds duplicates as counts above 1, and
// lost records as keys missing.
func (s *Server) KeyCounts(rt workflow.RecordType, alias, field string) map[string]int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[string]int{}
	if d := s.st.defs[defKey{rt, alias}]; d != nil {
		for _, r := range d.records {
			if v, _ := r.fields.get(field); v != "" {
				out[v]++
			}
		}
	}
	return out
}

// ofRecord returns f of each of the items of the record (rt, alias, id),
// in order, nil when there is no such record: what the assertion helpers
// (Attachments, Comments, Related, Watchers) give.
func ofRecord[T, U any](s *Server, rt workflow.RecordType, alias, id string, items func(*record) []T, f func(T) U) []U {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec := s.st.record(rt, alias, id)
	if rec == nil {
		return nil
	}
	return mapped(items(rec), f)
}

// mapped returns f of each of items, in order (empty, not nil, for no
// items).
func mapped[T, U any](items []T, f func(T) U) []U {
	out := make([]U, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}

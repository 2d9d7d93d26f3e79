package workflowtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// The composed apps of the workspace configuration: POST /aspects/compose
// and PUT /aspects/compose/{id}. An app's definition is a Passthrough, a
// JSON object with no published members; the fake keeps it as sent, adds
// its "id" (a UUID it mints), and answers with it. A POST whose "id"
// names a composed app replaces that app's definition (the service calls
// the operation "create or update"); any other POST creates one.
//
// The fake's rule: the "namespace" member, a non-empty string, is the
// app's alias. A POST without one is 422 (a PUT without one keeps the
// alias), and an alias is unique (422). The app is usable at once under
// its alias: its records, automations, views, agents and skills, as an
// app that Define made. An app has one alias: an update with a new
// namespace moves all of that to the new alias, and the old one names
// nothing; a new alias that names another app (composed, or defined by
// Define or Seed) is 422.

// uuidApp is the seqUUID kind of composed apps' ids.
const uuidApp = 'b'

// passObject is a stored Passthrough object (an app, a flow).
type passObject struct {
	seq  uint64
	id   string
	body map[string]any
}

// passStore keeps Passthrough objects in creation order.
type passStore struct {
	items []*passObject
	ids   uint64
}

func (p *passStore) find(id string) *passObject {
	for _, o := range p.items {
		if o.id == id {
			return o
		}
	}
	return nil
}

// decodeObject reads a request body that must be one JSON object into a
// map of T: json.RawMessage keeps the members as sent, any decodes them
// with numbers kept as sent (json.Number).
func decodeObject[T any](r *http.Request) (map[string]T, *httpError) {
	raw, e := readJSONBody(r)
	if e != nil {
		return nil, e
	}
	return parseObject[T](raw, "body")
}

// parseObject reads raw, which must be one JSON object named what, as
// decodeObject does.
func parseObject[T any](raw []byte, what string) (map[string]T, *httpError) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]T
	if err := dec.Decode(&m); err != nil || m == nil || dec.More() {
		return nil, errf(http.StatusBadRequest, "malformed %s: a JSON object is required", what)
	}
	return m, nil
}

// composeApp is POST /aspects/compose: 201 with the app's definition.
func (s *Server) composeApp(rq *request, _ []string) response {
	body, e := decodeObject[any](rq.r)
	if e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id, _ := body["id"].(string)
	return s.putApp(s.st.cat().apps.find(id), body, http.StatusCreated)
}

// updateApp is PUT /aspects/compose/{id}: 200 with the new definition.
func (s *Server) updateApp(rq *request, segs []string) response {
	body, e := decodeObject[any](rq.r)
	if e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.st.cat().apps.find(segs[2])
	if o == nil {
		return failf(http.StatusNotFound, "no composed app with id %q", segs[2])
	}
	return s.putApp(o, body, http.StatusOK)
}

// putApp stores body as the definition of the composed app o (a new one
// when o is nil) and answers it with status. A body without a namespace
// keeps o's alias (the contract requires one of a new app). A new alias
// must not name another app, composed or defined (422); the app's state
// moves to it (see moveApp). The caller holds s.mu.
func (s *Server) putApp(o *passObject, body map[string]any, status int) response {
	apps := &s.st.cat().apps
	ns, ok := body["namespace"].(string)
	if !ok {
		ns = o.body["namespace"].(string)
	}
	var old string
	if o != nil {
		old = o.body["namespace"].(string)
	}
	taken := slices.ContainsFunc(apps.items, func(a *passObject) bool { return a != o && a.body["namespace"] == ns })
	if taken || o != nil && ns != old && s.st.defs[defKey{workflow.Apps, ns}] != nil {
		return failf(http.StatusUnprocessableEntity, "invalid /namespace: an app with alias %q exists", ns)
	}
	if o == nil {
		o = &passObject{seq: s.st.next.nextSeq(), id: s.st.next.uuid(uuidApp, &apps.ids)}
		apps.items = append(apps.items, o)
	} else if ns != old {
		s.st.moveApp(old, ns)
	}
	body["id"], body["namespace"] = o.id, ns
	o.body = body
	s.st.define(defKey{workflow.Apps, ns})
	return reply(status, o.body)
}

// moveApp moves what the app alias from has to the alias to, which names
// no app: its record definition and records, the automations of the
// definition, its views, the denials of it, and the relations of records
// to its records. A composed app's agents and skills are kept by the
// app's id and follow it. The caller holds s.mu.
func (st *state) moveApp(from, to string) {
	fk, tk := defKey{workflow.Apps, from}, defKey{workflow.Apps, to}
	if d := st.defs[fk]; d != nil {
		d.key = tk
	}
	moveKey(st.defs, fk, tk)
	moveKey(st.automations.byDef, fk, tk)
	moveKey(st.views.byApp, from, to)
	for _, m := range st.denied {
		moveKey(m, fk, tk)
	}
	for _, d := range st.defs {
		for _, r := range d.records {
			for _, rel := range r.related {
				if rel.target == fk {
					rel.target = tk
				}
			}
		}
	}
}

// moveKey moves the value of key from in m, if any, to key to.
func moveKey[K comparable, V any](m map[K]V, from, to K) {
	if v, ok := m[from]; ok {
		m[to] = v
		delete(m, from)
	}
}

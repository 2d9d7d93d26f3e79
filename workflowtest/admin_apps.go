package workflowtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
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

// appRoutes are the operations on composed apps.
var appRoutes = []route{
	onObject[any](op.ComposeApp, (*Server).composeApp),
	onObject[any](op.UpdateApp, (*Server).updateApp),
}

// composeApp is POST /aspects/compose: 201 with the app's definition.
func (s *Server) composeApp(rq *request) response {
	body := in[map[string]any](rq)
	id, _ := body["id"].(string)
	return s.putApp(s.st.apps.find(id), body, http.StatusCreated)
}

// updateApp is PUT /aspects/compose/{id}: 200 with the new definition.
func (s *Server) updateApp(rq *request) response {
	o := s.st.apps.find(rq.params["id"])
	if o == nil {
		return failf(http.StatusNotFound, "no composed app with id %q", rq.params["id"])
	}
	return s.putApp(o, in[map[string]any](rq), http.StatusOK)
}

// appKey returns the key of the app alias names (a composed app by its
// namespace or id, or a record definition of type apps), and whether
// there is one.
func (st *state) appKey(alias string) (string, bool) {
	for _, o := range st.apps.items {
		if o.id == alias || o.body["namespace"] == alias {
			return o.id, true
		}
	}
	return "apps/" + alias, st.defs[defKey{workflow.Apps, alias}] != nil
}

// ofApp returns the list in m (the agents or the skills of every app) of
// the app {alias} of the route, 404 when there is no such app. A write
// makes the app's list (and m) on first use; a read of an app without one
// gets an empty list.
func ofApp[T any](s *Server, rq *request, m *map[string]*[]T) (*[]T, *httpError) {
	key, ok := s.st.appKey(rq.params["alias"])
	switch {
	case !ok:
		return nil, errf(http.StatusNotFound, "no app with alias %q", rq.params["alias"])
	case (*m)[key] != nil:
		return (*m)[key], nil
	case rq.r.Method == http.MethodGet:
		return &[]T{}, nil
	case *m == nil:
		*m = map[string]*[]T{}
	}
	(*m)[key] = &[]T{}
	return (*m)[key], nil
}

// listOfApp answers the list of the app's items in m (agents, skills):
// paged, with a filter on fields, each item as item gives it.
func listOfApp[T any](s *Server, rq *request, m *map[string]*[]T, name string, seq func(T) uint64, fields func(T) map[string]string, item func(T) any) response {
	items, e := ofApp(s, rq, m)
	if e != nil {
		return fail(e)
	}
	return listPage(rq, "apps/"+rq.params["alias"]+"/"+name, *items, seq, fields, plain(item))
}

// changeOfApp creates an item of the app in m (POST, the route without
// {id}: 201) or updates its item {id} (PUT: 200, 404 when there is
// none), and returns it with the status.
func changeOfApp[T any](s *Server, rq *request, m *map[string]*[]T, kind string, id func(T) string, create func() T, update func(T)) (T, int, *httpError) {
	var t T
	items, e := ofApp(s, rq, m)
	if e != nil {
		return t, 0, e
	}
	want, put := rq.params["id"]
	if !put {
		t = create()
		*items = append(*items, t)
		return t, http.StatusCreated, nil
	}
	i := slices.IndexFunc(*items, func(t T) bool { return id(t) == want })
	if i < 0 {
		return t, 0, errf(http.StatusNotFound, "no %s with id %q in app %q", kind, want, rq.params["alias"])
	}
	update((*items)[i])
	return (*items)[i], http.StatusOK, nil
}

// putApp stores body as the definition of the composed app o (a new one
// when o is nil) and answers it with status. A body without a namespace
// keeps o's alias (the contract requires one of a new app). A new alias
// must not name another app, composed or defined (422); the app's state
// moves to it (see moveApp). The caller holds s.mu.
func (s *Server) putApp(o *passObject, body map[string]any, status int) response {
	apps := &s.st.apps
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

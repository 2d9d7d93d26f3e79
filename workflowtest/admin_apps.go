package workflowtest

import (
	"cmp"
	"encoding/json"
	"maps"
	"net/http"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

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

// passObject is a stored JSON object, kept as sent with the id the fake
// minted: an app or a flow (a Passthrough), an agent (its settings) or a
// skill (its input), whose tools are kept beside it.
type passObject struct {
	seq              uint64
	id               string
	body             map[string]any
	tools, a2aSkills []any
}

// passStore keeps Passthrough objects in creation order.
type passStore struct {
	items []*passObject
	ids   uint64
}

func (p *passStore) find(id string) *passObject {
	if i := indexOf(p.items, id); i >= 0 {
		return p.items[i]
	}
	return nil
}

// indexOf returns the index of the object id in list, -1 when there is none.
func indexOf(list []*passObject, id string) int {
	return slices.IndexFunc(list, func(o *passObject) bool { return o.id == id })
}

// appRoutes are the operations on composed apps.
var appRoutes = []route{
	onObject[any](op.ComposeApp, (*Server).putApp),
	onObject[any](op.UpdateApp, (*Server).putApp),
}

// appKey returns the key of the app alias names (a composed app by its
// namespace or id, or a record definition of type apps), and whether
// there is one.
func (st *state) appKey(alias string) (string, bool) {
	if i := slices.IndexFunc(st.apps.items, func(o *passObject) bool { return o.id == alias || o.body["namespace"] == alias }); i >= 0 {
		return st.apps.items[i].id, true
	}
	return "apps/" + alias, st.defs[defKey{workflow.Apps, alias}] != nil
}

// appItems is a kind of object of apps (the agents, the skills), kept by
// the key of their app: the list (paged, with a filter on the string
// members of its items), POST (201 with the new object) and PUT on {id}
// (200; the members the body sends replace the object's, and a list of
// tools replaces its tools).
type appItems struct {
	kind string // "agent"
	uuid byte
	of   func(*state) (*map[string]*[]*passObject, *uint64)
	// show is an object as the list (listed) and create and update answer it.
	show func(o *passObject, listed bool) map[string]any
	// bundle returns what the request's body (an admin.AgentBundle, an
	// admin.SkillBundle) sends: the object's members, its tools and its
	// a2aSkills (nil when not sent).
	bundle func(rq *request) (members map[string]any, tools, a2aSkills []jsontext.Value)
}

// anyOf returns the JSON values vs decoded, as the object keeps them; nil
// for nil.
func anyOf(vs []jsontext.Value) []any {
	if vs == nil {
		return nil
	}
	out := make([]any, len(vs))
	for i, v := range vs {
		_ = json.Unmarshal(v, &out[i]) // JSON: checked
	}
	return out
}

// ofApp returns the list of the kind's objects of the app {alias} of the
// route, 404 when there is no such app. A write makes the app's list on
// first use; a read of an app without one gets an empty list.
func (k *appItems) ofApp(s *Server, rq *request) (*[]*passObject, *uint64, *httpError) {
	m, ids := k.of(s.st)
	key, ok := s.st.appKey(rq.params["alias"])
	switch {
	case !ok:
		return nil, nil, errf(http.StatusNotFound, "no app with alias %q", rq.params["alias"])
	case (*m)[key] == nil && rq.r.Method != http.MethodGet:
		if *m == nil {
			*m = map[string]*[]*passObject{}
		}
		(*m)[key] = &[]*passObject{}
	}
	return cmp.Or((*m)[key], &[]*passObject{}), ids, nil
}

// list answers the list of the app's objects of the kind.
func (k *appItems) list(s *Server, rq *request) response {
	items, _, e := k.ofApp(s, rq)
	if e != nil {
		return fail(e)
	}
	fields := func(o *passObject) map[string]string {
		out := map[string]string{}
		for name, v := range k.show(o, true) {
			if v, ok := v.(string); ok {
				out[name] = v
			}
		}
		return out
	}
	return listPage(rq, "apps/"+rq.params["alias"]+"/"+k.kind+"s", *items, func(o *passObject) uint64 { return o.seq }, fields,
		func(o *passObject, _ string) any { return k.show(o, true) })
}

// change creates an object of the app (POST, the route without {id}) or
// updates its object {id} (PUT, 404 when there is none).
func (k *appItems) change(s *Server, rq *request) response {
	items, ids, e := k.ofApp(s, rq)
	if e != nil {
		return fail(e)
	}
	members, tools, a2aSkills := k.bundle(rq)
	want, put := rq.params["id"]
	i := indexOf(*items, want)
	switch {
	case !put:
		*items = append(*items, &passObject{seq: s.st.next.nextSeq(), id: s.st.next.uuid(k.uuid, ids), body: members, tools: []any{}, a2aSkills: []any{}})
		i = len(*items) - 1
	case i < 0:
		return failf(http.StatusNotFound, "no %s with id %q in app %q", k.kind, want, rq.params["alias"])
	default:
		maps.Copy((*items)[i].body, members)
	}
	o := (*items)[i]
	if tools != nil {
		o.tools = anyOf(tools)
	}
	if a2aSkills != nil {
		o.a2aSkills = anyOf(a2aSkills)
	}
	return reply(statusOf(put), k.show(o, false))
}

// putApp is POST /aspects/compose (201) and PUT /aspects/compose/{id}
// (200; 404 when there is no such app), both with the app's definition:
// the body is stored as the definition of the app the route's {id}, or
// the POST body's "id", names (a new app when none). A body without a
// namespace keeps the app's alias (the contract requires one of a new
// app). A new alias must not name another app, composed or defined
// (422); the app's state moves to it (see moveApp).
func (s *Server) putApp(rq *request) response {
	body, apps := in[map[string]any](rq), &s.st.apps
	id, put := rq.params["id"]
	if !put {
		id, _ = body["id"].(string)
	}
	o := apps.find(id)
	if put && o == nil {
		return failf(http.StatusNotFound, "no composed app with id %q", id)
	}
	var old string
	if o != nil {
		old = o.body["namespace"].(string)
	}
	ns, _ := cmp.Or(body["namespace"], any(old)).(string)
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
	return reply(statusOf(put), body)
}

// statusOf is the status of the answer to an update (200, put) or a
// create (201).
func statusOf(put bool) int {
	if put {
		return http.StatusOK
	}
	return http.StatusCreated
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

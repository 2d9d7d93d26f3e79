package workflowtest

import (
	"bytes"
	"encoding/json"
	"net/http"

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
// app that Define made.

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

// namespaceTaken reports whether another composed app than self has the
// namespace of body. The caller holds s.mu.
func (st *state) namespaceTaken(body map[string]any, self *passObject) bool {
	ns, ok := body["namespace"].(string)
	if !ok {
		return false
	}
	for _, o := range st.cat().apps.items {
		if o != self && o.body["namespace"] == ns {
			return true
		}
	}
	return false
}

// composeApp is POST /aspects/compose: 201 with the app's definition.
func (s *Server) composeApp(rq *request, _ []string) response {
	body, e := decodeObject[any](rq.r)
	if e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	apps := &s.st.cat().apps
	id, _ := body["id"].(string)
	o := apps.find(id)
	if s.st.namespaceTaken(body, o) {
		return failf(http.StatusUnprocessableEntity, "an app with namespace %v exists", body["namespace"])
	}
	if o == nil {
		o = &passObject{seq: s.st.next.nextSeq(), id: s.st.next.uuid(uuidApp, &apps.ids)}
		apps.items = append(apps.items, o)
	}
	body["id"] = o.id
	o.body = body
	s.st.define(defKey{workflow.Apps, body["namespace"].(string)})
	return reply(http.StatusCreated, o.body)
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
	if s.st.namespaceTaken(body, o) {
		return failf(http.StatusUnprocessableEntity, "an app with namespace %v exists", body["namespace"])
	}
	if _, ok := body["namespace"]; !ok {
		body["namespace"] = o.body["namespace"]
	}
	body["id"] = o.id
	o.body = body
	s.st.define(defKey{workflow.Apps, body["namespace"].(string)})
	return reply(http.StatusOK, o.body)
}

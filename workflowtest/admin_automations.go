package workflowtest

import (
	"encoding/json"
	"net/http"
	"slices"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
)

// The automations of apps and elements: GET and POST
// /{recordType}/{alias}/automations, POST .../automations/validate, and
// GET, PUT and DELETE .../automations/{id}. The definition (recordType,
// alias) must exist (404 otherwise) and be open to the user (403), as for
// its records.
//
// Route overlap: these routes come before the record routes, so the
// fake's GET /{recordType}/{alias}/automations lists automations, and
// GET, PUT and DELETE /{recordType}/{alias}/automations/{word} reach the
// automation {word}: a record whose id is "automations" cannot be read
// (nor its related items, attachments, watchers or comments listed)
// through the fake. PUT /{recordType}/{alias}/automations still updates
// that record.
//
// The service publishes no members of an automation (a free-form JSON
// object). The fake's conventions: it keeps every member as sent, stamps
// the automation's id (a UUID it mints, replacing any "id" sent) into an
// "id" member, and requires a "name" member holding a non-empty string
// (422 otherwise, a rule of the fake checked with every body, see
// checkBody; Validate's verdict lists the problem). A body that
// is not a JSON object is answered 400 "malformed body". GET .../automations/{id} answers
// an array holding the one automation (the service's AutomationList: "the
// active and/or draft workflow"). DELETE answers the deleted automation.

// automationsState is the automations of every definition; its zero
// value is empty.
type automationsState struct {
	byDef map[defKey][]*automation // in creation order
	n     uint64                   // ids handed out
}

// automation is one automation: its members, "id" included, and its
// draft's, nil for none.
type automation struct {
	id      string
	members map[string]json.RawMessage
	draft   map[string]json.RawMessage
}

// SetAutomationDraft gives the automation id of the definition (rt,
// alias) a draft version with the members of def (each encoded as JSON),
// its id and "status": "DRAFT" set, replacing any draft it had. GET
// .../automations/{id} then answers the draft after the automation (the
// service's "active and/or draft workflow"); the list, PUT and DELETE
// concern the active version, and DELETE removes the draft too. It
// panics if there is no such automation, or a member does not encode.
func (s *Server) SetAutomationDraft(rt workflow.RecordType, alias, id string, def map[string]any) {
	m := encodeMembers("SetAutomationDraft", def)
	m["id"], _ = json.Marshal(id)
	m["status"] = json.RawMessage(`"DRAFT"`)
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.st.automations.byDef[defKey{rt, alias}]
	if i := slices.IndexFunc(list, func(a *automation) bool { return a.id == id }); i >= 0 {
		list[i].draft = m
		return
	}
	panic("workflowtest: SetAutomationDraft: no automation " + id + " in " + string(rt) + "/" + alias)
}

// AddAutomation adds an automation to the definition (rt, alias), which
// it creates if needed, and returns its id. def holds the automation's
// members (a "name" among them, by the fake's rule); each is encoded as
// JSON. It panics if a member does not encode, def is not a body that
// POST .../automations accepts, or rt is not a record type.
func (s *Server) AddAutomation(rt workflow.RecordType, alias string, def map[string]any) string {
	mustType(rt)
	m := encodeMembers("AddAutomation", def)
	mustConform("AddAutomation", op.CreateAutomation, def)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.define(defKey{rt, alias})
	return s.st.addAutomation(defKey{rt, alias}, m).id
}

// encodeMembers encodes each member of def as JSON, for the seeding
// helper named; it panics when one does not encode.
func encodeMembers(helper string, def map[string]any) map[string]json.RawMessage {
	raw, err := json.Marshal(def)
	if err != nil {
		panic("workflowtest: " + helper + ": " + err.Error())
	}
	m := map[string]json.RawMessage{}
	_ = json.Unmarshal(raw, &m)
	return m
}

func (st *state) addAutomation(k defKey, m map[string]json.RawMessage) *automation {
	as := &st.automations
	if as.byDef == nil {
		as.byDef = map[defKey][]*automation{}
	}
	as.n++
	a := &automation{id: st.next.seqUUID(uuidAutomation, as.n), members: m}
	a.members["id"], _ = json.Marshal(a.id)
	as.byDef[k] = append(as.byDef[k], a)
	return a
}

// Automations returns the automations of a definition in creation order,
// each as the JSON object the API answers.
func (s *Server) Automations(rt workflow.RecordType, alias string) []json.RawMessage {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []json.RawMessage
	for _, a := range s.st.automations.byDef[defKey{rt, alias}] {
		out = append(out, encodeJSON(a.members))
	}
	return out
}

// automationRoutes are the operations on automations.
var automationRoutes = []route{
	on(op.ListAutomations, onDef((*Server).listAutomations)),
	onObject[json.RawMessage](op.CreateAutomation, onDef((*Server).createAutomation)),
	on(op.ValidateAutomation, onDef((*Server).validateAutomation)),
	on(op.GetAutomation, onAutomation((*Server).getAutomation)),
	onObject[json.RawMessage](op.UpdateAutomation, onAutomation((*Server).updateAutomation)),
	on(op.DeleteAutomation, onAutomation((*Server).deleteAutomation)),
}

// onAutomation is a handler of the automation {id} of the route's
// definition, found.
func onAutomation(h func(s *Server, rq *request, d *definition, i int) response) func(*Server, *request) response {
	return onDef(func(s *Server, rq *request, d *definition) response {
		id := rq.params["id"]
		i := slices.IndexFunc(s.st.automations.byDef[d.key], func(a *automation) bool { return a.id == id })
		if i < 0 {
			return failf(http.StatusNotFound, "no automation with id %q in %s", id, d.key)
		}
		return h(s, rq, d, i)
	})
}

// listAutomations is GET /{recordType}/{alias}/automations: 200 with
// every automation of the definition, an array (not paged).
func (s *Server) listAutomations(_ *request, d *definition) response {
	out := []map[string]json.RawMessage{}
	for _, a := range s.st.automations.byDef[d.key] {
		out = append(out, a.members)
	}
	return reply(http.StatusOK, out)
}

// createAutomation is POST /{recordType}/{alias}/automations: 201 with the
// new automation.
func (s *Server) createAutomation(rq *request, d *definition) response {
	return reply(http.StatusCreated, s.st.addAutomation(d.key, in[map[string]json.RawMessage](rq)).members)
}

// validateAutomation is POST /{recordType}/{alias}/automations/validate:
// 200 with {"valid": bool, "errors": [...]}; nothing is created.
func (s *Server) validateAutomation(rq *request, _ *definition) response {
	// The verdict is the check of a create's body, the fake's rules
	// included: what Validate passes, Create takes.
	probs := []string{}
	if err := wire.Check(op.CreateAutomation, rq.body, wire.Options{}); err != nil {
		probs = append(probs, err.Error())
	}
	return reply(http.StatusOK, map[string]any{"valid": len(probs) == 0, "errors": probs})
}

// getAutomation is GET /{recordType}/{alias}/automations/{id}: 200 with
// an array holding the automation, and its draft when it has one.
func (s *Server) getAutomation(_ *request, d *definition, i int) response {
	a := s.st.automations.byDef[d.key][i]
	versions := []map[string]json.RawMessage{a.members}
	if a.draft != nil {
		versions = append(versions, a.draft)
	}
	return reply(http.StatusOK, versions)
}

// updateAutomation is PUT /{recordType}/{alias}/automations/{id}: the
// body replaces the automation's members (its id stays); 200 with the
// automation.
func (s *Server) updateAutomation(rq *request, d *definition, i int) response {
	a := s.st.automations.byDef[d.key][i]
	a.members = in[map[string]json.RawMessage](rq)
	a.members["id"], _ = json.Marshal(a.id)
	return reply(http.StatusOK, a.members)
}

// deleteAutomation is DELETE /{recordType}/{alias}/automations/{id}: 200
// with the deleted automation.
func (s *Server) deleteAutomation(_ *request, d *definition, i int) response {
	list := s.st.automations.byDef[d.key]
	a := list[i]
	s.st.automations.byDef[d.key] = slices.Delete(list, i, i+1)
	return reply(http.StatusOK, a.members)
}

package workflowtest

import (
	"net/http"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// The flows of the workspace configuration: POST /flows/create and
// PUT /flows/{id}. A flow's definition is a Passthrough, kept as sent
// with the "id" (a UUID) the fake mints; PUT replaces it.

// flowRoutes are the operations on flows.
var flowRoutes = []route{
	onObject[any](op.CreateFlow, (*Server).createFlow),
	onObject[any](op.UpdateFlow, (*Server).updateFlow),
}

// createFlow is POST /flows/create: 201 with the new flow.
func (s *Server) createFlow(rq *request) response {
	body := in[map[string]any](rq)
	flows := &s.st.flows
	o := &passObject{seq: s.st.next.nextSeq(), id: s.st.next.uuid(uuidFlow, &flows.ids), body: body}
	body["id"] = o.id
	flows.items = append(flows.items, o)
	return reply(http.StatusCreated, body)
}

// updateFlow is PUT /flows/{id}: 200 with the flow's new definition.
func (s *Server) updateFlow(rq *request) response {
	body := in[map[string]any](rq)
	o := s.st.flows.find(rq.params["id"])
	if o == nil {
		return failf(http.StatusNotFound, "no flow with id %q", rq.params["id"])
	}
	body["id"] = o.id
	o.body = body
	return reply(http.StatusOK, body)
}

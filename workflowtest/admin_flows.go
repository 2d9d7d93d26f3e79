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
	onObject[any](op.CreateFlow, (*Server).putFlow),
	onObject[any](op.UpdateFlow, (*Server).putFlow),
}

// putFlow is POST /flows/create (201 with the new flow) and PUT
// /flows/{id} (200 with the flow's new definition).
func (s *Server) putFlow(rq *request) response {
	body, flows := in[map[string]any](rq), &s.st.flows
	id, put := rq.params["id"]
	o := flows.find(id)
	switch {
	case put && o == nil:
		return failf(http.StatusNotFound, "no flow with id %q", id)
	case !put:
		o = &passObject{seq: s.st.next.nextSeq(), id: s.st.next.uuid(uuidFlow, &flows.ids)}
		flows.items = append(flows.items, o)
	}
	body["id"], o.body = o.id, body
	return reply(statusOf(put), body)
}

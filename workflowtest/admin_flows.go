package workflowtest

import "net/http"

// The flows of the workspace configuration: POST /flows/create and
// PUT /flows/{id}. A flow's definition is a Passthrough, kept as sent
// with the "id" (a UUID) the fake mints; PUT replaces it.

// uuidFlow is the seqUUID kind of flows' ids.
const uuidFlow = 'f'

// createFlow is POST /flows/create: 201 with the new flow.
func (s *Server) createFlow(rq *request, _ []string) response {
	body, e := decodeObject[any](rq.r)
	if e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	flows := &s.st.cat().flows
	o := &passObject{seq: s.st.next.nextSeq(), id: s.st.next.uuid(uuidFlow, &flows.ids), body: body}
	body["id"] = o.id
	flows.items = append(flows.items, o)
	return reply(http.StatusCreated, body)
}

// updateFlow is PUT /flows/{id}: 200 with the flow's new definition.
func (s *Server) updateFlow(rq *request, segs []string) response {
	body, e := decodeObject[any](rq.r)
	if e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.st.cat().flows.find(segs[1])
	if o == nil {
		return failf(http.StatusNotFound, "no flow with id %q", segs[1])
	}
	body["id"] = o.id
	o.body = body
	return reply(http.StatusOK, body)
}

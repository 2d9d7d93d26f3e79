package admin

import (
	"context"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// FlowsService is the workspace's flows: POST /flows/create and
// PUT /flows/{id}. A flow's definition is a Passthrough, a JSON object
// with no published members: the SDK sends it as it is, a jsontext.Value
// holding one JSON object, and returns the answer the same way. The
// service publishes no read, list or delete of flows.
type FlowsService struct {
	client *workflow.Client
}

// Create creates a flow from its definition def: POST /flows/create with
// def as the body, sent as it is; the answer (201) is returned as it
// came. def must be one JSON object, else the call is a
// *workflow.ValidationError and nothing is sent. Like every POST, it is
// not retried after a 5xx or a dropped connection.
func (s *FlowsService) Create(ctx context.Context, def jsontext.Value, reqOpts ...workflow.RequestOption) (jsontext.Value, error) {
	return callRaw(ctx, s.client, at(op.CreateFlow), def, reqOpts)
}

// Update changes the flow id with its definition def: PUT /flows/{id}
// with def as the body (200), the answer returned as it came.
func (s *FlowsService) Update(ctx context.Context, id string, def jsontext.Value, reqOpts ...workflow.RequestOption) (jsontext.Value, error) {
	return callRaw(ctx, s.client, at(op.UpdateFlow, "id", id), def, reqOpts)
}

package admin

import (
	"context"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// AppsService composes the workspace's apps: POST /aspects/compose and
// PUT /aspects/compose/{id}. An app's definition is what the service
// calls a Passthrough: a JSON object it forwards to and from the service
// behind it, with no members published. The SDK hands it over as it is,
// a jsontext.Value holding one JSON object, and returns the answer the
// same way; decode either into a type of your own when you know its
// members.
type AppsService struct {
	client *workflow.Client
}

// Compose creates an app, or changes one (the service calls the
// operation "create or update"), from its definition def: POST
// /aspects/compose with def as the body, sent as it is; the answer (201)
// is returned as it came. def must be one JSON object, else the call is a
// *workflow.ValidationError and nothing is sent.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have acted on it.
func (s *AppsService) Compose(ctx context.Context, def jsontext.Value, reqOpts ...workflow.RequestOption) (jsontext.Value, error) {
	return callRaw(ctx, s.client, at(op.ComposeApp), def, reqOpts)
}

// Update changes the app id with its definition def: PUT
// /aspects/compose/{id} with def as the body (200), the answer returned as
// it came. def must be one JSON object.
func (s *AppsService) Update(ctx context.Context, id string, def jsontext.Value, reqOpts ...workflow.RequestOption) (jsontext.Value, error) {
	return callRaw(ctx, s.client, at(op.UpdateApp, "id", id), def, reqOpts)
}

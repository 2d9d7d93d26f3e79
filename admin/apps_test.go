package admin_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// passOp is one operation whose body and answer are Passthrough objects.
type passOp struct {
	name   string
	status int
	call   func(ctx context.Context, ws *admin.Workspace, id string, body jsontext.Value) (jsontext.Value, error)
	method string
	path   string // for the id "x 1"
}

// passOps are the Passthrough operations of the apps and flows.
var passOps = []passOp{
	{"apps compose", http.StatusCreated, func(ctx context.Context, ws *admin.Workspace, _ string, b jsontext.Value) (jsontext.Value, error) {
		return ws.Apps.Compose(ctx, b)
	}, "POST", "/aspects/compose"},
	{"apps update", http.StatusOK, func(ctx context.Context, ws *admin.Workspace, id string, b jsontext.Value) (jsontext.Value, error) {
		return ws.Apps.Update(ctx, id, b)
	}, "PUT", "/aspects/compose/x%201"},
	{"flows create", http.StatusCreated, func(ctx context.Context, ws *admin.Workspace, _ string, b jsontext.Value) (jsontext.Value, error) {
		return ws.Flows.Create(ctx, b)
	}, "POST", "/flows/create"},
	{"flows update", http.StatusOK, func(ctx context.Context, ws *admin.Workspace, id string, b jsontext.Value) (jsontext.Value, error) {
		return ws.Flows.Update(ctx, id, b)
	}, "PUT", "/flows/x%201"},
}

const passReply = `{"id": "a-1", "layout": {"tabs": [1, 2.50]}, "n": 12345678901234567890}`

func TestPassthroughWireAndAnswers(t *testing.T) {
	body := jsontext.Value(`{"name":"IT","nested":{"k":[true,null]},"big":12345678901234567890}`)
	for _, op := range passOps {
		t.Run(op.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, op.status, passReply)
			got, err := op.call(t.Context(), ws, "x 1", body)
			require.NoError(t, err)
			assert.Equal(t, passReply, string(got), "the answer is handed over byte for byte")
			calls := m.requests()
			require.Len(t, calls, 1)
			assert.Equal(t, op.method, calls[0].Method)
			assert.Equal(t, op.path, calls[0].Path)
			assert.Empty(t, calls[0].Query)
			assert.Equal(t, string(body), calls[0].Body, "the body is sent as it is")
			assert.Equal(t, "application/json", calls[0].Header.Get("Content-Type"))
			assert.Equal(t, "Bearer t", calls[0].Header.Get("Authorization"))
		})
	}
}

func TestPassthroughRefusals(t *testing.T) {
	bodies := map[string]jsontext.Value{"nil": nil, "array": jsontext.Value(`[1]`), "string": jsontext.Value(`"x"`), "broken": jsontext.Value(`{"a":`)}
	answers := map[string]struct {
		status int
		body   string
		is     error
	}{
		"array answer":   {http.StatusOK, `[1]`, workflow.ErrUnexpectedResponse},
		"null answer":    {http.StatusOK, `null`, workflow.ErrUnexpectedResponse},
		"empty answer":   {http.StatusOK, ``, workflow.ErrUnexpectedResponse},
		"not found":      {http.StatusNotFound, `{"message":"no"}`, workflow.ErrNotFound},
		"bad request":    {http.StatusBadRequest, `{"message":"no"}`, nil},
		"rule is broken": {http.StatusUnprocessableEntity, `{"message":"taken"}`, workflow.ErrUnprocessable},
	}
	for _, op := range passOps {
		for name, b := range bodies {
			t.Run(op.name+"/"+name, func(t *testing.T) {
				ws, m := newMockWorkspace(t, op.status, passReply)
				_, err := op.call(t.Context(), ws, "x 1", b)
				var ve *workflow.ValidationError
				require.ErrorAs(t, err, &ve)
				assert.Equal(t, "body", ve.Field)
				assert.Empty(t, m.requests(), "nothing is sent")
			})
		}
		if op.method == "PUT" {
			t.Run(op.name+"/empty id", func(t *testing.T) {
				ws, m := newMockWorkspace(t, op.status, passReply)
				_, err := op.call(t.Context(), ws, "", jsontext.Value(`{}`))
				var ve *workflow.ValidationError
				require.ErrorAs(t, err, &ve)
				assert.Equal(t, "id", ve.Field)
				assert.Empty(t, m.requests())
			})
		}
		for name, a := range answers {
			t.Run(op.name+"/"+name, func(t *testing.T) {
				ws, _ := newMockWorkspace(t, a.status, a.body)
				got, err := op.call(t.Context(), ws, "x 1", jsontext.Value(`{}`))
				require.Error(t, err)
				assert.Nil(t, got)
				if a.is != nil {
					assert.ErrorIs(t, err, a.is)
				}
				if a.status >= 400 {
					assert.Equal(t, a.status, apiStatus(err))
				}
			})
		}
	}
}

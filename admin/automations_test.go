package admin_test

import (
	stdjson "encoding/json"
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

const automationReply = `{"id":"a1","name":"Escalate","triggers":[{"type":"RECORD_CREATED"}],"x":{"y":[1,2.50,null]}}`

// escalate is an automation's definition with members in no sorted order.
func escalate() admin.Automation {
	return admin.Automation{"triggers": jsontext.Value(`[{"type":"RECORD_CREATED"}]`), "name": jsontext.Value(`"Escalate"`), "enabled": jsontext.Value(`true`)}
}

func TestAutomationsWire(t *testing.T) {
	ctx := t.Context()
	const sorted = `{"enabled":true,"name":"Escalate","triggers":[{"type":"RECORD_CREATED"}]}`
	runWire(t, []wireCase{
		{name: "list", status: 200, reply: `[` + automationReply + `,{"id":"a2"}]`, method: "GET", path: "/apps/it%20ops/automations",
			call: func(t *testing.T, ws *admin.Workspace) error {
				as, err := ws.Automations.List(ctx, workflow.Apps, "it ops")
				if err == nil {
					require.Len(t, as, 2)
					assert.Equal(t, `"Escalate"`, string(as[0]["name"]))
					assert.Equal(t, `{"y":[1,2.50,null]}`, string(as[0]["x"]), "numbers kept as sent")
				}
				return err
			}},
		{name: "get", status: 200, reply: `[` + automationReply + `]`, method: "GET", path: "/elements/suppliers/automations/a%201",
			call: func(t *testing.T, ws *admin.Workspace) error {
				as, err := ws.Automations.Get(ctx, workflow.Elements, "suppliers", "a 1")
				if err == nil {
					assert.Len(t, as, 1)
				}
				return err
			}},
		{name: "create", status: 201, reply: automationReply, method: "POST", path: "/apps/itm/automations", body: sorted,
			call: func(t *testing.T, ws *admin.Workspace) error {
				a, err := ws.Automations.Create(ctx, workflow.Apps, "itm", escalate())
				if err == nil {
					assert.Equal(t, `"a1"`, string(a["id"]))
				}
				return err
			}},
		{name: "validate", status: 200, reply: `{"valid":true,"errors":[]}`, method: "POST", path: "/tasks/itm/automations/validate", body: sorted,
			call: func(t *testing.T, ws *admin.Workspace) error {
				v, err := ws.Automations.Validate(ctx, workflow.Tasks, "itm", escalate())
				if err == nil {
					assert.Equal(t, "true", string(v["valid"]))
				}
				return err
			}},
		{name: "update", status: 200, reply: automationReply, method: "PUT", path: "/transactions/itm/automations/a1", body: sorted,
			call: func(t *testing.T, ws *admin.Workspace) error {
				_, err := ws.Automations.Update(ctx, workflow.Transactions, "itm", "a1", escalate())
				return err
			}},
		{name: "delete", status: 200, reply: `{"deleted":true}`, method: "DELETE", path: "/apps/itm/automations/a1",
			call: func(t *testing.T, ws *admin.Workspace) error {
				v, err := ws.Automations.Delete(ctx, workflow.Apps, "itm", "a1")
				if err == nil {
					assert.Equal(t, "true", string(v["deleted"]))
				}
				return err
			}},
	})
}

func TestAutomationsInvalid(t *testing.T) {
	ctx := t.Context()
	runInvalid(t, []invalidCase{
		{"unknown record type", func(ws *admin.Workspace) error {
			_, err := ws.Automations.List(ctx, "app", "itm")
			return err
		}, "record type"},
		{"no alias", func(ws *admin.Workspace) error {
			_, err := ws.Automations.Create(ctx, workflow.Apps, "", escalate())
			return err
		}, "alias"},
		{"no id", func(ws *admin.Workspace) error {
			_, err := ws.Automations.Get(ctx, workflow.Apps, "itm", "")
			return err
		}, "id"},
		{"id with a slash", func(ws *admin.Workspace) error {
			_, err := ws.Automations.Update(ctx, workflow.Apps, "itm", "a/1", escalate())
			return err
		}, "id"},
		{"id of dots", func(ws *admin.Workspace) error {
			_, err := ws.Automations.Delete(ctx, workflow.Apps, "itm", "..")
			return err
		}, "id"},
		{"empty definition", func(ws *admin.Workspace) error {
			_, err := ws.Automations.Create(ctx, workflow.Apps, "itm", admin.Automation{})
			return err
		}, "automation"},
		{"nil definition to validate", func(ws *admin.Workspace) error {
			_, err := ws.Automations.Validate(ctx, workflow.Apps, "itm", nil)
			return err
		}, "automation"},
		{"member that is not JSON", func(ws *admin.Workspace) error {
			_, err := ws.Automations.Update(ctx, workflow.Apps, "itm", "a1", admin.Automation{"name": jsontext.Value(`{oops`)})
			return err
		}, "body"},
	})
}

// TestAutomationRoundTrip: an automation read from the service encodes
// back to the same members, with both JSON packages, and always to the
// same bytes.
func TestAutomationRoundTrip(t *testing.T) {
	var a admin.Automation
	require.NoError(t, json.Unmarshal([]byte(automationReply), &a))
	var b admin.Automation
	require.NoError(t, stdjson.Unmarshal([]byte(automationReply), &b))
	assert.Equal(t, a, b)
	const want = `{"id":"a1","name":"Escalate","triggers":[{"type":"RECORD_CREATED"}],"x":{"y":[1,2.50,null]}}`
	for range 5 {
		out, err := json.Marshal(a)
		require.NoError(t, err)
		assert.Equal(t, want, string(out))
		out, err = stdjson.Marshal(b)
		require.NoError(t, err)
		assert.Equal(t, want, string(out))
	}
}

func TestAutomationsUnexpectedAnswers(t *testing.T) {
	for _, c := range []struct {
		name, reply string
		call        func(ws *admin.Workspace) error
	}{
		{"list as an object", `{"items":[]}`, func(ws *admin.Workspace) error {
			_, err := ws.Automations.List(t.Context(), workflow.Apps, "itm")
			return err
		}},
		{"create without body", ``, func(ws *admin.Workspace) error {
			_, err := ws.Automations.Create(t.Context(), workflow.Apps, "itm", escalate())
			return err
		}},
		{"delete answering null", `null`, func(ws *admin.Workspace) error {
			_, err := ws.Automations.Delete(t.Context(), workflow.Apps, "itm", "a1")
			return err
		}},
		{"update answering an array", `[]`, func(ws *admin.Workspace) error {
			_, err := ws.Automations.Update(t.Context(), workflow.Apps, "itm", "a1", escalate())
			return err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws, _ := newMockWorkspace(t, 200, c.reply)
			assert.ErrorIs(t, c.call(ws), workflow.ErrUnexpectedResponse)
		})
	}
	ws, _ := newMockWorkspace(t, 404, `{"status":404,"message":"no automation"}`)
	_, err := ws.Automations.Get(t.Context(), workflow.Apps, "itm", "a9")
	assert.ErrorIs(t, err, workflow.ErrNotFound)
}

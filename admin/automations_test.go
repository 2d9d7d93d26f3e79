package admin_test

import (
	stdjson "encoding/json"
	"strings"
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

const automationReply = `{"id":"a1","name":"Escalate","triggers":[{"type":"RECORD_CREATED"}],"x":{"y":[1,2.50,null]}}`

// escalate is an automation's definition with members in no sorted order.
func escalate() admin.Automation {
	return admin.Automation(`{"triggers":[{"type":"RECORD_CREATED"}],"name":"Escalate","enabled":true}`)
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
					assert.Equal(t, "Escalate", as[0].Name())
					assert.Equal(t, `{"y":[1,2.50,null]}`, string(as[0].Member("x")), "numbers kept as sent")
				}
				return err
			}},
		{name: "get", status: 200, reply: `[` + automationReply + `]`, method: "GET", path: "/elements/suppliers/automations/a%201",
			call: func(t *testing.T, ws *admin.Workspace) error {
				v, err := ws.Automations.Get(ctx, workflow.Elements, "suppliers", "a 1")
				if err == nil {
					assert.Equal(t, "a1", v.Active().ID())
					assert.Nil(t, v.Draft())
				}
				return err
			}},
		{name: "get with a draft", status: 200, reply: `[{"id":"a1","status":"draft","name":"New"},` + automationReply + `]`, method: "GET", path: "/apps/itm/automations/a1",
			call: func(t *testing.T, ws *admin.Workspace) error {
				v, err := ws.Automations.Get(ctx, workflow.Apps, "itm", "a1")
				if err == nil {
					assert.Equal(t, "Escalate", v.Active().Name(), "a draft beside the active version is not a duplicate")
					assert.Equal(t, "New", v.Draft().Name())
				}
				return err
			}},
		{name: "create", status: 201, reply: automationReply, method: "POST", path: "/apps/itm/automations", body: sorted,
			call: func(t *testing.T, ws *admin.Workspace) error {
				a, err := ws.Automations.Create(ctx, workflow.Apps, "itm", escalate())
				if err == nil {
					assert.Equal(t, "a1", a.ID())
				}
				return err
			}},
		{name: "validate", status: 200, reply: `{"valid":true,"errors":[]}`, method: "POST", path: "/tasks/itm/automations/validate", body: sorted,
			call: func(t *testing.T, ws *admin.Workspace) error {
				v, err := ws.Automations.Validate(ctx, workflow.Tasks, "itm", escalate())
				if err == nil {
					assert.JSONEq(t, `{"valid":true,"errors":[]}`, string(v))
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
				return ws.Automations.Delete(ctx, workflow.Apps, "itm", "a1")
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
			return ws.Automations.Delete(ctx, workflow.Apps, "itm", "..")
		}, "id"},
		{"nil definition to validate", func(ws *admin.Workspace) error {
			_, err := ws.Automations.Validate(ctx, workflow.Apps, "itm", nil)
			return err
		}, "Automation"},
		{"an array", func(ws *admin.Workspace) error {
			_, err := ws.Automations.Create(ctx, workflow.Apps, "itm", admin.Automation(`[]`))
			return err
		}, "Automation"},
		{"a member that is not JSON", func(ws *admin.Workspace) error {
			_, err := ws.Automations.Update(ctx, workflow.Apps, "itm", "a1", admin.Automation(`{"name":{oops}`))
			return err
		}, "Automation"},
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

// TestAutomationCanonical: equal automations have the same bytes, at
// every depth: members sorted, one escaping of strings, numbers as they
// came.
func TestAutomationCanonical(t *testing.T) {
	for _, tc := range []struct{ name, a, b, want string }{
		{"nested members sorted", `{"z":{"b":1,"a":[{"d":true,"c":null}]},"a":0}`, `{"a":0,"z":{"a":[{"c":null,"d":true}],"b":1}}`,
			`{"a":0,"z":{"a":[{"c":null,"d":true}],"b":1}}`},
		{"one escaping", `{"s":"\u00e9<&>\u2028\/\t\u0001"}`, `{"s":"é\u003c\u0026\u003e` + "\u2028" + `/\u0009\u0001"}`, `{"s":"é<&>` + "\u2028" + `/\t\u0001"}`},
		{"numbers as they came", `{"n":[1.0, 1e2, -0, 12345678901234567890]}`, "{\n \"n\" : [1.0,1e2,-0,12345678901234567890]}", `{"n":[1.0,1e2,-0,12345678901234567890]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := admin.Canonical([]byte(tc.a))
			require.NoError(t, err)
			b, err := admin.Canonical([]byte(tc.b))
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(a))
			assert.Equal(t, string(a), string(b))
			out, err := json.Marshal(admin.Automation(tc.b))
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(out), "written in the canonical form")
			out, err = stdjson.Marshal(admin.Automation(tc.b))
			require.NoError(t, err)
			back, err := admin.Canonical(out)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(back), "encoding/json's HTML escaping reads back to the same form")
		})
	}
	for _, bad := range []string{``, `[]`, `{"a":1}{}`, `{"a":1,"a":2}`, `{"a":}`} {
		_, err := admin.Canonical([]byte(bad))
		assert.Error(t, err, bad)
	}
}

// TestAutomationMembers: the members the documentation names are read
// typed; others as raw JSON.
func TestAutomationMembers(t *testing.T) {
	a := admin.Automation(`{"id":"a1","name":"Esc \"A\"","status":"DRAFT","tasks":[1]}`)
	assert.Equal(t, "a1", a.ID())
	assert.Equal(t, `Esc "A"`, a.Name(), "the name is the string, not its JSON")
	assert.Equal(t, "DRAFT", a.Status())
	assert.Equal(t, `[1]`, string(a.Member("tasks")))
	assert.Nil(t, a.Member("none"))
	assert.Empty(t, admin.Automation(`{"name":7}`).Name())
	assert.Empty(t, admin.Automation(`oops`).Name())
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
		{"get answering an object", `{"id":"a"}`, func(ws *admin.Workspace) error {
			_, err := ws.Automations.Get(t.Context(), workflow.Apps, "itm", "a1")
			return err
		}},
		{"get answering a version that is not an object", `[{"id":"a"},7]`, func(ws *admin.Workspace) error {
			_, err := ws.Automations.Get(t.Context(), workflow.Apps, "itm", "a1")
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

// TestAutomationsGetEveryAnswer: Get accepts every array the document
// allows (AutomationList: free-form objects, no length), with and without
// a "status", and returns every version in the order received.
func TestAutomationsGetEveryAnswer(t *testing.T) {
	const (
		active = `{"id":"a","name":"A"}`
		draft  = `{"id":"a","name":"D","status":"draft"}`
		live   = `{"id":"a","name":"L","status":"ACTIVE"}`
		other  = `{"id":"a","name":"B"}`
	)
	for _, c := range []struct {
		name     string
		versions []string
		active   string // the name of Active, "" for none
		draft    string // the name of Draft, "" for none
	}{
		{"none", nil, "", ""},
		{"one without a status", []string{active}, "A", ""},
		{"one draft", []string{draft}, "", "D"},
		{"one with another status", []string{live}, "L", ""},
		{"two without a status", []string{active, other}, "A", ""},
		{"a draft first", []string{draft, active}, "A", "D"},
		{"two drafts", []string{draft, draft}, "", "D"},
		{"three", []string{other, draft, live}, "B", "D"},
		{"three without a status", []string{active, other, active}, "A", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			reply := "[" + strings.Join(c.versions, ",") + "]"
			ws, _ := newMockWorkspace(t, 200, reply)
			got, err := ws.Automations.Get(t.Context(), workflow.Apps, "itm", "a")
			require.NoError(t, err)
			require.Len(t, got, len(c.versions))
			for i, v := range c.versions {
				want, err := admin.Canonical([]byte(v))
				require.NoError(t, err)
				assert.Equal(t, want, got[i], "version %d, in the order received", i)
			}
			assert.Equal(t, c.active, got.Active().Name())
			assert.Equal(t, c.draft, got.Draft().Name())
		})
	}
}

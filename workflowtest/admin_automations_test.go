package workflowtest

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

func TestAutomations(t *testing.T) {
	a := newAPI(t)
	a.srv.Define(workflow.Apps, "itm")
	base := "/apps/itm/automations"

	res := a.do(http.MethodPost, base, []byte(`{"name":"Escalate","id":"mine","triggers":[{"type":"RECORD_CREATED"}]}`))
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	id := seqUUID(uuidAutomation, 1)
	assert.JSONEq(t, `{"id":"`+id+`","name":"Escalate","triggers":[{"type":"RECORD_CREATED"}]}`, string(res.body), "the fake mints the id")
	id2 := a.srv.AddAutomation(workflow.Apps, "itm", map[string]any{"name": "Notify"})

	res = a.get(base)
	require.Equal(t, http.StatusOK, res.status)
	assert.JSONEq(t, `[{"id":"`+id+`","name":"Escalate","triggers":[{"type":"RECORD_CREATED"}]},{"id":"`+id2+`","name":"Notify"}]`, string(res.body))
	res = a.get(base + "/" + id2)
	require.Equal(t, http.StatusOK, res.status)
	assert.JSONEq(t, `[{"id":"`+id2+`","name":"Notify"}]`, string(res.body))

	// Validate's verdict is Create's: what one takes, the other passes.
	for body, want := range map[string]string{
		`{"name":""}`:          `{"valid":false,"errors":["/name: must not be empty"]}`,
		`{"trigger":{}}`:       `{"valid":false,"errors":["/name: is required"]}`,
		`{"name":5}`:           `{"valid":false,"errors":["/name: must be a string"]}`,
		`{"name":" "}`:         `{"valid":true,"errors":[]}`,
		`{"name":"ok","x":[]}`: `{"valid":true,"errors":[]}`,
	} {
		res = a.do(http.MethodPost, base+"/validate", []byte(body))
		require.Equal(t, http.StatusOK, res.status, body)
		assert.JSONEq(t, want, string(res.body), body)
	}
	assert.Len(t, a.srv.Automations(workflow.Apps, "itm"), 2, "validate creates nothing")

	res = a.do(http.MethodPut, base+"/"+id2, []byte(`{"name":"Notify all","id":"other"}`))
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	assert.JSONEq(t, `{"id":"`+id2+`","name":"Notify all"}`, string(res.body), "the body replaces the members; the id stays")

	res = a.do(http.MethodDelete, base+"/"+id, nil)
	require.Equal(t, http.StatusOK, res.status)
	assert.Contains(t, string(res.body), `"Escalate"`)
	expectError(t, a.get(base+"/"+id), 404)
	assert.Equal(t, []json.RawMessage{json.RawMessage(`{"id":"` + id2 + `","name":"Notify all"}` + "\n")}, a.srv.Automations(workflow.Apps, "itm"))

	for _, tc := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"POST", base, `[]`, 400, "malformed body: must be an object"},
		{"POST", base, `null`, 400, "malformed body: null"},
		{"POST", base, `{"name":`, 400, "malformed body: is not JSON"},
		{"POST", base + "/validate", `"x"`, 400, "malformed body: must be an object"},
		{"PUT", base + "/" + id2, `[1]`, 400, "malformed body: must be an object"},
		{"POST", base, `{"triggers":[]}`, 422, "invalid /name: is required"},
		{"POST", base, `{"name":""}`, 422, "invalid /name: must not be empty"},
		{"PUT", base + "/" + id2, `{"name":7}`, 422, "invalid /name: must be a string"},
		{"POST", "/apps/nope/automations", `{"name":"x"}`, 404, "no apps definition"},
		{"GET", "/apps/nope/automations", ``, 404, "no apps definition"},
		{"PUT", base + "/" + id, `{"name":"x"}`, 404, "no automation"},
		{"DELETE", base + "/" + id, ``, 404, "no automation"},
	} {
		var body any
		if tc.body != "" {
			body = []byte(tc.body)
		}
		assert.Contains(t, expectError(t, a.do(tc.method, tc.path, body), tc.status), tc.want, "%s %s %s", tc.method, tc.path, tc.body)
	}
	assert.Len(t, a.srv.Automations(workflow.Apps, "itm"), 1, "no failed request changed anything")

	denied := a.srv.AddUser("no@example.com", "No", "Access")
	a.srv.Deny(denied.UserID, workflow.Apps, "itm")
	d := a.as(denied)
	expectError(t, d.get(base), 403)
	expectError(t, d.do(http.MethodPost, base, []byte(`{"name":"x"}`)), 403)
	expectError(t, d.do(http.MethodDelete, base+"/"+id2, nil), 403)
}

// TestAutomationsShadowARecord: the automations' routes come first, so a
// record whose id is "automations" cannot be read, while its update and
// every other record still work.
func TestAutomationsShadowARecord(t *testing.T) {
	a := newAPI(t)
	a.srv.Seed(workflow.Apps, "itm", workflow.Record{"id": "automations", "Title": "odd"}, workflow.Record{"id": "A-1", "Title": "plain"})
	res := a.get("/apps/itm/automations")
	require.Equal(t, http.StatusOK, res.status)
	assert.Equal(t, "[]\n", string(res.body), "the automations, not the record")
	res = a.do(http.MethodPut, "/apps/itm/automations", map[string]string{"Title": "still odd"})
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	res = a.get("/apps/itm/A-1")
	require.Equal(t, http.StatusOK, res.status)
	assert.Contains(t, string(res.body), "plain")
	expectError(t, a.get("/apps/itm/automations/watchers"), 404)
}

// TestAutomationDraft: a draft is served beside the active version by Get
// only, marked as a draft; the list and the active version are as they
// were, and a delete removes both.
func TestAutomationDraft(t *testing.T) {
	a := newAPI(t)
	id := a.srv.AddAutomation(workflow.Apps, "itm", map[string]any{"name": "Notify"})
	base := "/apps/itm/automations"
	a.srv.SetAutomationDraft(workflow.Apps, "itm", id, map[string]any{"name": "Notify all", "status": "ACTIVE", "id": "x"})

	res := a.get(base + "/" + id)
	require.Equal(t, http.StatusOK, res.status)
	assert.JSONEq(t, `[{"id":"`+id+`","name":"Notify"},{"id":"`+id+`","name":"Notify all","status":"DRAFT"}]`, string(res.body))
	res = a.get(base)
	assert.JSONEq(t, `[{"id":"`+id+`","name":"Notify"}]`, string(res.body), "the list gives the active version")

	require.Equal(t, http.StatusOK, a.do(http.MethodDelete, base+"/"+id, nil).status)
	expectError(t, a.get(base+"/"+id), 404)
	assert.Panics(t, func() { a.srv.SetAutomationDraft(workflow.Apps, "itm", id, nil) }, "no such automation")
}

package workflowtest

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

func TestViews(t *testing.T) {
	a := newAPI(t)
	a.srv.Define(workflow.Apps, "itm")
	team := a.srv.AddGroup("IT")
	field := seqUUID('f', 1)
	base := "/apps/itm/views"

	res := a.do(http.MethodPost, base, []byte(`{"handle":"open","view":{"list":{"name":"Open","rows":25,"columns":["`+field+`"],"agentId":"`+field+`","x":[1]}},"share":{"groups":["IT"],"users":["ADMIN@example.com"]}}`))
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	var got map[string]any
	res.decode(&got)
	id := seqUUID(uuidView, 1)
	assert.Equal(t, id, got["id"])
	assert.Equal(t, "open", got["clientHandle"])
	assert.Equal(t, "AspectViewList", got["type"])
	assert.Equal(t, 1.0, got["displayOrder"])
	assert.Equal(t, map[string]any{"id": field}, got["agent"], "agentId is answered as agent")
	assert.NotContains(t, got, "agentId")
	assert.Equal(t, []any{1.0}, got["x"], "unknown members are kept")
	share := got["share"].(map[string]any)
	assert.Equal(t, team, share["groups"].([]any)[0].(map[string]any)["id"])
	assert.Equal(t, DefaultUserID, share["users"].([]any)[0].(map[string]any)["id"])

	a.srv.AddView("itm", "board", "kanban", map[string]any{"name": "Board"})
	l := a.get(base + "?first=1")
	require.Equal(t, http.StatusOK, l.status)
	var page struct {
		Items  []map[string]any `json:"items"`
		Total  int              `json:"total"`
		Paging pagingStatus     `json:"paging"`
	}
	l.decode(&page)
	assert.Equal(t, 2, page.Total)
	require.Len(t, page.Items, 1)
	assert.Equal(t, "open", page.Items[0]["clientHandle"])
	assert.True(t, page.Paging.HasNextPage)
	l = a.get(base + "?after=" + page.Paging.EndCursor)
	page.Items = nil
	l.decode(&page)
	require.Len(t, page.Items, 1)
	assert.Equal(t, "board", page.Items[0]["clientHandle"])
	assert.Equal(t, 2.0, page.Items[0]["displayOrder"])

	for _, path := range []string{base + "/" + id, base + "/open"} {
		res = a.get(path)
		require.Equal(t, http.StatusOK, res.status)
		assert.Contains(t, string(res.body), `"clientHandle":"open"`, "by id or by handle")
	}

	res = a.do(http.MethodPut, base+"/open", []byte(`{"view":{"calendar":{"name":"Due"}}}`))
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	got = nil
	res.decode(&got)
	assert.Equal(t, "AspectViewCalendar", got["type"])
	assert.NotContains(t, got, "rows", "the view is replaced")
	assert.Len(t, got["share"].(map[string]any)["groups"], 1, "no share set leaves the sharing as it is")
	res = a.do(http.MethodPut, base+"/"+id, []byte(`{"view":{"calendar":{}},"share":{}}`))
	require.Equal(t, http.StatusOK, res.status)
	views := a.srv.Views("itm")
	require.Len(t, views, 2)
	assert.Empty(t, views[0].Groups, "a share set replaces the sharing")
	assert.Equal(t, json.RawMessage(`{}`), views[0].Config)

	for _, tc := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"POST", base, `nonsense`, 400, "malformed"},
		{"POST", base, `{"view":{"list":{}}}`, 400, "invalid /handle: is required"},
		{"POST", base, `{"handle":"h"}`, 400, "invalid /view: is required"},
		{"POST", base, `{"handle":"h","view":{"grid":{}}}`, 422, "invalid /view: must have exactly one of agent, calendar, dashboard, kanban, list (got none)"},
		{"POST", base, `{"handle":"h","view":{"list":{"rows":"many"}}}`, 422, "invalid /view/list/rows: must be an integer"},
		{"POST", base, `{"handle":"h","view":{"list":[]}}`, 400, "invalid /view/list: must be an object"},
		{"POST", base, `{"handle":"h","view":{"list":{"columns":["f1"]}}}`, 422, "invalid /view/list/columns/0: must be a UUID"},
		{"POST", base, `{"handle":"h","view":{"list":{}},"share":{"users":[null]}}`, 400, "invalid /share/users/0: must be a string, not null"},
		{"POST", base, `{"handle":"h","view":{}}`, 422, "exactly one"},
		{"POST", base, `{"handle":"h","view":{"list":{},"kanban":{}}}`, 422, "exactly one"},
		{"POST", base, `{"handle":"open","view":{"list":{}}}`, 422, "already"},
		{"POST", base, `{"handle":"h","view":{"list":{}},"share":{"users":["who@example.com"]}}`, 422, "no user"},
		{"PUT", base + "/open", `{"view":{"list":{}},"share":{"groups":["Nobody"]}}`, 422, "no group"},
		{"PUT", base + "/nope", `{"view":{"list":{}}}`, 404, "no view"},
		{"GET", base + "/nope", ``, 404, "no view"},
		{"GET", "/apps/other/views", ``, 404, "no apps definition"},
		{"POST", "/apps/other/views", `{"handle":"h","view":{"list":{}}}`, 404, "no apps definition"},
		{"GET", base + "?filter=name==x", ``, 400, "no filter"},
	} {
		var body any
		if tc.body != "" {
			body = []byte(tc.body)
		}
		assert.Contains(t, expectError(t, a.do(tc.method, tc.path, body), tc.status), tc.want, "%s %s %s", tc.method, tc.path, tc.body)
	}
	assert.Len(t, a.srv.Views("itm"), 2, "no failed request changed anything")
	assert.Equal(t, "AspectViewCalendar", a.srv.Views("itm")[0].Type)

	denied := a.srv.AddUser("no@example.com", "No", "Access")
	a.srv.Deny(denied.UserID, workflow.Apps, "itm")
	d := a.as(denied)
	expectError(t, d.get(base), 403)
	expectError(t, d.do(http.MethodPost, base, []byte(`{"handle":"h","view":{"list":{}}}`)), 403)

	// The views' routes come first: an app record whose id is "views"
	// cannot be read, the others can.
	a.srv.Seed(workflow.Apps, "itm", workflow.Record{"id": "views"}, workflow.Record{"id": "V-1"})
	res = a.get("/apps/itm/views")
	assert.Contains(t, string(res.body), `"items"`)
	res = a.get("/apps/itm/V-1")
	assert.Equal(t, http.StatusOK, res.status)
	a.srv.Seed(workflow.Tasks, "itm", workflow.Record{"id": "views", "Title": "a task"})
	res = a.get("/tasks/itm/views")
	assert.Equal(t, http.StatusOK, res.status, "only apps have views: a task whose id is views is read")
	assert.Contains(t, string(res.body), "a task")
}

// TestDemoConfiguration: the demo app has automations and views, served
// through the API.
func TestDemoConfiguration(t *testing.T) {
	a := newAPI(t)
	a.srv.SeedDemo()
	assert.Len(t, a.srv.Automations(workflow.Apps, DemoApps), 3)
	var handles []string
	for _, v := range a.srv.Views(DemoApps) {
		handles = append(handles, v.Handle)
	}
	assert.Equal(t, []string{"all-accounts", "gold-accounts", "by-tier"}, handles)
	res := a.get("/apps/" + DemoApps + "/automations")
	require.Equal(t, http.StatusOK, res.status)
	assert.Contains(t, string(res.body), "Welcome new accounts")
	res = a.get("/apps/" + DemoApps + "/views/gold-accounts")
	require.Equal(t, http.StatusOK, res.status)
	assert.Contains(t, string(res.body), `"filter":{"Tier":"Gold"}`)
}

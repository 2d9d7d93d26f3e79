package workflowtest

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

func TestRelatedItems(t *testing.T) {
	a := newAPI(t)
	a.srv.Seed(workflow.Apps, "crm", workflow.Record{"Name": "acme"})
	a.srv.Seed(workflow.Elements, "parts", workflow.Record{"Name": "bolt"}, workflow.Record{"Name": "nut"})
	other := a.srv.AddUser("d@example.com", "D", "D")
	a.srv.Deny(other.UserID, workflow.Apps, "crm")
	a.srv.Define(workflow.Elements, "secret")
	a.srv.Seed(workflow.Elements, "secret", workflow.Record{"id": "s1"})
	a.srv.Deny(DefaultUserID, workflow.Elements, "secret")

	res := a.do(http.MethodPost, "/apps/crm/1/related-items", map[string]string{"recordType": "elements", "alias": "parts", "recordId": "2"})
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	var rel relationJSON
	res.decode(&rel)
	assert.Equal(t, relationJSON{ID: "r1", RecordType: "elements", Alias: "parts", RecordID: "2"}, rel)
	res = a.do(http.MethodPost, "/apps/crm/1/related-items", map[string]string{"recordType": "elements", "alias": "parts", "recordId": "3"})
	require.Equal(t, http.StatusCreated, res.status)

	var rels []relationJSON
	res = a.get("/apps/crm/1/related-items")
	require.Equal(t, http.StatusOK, res.status)
	res.decode(&rels)
	assert.Equal(t, []relationJSON{
		{ID: "r1", RecordType: "elements", Alias: "parts", RecordID: "2"},
		{ID: "r2", RecordType: "elements", Alias: "parts", RecordID: "3"},
	}, rels)
	assert.Equal(t, []string{"elements/parts/2", "elements/parts/3"}, a.srv.Related(workflow.Apps, "crm", "1"))

	require.Equal(t, http.StatusNoContent, a.do(http.MethodDelete, "/apps/crm/1/related-items/r1", nil).status)
	assert.Equal(t, []string{"elements/parts/3"}, a.srv.Related(workflow.Apps, "crm", "1"))
	expectError(t, a.do(http.MethodDelete, "/apps/crm/1/related-items/r1", nil), 404)

	item := map[string]string{"recordType": "elements", "alias": "parts", "recordId": "2"}
	tests := []struct {
		name   string
		api    *api
		path   string
		body   any
		status int
		msg    string
	}{
		{"two items at once", a, "/apps/crm/1/related-items", []any{item, item}, 400, "one per call"},
		{"missing field", a, "/apps/crm/1/related-items", map[string]string{"recordType": "elements", "alias": "parts"}, 400, "required"},
		{"unknown field", a, "/apps/crm/1/related-items", map[string]string{"recordType": "elements", "alias": "parts", "recordId": "2", "x": "y"}, 400, "unknown field"},
		{"bad record type", a, "/apps/crm/1/related-items", map[string]string{"recordType": "things", "alias": "parts", "recordId": "2"}, 400, "things"},
		{"target does not exist", a, "/apps/crm/1/related-items", map[string]string{"recordType": "elements", "alias": "parts", "recordId": "99"}, 400, "does not exist"},
		{"already related", a, "/apps/crm/1/related-items", map[string]string{"recordType": "elements", "alias": "parts", "recordId": "3"}, 400, "already related"},
		{"itself", a, "/apps/crm/1/related-items", map[string]string{"recordType": "apps", "alias": "crm", "recordId": "1"}, 400, "itself"},
		{"target denied", a, "/apps/crm/1/related-items", map[string]string{"recordType": "elements", "alias": "secret", "recordId": "s1"}, 403, "permission"},
		{"record not found", a, "/apps/crm/7/related-items", item, 404, "7"},
		{"denied", a.as(other), "/apps/crm/1/related-items", item, 403, "permission"},
		{"no token", &api{t: t, srv: a.srv}, "/apps/crm/1/related-items", item, 401, "token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.api.t = t
			assert.Contains(t, expectError(t, tc.api.do(http.MethodPost, tc.path, tc.body), tc.status), tc.msg)
		})
	}
	a.t = t
	expectError(t, a.get("/apps/crm/7/related-items"), 404)
	expectError(t, a.as(other).get("/apps/crm/1/related-items"), 403)
	expectError(t, a.as(other).do(http.MethodDelete, "/apps/crm/1/related-items/r2", nil), 403)
	expectError(t, (&api{t: t, srv: a.srv}).get("/apps/crm/1/related-items"), 401)
}

func TestWatchers(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	bob := a.srv.AddUser("bob@example.com", "Bob", "Builder")
	eve := a.srv.AddUser("eve@example.com", "Eve", "")
	a.srv.Deny(eve.UserID, workflow.Tasks, "it")

	require.Equal(t, http.StatusNoContent, a.do(http.MethodPost, "/tasks/it/1/watchers", map[string][]string{"userIds": {bob.UserID, "u1"}}).status)
	require.Equal(t, http.StatusNoContent, a.do(http.MethodPost, "/tasks/it/1/watchers", map[string][]string{"userIds": {bob.UserID, eve.UserID}}).status)
	assert.Equal(t, []string{"u2", "u1", "u3"}, a.srv.Watchers(workflow.Tasks, "it", "1"), "no duplicates, in order")

	var ws []watcherJSON
	res := a.get("/tasks/it/1/watchers")
	require.Equal(t, http.StatusOK, res.status)
	res.decode(&ws)
	assert.Equal(t, []watcherJSON{
		{UserID: "u2", Email: "bob@example.com", Name: "Bob Builder"},
		{UserID: "u1", Email: DefaultUserEmail, Name: "Default User"},
		{UserID: "u3", Email: "eve@example.com", Name: "Eve"},
	}, ws)

	require.Equal(t, http.StatusNoContent, a.do(http.MethodDelete, "/tasks/it/1/watchers", map[string][]string{"userIds": {"u1", "u3"}}).status)
	assert.Equal(t, []string{"u2"}, a.srv.Watchers(workflow.Tasks, "it", "1"))

	for _, m := range []string{http.MethodPost, http.MethodDelete} {
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", map[string][]string{"userIds": {"u9", "u2", "u8"}}), 400), "u9, u8")
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", map[string][]string{"userIds": {}}), 400), "at least one")
		expectError(t, a.do(m, "/tasks/it/1/watchers", []byte(`{"users": ["u1"]}`)), 400)
		expectError(t, a.do(m, "/tasks/it/1/watchers", []byte(`["u1"]`)), 400)
		expectError(t, a.do(m, "/tasks/it/5/watchers", map[string][]string{"userIds": {"u1"}}), 404)
		expectError(t, a.as(eve).do(m, "/tasks/it/1/watchers", map[string][]string{"userIds": {"u1"}}), 403)
		expectError(t, (&api{t: t, srv: a.srv}).do(m, "/tasks/it/1/watchers", map[string][]string{"userIds": {"u1"}}), 401)
	}
	expectError(t, a.get("/tasks/it/5/watchers"), 404)
	expectError(t, a.as(eve).get("/tasks/it/1/watchers"), 403)
	assert.Equal(t, []string{"u2"}, a.srv.Watchers(workflow.Tasks, "it", "1"))
}

func TestComments(t *testing.T) {
	a := newAPI(t, WithClock(fixedClock()))
	seedTasks(a.srv, 1)
	bob := a.srv.AddUser("bob@example.com", "Bob", "B")
	eve := a.srv.AddUser("eve@example.com", "Eve", "E")
	a.srv.Deny(eve.UserID, workflow.Tasks, "it")

	res := a.do(http.MethodPost, "/tasks/it/1/comment", map[string]string{"text": "first"})
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	var c commentJSON
	res.decode(&c)
	assert.Equal(t, commentJSON{ID: "c1", Text: "first", AuthorID: "u1", CreatedAt: "2024-03-01T09:00:00.000Z"}, c)
	a.srv.Advance(time.Minute)
	require.Equal(t, http.StatusCreated, a.as(bob).do(http.MethodPost, "/tasks/it/1/comment", map[string]string{"text": "second"}).status)

	var cs []commentJSON
	res = a.get("/tasks/it/1/comment")
	require.Equal(t, http.StatusOK, res.status)
	res.decode(&cs)
	assert.Equal(t, []commentJSON{
		{ID: "c1", Text: "first", AuthorID: "u1", CreatedAt: "2024-03-01T09:00:00.000Z"},
		{ID: "c2", Text: "second", AuthorID: "u2", CreatedAt: "2024-03-01T09:01:00.000Z"},
	}, cs)
	assert.Equal(t, []string{"first", "second"}, a.srv.Comments(workflow.Tasks, "it", "1"))

	expectError(t, a.do(http.MethodPost, "/tasks/it/1/comment", map[string]string{"text": "  "}), 400)
	expectError(t, a.do(http.MethodPost, "/tasks/it/1/comment", map[string]string{"body": "x"}), 400)
	expectError(t, a.do(http.MethodPost, "/tasks/it/2/comment", map[string]string{"text": "x"}), 404)
	expectError(t, a.get("/tasks/it/2/comment"), 404)
	expectError(t, a.as(eve).do(http.MethodPost, "/tasks/it/1/comment", map[string]string{"text": "x"}), 403)
	expectError(t, a.as(eve).get("/tasks/it/1/comment"), 403)
	expectError(t, (&api{t: t, srv: a.srv}).get("/tasks/it/1/comment"), 401)
	expectError(t, a.get("/tasks/it/1/comments"), 404)
}

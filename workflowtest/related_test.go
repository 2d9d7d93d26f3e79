package workflowtest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// subPage is a decoded Paged<X> list: the items are the objects themselves.
type subPage[T any] struct {
	Items  []T          `json:"items"`
	Total  int          `json:"total"`
	Paging pagingStatus `json:"paging"`
}

// getPage fetches a Paged<X> list and requires a 200 with a JSON body.
func getPage[T any](a *api, path string, q url.Values) subPage[T] {
	a.t.Helper()
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	res := a.get(path)
	require.Equal(a.t, http.StatusOK, res.status, "GET %s: %s", path, res.body)
	require.Equal(a.t, "application/json", res.header.Get("Content-Type"))
	var p subPage[T]
	res.decode(&p)
	require.NotNil(a.t, p.Items, "items is [] when empty, never null or absent")
	return p
}

// doText sends an API request with a text body and the given Content-Type
// (none when empty).
func (a *api) doText(method, path, contentType, body string) *result {
	a.t.Helper()
	req, err := http.NewRequestWithContext(a.t.Context(), method, a.srv.BaseURL()+path, strings.NewReader(body))
	require.NoError(a.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	return a.send(req)
}

// requireNoBody requires a status and an empty body.
func requireNoBody(t *testing.T, res *result, status int) {
	t.Helper()
	require.Equal(t, status, res.status, "body: %s", res.body)
	assert.Empty(t, res.body)
}

func TestRelatedItems(t *testing.T) {
	a := newAPI(t)
	a.srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "A-1", "Name": "acme"})
	a.srv.Seed(workflow.Elements, "parts", workflow.Record{"id": "E-1", "Name": "bolt"}, workflow.Record{"id": "E-2", "Name": "nut"})
	a.srv.Seed(workflow.Tasks, "todo", workflow.Record{"id": "TSK-4"})

	requireNoBody(t, a.do(http.MethodPost, "/apps/crm/A-1/related-items", map[string]string{"id": "E-1", "alias": "parts"}), http.StatusCreated)
	requireNoBody(t, a.do(http.MethodPost, "/apps/crm/A-1/related-items", map[string]string{"id": "TSK-4"}), http.StatusCreated)
	assert.Equal(t, []string{"elements/parts/E-1", "tasks/todo/TSK-4"}, a.srv.Related(workflow.Apps, "crm", "A-1"))

	p := getPage[relatedItemJSON](a, "/apps/crm/A-1/related-items", nil)
	require.Len(t, p.Items, 2)
	assert.Equal(t, 2, p.Total)
	assert.Equal(t, "E-1", p.Items[0].ID)
	assert.Equal(t, "ELEMENT", p.Items[0].Type)
	assert.Equal(t, "parts", p.Items[0].Alias)
	assert.Equal(t, relatedItemJSON{ID: "TSK-4", Type: "TASK", Alias: "todo", Cursor: p.Items[1].Cursor}, p.Items[1])
	assert.Equal(t, p.Items[0].Cursor, p.Paging.StartCursor)
	assert.Equal(t, p.Items[1].Cursor, p.Paging.EndCursor)
	assert.False(t, p.Paging.HasNextPage)

	// An item is removed by the related record's id.
	requireNoBody(t, a.do(http.MethodDelete, "/apps/crm/A-1/related-items/E-1", nil), http.StatusOK)
	assert.Equal(t, []string{"tasks/todo/TSK-4"}, a.srv.Related(workflow.Apps, "crm", "A-1"))
	expectError(t, a.do(http.MethodDelete, "/apps/crm/A-1/related-items/E-1", nil), http.StatusNotFound)
}

func TestRelatedItemsRefused(t *testing.T) {
	a := newAPI(t)
	a.srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "A-1"})
	a.srv.Seed(workflow.Elements, "parts", workflow.Record{"id": "E-1"}, workflow.Record{"id": "E-2"})
	a.srv.Seed(workflow.Elements, "spares", workflow.Record{"id": "E-2"})
	a.srv.Seed(workflow.Elements, "secret", workflow.Record{"id": "S-1"})
	a.srv.Deny(DefaultUserID, workflow.Elements, "secret")
	other := a.srv.AddUser("d@example.com", "D", "D")
	a.srv.Deny(other.UserID, workflow.Apps, "crm")
	requireNoBody(t, a.do(http.MethodPost, "/apps/crm/A-1/related-items", map[string]string{"id": "E-1"}), http.StatusCreated)

	item := map[string]string{"id": "E-2", "alias": "parts"}
	tests := []struct {
		name   string
		a      *api
		path   string
		body   any
		status int
		msg    string
	}{
		{"two items at once", a, "/apps/crm/A-1/related-items", []any{item, item}, 400, "one per call"},
		{"no id", a, "/apps/crm/A-1/related-items", map[string]string{"alias": "parts"}, 400, "id is required"},
		{"the old body", a, "/apps/crm/A-1/related-items", map[string]string{"recordType": "elements", "alias": "parts", "recordId": "E-2"}, 400, "unknown field"},
		{"no such record", a, "/apps/crm/A-1/related-items", map[string]string{"id": "E-9"}, 422, "no record"},
		{"not under that alias", a, "/apps/crm/A-1/related-items", map[string]string{"id": "E-1", "alias": "spares"}, 422, "alias"},
		{"ambiguous without alias", a, "/apps/crm/A-1/related-items", map[string]string{"id": "E-2"}, 422, "elements/parts, elements/spares"},
		{"already related", a, "/apps/crm/A-1/related-items", map[string]string{"id": "E-1", "alias": "parts"}, 422, "already related"},
		{"itself", a, "/apps/crm/A-1/related-items", map[string]string{"id": "A-1", "alias": "crm"}, 422, "itself"},
		{"target denied", a, "/apps/crm/A-1/related-items", map[string]string{"id": "S-1"}, 403, "permission"},
		{"record not found", a, "/apps/crm/A-7/related-items", item, 404, "A-7"},
		{"record denied", a.as(other), "/apps/crm/A-1/related-items", item, 403, "permission"},
		{"no token", &api{t: t, srv: a.srv}, "/apps/crm/A-1/related-items", item, 401, "token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg := expectError(t, tc.a.do(http.MethodPost, tc.path, tc.body), tc.status)
			assert.Contains(t, msg, tc.msg)
		})
	}
	assert.Equal(t, []string{"elements/parts/E-1"}, a.srv.Related(workflow.Apps, "crm", "A-1"), "nothing refused was added")
	expectError(t, a.get("/apps/crm/A-7/related-items"), 404)
	expectError(t, a.get("/apps/crm/A-1/related-items?filter=id%3D%3DE-1"), 400)
	expectError(t, a.as(other).get("/apps/crm/A-1/related-items"), 403)
	expectError(t, a.as(other).do(http.MethodDelete, "/apps/crm/A-1/related-items/E-1", nil), 403)
	expectError(t, (&api{t: t, srv: a.srv}).get("/apps/crm/A-1/related-items"), 401)
}

func TestRelatedItemsPaging(t *testing.T) {
	a := newAPI(t)
	a.srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "A-1"})
	ids := []string{"E-1", "E-2", "E-3", "E-4", "E-5"}
	for _, id := range ids {
		a.srv.Seed(workflow.Elements, "parts", workflow.Record{"id": id})
		requireNoBody(t, a.do(http.MethodPost, "/apps/crm/A-1/related-items", map[string]string{"id": id}), http.StatusCreated)
	}
	itemIDs := func(p subPage[relatedItemJSON]) []string {
		out := make([]string, len(p.Items))
		for i, it := range p.Items {
			out[i] = it.ID
		}
		return out
	}
	// Forward, two at a time, following end_cursor.
	var got []string
	q := url.Values{"first": {"2"}}
	for range 5 {
		p := getPage[relatedItemJSON](a, "/apps/crm/A-1/related-items", q)
		assert.Equal(t, 5, p.Total)
		got = append(got, itemIDs(p)...)
		if !p.Paging.HasNextPage {
			break
		}
		q.Set("after", p.Paging.EndCursor)
	}
	assert.Equal(t, ids, got)

	// Backward from the end.
	p := getPage[relatedItemJSON](a, "/apps/crm/A-1/related-items", url.Values{"last": {"2"}})
	assert.Equal(t, []string{"E-4", "E-5"}, itemIDs(p))
	assert.True(t, p.Paging.HasPreviousPage)
	assert.False(t, p.Paging.HasNextPage)
	p = getPage[relatedItemJSON](a, "/apps/crm/A-1/related-items", url.Values{"last": {"2"}, "before": {p.Paging.StartCursor}})
	assert.Equal(t, []string{"E-2", "E-3"}, itemIDs(p))

	// An item's own cursor resumes right after it.
	all := getPage[relatedItemJSON](a, "/apps/crm/A-1/related-items", nil)
	p = getPage[relatedItemJSON](a, "/apps/crm/A-1/related-items", url.Values{"after": {all.Items[2].Cursor}})
	assert.Equal(t, []string{"E-4", "E-5"}, itemIDs(p))

	// A cursor of another list is refused.
	a.srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "A-2"})
	expectError(t, a.get("/apps/crm/A-2/related-items?after="+all.Items[0].Cursor), 400)
}

func TestWatchers(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	bob := a.srv.AddUser("bob@example.com", "Bob", "Builder")
	eve := a.srv.AddUser("eve@example.com", "Eve", "E")
	a.srv.Deny(eve.UserID, workflow.Tasks, "it")
	g := a.srv.AddGroup("Ops", bob.UserID)

	users := func(list ...string) map[string][]string { return map[string][]string{"users": list} }
	requireNoBody(t, a.do(http.MethodPost, "/tasks/it/1/watchers", users("bob@example.com", DefaultUserEmail)), http.StatusCreated)
	requireNoBody(t, a.do(http.MethodPost, "/tasks/it/1/watchers", users("BOB@example.com", "eve@example.com")), http.StatusCreated)
	a.srv.WatchGroup(workflow.Tasks, "it", "1", g)
	a.srv.WatchGroup(workflow.Tasks, "it", "1", g)
	assert.Equal(t, []string{bob.UserID, DefaultUserID, eve.UserID, g}, a.srv.Watchers(workflow.Tasks, "it", "1"),
		"no duplicates (addresses compared ignoring case), in order")

	p := getPage[watcherJSON](a, "/tasks/it/1/watchers", nil)
	require.Len(t, p.Items, 4)
	assert.Equal(t, 4, p.Total)
	assert.Equal(t, watcherTargetJSON{Type: "User", ID: bob.UserID, Email: "bob@example.com", FirstName: "Bob", LastName: "Builder"}, p.Items[0].Target)
	assert.Equal(t, watcherTargetJSON{Type: "Group", ID: g, Name: "Ops"}, p.Items[3].Target)
	seen := map[string]bool{}
	for _, w := range p.Items {
		assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$`, w.ID, "a watch id is a UUID")
		assert.False(t, seen[w.ID], "watch ids are unique")
		seen[w.ID] = true
	}
	page1 := getPage[watcherJSON](a, "/tasks/it/1/watchers", url.Values{"first": {"3"}})
	assert.True(t, page1.Paging.HasNextPage)
	page2 := getPage[watcherJSON](a, "/tasks/it/1/watchers", url.Values{"first": {"3"}, "after": {page1.Paging.EndCursor}})
	require.Len(t, page2.Items, 1)
	assert.Equal(t, "Group", page2.Items[0].Target.Type)

	requireNoBody(t, a.do(http.MethodDelete, "/tasks/it/1/watchers", users(DefaultUserEmail, "eve@example.com")), http.StatusOK)
	assert.Equal(t, []string{bob.UserID, g}, a.srv.Watchers(workflow.Tasks, "it", "1"))

	for _, m := range []string{http.MethodPost, http.MethodDelete} {
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", users("nobody@example.com", "bob@example.com", "x@example.com")), 422),
			"nobody@example.com, x@example.com")
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", users()), 400), "at least one")
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", users("bob@example.com", "u2")), 400), "users[1]")
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", users("Bob <bob@example.com>")), 400), "users[0]")
		expectError(t, a.do(m, "/tasks/it/1/watchers", map[string][]string{"userIds": {bob.UserID}}), 400)
		expectError(t, a.do(m, "/tasks/it/1/watchers", []byte(`["bob@example.com"]`)), 400)
		expectError(t, a.do(m, "/tasks/it/5/watchers", users("bob@example.com")), 404)
		expectError(t, a.as(eve).do(m, "/tasks/it/1/watchers", users("bob@example.com")), 403)
		expectError(t, (&api{t: t, srv: a.srv}).do(m, "/tasks/it/1/watchers", users("bob@example.com")), 401)
	}
	expectError(t, a.get("/tasks/it/5/watchers"), 404)
	expectError(t, a.get("/tasks/it/1/watchers?filter=type%3D%3DUser"), 400)
	expectError(t, a.as(eve).get("/tasks/it/1/watchers"), 403)
	assert.Equal(t, []string{bob.UserID, g}, a.srv.Watchers(workflow.Tasks, "it", "1"), "nothing refused changed the watchers")
}

func TestComments(t *testing.T) {
	a := newAPI(t, WithClock(fixedClock()))
	seedTasks(a.srv, 1)
	bob := a.srv.AddUser("bob@example.com", "Bob", "B")
	eve := a.srv.AddUser("eve@example.com", "Eve", "E")
	a.srv.Deny(eve.UserID, workflow.Tasks, "it")

	res := a.doText(http.MethodPost, "/tasks/it/1/comment", "text/plain", "first\nline two")
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	assert.Equal(t, "text/plain; charset=utf-8", res.header.Get("Content-Type"))
	firstID := string(res.body)
	assert.Equal(t, "c0000000-0000-4000-8000-000000000001", firstID, "the reply is the new comment's id, as text")
	a.srv.Advance(time.Minute)
	res = a.as(bob).doText(http.MethodPost, "/tasks/it/1/comment", "text/plain; charset=UTF-8", "second")
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	secondID := string(res.body)

	type commentWire struct {
		ID        string         `json:"id"`
		CreatedAt string         `json:"createdAt"`
		Source    string         `json:"source"`
		Contents  string         `json:"contents"`
		CreatedBy map[string]any `json:"createdBy"`
	}
	p := getPage[commentWire](a, "/tasks/it/1/comment", nil)
	require.Len(t, p.Items, 2)
	assert.Equal(t, 2, p.Total)
	assert.Equal(t, firstID, p.Items[0].ID)
	assert.Equal(t, "2024-03-01T09:00:00.000Z", p.Items[0].CreatedAt)
	assert.Equal(t, "API", p.Items[0].Source)
	assert.Equal(t, "first\nline two", p.Items[0].Contents)
	assert.Equal(t, DefaultUserID, p.Items[0].CreatedBy["id"])
	assert.Equal(t, DefaultUserEmail, p.Items[0].CreatedBy["email"])
	assert.Equal(t, secondID, p.Items[1].ID)
	assert.Equal(t, "2024-03-01T09:01:00.000Z", p.Items[1].CreatedAt)
	assert.Equal(t, bob.UserID, p.Items[1].CreatedBy["id"])
	assert.Equal(t, []string{"first\nline two", "second"}, a.srv.Comments(workflow.Tasks, "it", "1"))

	back := getPage[commentWire](a, "/tasks/it/1/comment", url.Values{"last": {"1"}})
	require.Len(t, back.Items, 1)
	assert.Equal(t, secondID, back.Items[0].ID)
	assert.True(t, back.Paging.HasPreviousPage)

	tests := []struct {
		name, ct, body string
		a              *api
		path           string
		status         int
	}{
		{"JSON body", "application/json", `{"text":"x"}`, a, "/tasks/it/1/comment", 400},
		{"blank", "text/plain", " \n ", a, "/tasks/it/1/comment", 400},
		{"empty", "text/plain", "", a, "/tasks/it/1/comment", 400},
		{"other charset", "text/plain; charset=iso-8859-1", "caf\xe9", a, "/tasks/it/1/comment", 400},
		{"not UTF-8", "text/plain", "caf\xe9", a, "/tasks/it/1/comment", 400},
		{"no record", "text/plain", "x", a, "/tasks/it/2/comment", 404},
		{"denied", "text/plain", "x", a.as(eve), "/tasks/it/1/comment", 403},
		{"no token", "text/plain", "x", &api{t: t, srv: a.srv}, "/tasks/it/1/comment", 401},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectError(t, tc.a.doText(http.MethodPost, tc.path, tc.ct, tc.body), tc.status)
		})
	}
	assert.Len(t, a.srv.Comments(workflow.Tasks, "it", "1"), 2, "nothing refused was added")
	res = a.doText(http.MethodPost, "/tasks/it/1/comment", "", "no Content-Type is read as text")
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)

	expectError(t, a.get("/tasks/it/2/comment"), 404)
	expectError(t, a.get("/tasks/it/1/comment?filter=source%3D%3DAPI"), 400)
	expectError(t, a.as(eve).get("/tasks/it/1/comment"), 403)
	expectError(t, (&api{t: t, srv: a.srv}).get("/tasks/it/1/comment"), 401)
	expectError(t, a.get("/tasks/it/1/comments"), 404)
}

package workflowtest

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// watcherWire is a watcher as the tests read it.
type watcherWire struct {
	ID     string            `json:"id"`
	Target watcherTargetWire `json:"target"`
}

// watcherTargetWire is a watcher's target, a user or a group.
type watcherTargetWire struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Name      string `json:"name"`
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

	p := getPage[watcherWire](a, "/tasks/it/1/watchers", nil)
	require.Len(t, p.Items, 4)
	assert.Equal(t, 4, p.Total)
	assert.Equal(t, watcherTargetWire{Type: "User", ID: bob.UserID, Email: "bob@example.com", FirstName: "Bob", LastName: "Builder"}, p.Items[0].Target)
	assert.Equal(t, watcherTargetWire{Type: "Group", ID: g, Name: "Ops"}, p.Items[3].Target)
	seen := map[string]bool{}
	for _, w := range p.Items {
		assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$`, w.ID, "a watch id is a UUID")
		assert.False(t, seen[w.ID], "watch ids are unique")
		seen[w.ID] = true
	}
	page1 := getPage[watcherWire](a, "/tasks/it/1/watchers", url.Values{"first": {"3"}})
	assert.True(t, page1.Paging.HasNextPage)
	page2 := getPage[watcherWire](a, "/tasks/it/1/watchers", url.Values{"first": {"3"}, "after": {page1.Paging.EndCursor}})
	require.Len(t, page2.Items, 1)
	assert.Equal(t, "Group", page2.Items[0].Target.Type)

	requireNoBody(t, a.do(http.MethodDelete, "/tasks/it/1/watchers", users(DefaultUserEmail, "eve@example.com")), http.StatusOK)
	assert.Equal(t, []string{bob.UserID, g}, a.srv.Watchers(workflow.Tasks, "it", "1"))

	for _, m := range []string{http.MethodPost, http.MethodDelete} {
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", users("nobody@example.com", "bob@example.com", "x@example.com")), 422),
			"nobody@example.com, x@example.com")
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", users()), 400), "invalid /users: must be an array, not null")
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", users("bob@example.com", "u2")), 400), "invalid /users/1: must be an e-mail address")
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", users("Bob <bob@example.com>")), 400), "invalid /users/0: must be an e-mail address")
		assert.Contains(t, expectError(t, a.do(m, "/tasks/it/1/watchers", []byte(`{"users":[null]}`)), 400), "invalid /users/0: must be a string, not null")
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

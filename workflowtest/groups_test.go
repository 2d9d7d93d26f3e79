package workflowtest

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGroups(t *testing.T) {
	a := newAPI(t)
	bob := a.srv.AddUser("bob@example.com", "Bob", "B")
	carol := a.srv.AddUser("carol@example.com", "Carol", "C")
	g1 := a.srv.AddGroup("Support", uid(1), bob.UserID)
	g2 := a.srv.AddGroup("Ops")
	g3 := a.srv.AddDynamicGroup("Everyone", "example.com")
	assert.Equal(t, []string{gid(1), gid(2), gid(3)}, []string{g1, g2, g3})
	assert.Panics(t, func() { a.srv.AddGroup("x", uid(99)) })

	res := a.get("/groups/" + gid(1))
	require.Equal(t, http.StatusOK, res.status)
	assert.JSONEq(t, `{"id":"`+gid(1)+`","name":"Support","assignable":true,"watchable":true,"mentionable":true,
		"managed":false,"dynamic":false,"domains":[]}`, string(res.body))
	res = a.get("/groups/" + gid(3))
	assert.JSONEq(t, `{"id":"`+gid(3)+`","name":"Everyone","assignable":false,"watchable":false,"mentionable":false,
		"managed":true,"dynamic":true,"domains":[{"id":"`+did(1)+`","domain":"example.com"}]}`, string(res.body))

	res = a.get("/groups?first=2")
	require.Equal(t, http.StatusOK, res.status)
	var gl struct {
		Items  []groupJSON  `json:"items"`
		Total  int          `json:"total"`
		Paging pagingStatus `json:"paging"`
	}
	res.decode(&gl)
	assert.Equal(t, 3, gl.Total)
	assert.Equal(t, "Ops", gl.Items[1].Name)
	assert.True(t, gl.Paging.HasNextPage)
	res = a.get("/groups?after=" + gl.Paging.EndCursor)
	res.decode(&gl)
	assert.Equal(t, []groupJSON{{ID: gid(3), Name: "Everyone", Managed: true, Dynamic: true, Domains: []domainJSON{{ID: did(1), Domain: "example.com"}}}}, gl.Items)
	assert.Contains(t, expectError(t, a.get("/groups?filter=name==Ops"), 400), "no filter")

	assert.Equal(t, []string{uid(1), uid(2)}, a.users("/groups/"+gid(1)+"/users", nil).ids())
	add := a.do(http.MethodPost, "/groups/"+gid(1)+"/users", map[string][]string{"userIds": {carol.UserID, uid(1)}})
	require.Equal(t, http.StatusCreated, add.status)
	assert.Empty(t, add.body)
	assert.Equal(t, []string{uid(1), uid(2), uid(3)}, a.srv.Members(gid(1)))
	del := a.do(http.MethodDelete, "/groups/"+gid(1)+"/users", map[string][]string{"userIds": {uid(1)}})
	require.Equal(t, http.StatusOK, del.status)
	assert.Empty(t, del.body)
	assert.Equal(t, []string{uid(2), uid(3)}, a.srv.Members(gid(1)))
	l := a.users("/groups/"+gid(1)+"/users", url.Values{"first": {"1"}})
	assert.Equal(t, []string{uid(2)}, l.ids())
	assert.Equal(t, 2, l.Total)
	assert.True(t, l.Paging.HasNextPage)
	// A cursor stays valid when members are removed and added.
	require.Equal(t, http.StatusOK, a.do(http.MethodDelete, "/groups/"+gid(1)+"/users", map[string][]string{"userIds": {uid(2)}}).status)
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/groups/"+gid(1)+"/users", map[string][]string{"userIds": {uid(1)}}).status)
	l = a.users("/groups/"+gid(1)+"/users", url.Values{"after": {l.Paging.EndCursor}})
	assert.Equal(t, []string{uid(3), uid(1)}, l.ids())
	expectError(t, a.get("/groups/"+gid(1)+"/users?filter=firstName==Carol"), 400)
	assert.Contains(t, expectError(t, a.do(http.MethodPost, "/groups/"+gid(3)+"/users", map[string][]string{"userIds": {uid(1)}}), 422), "dynamic")

	for _, m := range []string{http.MethodPost, http.MethodDelete} {
		assert.Contains(t, expectError(t, a.do(m, "/groups/"+gid(1)+"/users", map[string][]string{"userIds": {uid(7)}}), 422), uid(7))
		expectError(t, a.do(m, "/groups/"+gid(1)+"/users", map[string][]string{"userIds": nil}), 400)
		expectError(t, a.do(m, "/groups/"+gid(9)+"/users", map[string][]string{"userIds": {uid(1)}}), 404)
	}
	expectError(t, a.get("/groups/"+gid(9)), 404)
	expectError(t, a.get("/groups/"+gid(9)+"/users"), 404)
	expectError(t, a.get("/groups/"+gid(1)+"/users?last=1001"), 400)

	a.srv.DenyAdmin(bob.UserID)
	b := a.as(bob)
	expectError(t, b.get("/groups"), 403)
	expectError(t, b.get("/groups/"+gid(1)), 403)
	expectError(t, b.get("/groups/"+gid(1)+"/users"), 403)
	expectError(t, b.do(http.MethodPost, "/groups", map[string]any{"name": "x"}), 403)
	expectError(t, b.do(http.MethodPut, "/groups/"+gid(1), map[string]any{"name": "x"}), 403)
	expectError(t, b.do(http.MethodPost, "/groups/"+gid(1)+"/users", map[string][]string{"userIds": {uid(2)}}), 403)
	expectError(t, b.do(http.MethodDelete, "/groups/"+gid(1)+"/users", map[string][]string{"userIds": {uid(2)}}), 403)
	n := &api{t: t, srv: a.srv}
	expectError(t, n.get("/groups"), 401)
	expectError(t, n.get("/groups/"+gid(1)), 401)
	expectError(t, n.do(http.MethodPost, "/groups/"+gid(1)+"/users", map[string][]string{"userIds": {uid(2)}}), 401)
}

func TestGroupsCreateUpdate(t *testing.T) {
	a := newAPI(t)
	bob := a.srv.AddUser("bob@example.com", "Bob", "B")
	res := a.do(http.MethodPost, "/groups", map[string]any{
		"name": "Approvers", "assignable": true, "approver": true, "hidden": false, "tags": []string{"finance"},
		"userIds": []string{uid(1), bob.UserID},
	})
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	assert.JSONEq(t, `{"id":"`+gid(1)+`","name":"Approvers","assignable":true,"watchable":false,"mentionable":false,
		"managed":false,"dynamic":false,"domains":[]}`, string(res.body))
	info, ok := a.srv.Group(gid(1))
	require.True(t, ok)
	assert.Equal(t, GroupInfo{ID: gid(1), Name: "Approvers", Flags: GroupFlags{Assignable: true, Approver: true},
		Tags: []string{"finance"}, Members: []string{uid(1), uid(2)}}, info)

	// PUT changes what it sends and keeps the rest.
	res = a.do(http.MethodPut, "/groups/"+gid(1), map[string]any{"watchable": true, "userIds": []string{bob.UserID}})
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	info, _ = a.srv.Group(gid(1))
	assert.Equal(t, GroupInfo{ID: gid(1), Name: "Approvers", Flags: GroupFlags{Assignable: true, Watchable: true, Approver: true},
		Tags: []string{"finance"}, Members: []string{uid(2)}}, info)

	// Turning the group dynamic drops its members for domains.
	res = a.do(http.MethodPut, "/groups/"+gid(1), map[string]any{"dynamic": true, "domains": []string{"example.com"}})
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	info, _ = a.srv.Group(gid(1))
	assert.Equal(t, []string{"example.com"}, info.Domains)
	assert.Empty(t, info.Members)

	for _, tc := range []struct {
		method, path string
		body         any
		status       int
		want         string
	}{
		{http.MethodPost, "/groups", map[string]any{"assignable": true}, 422, "invalid /name: a new group needs a name"},
		{http.MethodPost, "/groups", map[string]any{"name": nil}, 400, "invalid /name: must be a string, not null"},
		{http.MethodPost, "/groups", map[string]any{"name": "x", "domains": []string{"a.com"}}, 422, "dynamic"},
		{http.MethodPost, "/groups", map[string]any{"name": "x", "dynamic": true, "userIds": []string{uid(1)}}, 422, "not dynamic"},
		{http.MethodPost, "/groups", map[string]any{"name": "x", "userIds": []string{uid(9)}}, 422, uid(9)},
		{http.MethodPost, "/groups", map[string]any{"name": "x", "userIds": []string{"u9"}}, 400, "invalid /userIds/0: must be a UUID"},
		{http.MethodPost, "/groups", map[string]any{"name": "x", "tags": []any{nil}}, 400, "invalid /tags/0: must be a string, not null"},
		{http.MethodPut, "/groups/" + gid(1), map[string]any{"userIds": []string{uid(1)}}, 422, "not dynamic"},
		{http.MethodPut, "/groups/" + gid(9), map[string]any{"name": "x"}, 404, gid(9)},
	} {
		assert.Contains(t, expectError(t, a.do(tc.method, tc.path, tc.body), tc.status), tc.want, "%s %s %v", tc.method, tc.path, tc.body)
	}
	info, _ = a.srv.Group(gid(1))
	assert.Equal(t, "Approvers", info.Name, "a refused PUT changes nothing")
}

// A PUT keeps what its body leaves out, and an empty list empties: the
// members and tags of a group, the domains of a dynamic one.
func TestGroupsUpdateKeepsAndEmpties(t *testing.T) {
	a := newAPI(t)
	g := a.srv.AddGroup("Support", uid(1))
	dyn := a.srv.AddDynamicGroup("Everyone", "example.com")
	put := func(id string, body map[string]any) GroupInfo {
		t.Helper()
		res := a.do(http.MethodPut, "/groups/"+id, body)
		require.Equal(t, http.StatusOK, res.status, "%s", res.body)
		info, _ := a.srv.Group(id)
		return info
	}
	info := put(g, map[string]any{"tags": []string{"a"}, "hidden": true})
	assert.Equal(t, GroupInfo{ID: g, Name: "Support", Flags: GroupFlags{Assignable: true, Watchable: true, Mentionable: true, Hidden: true},
		Tags: []string{"a"}, Members: []string{uid(1)}}, info)
	info = put(g, map[string]any{"userIds": []string{}, "tags": []string{}})
	assert.Empty(t, info.Members)
	assert.Empty(t, info.Tags)
	assert.True(t, info.Flags.Hidden)

	info = put(dyn, map[string]any{"name": "All"})
	assert.Equal(t, []string{"example.com"}, info.Domains)
	info = put(dyn, map[string]any{"domains": []string{}})
	assert.Empty(t, info.Domains)
	assert.Equal(t, "All", info.Name)
}

package workflowtest

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUsers(t *testing.T) {
	a := newAPI(t, WithClock(fixedClock()))
	res := a.do(http.MethodPost, "/users", map[string]string{"email": "new@example.com", "firstName": "New", "lastName": "Person"})
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	var u userJSON
	res.decode(&u)
	assert.Equal(t, userJSON{ID: "u2", Email: "new@example.com", FirstName: "New", LastName: "Person", Active: true,
		CreatedAt: "2024-03-01T09:00:00.000Z", UpdatedAt: "2024-03-01T09:00:00.000Z"}, u)

	res = a.get("/users/u2")
	require.Equal(t, http.StatusOK, res.status)
	var got userJSON
	res.decode(&got)
	assert.Equal(t, u, got)

	a.srv.Advance(time.Hour)
	res = a.do(http.MethodPost, "/users/u2/deactivate", nil)
	require.Equal(t, http.StatusOK, res.status)
	res.decode(&got)
	assert.False(t, got.Active)
	assert.Equal(t, "2024-03-01T10:00:00.000Z", got.UpdatedAt)
	res = a.do(http.MethodPost, "/users/u2/deactivate", nil)
	require.Equal(t, http.StatusOK, res.status, "deactivating twice is fine")
	assert.False(t, a.srv.Users()[1].Active)

	for _, body := range []any{
		map[string]string{"email": "NEW@example.com"},
		map[string]string{"email": "not-an-email"},
		map[string]string{"email": ""},
		map[string]string{"email": "x@example.com", "role": "admin"},
		[]byte(`[]`),
	} {
		expectError(t, a.do(http.MethodPost, "/users", body), 400)
	}
	expectError(t, a.get("/users/u9"), 404)
	expectError(t, a.do(http.MethodPost, "/users/u9/deactivate", nil), 404)

	denied := a.srv.AddUser("no@example.com", "No", "Admin")
	a.srv.DenyAdmin(denied.UserID)
	d := a.as(denied)
	expectError(t, d.get("/users"), 403)
	expectError(t, d.get("/users/u1"), 403)
	expectError(t, d.do(http.MethodPost, "/users", map[string]string{"email": "z@example.com"}), 403)
	expectError(t, d.do(http.MethodPost, "/users", []byte("nonsense")), 403)
	expectError(t, d.do(http.MethodPost, "/users/u1/deactivate", nil), 403)
	assert.True(t, a.srv.Users()[0].Active)
	b := &api{t: t, srv: a.srv}
	expectError(t, b.get("/users"), 401)
	expectError(t, b.do(http.MethodPost, "/users/u1/deactivate", nil), 401)
}

// userList is a decoded paged list of users.
type userList struct {
	Items []struct {
		Data   userJSON `json:"data"`
		Cursor string   `json:"cursor"`
	} `json:"items"`
	Total  int          `json:"total"`
	Paging pagingStatus `json:"paging"`
}

func (l *userList) ids() []string {
	var out []string
	for _, it := range l.Items {
		out = append(out, it.Data.ID)
	}
	return out
}

func (a *api) users(path string, q url.Values) *userList {
	a.t.Helper()
	res := a.get(path + "?" + q.Encode())
	require.Equal(a.t, http.StatusOK, res.status, "%s", res.body)
	var l userList
	res.decode(&l)
	return &l
}

func TestListUsersPaged(t *testing.T) {
	a := newAPI(t)
	for _, e := range []string{"b@example.com", "c@example.com", "d@example.com", "e@example.com"} {
		a.srv.AddUser(e, "F", "L")
	}
	a.srv.DeactivateUser("u3")
	l := a.users("/users", url.Values{"first": {"2"}})
	assert.Equal(t, []string{"u1", "u2"}, l.ids())
	assert.Equal(t, 5, l.Total)
	assert.True(t, l.Paging.HasNextPage)
	l = a.users("/users", url.Values{"first": {"2"}, "after": {l.Paging.EndCursor}})
	assert.Equal(t, []string{"u3", "u4"}, l.ids())
	l = a.users("/users", url.Values{"last": {"2"}})
	assert.Equal(t, []string{"u4", "u5"}, l.ids())
	assert.True(t, l.Paging.HasPreviousPage)
	l = a.users("/users", url.Values{"filter": {"active==false"}})
	assert.Equal(t, []string{"u3"}, l.ids())
	l = a.users("/users", url.Values{"filter": {"email=lki=MIN@,email==e@example.com"}})
	assert.Equal(t, []string{"u1", "u5"}, l.ids(), "admin@example.com and e@example.com")
	expectError(t, a.get("/users?first=0"), 400)
	expectError(t, a.get("/users?filter=email%3D%3D"), 400)
	c := a.users("/users", url.Values{"first": {"1"}}).Paging.EndCursor
	expectError(t, a.get("/groups?after="+c), 400)
}

func TestGroups(t *testing.T) {
	a := newAPI(t)
	bob := a.srv.AddUser("bob@example.com", "Bob", "B")
	carol := a.srv.AddUser("carol@example.com", "Carol", "C")
	g1 := a.srv.AddGroup("Support", "first line", "u1", bob.UserID)
	g2 := a.srv.AddGroup("Ops", "")
	assert.Equal(t, []string{"g1", "g2"}, []string{g1, g2})
	assert.Panics(t, func() { a.srv.AddGroup("x", "", "u99") })

	res := a.get("/groups/g1")
	require.Equal(t, http.StatusOK, res.status)
	var g groupJSON
	res.decode(&g)
	assert.Equal(t, groupJSON{ID: "g1", Name: "Support", Description: "first line"}, g)

	res = a.get("/groups")
	require.Equal(t, http.StatusOK, res.status)
	var gl struct {
		Items []struct {
			Data   groupJSON `json:"data"`
			Cursor string    `json:"cursor"`
		} `json:"items"`
		Total int `json:"total"`
	}
	res.decode(&gl)
	assert.Equal(t, 2, gl.Total)
	assert.Equal(t, "Ops", gl.Items[1].Data.Name)
	assert.NotEmpty(t, gl.Items[1].Cursor)

	assert.Equal(t, []string{"u1", "u2"}, a.users("/groups/g1/users", nil).ids())
	require.Equal(t, http.StatusNoContent, a.do(http.MethodPost, "/groups/g1/users", map[string][]string{"userIds": {carol.UserID, "u1"}}).status)
	assert.Equal(t, []string{"u1", "u2", "u3"}, a.srv.Members("g1"))
	require.Equal(t, http.StatusNoContent, a.do(http.MethodDelete, "/groups/g1/users", map[string][]string{"userIds": {"u1"}}).status)
	assert.Equal(t, []string{"u2", "u3"}, a.srv.Members("g1"))
	l := a.users("/groups/g1/users", url.Values{"first": {"1"}})
	assert.Equal(t, []string{"u2"}, l.ids())
	assert.Equal(t, 2, l.Total)
	assert.True(t, l.Paging.HasNextPage)
	// A cursor stays valid when members are removed and added.
	require.Equal(t, http.StatusNoContent, a.do(http.MethodDelete, "/groups/g1/users", map[string][]string{"userIds": {"u2"}}).status)
	require.Equal(t, http.StatusNoContent, a.do(http.MethodPost, "/groups/g1/users", map[string][]string{"userIds": {"u1"}}).status)
	l = a.users("/groups/g1/users", url.Values{"after": {l.Paging.EndCursor}})
	assert.Equal(t, []string{"u3", "u1"}, l.ids())
	assert.Equal(t, 2, a.users("/groups/g1/users", url.Values{"filter": {"firstName=in=Carol:Default"}}).Total)

	for _, m := range []string{http.MethodPost, http.MethodDelete} {
		assert.Contains(t, expectError(t, a.do(m, "/groups/g1/users", map[string][]string{"userIds": {"u7"}}), 400), "u7")
		expectError(t, a.do(m, "/groups/g1/users", map[string][]string{"userIds": nil}), 400)
		expectError(t, a.do(m, "/groups/g9/users", map[string][]string{"userIds": {"u1"}}), 404)
	}
	expectError(t, a.get("/groups/g9"), 404)
	expectError(t, a.get("/groups/g9/users"), 404)
	expectError(t, a.get("/groups/g1/users?last=1001"), 400)

	a.srv.DenyAdmin(bob.UserID)
	b := a.as(bob)
	expectError(t, b.get("/groups"), 403)
	expectError(t, b.get("/groups/g1"), 403)
	expectError(t, b.get("/groups/g1/users"), 403)
	expectError(t, b.do(http.MethodPost, "/groups/g1/users", map[string][]string{"userIds": {"u2"}}), 403)
	expectError(t, b.do(http.MethodDelete, "/groups/g1/users", map[string][]string{"userIds": {"u2"}}), 403)
	n := &api{t: t, srv: a.srv}
	expectError(t, n.get("/groups"), 401)
	expectError(t, n.get("/groups/g1"), 401)
	expectError(t, n.do(http.MethodPost, "/groups/g1/users", map[string][]string{"userIds": {"u2"}}), 401)
}

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
	res := a.do(http.MethodPost, "/users", map[string]any{
		"email": "new@example.com", "firstName": "New", "lastName": "Person", "jobTitle": "Clerk", "neverNotify": true,
	})
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	assert.JSONEq(t, `{"id":"`+uid(2)+`","email":"new@example.com","firstName":"New","lastName":"Person","status":"ACTIVE","jobTitle":"Clerk"}`, string(res.body))
	var u userJSON
	res.decode(&u)
	assert.True(t, a.srv.Users()[1].NeverNotify)

	res = a.get("/users/" + uid(2))
	require.Equal(t, http.StatusOK, res.status)
	var got userJSON
	res.decode(&got)
	assert.Equal(t, u, got)

	a.srv.Advance(time.Hour)
	res = a.do(http.MethodPost, "/users/"+uid(2)+"/deactivate", nil)
	require.Equal(t, http.StatusOK, res.status)
	res.decode(&got)
	assert.Equal(t, "INACTIVE", got.Status)
	res = a.do(http.MethodPost, "/users/"+uid(2)+"/deactivate", nil)
	require.Equal(t, http.StatusOK, res.status, "deactivating twice is fine")
	assert.False(t, a.srv.Users()[1].Active)

	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]string{"email": "NEW@example.com", "firstName": "N", "lastName": "P"}, "already exists"},
		{map[string]string{"email": "not-an-email", "firstName": "N", "lastName": "P"}, "email"},
		{map[string]string{"email": "Ann <ann@example.com>", "firstName": "N", "lastName": "P"}, "email"},
		{map[string]string{"email": "", "firstName": "N", "lastName": "P"}, "invalid /email: must be an e-mail address"},
		{map[string]string{"email": "x@example.com", "lastName": "P"}, "invalid /firstName: is required"},
		{map[string]string{"email": "x@example.com", "firstName": "N"}, "invalid /lastName: is required"},
		{[]byte(`{"email":"x@example.com","firstName":"N","lastName":"P","neverNotify":null}`), "invalid /neverNotify: must be a boolean, not null"},
		{[]byte(`[]`), ""},
	} {
		assert.Contains(t, expectError(t, a.do(http.MethodPost, "/users", tc.body), 400), tc.want)
	}
	expectError(t, a.get("/users/"+uid(9)), 404)
	expectError(t, a.do(http.MethodPost, "/users/"+uid(9)+"/deactivate", nil), 404)

	denied := a.srv.AddUser("no@example.com", "No", "Admin")
	a.srv.DenyAdmin(denied.UserID)
	d := a.as(denied)
	expectError(t, d.get("/users"), 403)
	expectError(t, d.get("/users/"+uid(1)), 403)
	expectError(t, d.do(http.MethodPost, "/users", map[string]string{"email": "z@example.com", "firstName": "Z", "lastName": "Z"}), 403)
	expectError(t, d.do(http.MethodPost, "/users/"+uid(1)+"/deactivate", nil), 403)
	assert.True(t, a.srv.Users()[0].Active)
	b := &api{t: t, srv: a.srv}
	expectError(t, b.get("/users"), 401)
	expectError(t, b.do(http.MethodPost, "/users/"+uid(1)+"/deactivate", nil), 401)
}

// userList is a decoded Paged<User>: the users themselves, no per-item
// cursor.
type userList struct {
	Items  []userJSON   `json:"items"`
	Total  int          `json:"total"`
	Paging pagingStatus `json:"paging"`
}

func (l *userList) ids() []string {
	var out []string
	for _, it := range l.Items {
		out = append(out, it.ID)
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
	a.srv.DeactivateUser(uid(3))
	l := a.users("/users", url.Values{"first": {"2"}})
	assert.Equal(t, []string{uid(1), uid(2)}, l.ids())
	assert.Equal(t, 5, l.Total)
	assert.True(t, l.Paging.HasNextPage)
	l = a.users("/users", url.Values{"first": {"2"}, "after": {l.Paging.EndCursor}})
	assert.Equal(t, []string{uid(3), uid(4)}, l.ids())
	l = a.users("/users", url.Values{"last": {"2"}})
	assert.Equal(t, []string{uid(4), uid(5)}, l.ids())
	assert.True(t, l.Paging.HasPreviousPage)
	l = a.users("/users", url.Values{"filter": {"status==INACTIVE"}})
	assert.Equal(t, []string{uid(3)}, l.ids())
	l = a.users("/users", url.Values{"filter": {"email=lki=MIN@,email==e@example.com"}})
	assert.Equal(t, []string{uid(1), uid(5)}, l.ids(), "admin@example.com and e@example.com")
	expectError(t, a.get("/users?first=0"), 400)
	expectError(t, a.get("/users?filter=email%3D%3D"), 400)
	c := a.users("/users", url.Values{"first": {"1"}}).Paging.EndCursor
	expectError(t, a.get("/groups?after="+c), 400)
}

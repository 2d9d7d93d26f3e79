package workflow

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGroupsRequests(t *testing.T) {
	const groupJSON = `{"id":"g1","name":"Ops","description":"On call"}`
	tests := []struct {
		name   string
		call   func(c *Client) error
		status int
		reply  string
		want   ugRequest // Body "" means no body
	}{
		{
			name:   "List without options",
			call:   func(c *Client) error { _, err := c.Groups.List(t.Context(), nil); return err },
			status: 200, reply: `[]`,
			want: ugRequest{Method: "GET", Path: "/groups"},
		},
		{
			name: "List with paging",
			call: func(c *Client) error {
				_, err := c.Groups.List(t.Context(), &ListOptions{First: 50, After: "g/9"})
				return err
			},
			status: 200, reply: `[]`,
			want: ugRequest{Method: "GET", Path: "/groups", Query: "after=g%2F9&first=50"},
		},
		{
			name: "Get",
			call: func(c *Client) error {
				g, err := c.Groups.Get(t.Context(), "g 1")
				if err == nil {
					assert.Equal(t, &Group{ID: "g1", Name: "Ops", Description: "On call"}, g)
				}
				return err
			},
			status: 200, reply: groupJSON,
			want: ugRequest{Method: "GET", Path: "/groups/g%201"},
		},
		{
			name: "Get accepts a data wrapper",
			call: func(c *Client) error {
				g, err := c.Groups.Get(t.Context(), "g1")
				if err == nil {
					assert.Equal(t, "Ops", g.Name)
				}
				return err
			},
			status: 200, reply: `{"data":` + groupJSON + `}`,
			want: ugRequest{Method: "GET", Path: "/groups/g1"},
		},
		{
			name: "Users",
			call: func(c *Client) error {
				_, err := c.Groups.Users(t.Context(), "g?1", &ListOptions{Last: 3})
				return err
			},
			status: 200, reply: `[]`,
			want: ugRequest{Method: "GET", Path: "/groups/g%3F1/users", Query: "last=3"},
		},
		{
			name:   "AddUsers",
			call:   func(c *Client) error { return c.Groups.AddUsers(t.Context(), "g1", "u1", "u 2") },
			status: 204,
			want: ugRequest{Method: "POST", Path: "/groups/g1/users", ContentType: "application/json",
				Body: `{"userIds":["u1","u 2"]}`},
		},
		{
			name:   "AddUsers ignores a 200 body",
			call:   func(c *Client) error { return c.Groups.AddUsers(t.Context(), "g1", "u1") },
			status: 200, reply: `{"ok":true}`,
			want: ugRequest{Method: "POST", Path: "/groups/g1/users", ContentType: "application/json",
				Body: `{"userIds":["u1"]}`},
		},
		{
			name:   "RemoveUsers sends a body with DELETE",
			call:   func(c *Client) error { return c.Groups.RemoveUsers(t.Context(), "g1", "u3", "u1") },
			status: 204,
			want: ugRequest{Method: "DELETE", Path: "/groups/g1/users", ContentType: "application/json",
				Body: `{"userIds":["u3","u1"]}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newUGClient(t, replyJSON(tt.status, tt.reply))
			require.NoError(t, tt.call(c))
			reqs := srv.requests()
			require.Len(t, reqs, 1)
			got := reqs[0]
			assert.Equal(t, tt.want.Method, got.Method)
			assert.Equal(t, tt.want.Path, got.Path)
			assert.Equal(t, tt.want.Query, got.Query)
			if tt.want.Body == "" {
				assert.Empty(t, got.Body)
			} else {
				assert.Equal(t, tt.want.ContentType, got.ContentType)
				assert.JSONEq(t, tt.want.Body, got.Body)
			}
		})
	}
}

func TestGroupsAddUsersDoesNotKeepCallerSlice(t *testing.T) {
	ids := []string{"u1", "u2"}
	c, srv := newUGClient(t, replyJSON(204, ""))
	require.NoError(t, c.Groups.AddUsers(t.Context(), "g1", ids...))
	assert.Equal(t, []string{"u1", "u2"}, ids)
	require.Len(t, srv.requests(), 1)
}

func TestGroupsListShapes(t *testing.T) {
	shapes := []struct {
		name      string
		body      string
		wantTotal int
	}{
		{"bare array", `[{"id":"g1","name":"Ops"},{"id":"g2","name":"Dev","description":"Builders"}]`, 2},
		{"items object", `{"items":[{"id":"g1","name":"Ops"},{"id":"g2","name":"Dev","description":"Builders"}]}`, 2},
		{"paged data and cursor", `{"items":[{"data":{"id":"g1","name":"Ops"},"cursor":"c1"},
			{"data":{"id":"g2","name":"Dev","description":"Builders"},"cursor":"c2"}],
			"total":9,"paging":{"has_next_page":false,"end_cursor":"c2"}}`, 9},
	}
	want := []Group{{ID: "g1", Name: "Ops"}, {ID: "g2", Name: "Dev", Description: "Builders"}}
	for _, shape := range shapes {
		t.Run(shape.name, func(t *testing.T) {
			c, srv := newUGClient(t, replyJSON(200, shape.body))
			page, err := c.Groups.List(t.Context(), nil)
			require.NoError(t, err)
			assert.Equal(t, want, page.Items)
			assert.Equal(t, shape.wantTotal, page.Total)

			var got []Group
			for g, err := range c.Groups.All(t.Context(), nil) {
				require.NoError(t, err)
				got = append(got, g)
			}
			assert.Equal(t, want, got)
			assert.Len(t, srv.requests(), 2, "a list without paging is fetched once")
		})
	}
}

func TestGroupsUsersListShapes(t *testing.T) {
	for _, shape := range userListShapes {
		t.Run(shape.name, func(t *testing.T) {
			c, srv := newUGClient(t, replyJSON(200, shape.body))
			page, err := c.Groups.Users(t.Context(), "g1", nil)
			require.NoError(t, err)
			want := []User{{ID: "u1", Email: "a@x", Active: true}, {ID: "u2", Email: "b@x"}}
			assert.Equal(t, want, page.Items)
			assert.Equal(t, shape.wantTotal, page.Total)

			var got []User
			for u, err := range c.Groups.AllUsers(t.Context(), "g1", nil) {
				require.NoError(t, err)
				got = append(got, u)
			}
			assert.Equal(t, want, got)
			reqs := srv.requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, "/groups/g1/users", reqs[1].Path)
		})
	}
}

func TestGroupsAllUsersFollowsCursors(t *testing.T) {
	c, srv := newUGClient(t, pagedUsersReply(t))
	var got []User
	for u, err := range c.Groups.AllUsers(t.Context(), "g1", nil) {
		require.NoError(t, err)
		got = append(got, u)
	}
	assert.Equal(t, []string{"u1", "u2", "u3", "u4", "u5"}, userIDs(got))
	reqs := srv.requests()
	require.Len(t, reqs, 3)
	for i, q := range []string{"", "after=c2", "after=c4"} {
		assert.Equal(t, "/groups/g1/users", reqs[i].Path)
		assert.Equal(t, q, reqs[i].Query)
	}
}

func TestGroupsAllFollowsCursors(t *testing.T) {
	pagesByCursor := map[string]string{
		"":  `{"items":[{"data":{"id":"g1"},"cursor":"a"}],"paging":{"has_next_page":true,"end_cursor":"a"}}`,
		"a": `{"items":[{"data":{"id":"g2"},"cursor":"b"}],"paging":{"has_next_page":true,"end_cursor":"b"}}`,
		"b": `{"items":[{"data":{"id":"g3"},"cursor":"c"}],"paging":{"has_next_page":false,"end_cursor":"c"}}`,
	}
	c, srv := newUGClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, pagesByCursor[r.URL.Query().Get("after")])
	})
	var got []string
	for g, err := range c.Groups.All(t.Context(), nil) {
		require.NoError(t, err)
		got = append(got, g.ID)
	}
	assert.Equal(t, []string{"g1", "g2", "g3"}, got)
	reqs := srv.requests()
	require.Len(t, reqs, 3)
	assert.Equal(t, "after=b", reqs[2].Query)
}

func TestGroupsAllBackward(t *testing.T) {
	pagesByCursor := map[string]string{
		"": `{"items":[{"data":{"id":"g3"},"cursor":"c3"},{"data":{"id":"g4"},"cursor":"c4"}],
			"paging":{"has_previous_page":true,"start_cursor":"c3"}}`,
		"c3": `{"items":[{"data":{"id":"g1"},"cursor":"c1"},{"data":{"id":"g2"},"cursor":"c2"}],
			"paging":{"has_previous_page":false,"start_cursor":"c1"}}`,
	}
	c, srv := newUGClient(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, pagesByCursor[r.URL.Query().Get("before")])
	})
	var got []string
	for g, err := range c.Groups.All(t.Context(), &ListOptions{Last: 2}) {
		require.NoError(t, err)
		got = append(got, g.ID)
	}
	assert.Equal(t, []string{"g4", "g3", "g2", "g1"}, got)
	reqs := srv.requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "before=c3&last=2", reqs[1].Query)
}

func TestGroupRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Group
	}{
		{
			name: "known and unknown fields",
			in: `{"id":"g1","name":"Ops","description":"On call","memberCount":3,"owner":{"id":"u1"},
				"labels":["a","b"],"parent":null,"path":"/a/b"}`,
			want: Group{ID: "g1", Name: "Ops", Description: "On call"},
		},
		{
			name: "a numeric id and a null description",
			in:   `{"id":42,"name":"Dev","description":null,"x":true}`,
			want: Group{ID: "42", Name: "Dev"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g Group
			require.NoError(t, json.Unmarshal([]byte(tt.in), &g))
			got := g
			got.Extra = nil
			assert.Equal(t, tt.want, got)
			out, err := json.Marshal(g)
			require.NoError(t, err)
			assert.JSONEq(t, tt.in, string(out))
		})
	}
}

func TestGroupExtraHoldsOnlyUnknownFields(t *testing.T) {
	var g Group
	require.NoError(t, json.Unmarshal([]byte(`{"id":"g1","name":"Ops","description":"","size":2}`), &g))
	assert.Equal(t, map[string]json.RawMessage{"size": json.RawMessage(`2`)}, g.Extra)

	g.Name = "Operations"
	g.Extra["size"] = json.RawMessage(`3`)
	out, err := json.Marshal(g)
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"g1","name":"Operations","description":"","size":3}`, string(out))
}

func TestGroupsValidation(t *testing.T) {
	tests := []struct {
		name  string
		call  func(c *Client) error
		field string
	}{
		{"Get empty id", func(c *Client) error { _, err := c.Groups.Get(t.Context(), ""); return err }, "groupID"},
		{"Get dot id", func(c *Client) error { _, err := c.Groups.Get(t.Context(), "."); return err }, "groupID"},
		{"Users empty id", func(c *Client) error { _, err := c.Groups.Users(t.Context(), "", nil); return err }, "groupID"},
		{"Users bad options", func(c *Client) error {
			_, err := c.Groups.Users(t.Context(), "g1", &ListOptions{Last: -1})
			return err
		}, "ListOptions.Last"},
		{"AllUsers empty id", func(c *Client) error {
			for _, err := range c.Groups.AllUsers(t.Context(), "", nil) {
				return err
			}
			return nil
		}, "groupID"},
		{"All bad options", func(c *Client) error {
			for _, err := range c.Groups.All(t.Context(), &ListOptions{First: 2000}) {
				return err
			}
			return nil
		}, "ListOptions.First"},
		{"AddUsers empty group id", func(c *Client) error { return c.Groups.AddUsers(t.Context(), "", "u1") }, "groupID"},
		{"AddUsers no users", func(c *Client) error { return c.Groups.AddUsers(t.Context(), "g1") }, "userIDs"},
		{"AddUsers empty slice", func(c *Client) error { return c.Groups.AddUsers(t.Context(), "g1", []string{}...) }, "userIDs"},
		{"AddUsers empty id in list", func(c *Client) error { return c.Groups.AddUsers(t.Context(), "g1", "u1", "") }, "userIDs[1]"},
		{"AddUsers blank id in list", func(c *Client) error { return c.Groups.AddUsers(t.Context(), "g1", " \t") }, "userIDs[0]"},
		{"RemoveUsers empty group id", func(c *Client) error { return c.Groups.RemoveUsers(t.Context(), "", "u1") }, "groupID"},
		{"RemoveUsers no users", func(c *Client) error { return c.Groups.RemoveUsers(t.Context(), "g1") }, "userIDs"},
		{"RemoveUsers blank id in list", func(c *Client) error {
			return c.Groups.RemoveUsers(t.Context(), "g1", "u1", "u2", "  ")
		}, "userIDs[2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newUGClient(t, nil)
			err := tt.call(c)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tt.field, ve.Field)
			assert.Empty(t, srv.requests(), "no request may be sent")
		})
	}
}

func TestGroupsErrorStatuses(t *testing.T) {
	calls := map[string]func(c *Client) error{
		"List":        func(c *Client) error { _, err := c.Groups.List(t.Context(), nil); return err },
		"Get":         func(c *Client) error { _, err := c.Groups.Get(t.Context(), "g1"); return err },
		"Users":       func(c *Client) error { _, err := c.Groups.Users(t.Context(), "g1", nil); return err },
		"AddUsers":    func(c *Client) error { return c.Groups.AddUsers(t.Context(), "g1", "u1") },
		"RemoveUsers": func(c *Client) error { return c.Groups.RemoveUsers(t.Context(), "g1", "u1") },
		"All": func(c *Client) error {
			for _, err := range c.Groups.All(t.Context(), nil) {
				return err
			}
			return errors.New("no error yielded")
		},
		"AllUsers": func(c *Client) error {
			for _, err := range c.Groups.AllUsers(t.Context(), "g1", nil) {
				return err
			}
			return errors.New("no error yielded")
		},
	}
	statuses := []struct {
		status   int
		sentinel error
	}{
		{http.StatusForbidden, ErrForbidden},
		{http.StatusNotFound, ErrNotFound},
	}
	for name, call := range calls {
		for _, st := range statuses {
			t.Run(name+"/"+http.StatusText(st.status), func(t *testing.T) {
				c, srv := newUGClient(t, replyJSON(st.status, `{"status":1,"message":"denied"}`))
				err := call(c)
				require.ErrorIs(t, err, st.sentinel)
				var ae *APIError
				require.ErrorAs(t, err, &ae)
				assert.Equal(t, st.status, ae.StatusCode)
				assert.Equal(t, "denied", ae.Message)
				assert.Len(t, srv.requests(), 1, "no retry of %d", st.status)
			})
		}
	}
}

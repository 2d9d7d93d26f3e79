package workflow

import (
	"context"
	stdjson "encoding/json"
	"net/http"
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

func TestGroupJSONRoundTrip(t *testing.T) {
	in := `{"id":"g-1","name":"Everyone","assignable":false,"watchable":true,"mentionable":true,"managed":true,` +
		`"dynamic":true,"domains":[{"id":"d-1","domain":"example.com","verified":true}],"color":"blue"}`
	var g Group
	require.NoError(t, stdjson.Unmarshal([]byte(in), &g))
	assert.Equal(t, "Everyone", g.Name)
	assert.Equal(t, []bool{false, true, true, true, true}, []bool{g.Assignable, g.Watchable, g.Mentionable, g.Managed, g.Dynamic})
	require.Len(t, g.Domains, 1)
	assert.Equal(t, "example.com", g.Domains[0].Domain)
	assert.Equal(t, []string{"verified"}, sortedKeys(g.Domains[0].Extra), "unknown members of a domain are kept too")
	assert.Equal(t, []string{"color"}, sortedKeys(g.Extra))
	for name, marshal := range map[string]func(any) ([]byte, error){
		"encoding/json": stdjson.Marshal, "go-json-experiment/json": func(v any) ([]byte, error) { return json.Marshal(v) },
	} {
		out, err := marshal(g)
		require.NoError(t, err)
		assert.JSONEq(t, in, string(out), name)
	}
	assert.Error(t, stdjson.Unmarshal([]byte(`{"dynamic":"yes"}`), &g), "a flag that is not a boolean")
}

// TestGroupsNoFilter: the service publishes no filter for groups or group
// users; a filter is refused before anything is sent.
func TestGroupsNoFilter(t *testing.T) {
	c, mt := newMockTransport(t)
	opts := &ListOptions{Filter: rsql.Field("name").Eq("Ops")}
	for name, call := range map[string]func() error{
		"List":      func() error { _, err := c.Groups.List(t.Context(), opts); return err },
		"All":       func() error { return firstErr(c.Groups.All(t.Context(), opts)) },
		"Pages":     func() error { return firstErr(c.Groups.Pages(t.Context(), opts)) },
		"ListUsers": func() error { _, err := c.Groups.Members.List(t.Context(), "g1", opts); return err },
		"AllUsers":  func() error { return firstErr(c.Groups.Members.All(t.Context(), "g1", opts)) },
		"UserPages": func() error { return firstErr(c.Groups.Members.Pages(t.Context(), "g1", opts)) },
	} {
		var ve *ValidationError
		require.ErrorAs(t, call(), &ve, name)
		assert.Equal(t, "ListOptions.Filter", ve.Field, name)
	}
	assert.Zero(t, mt.GetTotalCallCount())
}

func TestGroupsListPagesBackward(t *testing.T) {
	c, mt := newMockTransport(t)
	var queries []string
	mt.RegisterResponder(http.MethodGet, mockBase+"/groups/g%201/users", func(r *http.Request) (*http.Response, error) {
		queries = append(queries, r.URL.RawQuery)
		if r.URL.Query().Get("before") == "" {
			return jsonReply(200, `{"items":[{"id":"u3"},{"id":"u4"}],"total":4,`+
				`"paging":{"has_next_page":false,"has_previous_page":true,"start_cursor":"c3","end_cursor":"c4"}}`)(r)
		}
		return jsonReply(200, `{"items":[{"id":"u1"},{"id":"u2"}],"total":4,`+
			`"paging":{"has_next_page":true,"has_previous_page":false,"start_cursor":"c1","end_cursor":"c2"}}`)(r)
	})
	var got []User
	for u, err := range c.Groups.Members.All(t.Context(), "g 1", &ListOptions{Last: 2}) {
		require.NoError(t, err)
		got = append(got, u)
	}
	assert.Equal(t, []string{"u4", "u3", "u2", "u1"}, userIDs(got))
	assert.Equal(t, []string{"last=2", "before=c3&last=2"}, queries)
}

func TestGroupsCreateUpdateBody(t *testing.T) {
	for _, tc := range []struct {
		name   string
		update bool
		in     GroupRequest
		body   string
	}{
		{"create, members", false, GroupRequest{Name: new("Ops"), Assignable: new(true), Hidden: new(false), Tags: []string{"it"}, UserIDs: []string{user1}},
			`{"name":"Ops","assignable":true,"hidden":false,"tags":["it"],"userIds":["` + user1 + `"]}`},
		{"create, dynamic", false, GroupRequest{Name: new("All"), Dynamic: new(true), Domains: []string{"example.com"}},
			`{"name":"All","dynamic":true,"domains":["example.com"]}`},
		{"update one flag", true, GroupRequest{Watchable: new(false)}, `{"watchable":false}`},
		{"update clears tags", true, GroupRequest{Tags: []string{}}, `{"tags":[]}`},
		// The document requires no member and allows an empty name: the
		// service judges both.
		{"create without name", false, GroupRequest{Assignable: new(true)}, `{"assignable":true}`},
		{"update empty name", true, GroupRequest{Name: new("")}, `{"name":""}`},
		{"update blank name", true, GroupRequest{Name: new("  ")}, `{"name":"  "}`},
		// Tags and domains are strings with no published form: the
		// service judges them.
		{"update blank tag", true, GroupRequest{Tags: []string{" "}}, `{"tags":[" "]}`},
		{"create, an address as domain", false, GroupRequest{Name: new("x"), Dynamic: new(true), Domains: []string{"ann@a.com"}},
			`{"name":"x","dynamic":true,"domains":["ann@a.com"]}`},
		{"update all flags", true, GroupRequest{Name: new("N"), Assignable: new(true), Watchable: new(true), Mentionable: new(true),
			Approver: new(true), Dynamic: new(false), DataAccess: new(true), Hidden: new(true)},
			`{"name":"N","assignable":true,"watchable":true,"mentionable":true,"approver":true,"dynamic":false,"dataAccess":true,"hidden":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := newMockTransport(t)
			var got seen
			reply := `{"id":"g1","name":"Ops","assignable":true,"watchable":false,"mentionable":false,"managed":false,"dynamic":false,"domains":[]}`
			var (
				g   *Group
				err error
			)
			if tc.update {
				mt.RegisterResponder(http.MethodPut, mockBase+"/groups/g1", capture(&got, jsonReply(200, reply)))
				g, err = c.Groups.Update(t.Context(), "g1", tc.in)
			} else {
				mt.RegisterResponder(http.MethodPost, mockBase+"/groups", capture(&got, jsonReply(201, reply)))
				g, err = c.Groups.Create(t.Context(), tc.in)
			}
			require.NoError(t, err)
			assert.JSONEq(t, tc.body, got.body)
			assert.Equal(t, "g1", g.ID)
		})
	}
}

// TestGroupsCreateWithoutBody: the reply's body is not published; none
// gives a nil group and no error.
func TestGroupsCreateWithoutBody(t *testing.T) {
	c, mt := newMockTransport(t)
	mt.RegisterResponder(http.MethodPost, mockBase+"/groups", jsonReply(201, ""))
	mt.RegisterResponder(http.MethodPut, mockBase+"/groups/g1", jsonReply(200, ""))
	g, err := c.Groups.Create(t.Context(), GroupRequest{Name: new("Ops")})
	require.NoError(t, err)
	assert.Nil(t, g)
	g, err = c.Groups.Update(t.Context(), "g1", GroupRequest{Name: new("Ops")})
	require.NoError(t, err)
	assert.Nil(t, g)
}

func TestGroupRequestValidation(t *testing.T) {
	for _, tc := range []struct {
		name   string
		update bool
		in     GroupRequest
		field  string
	}{
		{"members and domains", true, GroupRequest{UserIDs: []string{"u1"}, Domains: []string{"a.com"}}, "GroupRequest.UserIDs"},
		{"members of a dynamic group", false, GroupRequest{Dynamic: new(true), UserIDs: []string{"u1"}}, "GroupRequest.UserIDs"},
		{"domains of a static group", true, GroupRequest{Dynamic: new(false), Domains: []string{"a.com"}}, "GroupRequest.Domains"},
		{"create domains without dynamic", false, GroupRequest{Domains: []string{"a.com"}}, "GroupRequest.Domains"},
		{"blank user id", false, GroupRequest{Name: new("x"), UserIDs: []string{user1, ""}}, "GroupRequest.UserIDs[1]"},
		{"a user id that is not a UUID", true, GroupRequest{UserIDs: []string{"u1"}}, "GroupRequest.UserIDs[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := newMockTransport(t)
			var err error
			if tc.update {
				_, err = c.Groups.Update(t.Context(), "g1", tc.in)
			} else {
				_, err = c.Groups.Create(t.Context(), tc.in)
			}
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Zero(t, mt.GetTotalCallCount())
		})
	}
}

func TestGroupsMembership(t *testing.T) {
	c, mt := newMockTransport(t)
	var add, del seen
	mt.RegisterResponder(http.MethodPost, mockBase+"/groups/g1/users", capture(&add, jsonReply(201, "")))
	mt.RegisterResponder(http.MethodDelete, mockBase+"/groups/g1/users", capture(&del, jsonReply(200, "")))
	ids := []string{user1, user2}
	require.NoError(t, c.Groups.Members.Add(t.Context(), "g1", ids))
	assert.JSONEq(t, `{"userIds":["`+user1+`","`+user2+`"]}`, add.body)
	require.NoError(t, c.Groups.Members.Remove(t.Context(), "g1", ids[:1]))
	assert.JSONEq(t, `{"userIds":["`+user1+`"]}`, del.body)
	assert.Equal(t, "application/json", del.contentType, "DELETE carries a JSON body")

	// The document sets no minimum: an empty list is sent, as [].
	for _, none := range [][]string{nil, {}} {
		require.NoError(t, c.Groups.Members.Add(t.Context(), "g1", none))
		assert.JSONEq(t, `{"userIds":[]}`, add.body)
	}

	var ve *ValidationError
	require.ErrorAs(t, c.Groups.Members.Add(t.Context(), "g1", []string{user1, " "}), &ve)
	assert.Equal(t, "userIDs[1]", ve.Field)
	// The document says a user id is a UUID: the rule is named with it.
	require.ErrorAs(t, c.Groups.Members.Remove(t.Context(), "g1", []string{"u1"}), &ve)
	assert.Equal(t, ValidationError{Field: "userIDs[0]", Rule: "must be a UUID"}, *ve)
	assert.Equal(t, 4, apiCalls(mt))
}

// TestGroupsWire: every Groups and Groups.Members method sends its exact request (see checkWire).
func TestGroupsWire(t *testing.T) {
	checkWire(t, []wireCase{
		{name: "Groups.List", method: "GET", path: "/groups", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Groups.List(ctx, wireListOpts, o...)
				return err
			}},
		{name: "Groups.All", method: "GET", path: "/groups", reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Groups.All(ctx, nil, o...))
			}},
		{name: "Groups.Get", method: "GET", path: "/groups/" + oddEsc, reply: mockReply(200, wireGroup),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Groups.Get(ctx, odd, o...)
				return err
			}},
		{name: "Groups.Create", method: "POST", path: "/groups", reply: mockReply(201, wireGroup),
			contentType: "application/json", body: `{"name":"Ops","assignable":true,"hidden":false,"tags":["it"],"userIds":["` + user1 + `"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Groups.Create(ctx, GroupRequest{Name: new("Ops"), Assignable: new(true), Hidden: new(false), Tags: []string{"it"}, UserIDs: []string{user1}}, o...)
				return err
			}},
		{name: "Groups.Update", method: "PUT", path: "/groups/" + oddEsc, reply: mockReply(200, wireGroup),
			contentType: "application/json", body: `{"watchable":true,"dynamic":true,"domains":["example.com"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Groups.Update(ctx, odd, GroupRequest{Watchable: new(true), Dynamic: new(true), Domains: []string{"example.com"}}, o...)
				return err
			}},
		{name: "Groups.ListUsers", method: "GET", path: "/groups/" + oddEsc + "/users", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Groups.Members.List(ctx, odd, wireListOpts, o...)
				return err
			}},
		{name: "Groups.AllUsers", method: "GET", path: "/groups/" + oddEsc + "/users", reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Groups.Members.All(ctx, odd, nil, o...))
			}},
		{name: "Groups.AddUsers", method: "POST", path: "/groups/" + oddEsc + "/users", reply: mockReply(201, ""),
			contentType: "application/json", body: `{"userIds":["` + user1 + `","` + user2 + `"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Groups.Members.Add(ctx, odd, []string{user1, user2}, o...)
			}},
		{name: "Groups.RemoveUsers", method: "DELETE", path: "/groups/" + oddEsc + "/users", reply: mockReply(200, ""),
			contentType: "application/json", body: `{"userIds":["` + user1 + `"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Groups.Members.Remove(ctx, odd, []string{user1}, o...)
			}},
		{name: "Groups.Pages", method: "GET", path: "/groups", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Groups.Pages(ctx, wireListOpts, o...))
			}},
		{name: "Groups.UserPages", method: "GET", path: "/groups/" + oddEsc + "/users", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Groups.Members.Pages(ctx, odd, wireListOpts, o...))
			}},
	})
}

// Two user ids, as the document has them: UUIDs.
const (
	user1 = "5f0c8a8e-4c1b-4d2a-9e3f-0a1b2c3d4e01"
	user2 = "5f0c8a8e-4c1b-4d2a-9e3f-0a1b2c3d4e02"
)

package workflow

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

const watchersPage = `{"items":[
	{"id":"6f1c2d9e-0000-4000-8000-000000000001","target":{"type":"User","id":"9b2e6d7a-0000-4000-8000-00000000000a","email":"ann@example.com","firstName":"Ann","lastName":"Lee"}},
	{"id":"6f1c2d9e-0000-4000-8000-000000000002","target":{"type":"Group","id":"1d7c3b5f-0000-4000-8000-00000000000b","name":"IT Support","size":3}}
],"total":7,"paging":{"has_next_page":true,"has_previous_page":false,"start_cursor":"w1","end_cursor":"w2"}}`

func TestListWatchers(t *testing.T) {
	t.Parallel()
	c, m := newMockClient(t, mockReply(http.StatusOK, watchersPage))
	page, err := c.Records.Watchers.List(t.Context(), Tasks, "it-requests", "T 1", &ListOptions{First: 2})
	require.NoError(t, err)
	calls := m.requests()
	require.Len(t, calls, 1)
	assert.Equal(t, http.MethodGet, calls[0].Method)
	assert.Equal(t, "/tasks/it-requests/T%201/watchers", calls[0].Path)
	assert.Equal(t, "first=2", calls[0].Query)

	require.Len(t, page.Items, 2)
	assert.Equal(t, 7, page.Total)
	assert.True(t, page.Paging.HasNextPage)
	u := page.Items[0]
	assert.Equal(t, "6f1c2d9e-0000-4000-8000-000000000001", u.ID)
	assert.Equal(t, WatcherTarget{Type: WatcherUser, ID: "9b2e6d7a-0000-4000-8000-00000000000a", Email: "ann@example.com", FirstName: "Ann", LastName: "Lee"}, u.Target)
	assert.True(t, u.Target.IsUser())
	assert.False(t, u.Target.IsGroup())
	assert.Equal(t, "Ann Lee", u.Target.DisplayName())
	g := page.Items[1].Target
	assert.True(t, g.IsGroup())
	assert.Equal(t, "IT Support", g.Name)
	assert.Equal(t, "IT Support", g.DisplayName())
	assert.JSONEq(t, `3`, string(g.Extra["size"]), "an unknown member of the target is kept")
}

func TestWatchersAllBothDirections(t *testing.T) {
	t.Parallel()
	// Three watchers, one per page; cursors "1".."3" are the positions.
	page := func(pos int, more, less bool) string {
		id := string(rune('0' + pos))
		return `{"items":[{"id":"w` + id + `","target":{"type":"User","id":"u` + id + `","email":"u` + id + `@example.com"}}],"total":3,` +
			`"paging":{"has_next_page":` + map[bool]string{true: "true", false: "false"}[more] +
			`,"has_previous_page":` + map[bool]string{true: "true", false: "false"}[less] +
			`,"start_cursor":"` + id + `","end_cursor":"` + id + `"}}`
	}
	c, m := newMockClient(t, func(call mockCall) *http.Response {
		q, _ := url.ParseQuery(call.Query)
		pos := 1
		switch {
		case q.Get("after") != "":
			pos = int(q.Get("after")[0]-'0') + 1
		case q.Get("before") != "":
			pos = int(q.Get("before")[0]-'0') - 1
		case q.Get("last") != "":
			pos = 3
		}
		return mockResponse(http.StatusOK, page(pos, pos < 3, pos > 1))
	})
	var fwd, back []string
	for w, err := range c.Records.Watchers.All(t.Context(), Tasks, "t", "1", nil) {
		require.NoError(t, err)
		fwd = append(fwd, w.Target.Email)
	}
	for w, err := range c.Records.Watchers.All(t.Context(), Tasks, "t", "1", &ListOptions{Last: 1}) {
		require.NoError(t, err)
		back = append(back, w.Target.Email)
	}
	assert.Equal(t, []string{"u1@example.com", "u2@example.com", "u3@example.com"}, fwd)
	assert.Equal(t, []string{"u3@example.com", "u2@example.com", "u1@example.com"}, back)
	calls := m.requests()
	require.Len(t, calls, 6)
	assert.Equal(t, []string{"", "after=1", "after=2", "last=1", "before=3&last=1", "before=2&last=1"},
		[]string{calls[0].Query, calls[1].Query, calls[2].Query, calls[3].Query, calls[4].Query, calls[5].Query})
}

func TestChangeWatchers(t *testing.T) {
	t.Parallel()
	emails := []string{"ann@example.com", "bo.b+it@example.co.uk"}
	tests := []struct {
		name   string
		method string
		status int
		call   func(c *Client) error
		body   string // "" for the two addresses of emails
	}{
		{"add answers 201", http.MethodPost, http.StatusCreated, func(c *Client) error {
			return c.Records.Watchers.Add(t.Context(), Elements, "parts", "E-1", emails)
		}, ""},
		{"remove answers 200", http.MethodDelete, http.StatusOK, func(c *Client) error {
			return c.Records.Watchers.Remove(t.Context(), Elements, "parts", "E-1", emails)
		}, ""},
		{"add with 204", http.MethodPost, http.StatusNoContent, func(c *Client) error {
			return c.Records.Watchers.Add(t.Context(), Elements, "parts", "E-1", emails)
		}, ""},
		// The document sets no minimum: an empty list is the service's call.
		{"add none", http.MethodPost, http.StatusCreated, func(c *Client) error {
			return c.Records.Watchers.Add(t.Context(), Elements, "parts", "E-1", nil)
		}, `{"users":[]}`},
		{"remove none", http.MethodDelete, http.StatusOK, func(c *Client) error {
			return c.Records.Watchers.Remove(t.Context(), Elements, "parts", "E-1", []string{})
		}, `{"users":[]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMockClient(t, mockReply(tc.status, ""))
			require.NoError(t, tc.call(c))
			calls := m.requests()
			require.Len(t, calls, 1)
			assert.Equal(t, tc.method, calls[0].Method)
			assert.Equal(t, "/elements/parts/E-1/watchers", calls[0].Path)
			assert.Equal(t, "application/json", calls[0].Header.Get("Content-Type"))
			assert.JSONEq(t, cmp.Or(tc.body, `{"users":["ann@example.com","bo.b+it@example.co.uk"]}`), string(calls[0].Body),
				"the body reaches the server, DELETE included")
		})
	}
}

func TestChangeWatchersErrors(t *testing.T) {
	t.Parallel()
	c, _ := newMockClient(t, mockReply(http.StatusUnprocessableEntity, `{"message":"no user nobody@example.com"}`))
	err := c.Records.Watchers.Add(t.Context(), Tasks, "t", "1", []string{"nobody@example.com"})
	assert.ErrorIs(t, err, ErrUnprocessable)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "no user [REDACTED]", ae.Message, "the address the request sent is removed")
	assert.Contains(t, string(ae.Body), "nobody@example.com", "Body keeps the answer as it came")
}

func TestWatchersValidation(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	tests := []struct {
		name, field string
		call        func(rs *RecordsService) error
	}{
		{"list: empty id", "id", func(rs *RecordsService) error { _, err := rs.Watchers.List(ctx, Tasks, "t", "", nil); return err }},
		{"list: filter", "ListOptions.Filter", func(rs *RecordsService) error {
			_, err := rs.Watchers.List(ctx, Tasks, "t", "1", &ListOptions{Filter: rsql.Field("email").Eq("a")})
			return err
		}},
		{"all: mixed directions", "ListOptions", func(rs *RecordsService) error {
			for _, err := range rs.Watchers.All(ctx, Tasks, "t", "1", &ListOptions{First: 1, Last: 1}) {
				return err
			}
			return nil
		}},
		{"pages: bad alias", "alias", func(rs *RecordsService) error {
			for _, err := range rs.Watchers.Pages(ctx, Tasks, "..", "1", nil) {
				return err
			}
			return nil
		}},
		{"add: not an address", "emails[1]", func(rs *RecordsService) error {
			return rs.Watchers.Add(ctx, Tasks, "t", "1", []string{"ann@example.com", "u2"})
		}},
		{"add: display name", "emails[0]", func(rs *RecordsService) error {
			return rs.Watchers.Add(ctx, Tasks, "t", "1", []string{"Ann <ann@example.com>"})
		}},
		{"add: surrounding space", "emails[0]", func(rs *RecordsService) error {
			return rs.Watchers.Add(ctx, Tasks, "t", "1", []string{" ann@example.com"})
		}},
		{"remove: empty", "emails[2]", func(rs *RecordsService) error {
			return rs.Watchers.Remove(ctx, Tasks, "t", "1", []string{"a@example.com", "b@example.com", ""})
		}},
		{"remove: two addresses in one", "emails[0]", func(rs *RecordsService) error {
			return rs.Watchers.Remove(ctx, Tasks, "t", "1", []string{"a@example.com, b@example.com"})
		}},
		{"remove: bad record type", "record type", func(rs *RecordsService) error {
			return rs.Watchers.Remove(ctx, "users", "t", "1", []string{"a@example.com"})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMockClient(t, mockReply(http.StatusCreated, ""))
			var ve *ValidationError
			require.ErrorAs(t, tc.call(c.Records), &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.NotEmpty(t, ve.Rule)
			assert.Empty(t, m.requests(), "nothing is sent")
		})
	}
}

func TestWatcherJSONRoundTrip(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"id":"w1","target":{"type":"User","id":"u1","email":"a@example.com","firstName":"Ann","lastName":"Lee","title":"CTO"},"since":"2024-01-01T00:00:00.000Z"}`,
		`{"id":"w2","target":{"type":"Group","id":"g1","name":"Ops"}}`,
	} {
		var w Watcher
		require.NoError(t, json.Unmarshal([]byte(in), &w))
		out, err := json.Marshal(w)
		require.NoError(t, err)
		assert.JSONEq(t, in, string(out), "encoding/json")

		var w2 Watcher
		require.NoError(t, jsonv2.Unmarshal([]byte(in), &w2))
		assert.Equal(t, w, w2)
		out, err = jsonv2.Marshal(w2)
		require.NoError(t, err)
		assert.JSONEq(t, in, string(out), "go-json-experiment/json")
	}
}

// TestWatchersWire: every Records.Watchers method sends its exact request (see checkWire).
func TestWatchersWire(t *testing.T) {
	checkWire(t, []wireCase{
		{name: "Records.ListWatchers", method: "GET", path: wireRec + "/watchers", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Watchers.List(ctx, Tasks, "it-requests", odd, wireListOpts, o...)
				return err
			}},
		{name: "Records.WatchersAll", method: "GET", path: wireRec + "/watchers", reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.Watchers.All(ctx, Tasks, "it-requests", odd, nil, o...))
			}},
		{name: "Records.AddWatchers", method: "POST", path: wireRec + "/watchers", reply: mockReply(201, ""),
			contentType: "application/json", body: `{"users":["ann@example.com","bo@example.com"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Records.Watchers.Add(ctx, Tasks, "it-requests", odd, []string{"ann@example.com", "bo@example.com"}, o...)
			}},
		{name: "Records.RemoveWatchers", method: "DELETE", path: wireRec + "/watchers", reply: mockReply(200, ""),
			contentType: "application/json", body: `{"users":["ann@example.com"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Records.Watchers.Remove(ctx, Tasks, "it-requests", odd, []string{"ann@example.com"}, o...)
			}},

		// Comments.
		{name: "Records.WatchersPages", method: "GET", path: wireRec + "/watchers", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.Watchers.Pages(ctx, Tasks, "it-requests", odd, wireListOpts, o...))
			}},
	})
}

package admin_test

import (
	stdjson "encoding/json"
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

const (
	viewReply = `{"id":"v1","clientHandle":"open","name":"Open","type":"AspectViewList","displayOrder":2,"rows":25,"columns":["f1"],` +
		`"filter":{"status":"OPEN"},"agent":{"id":"ag1"},"share":{"groups":[],"users":[{"id":"u1","email":"a@example.com"}]},"pinned":true}`
	pagingJSON = `{"has_next_page":false,"has_previous_page":false,"start_cursor":"c1","end_cursor":"c1"}`
)

// openList is a list view's request.
func openList() admin.ViewRequest {
	return admin.ViewRequest{View: admin.ViewInput{List: &admin.ViewConfig{Name: new("Open"), Filter: jsontext.Value(`{"status":"OPEN"}`), Rows: new(25)}}}
}

func TestViewsWire(t *testing.T) {
	ctx := t.Context()
	runWire(t, []wireCase{
		{name: "list", status: 200, reply: `{"items":[` + viewReply + `],"total":1,"paging":` + pagingJSON + `}`, method: "GET", path: "/apps/it%20ops/views", query: "first=10",
			call: func(t *testing.T, ws *admin.Workspace) error {
				p, err := ws.Views.List(ctx, "it ops", &workflow.ListOptions{First: 10})
				if err == nil {
					require.Len(t, p.Items, 1)
					assert.Equal(t, admin.ViewTypeList, p.Items[0].Type.Value())
				}
				return err
			}},
		{name: "all", status: 200, reply: `{"items":[` + viewReply + `],"total":1,"paging":` + pagingJSON + `}`, method: "GET", path: "/apps/itm/views",
			call: func(t *testing.T, ws *admin.Workspace) error {
				n := 0
				for v, err := range ws.Views.All(ctx, "itm", nil) {
					if err != nil {
						return err
					}
					assert.Equal(t, "open", v.ClientHandle.Value())
					n++
				}
				assert.Equal(t, 1, n)
				return nil
			}},
		{name: "get", status: 200, reply: viewReply, method: "GET", path: "/apps/itm/views/open%20requests",
			call: func(t *testing.T, ws *admin.Workspace) error {
				v, err := ws.Views.Get(ctx, "itm", "open requests")
				if err == nil {
					assert.Equal(t, "ag1", v.Agent.Value().ID.Value())
					assert.Equal(t, "a@example.com", v.Share.Value().Users.Value()[0].Email)
					assert.Equal(t, 25, v.Rows.Value())
					assert.Equal(t, `{"status":"OPEN"}`, string(v.Filter))
				}
				return err
			}},
		{name: "create", status: 201, reply: viewReply, method: "POST", path: "/apps/itm/views",
			body: `{"view":{"list":{"name":"Open","filter":{"status":"OPEN"},"rows":25}},"share":{"groups":["IT"]},"handle":"open"}`,
			call: func(t *testing.T, ws *admin.Workspace) error {
				r := openList()
				r.Share = &admin.ViewShareInput{Groups: []string{"IT"}}
				v, err := ws.Views.Create(ctx, "itm", "open", r)
				if err == nil {
					assert.Equal(t, "v1", v.ID.Value())
				}
				return err
			}},
		{name: "update leaves the share out", status: 200, reply: `{"ok":true}`, method: "PUT", path: "/apps/itm/views/open",
			body: `{"view":{"kanban":{"allowRecordCreation":false,"displayByField":"f2","agentId":"ag1","lane":"x"}}}`,
			call: func(t *testing.T, ws *admin.Workspace) error {
				v, err := ws.Views.Update(ctx, "itm", "open", admin.ViewRequest{View: admin.ViewInput{Kanban: &admin.ViewConfig{
					AllowRecordCreation: new(false), DisplayByField: new("f2"), AgentID: new("ag1"), Extra: map[string]jsontext.Value{"lane": jsontext.Value(`"x"`)}}}})
				if err == nil {
					assert.Equal(t, `true`, string(v.Extra["ok"]), "a free-form answer is kept")
				}
				return err
			}},
	})
}

func TestViewsInvalid(t *testing.T) {
	ctx := t.Context()
	both := openList()
	both.View.Agent = &admin.ViewConfig{}
	badFilter := openList()
	badFilter.View.List.Filter = jsontext.Value(`"status==OPEN"`)
	badSort := openList()
	badSort.View.List.Sort = jsontext.Value(`{"a":`)
	negative := openList()
	negative.View.List.Rows = new(-1)
	blankShare := openList()
	blankShare.Share = &admin.ViewShareInput{Users: []string{"a@example.com", ""}}
	runInvalid(t, []invalidCase{
		{"no variant", func(ws *admin.Workspace) error {
			_, err := ws.Views.Create(ctx, "itm", "h", admin.ViewRequest{})
			return err
		}, "ViewRequest.View"},
		{"two variants", func(ws *admin.Workspace) error {
			_, err := ws.Views.Update(ctx, "itm", "h", both)
			return err
		}, "ViewRequest.View"},
		{"filter not an object", func(ws *admin.Workspace) error {
			_, err := ws.Views.Create(ctx, "itm", "h", badFilter)
			return err
		}, "ViewRequest.View.List.Filter"},
		{"sort not JSON", func(ws *admin.Workspace) error {
			_, err := ws.Views.Create(ctx, "itm", "h", badSort)
			return err
		}, "ViewRequest.View.List.Sort"},
		{"no handle", func(ws *admin.Workspace) error {
			_, err := ws.Views.Create(ctx, "itm", " ", openList())
			return err
		}, "handle"},
		{"no handle to update", func(ws *admin.Workspace) error {
			_, err := ws.Views.Update(ctx, "itm", "", openList())
			return err
		}, "handle"},
		{"no app", func(ws *admin.Workspace) error {
			_, err := ws.Views.List(ctx, "", nil)
			return err
		}, "alias"},
		{"a filter on a list without one", func(ws *admin.Workspace) error {
			_, err := ws.Views.List(ctx, "itm", &workflow.ListOptions{Filter: nil, First: 2000})
			return err
		}, "ListOptions.First"},
		{"pages of no app", func(ws *admin.Workspace) error {
			for _, err := range ws.Views.Pages(ctx, "a/b", nil) {
				return err
			}
			return nil
		}, "alias"},
		{"all of no app", func(ws *admin.Workspace) error {
			for _, err := range ws.Views.All(ctx, "..", nil) {
				return err
			}
			return nil
		}, "alias"},
	})
}

func TestViewKeepsUnknownMembers(t *testing.T) {
	var v admin.View
	require.NoError(t, stdjson.Unmarshal([]byte(viewReply), &v))
	assert.Equal(t, "true", string(v.Extra["pinned"]))
	for _, marshal := range []func(any) ([]byte, error){stdjson.Marshal, func(v any) ([]byte, error) { return json.Marshal(v) }} {
		out, err := marshal(v)
		require.NoError(t, err)
		assert.JSONEq(t, viewReply, string(out))
	}
}

// TestViewVariants: each type of view the write body has a variant for
// is set in its own member of ViewInput, found back by Variant, and
// named by its member; other types and members have none.
func TestViewVariants(t *testing.T) {
	members := map[admin.ViewType]string{admin.ViewTypeList: "list", admin.ViewTypeKanban: "kanban",
		admin.ViewTypeCalendar: "calendar", admin.ViewTypeDashboard: "dashboard", admin.ViewTypeAgent: "agent"}
	require.Len(t, admin.ViewVariants(), len(members))
	for _, typ := range admin.ViewVariants() {
		assert.Equal(t, members[typ], typ.Variant())
		back, ok := admin.ViewTypeOf(typ.Variant())
		assert.True(t, ok)
		assert.Equal(t, typ, back)
		in, ok := admin.NewViewInput(typ, admin.ViewConfig{Name: new("n")})
		require.True(t, ok)
		body, err := json.Marshal(in)
		require.NoError(t, err)
		assert.JSONEq(t, `{"`+members[typ]+`": {"name": "n"}}`, string(body))
		got, c := in.Variant()
		assert.Equal(t, typ, got)
		require.NotNil(t, c)
		assert.Equal(t, "n", *c.Name)
	}
	assert.Empty(t, admin.ViewType("AspectViewGantt").Variant())
	_, ok := admin.ViewTypeOf("gantt")
	assert.False(t, ok)
	in, ok := admin.NewViewInput("AspectViewGantt", admin.ViewConfig{})
	assert.False(t, ok)
	typ, c := in.Variant()
	assert.Empty(t, typ)
	assert.Nil(t, c)
}

package workflowtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// The views of apps: GET and POST /apps/{alias}/views, GET and PUT
// /apps/{alias}/views/{id}. The app definition must exist (404) and be
// open to the user (403), as for its records.
//
// Route overlap: these routes come before the record routes, so GET
// /apps/{alias}/views lists views and GET /apps/{alias}/views/{word}
// reaches the view {word}: an app record whose id is "views" cannot be
// read (nor its related items, attachments, watchers or comments listed)
// through the fake.
//
// The fake's reading of what the service leaves open: {id} in GET and
// PUT is the view's id or its client handle (the handle Create was
// given); a handle names one view of an app (a second create with it is
// 422); a share set names users by id or e-mail address and groups by id
// or name (an unknown one is 422); the variant's configuration is kept
// member by member, and answered merged into the view, "agentId" as
// "agent": {"id"} (a member "agent" of the configuration itself is not
// served: the read schema types it). The list is paged like the record
// list, without filter. Bodies are checked as every body is (see
// WithStrictBodies): the members a variant forwards as is but the read
// schema types (columns, density, rows, displayByField,
// allowedFilterFields, agentId) must have that type (422, the fake's
// rule), so that what is stored can be served.

// viewsState is the views of every app; its zero value is empty.
type viewsState struct {
	byApp map[string][]*view // by app alias, in creation order
	n     uint64             // ids handed out
}

// view is a view of an app.
type view struct {
	seq           uint64
	order         int // displayOrder
	id, handle    string
	typ           admin.ViewType
	config        admin.ViewConfig // the variant's members as sent
	users, groups []string         // ids of whom it is shared with
}

// resolveShare turns a share set's handles into user and group ids. The
// caller holds s.mu.
func (s *Server) resolveShare(users, groups []string) ([]string, []string, *httpError) {
	var uids, gids []string
	for _, h := range users {
		i := slices.IndexFunc(s.st.users, func(u *user) bool { return u.id == h || strings.EqualFold(u.email, h) })
		if i < 0 {
			return nil, nil, errf(http.StatusUnprocessableEntity, "share: no user %q", h)
		}
		uids = append(uids, s.st.users[i].id)
	}
	for _, h := range groups {
		i := slices.IndexFunc(s.st.groups, func(g *group) bool { return g.id == h || g.name == h })
		if i < 0 {
			return nil, nil, errf(http.StatusUnprocessableEntity, "share: no group %q", h)
		}
		gids = append(gids, s.st.groups[i].id)
	}
	return uids, gids, nil
}

// viewOnly are the members of AspectView a view's configuration does
// not set: a member of the configuration by one of these names is not
// served.
var viewOnly = []string{"id", "clientHandle", "type", "displayOrder", "agent", "share"}

// model is the view as the service's AspectView, but for whom it is
// shared with: its configuration merged in, "agentId" as "agent": {"id"}.
func (v *view) model() admin.View {
	c := v.config
	m := admin.View{ID: admin.Some(v.id), ClientHandle: admin.Some(v.handle), Type: admin.Some(v.typ), DisplayOrder: admin.Some(v.order),
		Name: someOf(c.Name), AllowRecordCreation: someOf(c.AllowRecordCreation), Filter: c.Filter, Sort: c.Sort,
		Density: someOf(c.Density), Rows: someOf(c.Rows), DisplayByField: someOf(c.DisplayByField), Extra: map[string]jsontext.Value{}}
	if c.Columns != nil {
		m.Columns = admin.Some(c.Columns)
	}
	if c.AllowedFilterFields != nil {
		m.AllowedFilterFields = admin.Some(c.AllowedFilterFields)
	}
	if c.AgentID != nil {
		m.Agent = admin.Some(admin.ViewAgent{ID: admin.Some(*c.AgentID)})
	}
	for k, val := range c.Extra {
		if !slices.Contains(viewOnly, k) {
			m.Extra[k] = val
		}
	}
	if c.DashboardID != nil {
		m.Extra["dashboardId"] = rawJSON(*c.DashboardID)
	}
	return m
}

// viewJSON is the view as the service's AspectView: its model and whom
// it is shared with, the users and groups as the records API answers
// them. The caller holds s.mu.
func (s *Server) viewJSON(v *view) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	_ = json.Unmarshal(encodeJSON(v.model()), &out)
	groups, users := []groupJSON{}, []userJSON{}
	for _, id := range v.groups {
		groups = append(groups, s.st.groupsByID[id].json())
	}
	for _, id := range v.users {
		users = append(users, s.st.usersByID[id].json())
	}
	out["share"] = encodeJSON(map[string]any{"groups": groups, "users": users})
	return out
}

// viewRoutes are the operations on views.
var viewRoutes = []route{
	on(op.ListViews, onView((*Server).listViews)),
	onJSON[admin.ViewRequest](op.CreateView, onView((*Server).putView)),
	on(op.GetView, onView((*Server).getView)),
	onJSON[admin.ViewRequest](op.UpdateView, onView((*Server).putView)),
}

// onView is a handler of the views of the app {alias}, found, and of its
// view {id} (by id or handle) when the route names one.
func onView(h func(s *Server, rq *request, alias string, v *view) response) func(*Server, *request) response {
	return func(s *Server, rq *request) response {
		rq.params["recordType"] = string(workflow.Apps)
		d, e := s.lookupDef(rq)
		if e != nil {
			return fail(e)
		}
		id, one := rq.params["id"]
		if !one {
			return h(s, rq, d.key.alias, nil)
		}
		for _, v := range s.st.views.byApp[d.key.alias] {
			if v.id == id || v.handle == id {
				return h(s, rq, d.key.alias, v)
			}
		}
		return failf(http.StatusNotFound, "no view %q in app %s", id, d.key.alias)
	}
}

// listViews is GET /apps/{alias}/views: the app's views, paged like the
// record list, without filter.
func (s *Server) listViews(rq *request, alias string, _ *view) response {
	return listPage(rq, "views of "+alias, s.st.views.byApp[alias], func(v *view) uint64 { return v.seq }, nil, func(v *view, _ string) any { return s.viewJSON(v) })
}

// getView is GET /apps/{alias}/views/{id}: 200 with the view.
func (s *Server) getView(_ *request, _ string, v *view) response {
	return reply(http.StatusOK, s.viewJSON(v))
}

// putView is POST /apps/{alias}/views (201 with the new view) and PUT
// /apps/{alias}/views/{id} (200 with the view): the body's view replaces
// the view's variant and configuration; a share set replaces whom it is
// shared with, and its absence leaves that as it is.
func (s *Server) putView(rq *request, alias string, v *view) response {
	b := in[*admin.ViewRequest](rq)
	var work view
	if v != nil {
		work = *v
	}
	if typ, c := b.View.Variant(); c != nil { // one variant (checked), the members the read schema types of their type
		work.typ, work.config = typ, *c // kept member by member
	}
	if b.Share != nil {
		var e *httpError
		if work.users, work.groups, e = s.resolveShare(b.Share.Users, b.Share.Groups); e != nil {
			return fail(e)
		}
	}
	if v != nil {
		*v = work
		return reply(http.StatusOK, s.viewJSON(v))
	}
	_ = json.Unmarshal(b.Extra["handle"], &work.handle) // a create's handle (required, a string: checked)
	if e := s.st.addView(alias, &work); e != nil {
		return fail(e)
	}
	return reply(http.StatusCreated, s.viewJSON(&work))
}

// AddView adds a view to the app appAlias (whose definition it creates
// if needed) and returns its id. variant is one of "list", "kanban",
// "calendar", "dashboard" and "agent"; config holds the variant's
// members, each encoded as JSON. It panics on an unknown variant, a
// handle the app has already, a member that does not encode, or a body
// that POST /apps/{alias}/views would refuse (a configuration member of
// the wrong type, such as "rows": "ten").
func (s *Server) AddView(appAlias, handle, variant string, config map[string]any) string {
	mustConform("AddView", op.CreateView, map[string]any{"handle": handle, "view": map[string]any{variant: config}})
	typ, _ := admin.ViewTypeOf(variant)
	v := &view{handle: handle, typ: typ}
	_ = json.Unmarshal(encodeJSON(config), &v.config) // it conforms (checked)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.define(defKey{workflow.Apps, appAlias})
	if e := s.st.addView(appAlias, v); e != nil {
		panic("workflowtest: AddView: " + e.msg)
	}
	return v.id
}

// addView stores a new view of an app, giving it its id and place; a
// handle the app has already is 422.
func (st *state) addView(alias string, v *view) *httpError {
	vs := &st.views
	if slices.ContainsFunc(vs.byApp[alias], func(o *view) bool { return o.handle == v.handle }) {
		return errf(http.StatusUnprocessableEntity, "app %s has a view with handle %q already", alias, v.handle)
	}
	if vs.byApp == nil {
		vs.byApp = map[string][]*view{}
	}
	vs.n++
	v.id, v.seq, v.order = st.next.seqUUID(uuidView, vs.n), st.next.nextSeq(), len(vs.byApp[alias])+1
	vs.byApp[alias] = append(vs.byApp[alias], v)
	return nil
}

// ViewInfo describes a view of the fake, for assertions.
type ViewInfo struct {
	ID, Handle, Type string
	Config           json.RawMessage // the variant's configuration as stored
	Users, Groups    []string        // ids of whom it is shared with
}

// Views returns the views of an app in creation order.
func (s *Server) Views(appAlias string) []ViewInfo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []ViewInfo
	for _, v := range s.st.views.byApp[appAlias] {
		out = append(out, ViewInfo{ID: v.id, Handle: v.handle, Type: string(v.typ), Config: bytes.TrimSpace(encodeJSON(v.config)),
			Users: slices.Clone(v.users), Groups: slices.Clone(v.groups)})
	}
	return out
}

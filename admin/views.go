package admin

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"maps"

	json "github.com/go-json-experiment/json"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// The views of an app live at /apps/{alias}/views; see the package
// documentation for the records route the paths overlap.

// ViewType is the variant of a view as the service reports it. Other
// values are kept as sent.
type ViewType string

// The view variants the service publishes.
const (
	ViewTypeList      ViewType = "AspectViewList"
	ViewTypeKanban    ViewType = "AspectViewKanban"
	ViewTypeCalendar  ViewType = "AspectViewCalendar"
	ViewTypeDashboard ViewType = "AspectViewDashboard"
	ViewTypeAgent     ViewType = "AspectViewAgent"
)

// View is a view of an app: the service's AspectView.
//
// Members the SDK does not model are kept in Extra and written back when
// the view is encoded again, with encoding/json as with
// github.com/go-json-experiment/json.
type View struct {
	// ID identifies the view (a UUID) in this workspace.
	ID Opt[string] `json:"id,omitzero"`
	// ClientHandle is the view's portable identifier: the same in every
	// workspace the view is copied to (the handle of Create and Update).
	ClientHandle Opt[string] `json:"clientHandle,omitzero"`
	// Name is the view's display name.
	Name Opt[string] `json:"name,omitzero"`
	// Type is the view's variant, e.g. ViewTypeList.
	Type Opt[ViewType] `json:"type,omitzero"`
	// DisplayOrder is the view's position among the app's views.
	DisplayOrder Opt[int] `json:"displayOrder,omitzero"`
	// AllowRecordCreation reports whether records can be created from the
	// view.
	AllowRecordCreation Opt[bool] `json:"allowRecordCreation,omitzero"`
	// Filter scopes the view's records: an opaque JSON object.
	Filter jsontext.Value `json:"filter,omitzero"`
	// Sort orders the view's records: an opaque JSON object.
	Sort jsontext.Value `json:"sort,omitzero"`
	// Columns are the ids of the fields shown as columns (list, kanban
	// and calendar views).
	Columns Opt[[]string] `json:"columns,omitzero"`
	// Density is the row density (list views).
	Density Opt[string] `json:"density,omitzero"`
	// Rows is the number of rows per page (list views).
	Rows Opt[int] `json:"rows,omitzero"`
	// DisplayByField is the id of the grouping field (kanban and calendar
	// views).
	DisplayByField Opt[string] `json:"displayByField,omitzero"`
	// AllowedFilterFields are the ids of the fields offered as filters
	// (kanban views).
	AllowedFilterFields Opt[[]string] `json:"allowedFilterFields,omitzero"`
	// Agent is the linked agent (agent views), {"id": ...}.
	Agent Opt[ViewAgent] `json:"agent,omitzero"`
	// Share is whom the view is shared with.
	Share Opt[ViewShare] `json:"share,omitzero"`
	// Extra holds every member that the fields above do not model, as
	// raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a view object; unknown members go to Extra.
func (v *View) UnmarshalJSON(data []byte) error { return jsonmodel.Unmarshal(data, v) }

// MarshalJSON writes the view object with its Extra members.
func (v View) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(v) }

// Request returns the body that writes the view back, with Update (or
// with Create and the view's ClientHandle): its variant (from Type) set
// to its configuration. It carries every member of the view the body
// takes, as it was read (a member sent empty is sent empty, one left out
// is left out): the name, allowRecordCreation, filter, sort, columns,
// density, rows, displayByField, allowedFilterFields, the agent's id as
// agentId, and the members of Extra (dashboardId among them).
//
// What it cannot carry: the read-only id, clientHandle, type and
// displayOrder; the agent's members beyond its id (the body takes only
// agentId); and the sharing: the view is read shared with users and
// groups, and written shared with their client handles, which no read
// form holds. The caller supplies those as Share (a nil Share keeps the
// sharing on Update).
//
// A member read as null is an error naming it (a body cannot hold null),
// and so is a Type the SDK does not know.
func (v View) Request() (ViewRequest, error) {
	cfg, err := writeBody[ViewConfig](v, []string{"id", "clientHandle", "type", "displayOrder", "share"}, map[string]any{"agent": nil, "agentId": v.Agent.Value().ID})
	var in ViewInput
	switch t := v.Type.Value(); t {
	case ViewTypeList:
		in.List = &cfg
	case ViewTypeKanban:
		in.Kanban = &cfg
	case ViewTypeCalendar:
		in.Calendar = &cfg
	case ViewTypeDashboard:
		in.Dashboard = &cfg
	case ViewTypeAgent:
		in.Agent = &cfg
	default:
		err = cmp.Or(err, fmt.Errorf("admin: view %q: the write body has no variant of type %q", v.ClientHandle.Value(), t))
	}
	return ViewRequest{View: in}, err
}

// ViewAgent is the agent an agent view is linked to.
type ViewAgent struct {
	// ID identifies the agent (a UUID).
	ID Opt[string] `json:"id,omitzero"`
	// Extra holds unmodelled members, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads the linked agent; unknown members go to Extra.
func (a *ViewAgent) UnmarshalJSON(data []byte) error { return jsonmodel.Unmarshal(data, a) }

// MarshalJSON writes the linked agent with its Extra members.
func (a ViewAgent) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(a) }

// ViewShare is whom a view is shared with: users and groups as the
// service describes them. Its own members are Opts, as in every read
// model; the users and groups are the records API's workflow.User and
// workflow.Group, which keep plain values (their speed and shape are the
// records API's): the sharing is never written back as read, since the
// write form takes client handles (see View.Request).
type ViewShare struct {
	// Groups are the groups the view is shared with.
	Groups Opt[[]workflow.Group] `json:"groups,omitzero"`
	// Users are the users the view is shared with.
	Users Opt[[]workflow.User] `json:"users,omitzero"`
	// Extra holds unmodelled members, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads the sharing; unknown members go to Extra.
func (s *ViewShare) UnmarshalJSON(data []byte) error { return jsonmodel.Unmarshal(data, s) }

// MarshalJSON writes the sharing with its Extra members.
func (s ViewShare) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(s) }

// ViewRequest is the body of ViewsService.Update
// (AspectViewUpdateRequest), and of Create (AspectViewCreateRequest)
// with the handle Create takes: the view's full desired state, and whom
// to share it with. View.Request returns the one of a view as read.
type ViewRequest struct {
	// View is the view's full desired state. Required.
	View ViewInput `json:"view"`
	// Share, when not nil, replaces whom the view is shared with; nil
	// leaves it out (Update keeps the sharing as it is).
	Share *ViewShareInput `json:"share,omitzero"`
	// Extra holds further members of the body, for members the service
	// may add later (as in every request body of this package). A key
	// that names a member above is an error, and nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// ViewInput is a view's variant and its configuration: exactly one of
// the fields is set (the service's AspectViewInput).
type ViewInput struct {
	// List is a list view.
	List *ViewConfig `json:"list,omitzero"`
	// Kanban is a kanban board.
	Kanban *ViewConfig `json:"kanban,omitzero"`
	// Calendar is a calendar view.
	Calendar *ViewConfig `json:"calendar,omitzero"`
	// Dashboard is a dashboard.
	Dashboard *ViewConfig `json:"dashboard,omitzero"`
	// Agent is an agent view.
	Agent *ViewConfig `json:"agent,omitzero"`
	// Extra holds further members, as for ViewRequest.Extra.
	Extra map[string]jsontext.Value `json:",embed"`
}

// ViewConfig is a view's configuration (AspectViewVariantInput). As in
// every request body of this package, a nil pointer, a nil slice and a
// nil JSON value leave the member out, and a pointer to an empty value
// (new(""), new(0), new(false)) or an empty non-nil slice sends it empty.
type ViewConfig struct {
	// Name is the view's display name.
	Name *string `json:"name,omitzero"`
	// AllowRecordCreation: records can be created from the view.
	AllowRecordCreation *bool `json:"allowRecordCreation,omitzero"`
	// Filter scopes the view's records: a JSON object, opaque to the SDK.
	Filter jsontext.Value `json:"filter,omitzero"`
	// Sort orders the view's records: a JSON object, opaque to the SDK.
	Sort jsontext.Value `json:"sort,omitzero"`
	// Columns are the ids of the fields shown as columns.
	Columns []string `json:"columns,omitzero"`
	// Density is the row density (list views).
	Density *string `json:"density,omitzero"`
	// Rows is the number of rows per page (list views).
	Rows *int `json:"rows,omitzero"`
	// DisplayByField is the id of the grouping field.
	DisplayByField *string `json:"displayByField,omitzero"`
	// AllowedFilterFields are the ids of the fields offered as filters.
	AllowedFilterFields []string `json:"allowedFilterFields,omitzero"`
	// AgentID is the linked agent's id (agent views).
	AgentID *string `json:"agentId,omitzero"`
	// DashboardID is the dashboard's id (dashboard views).
	DashboardID *string `json:"dashboardId,omitzero"`
	// Extra holds further members, forwarded as is.
	Extra map[string]jsontext.Value `json:",embed"`
}

// ViewShareInput is whom to share a view with: the client handles of
// users and groups (AspectViewShareInput). A nil list leaves the member
// out; an empty non-nil one sends [].
type ViewShareInput struct {
	// Groups are the client handles of the groups to share with.
	Groups []string `json:"groups,omitzero"`
	// Users are the client handles of the users to share with.
	Users []string `json:"users,omitzero"`
	// Extra holds further members, as for ViewRequest.Extra.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the body with its Extra members.
func (r ViewRequest) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(r) }

// UnmarshalJSON reads the body; unknown members go to Extra, and a null
// member is an error.
func (r *ViewRequest) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, r) }

// MarshalJSON writes the variant with its Extra members.
func (v ViewInput) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(v) }

// UnmarshalJSON reads the variant, as ViewRequest's does.
func (v *ViewInput) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, v) }

// MarshalJSON writes the configuration with its Extra members.
func (c ViewConfig) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(c) }

// UnmarshalJSON reads the configuration, as ViewRequest's does.
func (c *ViewConfig) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, c) }

// MarshalJSON writes the sharing with its Extra members.
func (s ViewShareInput) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(s) }

// UnmarshalJSON reads the sharing, as ViewRequest's does.
func (s *ViewShareInput) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, s) }

// ViewsService configures the views of apps.
type ViewsService struct{ client *workflow.Client }

// List returns one page of an app's views: GET /apps/{alias}/views (200,
// AspectViewPagedList), with the paging options of opts. The service
// publishes no filter for this list: opts.Filter must be nil.
func (s *ViewsService) List(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) (*workflow.Page[View], error) {
	return listPage[View](ctx, s.client, at(op.ListViews, "alias", alias), opts, reqOpts)
}

// Pages walks an app's views page by page: GET /apps/{alias}/views. See
// workflow.RecordsService.Pages. A bad alias is yielded as a
// *workflow.ValidationError.
func (s *ViewsService) Pages(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[*workflow.Page[View], error] {
	return listPages[View](ctx, s.client, at(op.ListViews, "alias", alias), opts, reqOpts)
}

// All iterates over every view of an app: GET /apps/{alias}/views, page
// after page. See workflow.RecordsService.All. A bad alias is yielded as
// a *workflow.ValidationError.
func (s *ViewsService) All(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[View, error] {
	return listAll[View](ctx, s.client, at(op.ListViews, "alias", alias), opts, reqOpts)
}

// Get returns one view: GET /apps/{alias}/views/{id} (200, AspectView).
// id is the view's id (the document: "the resource ID"); the fake takes
// its client handle too.
func (s *ViewsService) Get(ctx context.Context, alias, id string, reqOpts ...workflow.RequestOption) (*View, error) {
	return call[View](ctx, s.client, at(op.GetView, "alias", alias, "id", id), nil, reqOpts)
}

// Create creates a view of an app (201): POST /apps/{alias}/views with
// {"handle", "view", "share"}. handle is the view's portable identifier
// (its client handle), which names the same view in every workspace and
// is what Update takes: like every id and handle of a path, it must be a
// usable path segment (not empty, ".", ".." or white space, without "/"
// or control characters). r.View sets exactly one variant; a broken rule
// is a *workflow.ValidationError, and nothing is sent.
//
// The service publishes the answer as a free-form object; Create reads
// it as a View (members a View does not model in Extra). Like every
// POST, it is not retried after a 5xx or a dropped connection.
func (s *ViewsService) Create(ctx context.Context, alias, handle string, r ViewRequest, reqOpts ...workflow.RequestOption) (*View, error) {
	t := at(op.CreateView, "alias", alias)
	_, err := workflow.Segment("handle", handle)
	if _, dup := r.Extra["handle"]; dup && err == nil {
		err = invalid(`ViewRequest.Extra["handle"]`, "must not be set: Create sends its handle argument")
	}
	if err == nil {
		r.Extra = maps.Clone(r.Extra)
		if r.Extra == nil {
			r.Extra = map[string]jsontext.Value{}
		}
		r.Extra["handle"], _ = json.Marshal(handle)
	}
	return call[View](ctx, s.client, t.or(err), r, reqOpts)
}

// Update replaces a view's state (200): PUT /apps/{alias}/views/{handle}
// with {"view", "share"}. The path's id is the view's client handle here
// (the document: the view's id for a get, its client handle for an
// update). The answer is read as for Create.
func (s *ViewsService) Update(ctx context.Context, alias, handle string, r ViewRequest, reqOpts ...workflow.RequestOption) (*View, error) {
	return call[View](ctx, s.client, at(op.UpdateView, "alias", alias, "handle", handle), r, reqOpts)
}

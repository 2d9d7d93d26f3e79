package admin

import (
	"cmp"
	"context"
	"iter"
	"net/http"
	"strconv"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
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
	ID string `json:"id,omitzero"`
	// ClientHandle is the view's portable identifier: the same in every
	// workspace the view is copied to (the handle of Create and Update).
	ClientHandle string `json:"clientHandle,omitzero"`
	// Name is the view's display name.
	Name string `json:"name,omitzero"`
	// Type is the view's variant, e.g. ViewTypeList.
	Type ViewType `json:"type,omitzero"`
	// DisplayOrder is the view's position among the app's views.
	DisplayOrder int `json:"displayOrder,omitzero"`
	// AllowRecordCreation reports whether records can be created from the
	// view.
	AllowRecordCreation bool `json:"allowRecordCreation,omitzero"`
	// Filter scopes the view's records: an opaque JSON object.
	Filter jsontext.Value `json:"filter,omitzero"`
	// Sort orders the view's records: an opaque JSON object.
	Sort jsontext.Value `json:"sort,omitzero"`
	// Columns are the ids of the fields shown as columns (list, kanban
	// and calendar views).
	Columns []string `json:"columns,omitzero"`
	// Density is the row density (list views).
	Density string `json:"density,omitzero"`
	// Rows is the number of rows per page (list views).
	Rows int `json:"rows,omitzero"`
	// DisplayByField is the id of the grouping field (kanban and calendar
	// views).
	DisplayByField string `json:"displayByField,omitzero"`
	// AllowedFilterFields are the ids of the fields offered as filters
	// (kanban views).
	AllowedFilterFields []string `json:"allowedFilterFields,omitzero"`
	// Agent is the linked agent (agent views), {"id": ...}.
	Agent *ViewAgent `json:"agent,omitzero"`
	// Share is whom the view is shared with.
	Share *ViewShare `json:"share,omitzero"`
	// Extra holds every member that the fields above do not model, as
	// raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a view object; unknown members go to Extra.
func (v *View) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, v)
}

// MarshalJSON writes the view object with its Extra members.
func (v View) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(v)
}

// ViewAgent is the agent an agent view is linked to.
type ViewAgent struct {
	// ID identifies the agent (a UUID).
	ID string `json:"id,omitzero"`
	// Extra holds unmodelled members, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads the linked agent; unknown members go to Extra.
func (a *ViewAgent) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, a)
}

// MarshalJSON writes the linked agent with its Extra members.
func (a ViewAgent) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(a)
}

// ViewShare is whom a view is shared with: users and groups as the
// service describes them.
type ViewShare struct {
	// Groups are the groups the view is shared with.
	Groups []workflow.Group `json:"groups,omitzero"`
	// Users are the users the view is shared with.
	Users []workflow.User `json:"users,omitzero"`
	// Extra holds unmodelled members, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads the sharing; unknown members go to Extra.
func (s *ViewShare) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, s)
}

// MarshalJSON writes the sharing with its Extra members.
func (s ViewShare) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(s)
}

// ViewRequest is the body of ViewsService.Create (AspectViewCreateRequest,
// with the handle given to Create) and Update (AspectViewUpdateRequest):
// the view's full desired state, and whom to share it with.
type ViewRequest struct {
	// View is the view's full desired state. Required.
	View ViewInput `json:"view"`
	// Share, when not nil, replaces whom the view is shared with (an
	// empty ViewShareInput shares it with nobody); nil leaves the sharing
	// as it is.
	Share *ViewShareInput `json:"share,omitzero"`
	// Extra holds further members of the body, for members the service
	// may add later. A key that names a member above is a duplicate: the
	// call fails with a *workflow.ValidationError and nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the request body with its Extra members.
func (r ViewRequest) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(r)
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

// MarshalJSON writes the view variant with its Extra members.
func (v ViewInput) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(v)
}

// ViewConfig is a view's configuration (AspectViewVariantInput). The
// service publishes Name, AllowRecordCreation, Filter and Sort, and
// names the type-specific members after them; only what is set is sent.
type ViewConfig struct {
	// Name is the view's display name.
	Name string `json:"name,omitzero"`
	// AllowRecordCreation: records can be created from the view.
	AllowRecordCreation *bool `json:"allowRecordCreation,omitzero"`
	// Filter scopes the view's records: a JSON object, opaque to the SDK.
	Filter jsontext.Value `json:"filter,omitzero"`
	// Sort orders the view's records: a JSON object, opaque to the SDK.
	Sort jsontext.Value `json:"sort,omitzero"`
	// Columns are the ids of the fields shown as columns.
	Columns []string `json:"columns,omitzero"`
	// Density is the row density (list views).
	Density string `json:"density,omitzero"`
	// Rows is the number of rows per page (list views); 0 sends none.
	Rows int `json:"rows,omitzero"`
	// DisplayByField is the id of the grouping field.
	DisplayByField string `json:"displayByField,omitzero"`
	// AllowedFilterFields are the ids of the fields offered as filters.
	AllowedFilterFields []string `json:"allowedFilterFields,omitzero"`
	// AgentID is the linked agent's id (agent views).
	AgentID string `json:"agentId,omitzero"`
	// DashboardID is the dashboard's id (dashboard views).
	DashboardID string `json:"dashboardId,omitzero"`
	// Extra holds further members, forwarded as is.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the configuration with its Extra members.
func (c ViewConfig) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(c)
}

// ViewShareInput is whom to share a view with: the client handles of
// users and groups (AspectViewShareInput). It replaces the whole share
// set; nil lists are sent as [].
type ViewShareInput struct {
	// Groups are the client handles of the groups to share with.
	Groups []string `json:"groups"`
	// Users are the client handles of the users to share with.
	Users []string `json:"users"`
	// Extra holds further members, as for ViewRequest.Extra.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the sharing with its Extra members.
func (s ViewShareInput) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(s)
}

// newView is the body of Create: the request with its handle.
type newView struct {
	Handle string                    `json:"handle"`
	View   ViewInput                 `json:"view"`
	Share  *ViewShareInput           `json:"share,omitzero"`
	Extra  map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the create body with its Extra members.
func (n newView) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(n)
}

// validate checks a request before sending.
func (r *ViewRequest) validate() error {
	in := &r.View
	var cfg *ViewConfig
	n := 0
	for _, c := range []*ViewConfig{in.List, in.Kanban, in.Calendar, in.Dashboard, in.Agent} {
		if c != nil {
			cfg, n = c, n+1
		}
	}
	if n != 1 {
		return invalid("ViewRequest.View", "must set exactly one of List, Kanban, Calendar, Dashboard and Agent (got "+strconv.Itoa(n)+")")
	}
	for i, v := range []jsontext.Value{cfg.Filter, cfg.Sort} {
		if v != nil && !isObject(v) {
			return invalid("ViewRequest.View."+[...]string{"Filter", "Sort"}[i], "must be a JSON object")
		}
	}
	if cfg.Rows < 0 {
		return invalid("ViewRequest.View.Rows", "must not be negative")
	}
	if r.Share != nil {
		for k, hs := range [][]string{r.Share.Groups, r.Share.Users} {
			for i, h := range hs {
				if strings.TrimSpace(h) == "" {
					return invalid(at("ViewRequest.Share."+[...]string{"Groups", "Users"}[k], i), "must not be blank")
				}
			}
		}
	}
	return nil
}

// ViewsService configures the views of apps.
type ViewsService struct{ client *workflow.Client }

// list is the paged list of an app's views: the service publishes the
// paging parameters (first, after, last, before) and no filter.
func (s *ViewsService) list(alias string) (workflow.PagedList[View], error) {
	p, err := segPath("", "apps", "alias", alias, "", "views")
	return workflow.PagedList[View]{Client: s.client, Path: p}, err
}

// List returns one page of an app's views: GET /apps/{alias}/views (200,
// AspectViewPagedList), with the paging options of opts. The service
// publishes no filter for this list: opts.Filter must be nil.
func (s *ViewsService) List(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) (*workflow.Page[View], error) {
	l, err := s.list(alias)
	return listPage(ctx, l, err, opts, reqOpts)
}

// Pages walks an app's views page by page: GET /apps/{alias}/views. See
// workflow.RecordsService.Pages. A bad alias is yielded as a
// *workflow.ValidationError.
func (s *ViewsService) Pages(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[*workflow.Page[View], error] {
	l, err := s.list(alias)
	return listPages(ctx, l, err, opts, reqOpts)
}

// All iterates over every view of an app: GET /apps/{alias}/views, page
// after page. See workflow.RecordsService.All. A bad alias is yielded as
// a *workflow.ValidationError.
func (s *ViewsService) All(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[View, error] {
	l, err := s.list(alias)
	return listAll(ctx, l, err, opts, reqOpts)
}

// Get returns one view: GET /apps/{alias}/views/{id} (200, AspectView).
// The service calls id "the resource ID"; the fake takes the view's id or
// its client handle.
func (s *ViewsService) Get(ctx context.Context, alias, id string, reqOpts ...workflow.RequestOption) (*View, error) {
	p, err := segPath("", "apps", "alias", alias, "", "views", "id", id)
	return call[View](ctx, s.client, http.MethodGet, p, err, nil, reqOpts)
}

// Create creates a view of an app (201): POST /apps/{alias}/views with
// {"handle", "view", "share"}. handle is the view's portable identifier
// (its client handle), which names the same view in every workspace.
// r.View sets exactly one variant; a broken rule is a
// *workflow.ValidationError, and nothing is sent.
//
// The service publishes the answer as a free-form object; Create reads
// it as a View (members a View does not model in Extra). Like every
// POST, it is not retried after a 5xx or a dropped connection.
func (s *ViewsService) Create(ctx context.Context, alias, handle string, r ViewRequest, reqOpts ...workflow.RequestOption) (*View, error) {
	p, err := segPath("", "apps", "alias", alias, "", "views")
	if err == nil && strings.TrimSpace(handle) == "" {
		err = invalid("handle", "must not be empty")
	}
	return call[View](ctx, s.client, http.MethodPost, p, cmp.Or(err, r.validate()), newView{Handle: handle, View: r.View, Share: r.Share, Extra: r.Extra}, reqOpts)
}

// Update replaces a view's state (200): PUT /apps/{alias}/views/{handle}
// with {"view", "share"}, handle being the view's client handle (the
// service's "portable cross-environment identifier"). The answer is read
// as for Create.
func (s *ViewsService) Update(ctx context.Context, alias, handle string, r ViewRequest, reqOpts ...workflow.RequestOption) (*View, error) {
	p, err := segPath("", "apps", "alias", alias, "", "views", "id", handle)
	return call[View](ctx, s.client, http.MethodPut, p, cmp.Or(err, r.validate()), r, reqOpts)
}

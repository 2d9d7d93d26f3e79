package admin

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"maps"

	json "github.com/go-json-experiment/json"

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

// viewVariants are the variants of a view's write body (the members of
// ViewInput), each with the type a view of it is read as: the one place
// that pairs them.
var viewVariants = []struct {
	member string
	typ    ViewType
	field  func(*ViewInput) **ViewConfig
}{
	{"list", ViewTypeList, func(in *ViewInput) **ViewConfig { return &in.List }},
	{"kanban", ViewTypeKanban, func(in *ViewInput) **ViewConfig { return &in.Kanban }},
	{"calendar", ViewTypeCalendar, func(in *ViewInput) **ViewConfig { return &in.Calendar }},
	{"dashboard", ViewTypeDashboard, func(in *ViewInput) **ViewConfig { return &in.Dashboard }},
	{"agent", ViewTypeAgent, func(in *ViewInput) **ViewConfig { return &in.Agent }},
}

// ViewVariants returns the types of view the write body has a variant
// for, in the order of ViewInput's fields.
func ViewVariants() []ViewType {
	out := make([]ViewType, len(viewVariants))
	for i, v := range viewVariants {
		out[i] = v.typ
	}
	return out
}

// Variant returns the member of a view's write body (ViewInput) that
// holds the configuration of a view of type t ("list" for ViewTypeList,
// ...), or "" for a type without one.
func (t ViewType) Variant() string {
	for _, v := range viewVariants {
		if v.typ == t {
			return v.member
		}
	}
	return ""
}

// ViewTypeOf returns the type of a view whose write body sets the
// variant member ("list", "kanban", "calendar", "dashboard" or "agent"),
// and false for another member.
func ViewTypeOf(member string) (ViewType, bool) {
	for _, v := range viewVariants {
		if v.member == member {
			return v.typ, true
		}
	}
	return "", false
}

// NewViewInput returns the write body's view that sets c as the variant
// of type t, and false (with an empty ViewInput) for a type without one.
func NewViewInput(t ViewType, c ViewConfig) (ViewInput, bool) {
	var in ViewInput
	for _, v := range viewVariants {
		if v.typ == t {
			*v.field(&in) = &c
			return in, true
		}
	}
	return in, false
}

// Variant returns the type and the configuration of the first variant in
// sets (in the order of ViewInput's fields), and nil when it sets none.
func (in ViewInput) Variant() (ViewType, *ViewConfig) {
	for _, v := range viewVariants {
		if c := *v.field(&in); c != nil {
			return v.typ, c
		}
	}
	return "", nil
}

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
	in, ok := NewViewInput(v.Type.Value(), cfg)
	if !ok {
		err = cmp.Or(err, fmt.Errorf("admin: view %q: the write body has no variant of type %q", v.ClientHandle.Value(), v.Type.Value()))
	}
	return ViewRequest{View: in}, err
}

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

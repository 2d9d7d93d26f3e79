package provider

import (
	"cmp"
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// viewResource is workflow_view: a view of an app (admin.ViewsService).
// The API has no delete for views: destroy forgets one, with a warning.
type viewResource struct {
	base
}

// What viewResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*viewResource)(nil)
)

func newViewResource() own { return &viewResource{} }

// viewModel is the resource's state.
type viewModel struct {
	ID                  types.String `tfsdk:"id"`
	App                 types.String `tfsdk:"app"`
	Handle              types.String `tfsdk:"handle"`
	Type                types.String `tfsdk:"type"`
	DisplayOrder        types.Int64  `tfsdk:"display_order"`
	Name                types.String `tfsdk:"name"`
	AllowRecordCreation types.Bool   `tfsdk:"allow_record_creation"`
	Filter              types.String `tfsdk:"filter"`
	Sort                types.String `tfsdk:"sort"`
	Columns             types.List   `tfsdk:"columns"`
	Density             types.String `tfsdk:"density"`
	Rows                types.Int64  `tfsdk:"rows"`
	DisplayByField      types.String `tfsdk:"display_by_field"`
	AllowedFilterFields types.List   `tfsdk:"allowed_filter_fields"`
	AgentID             types.String `tfsdk:"agent_id"`
	DashboardID         types.String `tfsdk:"dashboard_id"`
}

// viewType returns the service's type of a view of the resource's type
// (the name of its variant in the write body), and whether there is one.
func viewType(typ string) (admin.ViewType, bool) { return admin.ViewTypeOf(typ) }

func (r *viewResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	// Optional members are read back (readString, readList): left out,
	// the service's value is kept and shown; set, it is sent, false, 0
	// and "" included.
	str, list := readString, readList
	resp.Schema = schema.Schema{
		Description: "A view of an app. Its place among the app's views (display_order) is read only.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, Description: "The view's id, set by the service.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"app": schema.StringAttribute{Required: true, Description: "The alias of the app.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"handle": schema.StringAttribute{Required: true, Description: "The view's client handle: the same in every workspace.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"type": schema.StringAttribute{Required: true,
				Description: `The view's variant: "list", "kanban", "calendar", "dashboard" or "agent".`,
				Validators:  []validator.String{oneOf("list", "kanban", "calendar", "dashboard", "agent")}},
			"display_order": schema.Int64Attribute{Computed: true, Description: "The view's place among the app's views (read only).",
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}},
			"name": str("The view's display name."),
			"allow_record_creation": schema.BoolAttribute{Optional: true, Computed: true,
				Description:   "Whether records can be created from the view.",
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}},
			"filter":  jsonAttribute("The records the view shows.", false),
			"sort":    jsonAttribute("The order of the view's records.", false),
			"columns": list("The ids of the fields shown as columns (list, kanban and calendar views): references to fields."),
			"density": str("The row density (list views)."),
			"rows": schema.Int64Attribute{Optional: true, Computed: true, Description: "The number of rows per page (list views).",
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}},
			"display_by_field":      str("The id of the grouping field (kanban and calendar views)."),
			"allowed_filter_fields": list("The ids of the fields offered as filters (kanban views)."),
			"agent_id":              str("The linked agent's id (agent views): a reference to the agent."),
			"dashboard_id":          schema.StringAttribute{Optional: true, Description: "The dashboard's id (dashboard views)."},
		},
	}
}

// variantBody returns the view's configuration of m: its set members, known
// ones only (a plan's unknown value is left out of a check).
func (m viewModel) variantBody() admin.ViewConfig {
	c := admin.ViewConfig{
		Name:                strPtr(m.Name),
		AllowRecordCreation: boolPtr(m.AllowRecordCreation),
		Filter:              rawJSON(m.Filter),
		Sort:                rawJSON(m.Sort),
		Columns:             stringList(m.Columns),
		Density:             strPtr(m.Density),
		Rows:                intPtr(m.Rows),
		DisplayByField:      strPtr(m.DisplayByField),
		AllowedFilterFields: stringList(m.AllowedFilterFields),
		AgentID:             strPtr(m.AgentID),
		DashboardID:         strPtr(m.DashboardID),
	}
	return c
}

// input returns the write body's variant of type typ holding c.
func input(typ string, c admin.ViewConfig) admin.ViewInput {
	t, _ := viewType(typ)
	in, _ := admin.NewViewInput(t, c)
	return in
}

// state returns the state of the view v as read, keeping prior's
// spelling of JSON attributes that mean the same.
func (prior viewModel) state(v *admin.View) viewModel {
	m := prior
	m.ID = optString(v.ID)
	m.Handle = optString(v.ClientHandle)
	m.Type = types.StringValue(cmp.Or(v.Type.Value().Variant(), string(v.Type.Value())))
	m.DisplayOrder = optInt(v.DisplayOrder)
	m.Name = optString(v.Name)
	m.AllowRecordCreation = optBool(v.AllowRecordCreation)
	m.Filter = refreshJSON(prior.Filter, v.Filter)
	m.Sort = refreshJSON(prior.Sort, v.Sort)
	m.Columns = optList(v.Columns)
	m.Density = optString(v.Density)
	m.Rows = optInt(v.Rows)
	m.DisplayByField = optString(v.DisplayByField)
	m.AllowedFilterFields = optList(v.AllowedFilterFields)
	m.AgentID = types.StringNull()
	if a, ok := v.Agent.Get(); ok {
		m.AgentID = optString(a.ID)
	}
	return m
}

// ValidateConfig checks the view's body with the SDK's checks, with no
// request, at validate and at plan.
func (r *viewResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m viewModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !known(m.Type) {
		return
	}
	app, handle := m.App.ValueString(), m.Handle.ValueString()
	if !known(m.App) {
		app = "app"
	}
	if !known(m.Handle) {
		handle = "handle"
	}
	if _, ok := viewType(m.Type.ValueString()); !ok {
		return // the type's validator reports it, once
	}
	body := admin.ViewRequest{View: input(m.Type.ValueString(), m.variantBody())}
	validated(&resp.Diagnostics, "Invalid view", nil, viewAttrs, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.Views.Create(ctx, app, handle, body, opt)
		return err
	})
}

// viewAttrs are the attributes of a view's body's members, in each
// variant.
var viewAttrs = func() wireAttrs {
	out := wireAttrs{"alias": "app", "handle": "handle"} // the arguments
	for _, t := range admin.ViewVariants() {
		out.with(bodyAttrs[admin.ViewRequest](camel("view."+t.Variant()+".", "name", "allowRecordCreation", "filter", "sort", "columns", "columns[*]", "density",
			"rows", "displayByField", "allowedFilterFields", "allowedFilterFields[*]", "agentId", "dashboardId")))
	}
	return out
}()

// Create creates the view once (createOnce): a view's natural key is its
// handle in its app.
func (r *viewResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Creating the view", func(m viewModel) (*admin.View, error) {
		app, handle := m.App.ValueString(), m.Handle.ValueString()
		return createOnce(ctx, &resp.Diagnostics, fmt.Sprintf("view %q of the app %s", handle, app),
			fresh(func() { r.lists.views.forget(app) }, func() (*admin.View, error) {
				return only(r.views(ctx, app), func(v admin.View) bool { return v.ClientHandle.Value() == handle }, "views with the handle "+handle)
			}),
			func() (*admin.View, error) {
				return r.ws.Views.Create(ctx, app, handle, admin.ViewRequest{View: input(m.Type.ValueString(), m.variantBody())})
			},
			func(found *admin.View) (*admin.View, error) { return r.overwrite(ctx, found, m, m) })
	}, viewModel.state)
}

func (r *viewResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	refresh(ctx, req, resp, "Reading the view", func(m viewModel) (*admin.View, error) {
		return gone(r.ws.Views.Get(ctx, m.App.ValueString(), m.ID.ValueString()))
	}, viewModel.state)
}

// Update writes the view as the service holds it, with the members the
// configuration sets replaced: an update never drops a member the
// configuration does not manage. The sharing is left as it is.
func (r *viewResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	cfg, ok := read[viewModel](ctx, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Updating the view", func(plan viewModel) (*admin.View, error) {
		cur, err := r.ws.Views.Get(ctx, plan.App.ValueString(), plan.ID.ValueString())
		if err != nil {
			return nil, err
		}
		return r.overwrite(ctx, cur, plan, cfg)
	}, viewModel.state)
}

// overwrite writes the view cur as the service holds it, with the members
// cfg sets replaced, as plan's variant.
func (r *viewResource) overwrite(ctx context.Context, cur *admin.View, plan, cfg viewModel) (*admin.View, error) {
	body, err := cur.Request()
	if err != nil {
		return nil, err
	}
	held := admin.ViewConfig{}
	if _, c := body.View.Variant(); c != nil {
		held = *c
	}
	c, err := overlay(held, cfg.variantBody())
	if err != nil {
		return nil, err
	}
	body.View = input(plan.Type.ValueString(), c)
	return r.ws.Views.Update(ctx, plan.App.ValueString(), plan.Handle.ValueString(), body)
}

package provider

import (
	"context"
	"errors"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// passthroughResource is a family whose body is free-form JSON both ways
// and that the API can create and update but not read or delete: apps
// (workflow_app) and flows (workflow_flow). The provider keeps what it
// wrote; destroy removes one from the state, with a warning.
type passthroughResource struct {
	base
	kind, doc string
	create    func(ws *admin.Workspace) func(context.Context, jsontext.Value, ...workflow.RequestOption) (jsontext.Value, error)
	update    func(ws *admin.Workspace) func(context.Context, string, jsontext.Value, ...workflow.RequestOption) (jsontext.Value, error)
}

// What passthroughResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ resource.ResourceWithConfigure      = (*passthroughResource)(nil)
	_ resource.ResourceWithValidateConfig = (*passthroughResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*passthroughResource)(nil)
)

func newAppResource() resource.Resource {
	return &passthroughResource{kind: "app",
		doc: "An app, composed from its definition (POST /aspects/compose). Its alias is the definition's \"namespace\" " +
			"as the service answers it: reference it as workflow_app.<name>.alias from automations, views and agents.",
		create: func(ws *admin.Workspace) func(context.Context, jsontext.Value, ...workflow.RequestOption) (jsontext.Value, error) {
			return ws.Apps.Compose
		},
		update: func(ws *admin.Workspace) func(context.Context, string, jsontext.Value, ...workflow.RequestOption) (jsontext.Value, error) {
			return ws.Apps.Update
		}}
}

func newFlowResource() resource.Resource {
	return &passthroughResource{kind: "flow", doc: "A flow, from its definition.",
		create: func(ws *admin.Workspace) func(context.Context, jsontext.Value, ...workflow.RequestOption) (jsontext.Value, error) {
			return ws.Flows.Create
		},
		update: func(ws *admin.Workspace) func(context.Context, string, jsontext.Value, ...workflow.RequestOption) (jsontext.Value, error) {
			return ws.Flows.Update
		}}
}

// passthroughModel is the state of an app or a flow, but for an app's
// alias (set apart, with the id: see setAnswer).
type passthroughModel struct {
	ID         types.String
	Definition types.String
}

// get reads the id and the definition of the plan or state.
func getPassthrough(ctx context.Context, from interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}, d *diag.Diagnostics) passthroughModel {
	var m passthroughModel
	d.Append(from.GetAttribute(ctx, path.Root("id"), &m.ID)...)
	d.Append(from.GetAttribute(ctx, path.Root("definition"), &m.Definition)...)
	return m
}

func (r *passthroughResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.kind
}

func (r *passthroughResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"id": idAttribute("The " + r.kind + "'s id, set by the service."),
		"definition": jsonAttribute("The "+r.kind+"'s definition, free-form as the API takes it, "+
			"without the \"id\" member the service sets.", true),
	}
	if r.kind == "app" {
		attrs["alias"] = schema.StringAttribute{Computed: true, Description: `The app's alias: the "namespace" of the service's answer.`}
	}
	resp.Schema = schema.Schema{
		Description: r.doc + " On import, the definition, which no read returns, is left unset and written by the next " +
			"apply (generated configuration must be given it)." + map[string]string{
			"app": " A create whose alias is taken fails: import that app by its id."}[r.kind],
		Attributes: attrs,
	}
}

// body returns the configured definition, or an error for one that
// holds the "id" the service sets.
func (m passthroughModel) body() (jsontext.Value, error) {
	def := rawJSON(m.Definition)
	var probe struct {
		ID jsontext.Value `json:"id"`
	}
	if json.Unmarshal(def, &probe) == nil && probe.ID != nil {
		return nil, errors.New(`definition must not hold an "id" member: the service sets it (the resource's id attribute)`)
	}
	return def, nil
}

// ValidateConfig checks the definition with the SDK's checks, with no request.
func (r *passthroughResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	m := getPassthrough(ctx, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !known(m.Definition) {
		return
	}
	def, err := m.body()
	validated(&resp.Diagnostics, "Invalid "+r.kind, err, wireAttrs{"*": "definition"}, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := r.create(ws)(ctx, def, opt)
		return err
	})
}

// ModifyPlan plans the alias of an app that exists: the "namespace" of
// its planned definition, which the service answers as the alias, so that
// what refers to the alias is not replaced by a change of another member.
// A new app's alias is known after apply, when the app exists (what
// refers to it is then validated against the service).
func (r *passthroughResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.kind != "app" || req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	m := getPassthrough(ctx, req.Plan, &resp.Diagnostics)
	var def struct {
		Namespace *string `json:"namespace"`
	}
	if d := rawJSON(m.Definition); d != nil && json.Unmarshal(d, &def) == nil && def.Namespace != nil {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("alias"), *def.Namespace)...)
	}
}

// setAnswer sets the state: the definition written, and the id, and an
// app's alias, of the service's answer.
func (r *passthroughResource) setAnswer(ctx context.Context, st *tfsdk.State, def types.String, answer jsontext.Value, d *diag.Diagnostics) {
	var a struct {
		ID        string `json:"id"`
		Namespace string `json:"namespace"`
	}
	if err := json.Unmarshal(answer, &a); err != nil || a.ID == "" {
		d.AddError("Writing the "+r.kind, "the service's answer has no id")
		return
	}
	d.Append(st.SetAttribute(ctx, path.Root("id"), a.ID)...)
	d.Append(st.SetAttribute(ctx, path.Root("definition"), def)...)
	if r.kind == "app" {
		d.Append(st.SetAttribute(ctx, path.Root("alias"), a.Namespace)...)
	}
}

func (r *passthroughResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m := getPassthrough(ctx, req.Plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	def, err := m.body()
	var answer jsontext.Value
	if err == nil {
		answer, err = r.create(r.ws)(ctx, def)
	}
	if err != nil {
		failed(&resp.Diagnostics, "Creating the "+r.kind, blind(r.kind, "<the "+r.kind+"'s id>", err))
		return
	}
	resp.State.Raw = req.Plan.Raw.Copy() // the plan, its unknown id and alias set below
	r.setAnswer(ctx, &resp.State, m.Definition, answer, &resp.Diagnostics)
}

// Read keeps the state: the API has no read for apps and flows.
func (r *passthroughResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {
}

func (r *passthroughResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	m := getPassthrough(ctx, req.Plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	def, err := m.body()
	var answer jsontext.Value
	if err == nil {
		answer, err = r.update(r.ws)(ctx, m.ID.ValueString(), def)
	}
	if err != nil {
		failed(&resp.Diagnostics, "Updating the "+r.kind, err)
		return
	}
	r.setAnswer(ctx, &resp.State, m.Definition, answer, &resp.Diagnostics)
}

// Delete forgets the app or flow: the API has no delete for them.
func (r *passthroughResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m := getPassthrough(ctx, req.State, &resp.Diagnostics)
	forgotten(&resp.Diagnostics, r.kind, m.ID.ValueString())
}

package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// automationResource is workflow_automation: the active version of an
// automation of an app or element (admin.AutomationsService). Drafts are
// not managed.
type automationResource struct{ base }

// What automationResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*automationResource)(nil)
	_ planning   = (*automationResource)(nil)
	_ deleting   = (*automationResource)(nil)
)

func newAutomationResource() own { return &automationResource{} }

// automationModel is the resource's state.
type automationModel struct {
	ID         types.String `tfsdk:"id"`
	RecordType types.String `tfsdk:"record_type"`
	Alias      types.String `tfsdk:"alias"`
	Workflow   types.String `tfsdk:"workflow"`
}

func (r *automationResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The active version of an automation of an app or element. Drafts are not managed.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				Description:   "The automation's id, set by the service.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"record_type": schema.StringAttribute{
				Required:      true,
				Description:   `The record type of the definition the automation belongs to: "apps", "elements", "tasks" or "transactions".`,
				Validators:    []validator.String{oneOf(workflow.Apps, workflow.Elements, workflow.Tasks, workflow.Transactions)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"alias": schema.StringAttribute{
				Required:      true,
				Description:   "The alias of the app or element.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"workflow": jsonAttribute("The automation's workflow in full-state form (triggers, tasks, output properties, its name), "+
				"without the \"id\" member the service sets. Planning asks the service to validate it.", true),
		},
	}
}

// workflow returns the configured workflow as an automation, or nil with
// the diagnostic of one that is not a JSON object or holds an "id".
func (m automationModel) body() (admin.Automation, error) {
	a, err := admin.Canonical([]byte(m.Workflow.ValueString()))
	if err != nil {
		return nil, err
	}
	if a.Member("id") != nil {
		return nil, errors.New(`must not hold an "id" member: the service sets it (the resource's id attribute)`)
	}
	return a, nil
}

// ValidateConfig checks the workflow with the SDK's checks, with no
// request, at validate and at plan.
func (r *automationResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m automationModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !known(m.Workflow) {
		return
	}
	a, err := m.body()
	if err != nil {
		err = attrError{"workflow", err.Error()}
	}
	rt, alias := workflow.RecordType(checkable(m.RecordType, string(workflow.Apps)).ValueString()), checkable(m.Alias, "alias").ValueString()
	validated(&resp.Diagnostics, "Invalid automation", err, automationAttrs, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.Automations.Create(ctx, rt, alias, a, opt)
		return err
	})
}

// automationAttrs are the attributes of a create's arguments, as the SDK
// names them; what else it refuses is of the workflow.
var automationAttrs = wireAttrs{"record type": "record_type", "alias": "alias", "*": "workflow"}

// ModifyPlan asks the service to validate the planned workflow, which
// writes nothing (POST .../automations/validate): a workflow the service
// refuses fails the plan, before anything is written. A workflow the
// plan does not change is not validated again: the service took it when
// it was written, and what it holds is what the state holds (a read just
// compared them), so a plan of an unchanged workspace sends no
// validation.
func (r *automationResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.ws == nil {
		return // destroy, or not configured
	}
	var m automationModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !known(m.Workflow) || !known(m.RecordType) || !known(m.Alias) {
		return
	}
	if !req.State.Raw.IsNull() {
		held, ok := read[automationModel](ctx, req.State, &resp.Diagnostics)
		if ok && known(held.Workflow) && sameJSON(held.Workflow.ValueString(), m.Workflow.ValueString()) &&
			held.RecordType.Equal(m.RecordType) && held.Alias.Equal(m.Alias) {
			return // unchanged, where it was
		}
	}
	a, err := m.body()
	if err != nil {
		return // reported by ValidateConfig
	}
	var verdict jsontext.Value
	err = resend(ctx, func() (err error) { // a validation writes nothing: it may be sent again
		verdict, err = r.ws.Automations.Validate(ctx, workflow.RecordType(m.RecordType.ValueString()), m.Alias.ValueString(), a)
		return err
	})
	if errors.Is(err, workflow.ErrNotFound) {
		return // the app or element is created by the same apply: the create validates
	}
	if err != nil {
		failed(&resp.Diagnostics, "Validating the workflow", err)
		return
	}
	if problems, ok := refused(verdict); ok {
		resp.Diagnostics.AddAttributeError(path.Root("workflow"), "The service refuses the workflow", problems)
	}
}

// refused reads the service's verdict on an automation. The service does
// not publish its members; a verdict whose "valid" member is false is a
// refusal, explained by its "errors" member (the fake answers so).
func refused(verdict jsontext.Value) (string, bool) {
	var v struct {
		Valid  *bool          `json:"valid"`
		Errors jsontext.Value `json:"errors"`
	}
	if json.Unmarshal(verdict, &v) != nil || v.Valid == nil || *v.Valid {
		return "", false
	}
	var list []string
	if json.Unmarshal(v.Errors, &list) == nil && len(list) > 0 {
		return strings.Join(list, "; "), true
	}
	return "the service's verdict: " + string(verdict), true
}

func (r *automationResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m, ok := read[automationModel](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	rt, alias := workflow.RecordType(m.RecordType.ValueString()), m.Alias.ValueString()
	a, err := m.body()
	if err == nil {
		var made *admin.Automation
		made, err = createOnce(ctx, &resp.Diagnostics, fmt.Sprintf("automation %q of %s/%s", a.Name(), rt, alias),
			func() (*admin.Automation, error) { return r.named(ctx, rt, alias, a.Name()) },
			func() (*admin.Automation, error) {
				created, err := r.ws.Automations.Create(ctx, rt, alias, a)
				return &created, err
			},
			func(found *admin.Automation) (*admin.Automation, error) {
				_, err := r.ws.Automations.Update(ctx, rt, alias, found.ID(), a)
				return found, err
			})
		if err == nil {
			a = *made
		}
	}
	if err != nil {
		failed(&resp.Diagnostics, "Creating the automation", err)
		return
	}
	m.ID = types.StringValue(a.ID())
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// named returns the automation of rt/alias named name, nil when there is
// none: an automation's natural key is its name in its app or element.
func (r *automationResource) named(ctx context.Context, rt workflow.RecordType, alias, name string) (*admin.Automation, error) {
	if name == "" {
		return nil, nil // the service's validation refuses it; no key to look up
	}
	all, err := r.ws.Automations.List(ctx, rt, alias)
	if err != nil {
		return nil, err
	}
	return only(each(all), func(a admin.Automation) bool { return a.Name() == name }, "automations named "+name)
}

func (r *automationResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m, ok := read[automationModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	v, err := r.ws.Automations.Get(ctx, workflow.RecordType(m.RecordType.ValueString()), m.Alias.ValueString(), m.ID.ValueString())
	if errors.Is(err, workflow.ErrNotFound) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		failed(&resp.Diagnostics, "Reading the automation", err)
		return
	}
	active := v.Active()
	if active == nil {
		resp.Diagnostics.AddError("Reading the automation", "the automation "+m.ID.ValueString()+" has a draft and no active version")
		return
	}
	m.Workflow = refreshJSON(m.Workflow, active.Without("id"))
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *automationResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	m, ok := read[automationModel](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	a, err := m.body()
	if err == nil {
		_, err = r.ws.Automations.Update(ctx, workflow.RecordType(m.RecordType.ValueString()), m.Alias.ValueString(), m.ID.ValueString(), a)
	}
	if err != nil {
		failed(&resp.Diagnostics, "Updating the automation", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *automationResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, ok := read[automationModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	err := r.ws.Automations.Delete(ctx, workflow.RecordType(m.RecordType.ValueString()), m.Alias.ValueString(), m.ID.ValueString())
	if err != nil && !errors.Is(err, workflow.ErrNotFound) {
		failed(&resp.Diagnostics, "Deleting the automation", err)
	}
}

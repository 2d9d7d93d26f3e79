package provider

import (
	"context"
	"fmt"

	json "github.com/go-json-experiment/json"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// skillResource is workflow_skill: a skill of an app
// (admin.SkillsService). The API reads skills only through their list;
// it has no delete.
type skillResource struct {
	base
}

// What skillResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*skillResource)(nil)
)

func newSkillResource() own { return &skillResource{} }

// skillModel is the resource's state.
type skillModel struct {
	ID           types.String `tfsdk:"id"`
	App          types.String `tfsdk:"app"`
	Name         types.String `tfsdk:"name"`
	Type         types.String `tfsdk:"type"`
	Status       types.String `tfsdk:"status"`
	Description  types.String `tfsdk:"description"`
	Instructions types.String `tfsdk:"instructions"`
	Properties   types.String `tfsdk:"properties"`
	Discovery    types.String `tfsdk:"discovery"`
	Tools        types.List   `tfsdk:"tools"`
}

func (r *skillResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	oneOfString := func(desc string, values ...string) schema.StringAttribute {
		a := readString(desc)
		a.Validators = []validator.String{oneOf(values...)}
		return a
	}
	resp.Schema = schema.Schema{
		Description: "A skill of an app. The skills list gives its tools as a connection whose members the service does not publish.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("The skill's id, set by the service."),
			"app": schema.StringAttribute{Required: true, Description: "The alias of the app (workflow_app.<name>.alias).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"name":         schema.StringAttribute{Required: true, Description: "The skill's display name."},
			"type":         oneOfString("The skill's kind: INTERNAL or CUSTOM.", string(admin.SkillInternal), string(admin.SkillCustom)),
			"status":       oneOfString("The skill's status: ACTIVE, INACTIVE or DRAFT.", string(admin.SkillActive), string(admin.SkillInactive), string(admin.SkillDraft)),
			"description":  readString("A short summary of what the skill does."),
			"instructions": readString("The system prompt that steers the skill."),
			"properties":   jsonAttribute("The skill's type-specific configuration.", false),
			"discovery": writtenJSON("How the skill is found and routed to (discoveryProperties: routingPriority, " +
				"positiveKeywords, negativeKeywords, aliases, exampleUtterances)."),
			"tools": schema.ListAttribute{Optional: true, ElementType: types.StringType,
				Description: "The tools attached to the skill, each one JSON object (jsonencode). Set, the list replaces the skill's."},
		},
	}
}

// body is the skill's create or update body: what the configuration
// sets.
func (m skillModel) body() (admin.SkillBundle, error) {
	s := admin.SkillSettings{Name: strPtr(m.Name), Description: strPtr(m.Description), Instructions: strPtr(m.Instructions),
		Properties: rawJSON(m.Properties)}
	if p := strPtr(m.Type); p != nil {
		s.Type = new(admin.SkillType(*p))
	}
	if p := strPtr(m.Status); p != nil {
		s.Status = new(admin.SkillStatus(*p))
	}
	if d := rawJSON(m.Discovery); d != nil {
		s.Discovery = &admin.SkillDiscovery{}
		if err := json.Unmarshal(d, s.Discovery); err != nil {
			return admin.SkillBundle{}, attrError{"discovery", err.Error()}
		}
	}
	tools, err := jsonObjects(m.Tools)
	if err != nil {
		return admin.SkillBundle{}, attrError{"tools", err.Error()}
	}
	return admin.SkillBundle{Skill: s, Tools: tools}, nil
}

// state is m with what the skills list shows of k.
func (m skillModel) state(k *admin.Skill) skillModel {
	m.ID, m.Name, m.Type, m.Status = optString(k.ID), optString(k.Name), optString(k.Type), optString(k.Status)
	m.Description, m.Instructions = optString(k.Description), optString(k.Instructions)
	m.Properties = refreshJSON(m.Properties, k.Properties)
	return m
}

// ValidateConfig checks the body with the SDK's checks, with no request.
func (r *skillResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m skillModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	b, err := m.body()
	validated(&resp.Diagnostics, "Invalid skill", err, nil, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.Skills.Create(ctx, "checked", b, opt)
		return err
	})
}

// find reads the skill id of app from the skills list, nil when the list
// has none.
func (r *skillResource) find(ctx context.Context, app, id string) (*admin.Skill, error) {
	return listed(r.skills(ctx, app), func(k admin.Skill) string { return k.ID.Value() }, id)
}

// write creates the skill (id empty) or updates it.
func (r *skillResource) write(ctx context.Context, m skillModel, id string) (*admin.Skill, error) {
	b, err := m.body()
	if err != nil {
		return nil, err
	}
	if id == "" {
		k, err := r.ws.Skills.Create(ctx, m.App.ValueString(), b)
		if err == nil {
			r.lists.skills.add(m.App.ValueString(), *k)
		}
		return k, err
	}
	k, err := r.ws.Skills.Update(ctx, m.App.ValueString(), id, b)
	r.lists.skills.forget(m.App.ValueString()) // it changed: the next read walks again
	return k, err
}

// Create creates the skill once (createOnce): a skill's natural key is
// its name in its app.
func (r *skillResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Creating the skill", func(m skillModel) (*admin.Skill, error) {
		app, name := m.App.ValueString(), m.Name.ValueString()
		return createOnce(ctx, &resp.Diagnostics, fmt.Sprintf("skill %q of the app %s", name, app),
			fresh(func() { r.lists.skills.forget(app) }, func() (*admin.Skill, error) {
				return only(r.skills(ctx, app), func(k admin.Skill) bool { return k.Name.Value() == name }, "skills named "+name)
			}),
			func() (*admin.Skill, error) { return r.write(ctx, m, "") },
			func(found *admin.Skill) (*admin.Skill, error) { return r.write(ctx, m, found.ID.Value()) })
	}, skillModel.state)
}

func (r *skillResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	refresh(ctx, req, resp, "Reading the skill",
		func(m skillModel) (*admin.Skill, error) { return r.find(ctx, m.App.ValueString(), m.ID.ValueString()) }, skillModel.state)
}

func (r *skillResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Updating the skill",
		func(m skillModel) (*admin.Skill, error) { return r.write(ctx, m, m.ID.ValueString()) }, skillModel.state)
}

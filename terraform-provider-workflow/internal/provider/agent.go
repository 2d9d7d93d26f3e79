package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// agentResource is workflow_agent: an AI agent of an app, of the
// service's own kind (admin.AgentsService). The API reads agents only
// through their list, whose entries are summaries; it has no delete.
type agentResource struct {
	base
}

// What agentResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*agentResource)(nil)
)

func newAgentResource() own { return &agentResource{} }

// agentModel is the resource's state.
type agentModel struct {
	ID                    types.String  `tfsdk:"id"`
	App                   types.String  `tfsdk:"app"`
	Type                  types.String  `tfsdk:"type"`
	Name                  types.String  `tfsdk:"name"`
	Description           types.String  `tfsdk:"description"`
	MaxLength             types.Int64   `tfsdk:"max_length"`
	ReasoningEffort       types.String  `tfsdk:"reasoning_effort"`
	Temperature           types.Float64 `tfsdk:"temperature"`
	Instructions          types.String  `tfsdk:"instructions"`
	FirstMessage          types.String  `tfsdk:"first_message"`
	AvatarAttachmentID    types.String  `tfsdk:"avatar_attachment_id"`
	AIProviderConnectorID types.String  `tfsdk:"ai_provider_connector_id"`
	Tools                 types.List    `tfsdk:"tools"`
	A2ASkills             types.List    `tfsdk:"a2a_skills"`
}

func (r *agentResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	objects := func(desc string) schema.ListAttribute {
		return schema.ListAttribute{Optional: true, ElementType: types.StringType,
			Description: desc + ", each one JSON object (jsonencode). Set, the list replaces the agent's."}
	}
	resp.Schema = schema.Schema{
		Description: "An AI agent of an app, of the service's own kind. The entries of the app's agents list are summaries. " +
			"Other settings (voiceConfig, runAs, ...) are not managed.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("The agent's id, set by the service."),
			"app": schema.StringAttribute{Required: true, Description: "The alias of the app (workflow_app.<name>.alias).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"type":        idAttribute("The agent's variant, as the list gives it."),
			"name":        schema.StringAttribute{Required: true, Description: "The agent's name."},
			"description": readString("The agent's description."),
			"max_length":  readInt("The most tokens the model may return per turn."),
			"reasoning_effort": func() schema.StringAttribute {
				a := readString("How much hidden reasoning the model may do: MINIMAL, LOW, MEDIUM or HIGH.")
				a.Validators = []validator.String{oneOf(admin.ReasoningMinimal, admin.ReasoningLow, admin.ReasoningMedium, admin.ReasoningHigh)}
				return a
			}(),
			"temperature":              readFloat("The model's sampling temperature."),
			"instructions":             schema.StringAttribute{Optional: true, Description: "The system prompt that steers the agent."},
			"first_message":            schema.StringAttribute{Optional: true, Description: "What the agent posts when a conversation starts."},
			"avatar_attachment_id":     schema.StringAttribute{Optional: true, Description: "The attachment of the avatar image."},
			"ai_provider_connector_id": schema.StringAttribute{Optional: true, Description: "The AI provider connector."},
			"tools":                    objects("The tools attached to the agent"),
			"a2a_skills":               objects("The A2A skills attached to the agent"),
		},
	}
}

// body is the agent's create or update body: what the configuration
// sets.
func (m agentModel) body() (admin.AgentBundle, error) {
	var effort *admin.ReasoningEffort
	if p := strPtr(m.ReasoningEffort); p != nil {
		effort = new(admin.ReasoningEffort(*p))
	}
	maxLength, err := int32Ptr("max_length", m.MaxLength)
	if err != nil {
		return admin.AgentBundle{}, err
	}
	b := admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{
		Name: strPtr(m.Name), Description: strPtr(m.Description), Instructions: strPtr(m.Instructions),
		FirstMessage: strPtr(m.FirstMessage), MaxLength: maxLength, ReasoningEffort: effort,
		Temperature: float64Ptr(m.Temperature), AvatarAttachmentID: strPtr(m.AvatarAttachmentID),
		AIProviderConnectorID: strPtr(m.AIProviderConnectorID),
	}}}
	if b.Tools, err = jsonObjects(m.Tools); err != nil {
		return b, attrError{"tools", err.Error()}
	}
	if b.A2ASkills, err = jsonObjects(m.A2ASkills); err != nil {
		return b, attrError{"a2a_skills", err.Error()}
	}
	return b, nil
}

// state is m with what the agents list shows of a.
func (m agentModel) state(a *admin.Agent) agentModel {
	m.ID, m.Type, m.Name, m.Description = optString(a.ID), optString(a.Type), optString(a.Name), optString(a.Description)
	m.MaxLength, m.ReasoningEffort, m.Temperature = optInt32(a.MaxLength), optString(a.ReasoningEffort), optFloat(a.Temperature)
	return m
}

// ValidateConfig checks the body with the SDK's checks, with no request.
func (r *agentResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m agentModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	b, err := m.body()
	validated(&resp.Diagnostics, "Invalid agent", err, nil, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.Agents.Create(ctx, "checked", b, opt)
		return err
	})
}

// write creates the agent (id empty) or updates it, then reads it from
// the list (the answer when the list has none).
func (r *agentResource) write(ctx context.Context, m agentModel, id string) (*admin.Agent, error) {
	b, err := m.body()
	var a *admin.Agent
	if err == nil && id == "" {
		a, err = r.ws.Agents.Create(ctx, m.App.ValueString(), b)
	} else if err == nil {
		a, err = r.ws.Agents.Update(ctx, m.App.ValueString(), id, b)
	}
	if err != nil {
		return nil, err
	}
	r.lists.agents.forget(m.App.ValueString()) // it changed: read it again
	if entry, err := r.find(ctx, m.App.ValueString(), a.ID.Value()); err != nil || entry != nil {
		return entry, err
	}
	return a, nil
}

// find reads the agent id of app from the agents list, nil when the list
// has none.
func (r *agentResource) find(ctx context.Context, app, id string) (*admin.Agent, error) {
	return listed(r.agents(ctx, app), func(a admin.Agent) string { return a.ID.Value() }, id)
}

// Create creates the agent once (createOnce): an agent's natural key is
// its name in its app.
func (r *agentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Creating the agent", func(m agentModel) (*admin.Agent, error) {
		app, name := m.App.ValueString(), m.Name.ValueString()
		return createOnce(ctx, &resp.Diagnostics, fmt.Sprintf("agent %q of the app %s", name, app),
			fresh(func() { r.lists.agents.forget(app) }, func() (*admin.Agent, error) {
				return only(r.agents(ctx, app), func(a admin.Agent) bool { return a.Name.Value() == name }, "agents named "+name)
			}),
			func() (*admin.Agent, error) { return r.write(ctx, m, "") },
			func(found *admin.Agent) (*admin.Agent, error) { return r.write(ctx, m, found.ID.Value()) })
	}, agentModel.state)
}

func (r *agentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	refresh(ctx, req, resp, "Reading the agent",
		func(m agentModel) (*admin.Agent, error) { return r.find(ctx, m.App.ValueString(), m.ID.ValueString()) }, agentModel.state)
}

func (r *agentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Updating the agent",
		func(m agentModel) (*admin.Agent, error) { return r.write(ctx, m, m.ID.ValueString()) }, agentModel.state)
}

package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// userResource is workflow_user: a user of the workspace
// (workflow.UsersService). The API has no update and no delete for users:
// a change of a member the service reads back replaces the user, and
// destroy deactivates it.
type userResource struct{ base }

func newUserResource() resource.Resource { return &userResource{} }

// userModel is the resource's state.
type userModel struct {
	ID          types.String `tfsdk:"id"`
	Email       types.String `tfsdk:"email"`
	FirstName   types.String `tfsdk:"first_name"`
	LastName    types.String `tfsdk:"last_name"`
	JobTitle    types.String `tfsdk:"job_title"`
	NeverNotify types.Bool   `tfsdk:"never_notify"`
	Status      types.String `tfsdk:"status"`
}

func (r *userResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_user"
}

func (r *userResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replaced := func(desc string, required bool) schema.StringAttribute {
		a := readString(desc + " The API cannot change it: a new value replaces the user.")
		a.Required, a.Optional, a.Computed = required, !required, !required
		a.PlanModifiers = append(a.PlanModifiers, stringplanmodifier.RequiresReplaceIfConfigured())
		return a
	}
	resp.Schema = schema.Schema{
		Description: "A user of the workspace. The API has no update and no delete for users: a new email, name or job title " +
			"replaces the user, and destroy deactivates it (POST /users/{userId}/deactivate). A user deactivated elsewhere stays " +
			"in the state with status INACTIVE: the API cannot activate one again. Import with the user's id.",
		Attributes: map[string]schema.Attribute{
			"id":         idAttribute("The user's id, set by the service."),
			"email":      replaced("The user's e-mail address, a bare address (ada@example.com).", true),
			"first_name": replaced("The user's given name.", true),
			"last_name":  replaced("The user's family name.", true),
			"job_title":  replaced("The user's job title.", false),
			"never_notify": schema.BoolAttribute{Optional: true, Description: "When true, the new user gets no welcome e-mail. " +
				"Sent only when the user is created; the service does not read it back, and import leaves it unset."},
			"status": schema.StringAttribute{Computed: true, Description: `The user's status: "ACTIVE" or "INACTIVE".`,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		},
	}
}

// newUser is the body of the user's create.
func (m userModel) newUser() workflow.NewUser {
	return workflow.NewUser{Email: m.Email.ValueString(), FirstName: m.FirstName.ValueString(), LastName: m.LastName.ValueString(),
		JobTitle: strPtr(m.JobTitle), NeverNotify: boolPtr(m.NeverNotify)}
}

// state is m with the user u as the service holds it.
func (m userModel) state(u *workflow.User) userModel {
	m.ID, m.Email, m.Status = types.StringValue(u.ID), types.StringValue(u.Email), types.StringValue(string(u.Status))
	m.FirstName, m.LastName, m.JobTitle = types.StringValue(u.FirstName), types.StringValue(u.LastName), types.StringValue(u.JobTitle)
	return m
}

// ValidateConfig checks the new user with the SDK's checks, with no request.
func (r *userResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m userModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !known(m.Email) {
		return
	}
	if err := checkRoot(func(c *workflow.Client, opt workflow.RequestOption) error {
		_, err := c.Users.Create(ctx, m.newUser(), opt)
		return err
	}); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("email"), "Invalid user", err.Error())
	}
}

func (r *userResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Creating the user",
		func(m userModel) (*workflow.User, error) { return r.c.Users.Create(ctx, m.newUser()) }, userModel.state)
}

func (r *userResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	refresh(ctx, req, resp, "Reading the user", func(m userModel) (*workflow.User, error) { return gone(r.c.Users.Get(ctx, m.ID.ValueString())) }, userModel.state)
}

// Update is reached only for never_notify, which matters only at create:
// nothing is sent.
func (r *userResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m userModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Delete deactivates the user: the API has no delete for users.
func (r *userResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m userModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if _, err := r.c.Users.Deactivate(ctx, m.ID.ValueString()); err != nil && !errors.Is(err, workflow.ErrNotFound) {
		failed(&resp.Diagnostics, "Deactivating the user", err)
	}
}

// ImportState takes the user's id.
func (r *userResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importParts(ctx, req, resp, "id")
}

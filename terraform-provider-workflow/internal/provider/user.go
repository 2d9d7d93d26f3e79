package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// userResource is workflow_user: a user of the workspace
// (workflow.UsersService). The API has no update, no delete and no
// reactivation for users: a user is never replaced. A change of a member
// the API cannot write fails at plan, destroy deactivates the user, and a
// user who exists deactivated is a plan-time error.
type userResource struct{ base }

// What userResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*userResource)(nil)
	_ planning   = (*userResource)(nil)
	_ deleting   = (*userResource)(nil)
)

func newUserResource() own { return &userResource{} }

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

func (r *userResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	fixedName := func(desc string, required bool) schema.StringAttribute {
		a := readString(desc + " The API cannot change it: a value other than the service's fails the plan, " +
			"naming the service's value (change it in the product, then here).")
		a.Required, a.Optional, a.Computed = required, !required, !required
		return a
	}
	email := readString("The user's e-mail address, a bare address (ada@example.com): the user's natural key. " +
		"A new address is another person: the plan deactivates this user and creates (or adopts) that one.")
	email.Required, email.Optional, email.Computed = true, false, false
	email.PlanModifiers = append(email.PlanModifiers, stringplanmodifier.RequiresReplace())
	resp.Schema = schema.Schema{
		Description: "A user of the workspace. The API has no update for users, so a user is never replaced for a change " +
			"of name or job title: such a change fails at plan, naming the attribute and the service's value. A user found " +
			"by its e-mail whose names differ from the configuration fails the plan, and one found deactivated is a " +
			"plan-time error. Keep users out of ephemeral environments, or in a configuration that is never destroyed.",
		Attributes: map[string]schema.Attribute{
			"id":         idAttribute("The user's id, set by the service."),
			"email":      email,
			"first_name": fixedName("The user's given name.", true),
			"last_name":  fixedName("The user's family name.", true),
			"job_title":  fixedName("The user's job title.", false),
			"never_notify": schema.BoolAttribute{Optional: true, Description: "When true, the new user gets no welcome e-mail. " +
				"Sent only when the user is created."},
			"status": schema.StringAttribute{Computed: true, Description: `The user's status: "ACTIVE" or "INACTIVE".`,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		},
	}
}

// body is the body of the user's create.
func (m userModel) body() workflow.NewUser {
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
	validated(&resp.Diagnostics, "Invalid user", nil, userAttrs, func(*admin.Workspace, workflow.RequestOption) error {
		return checkRoot(func(c *workflow.Client, opt workflow.RequestOption) error {
			_, err := c.Users.Create(ctx, m.body(), opt)
			return err
		})
	})
}

// userAttrs are the attributes of a new user's body's members; a member
// not listed is reported on email.
var userAttrs = bodyAttrs[workflow.NewUser](camel("", "email", "firstName", "lastName", "jobTitle")).with(wireAttrs{"*": "email"})

// byEmail returns the user whose e-mail is email, nil when there is none.
func (r *userResource) byEmail(ctx context.Context, email string) (*workflow.User, error) {
	return only(r.c.Users.All(ctx, &workflow.ListOptions{Filter: rsql.Field("email").Eq(email)}),
		func(u workflow.User) bool { return strings.EqualFold(u.Email, email) }, "users with the e-mail "+email)
}

// userFields are the members of a user the API cannot change, by
// attribute.
var userFields = []struct {
	attr  string
	model func(*userModel) types.String
	user  func(*workflow.User) string
}{
	{"first_name", func(m *userModel) types.String { return m.FirstName }, func(u *workflow.User) string { return u.FirstName }},
	{"last_name", func(m *userModel) types.String { return m.LastName }, func(u *workflow.User) string { return u.LastName }},
	{"job_title", func(m *userModel) types.String { return m.JobTitle }, func(u *workflow.User) string { return u.JobTitle }},
}

// ModifyPlan says at plan time what the API cannot do for a user: a
// destroy deactivates; a change of a member it cannot write fails, naming
// the service's value; a user who exists deactivated (in the state, or
// found by the e-mail of one to create) fails; a user to create who
// exists is adopted, and must match the configuration.
func (r *userResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // a destroy: declared says what it does
	}
	plan, ok := read[userModel](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	held := &workflow.User{}
	if !req.State.Raw.IsNull() {
		state, ok := read[userModel](ctx, req.State, &resp.Diagnostics)
		if !ok || !plan.Email.Equal(state.Email) {
			return // a new e-mail: another user, planned as a replacement
		}
		held = &workflow.User{Email: state.Email.ValueString(), FirstName: state.FirstName.ValueString(),
			LastName: state.LastName.ValueString(), JobTitle: state.JobTitle.ValueString(), Status: workflow.UserStatus(state.Status.ValueString())}
	} else {
		if r.c == nil || !known(plan.Email) {
			return
		}
		u, err := r.byEmail(ctx, plan.Email.ValueString())
		if err != nil {
			failed(&resp.Diagnostics, "Looking up the user", err)
			return
		}
		if u == nil {
			return
		}
		held = u
		resp.Diagnostics.AddWarning("The user "+u.Email+" exists: it will be adopted",
			"A user with this e-mail exists (id "+u.ID+"): apply takes it into the state instead of creating one.")
	}
	if held.Status == workflow.UserInactive {
		resp.Diagnostics.AddAttributeError(path.Root("email"), "The user is deactivated",
			"The user "+held.Email+" exists deactivated, and the API cannot activate a user again. "+
				"Remove the resource from the configuration (and from the state: `state rm`), or activate the user in the product first.")
		return
	}
	for _, f := range userFields {
		v := f.model(&plan)
		if known(v) && v.ValueString() != f.user(held) {
			resp.Diagnostics.AddAttributeError(path.Root(f.attr), "The API cannot change "+f.attr,
				fmt.Sprintf("The API has no update for users: %s cannot be changed from %q to %q. "+
					"Set it to %q (and change it in the product first, if it should differ).", f.attr, f.user(held), v.ValueString(), f.user(held)))
		}
	}
}

// Create creates the user once (createOnce): a user's natural key is its
// e-mail. A user found is adopted as it is (ModifyPlan has checked that
// it matches); a deactivated one is an error.
func (r *userResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Creating the user", func(m userModel) (*workflow.User, error) {
		email := m.Email.ValueString()
		return createOnce(ctx, &resp.Diagnostics, "user "+email,
			func() (*workflow.User, error) { return r.byEmail(ctx, email) },
			func() (*workflow.User, error) { return r.c.Users.Create(ctx, m.body()) },
			func(found *workflow.User) (*workflow.User, error) {
				if found.Status == workflow.UserInactive {
					return nil, errors.New("the user " + email + " exists deactivated, and the API cannot activate a user again")
				}
				return found, nil
			})
	}, userModel.state)
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
	if err := resend(ctx, func() error {
		_, err := r.c.Users.Deactivate(ctx, m.ID.ValueString())
		return err
	}); err != nil && !errors.Is(err, workflow.ErrNotFound) {
		failed(&resp.Diagnostics, "Deactivating the user", err)
	}
}

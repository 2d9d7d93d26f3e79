package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// groupResource is workflow_group: a group of users and its membership
// (workflow.GroupsService, its Members). The API has no delete for
// groups: destroy removes one from the state, with a warning.
type groupResource struct {
	base
}

// What groupResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*groupResource)(nil)
)

func newGroupResource() own { return &groupResource{} }

// groupModel is the resource's state.
type groupModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Assignable  types.Bool   `tfsdk:"assignable"`
	Watchable   types.Bool   `tfsdk:"watchable"`
	Mentionable types.Bool   `tfsdk:"mentionable"`
	Dynamic     types.Bool   `tfsdk:"dynamic"`
	Managed     types.Bool   `tfsdk:"managed"`
	Approver    types.Bool   `tfsdk:"approver"`
	DataAccess  types.Bool   `tfsdk:"data_access"`
	Hidden      types.Bool   `tfsdk:"hidden"`
	Tags        types.List   `tfsdk:"tags"`
	MemberIDs   types.Set    `tfsdk:"member_ids"`
}

func (r *groupResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A group of users, with its members. The e-mail domains of a dynamic group are workflow_group_email_domains.",
		Attributes: map[string]schema.Attribute{
			"id":          idAttribute("The group's id, set by the service."),
			"name":        schema.StringAttribute{Required: true, Description: "The group's name."},
			"assignable":  readBool("Records can be assigned to the group."),
			"watchable":   readBool("The group can watch records."),
			"mentionable": readBool("The group can be mentioned."),
			"dynamic":     readBool("Membership follows the group's e-mail domains instead of member_ids."),
			"managed": schema.BoolAttribute{Computed: true, Description: "The group is managed outside the API (by an identity provider).",
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}},
			"approver":    schema.BoolAttribute{Optional: true, Description: "The group can approve."},
			"data_access": schema.BoolAttribute{Optional: true, Description: "The group grants data access."},
			"hidden":      schema.BoolAttribute{Optional: true, Description: "The group is hidden."},
			"tags":        schema.ListAttribute{Optional: true, ElementType: types.StringType, Description: "The group's tags."},
			"member_ids": readSet("The ids of the group's members (workflow_user.<name>.id), for a group that is not dynamic. " +
				"Left out, membership is not managed; set, members not in it are removed."),
		},
	}
}

// body is the body of the group's create or update: what the
// configuration sets, and nothing else.
func (m groupModel) body() workflow.GroupRequest {
	r := workflow.GroupRequest{
		Name: strPtr(m.Name), Assignable: boolPtr(m.Assignable), Watchable: boolPtr(m.Watchable),
		Mentionable: boolPtr(m.Mentionable), Dynamic: boolPtr(m.Dynamic), Approver: boolPtr(m.Approver),
		DataAccess: boolPtr(m.DataAccess), Hidden: boolPtr(m.Hidden),
	}
	if known(m.Tags) {
		r.Tags = append([]string{}, stringList(m.Tags)...)
	}
	return r
}

// state is m with what the service holds: the group g and its members.
func (m groupModel) state(g *workflow.Group, members []string) groupModel {
	m.ID, m.Name = types.StringValue(g.ID), types.StringValue(g.Name)
	m.Assignable, m.Watchable, m.Mentionable = types.BoolValue(g.Assignable), types.BoolValue(g.Watchable), types.BoolValue(g.Mentionable)
	m.Dynamic, m.Managed = types.BoolValue(g.Dynamic), types.BoolValue(g.Managed)
	m.MemberIDs = setOf(members)
	if g.Dynamic {
		// membership follows the e-mail domains: not the configuration's
		// to set, so not shown as a value to write back (generated
		// configuration would be refused)
		m.MemberIDs = types.SetNull(types.StringType)
	}
	return m
}

// read returns the group id and its members' ids.
func (r *groupResource) read(ctx context.Context, id string) (*workflow.Group, []string, error) {
	g, err := r.c.Groups.Get(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	var members []string
	for u, err := range r.c.Groups.Members.All(ctx, id, nil) {
		if err != nil {
			return nil, nil, err
		}
		members = append(members, u.ID)
	}
	return g, members, nil
}

// ValidateConfig checks the configured body with the SDK's checks, with no
// request.
func (r *groupResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m groupModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body := m.body()
	body.UserIDs = stringSet(m.MemberIDs)
	validated(&resp.Diagnostics, "Invalid group", nil, groupAttrs, func(*admin.Workspace, workflow.RequestOption) error {
		return checkRoot(func(c *workflow.Client, opt workflow.RequestOption) error {
			_, err := c.Groups.Create(ctx, body, opt)
			return err
		})
	})
}

// groupAttrs are the attributes of a group's body's members; a member
// not listed is reported on member_ids.
var groupAttrs = bodyAttrs[workflow.GroupRequest](map[string]string{"userIds": "member_ids", "userIds[*]": "member_ids",
	"name": "name"}).with(wireAttrs{"*": "member_ids"})

func (r *groupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m groupModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body := m.body()
	if known(m.MemberIDs) {
		body.UserIDs = append([]string{}, stringSet(m.MemberIDs)...)
	}
	// A group's natural key is its name (createOnce); the groups list has
	// no published filter, so the look-up walks it.
	name := m.Name.ValueString()
	g, err := createOnce(ctx, &resp.Diagnostics, fmt.Sprintf("group %q", name),
		fresh(func() { r.lists.groups.forget("") }, func() (*workflow.Group, error) {
			return only(r.groups(ctx), func(g workflow.Group) bool { return g.Name == name }, "groups named "+name)
		}),
		func() (*workflow.Group, error) { return r.c.Groups.Create(ctx, body) },
		func(found *workflow.Group) (*workflow.Group, error) {
			if _, err := r.c.Groups.Update(ctx, found.ID, body); err != nil {
				return nil, err
			}
			return found, nil // read again below, members and all
		})
	if err == nil && g == nil {
		err = errors.New("the service answered without the new group")
	}
	var members []string
	if err == nil {
		g, members, err = r.read(ctx, g.ID)
	}
	if err != nil {
		failed(&resp.Diagnostics, "Creating the group", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m.state(g, members))...)
}

func (r *groupResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m groupModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	g, members, err := r.read(ctx, m.ID.ValueString())
	if errors.Is(err, workflow.ErrNotFound) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		failed(&resp.Diagnostics, "Reading the group", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m.state(g, members))...)
}

// Update sends what the configuration sets, then adds and removes
// members so that the group has exactly member_ids, when it is set.
func (r *groupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, prior groupModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := prior.ID.ValueString()
	_, err := r.c.Groups.Update(ctx, id, plan.body())
	if want := stringSet(plan.MemberIDs); err == nil && known(plan.MemberIDs) {
		have := stringSet(prior.MemberIDs)
		if add := without(want, have); len(add) > 0 {
			err = resend(ctx, func() error {
				err := r.c.Groups.Members.Add(ctx, id, add)
				if workflow.OutcomeUnknown(err) { // added or not: who is still missing is sent again
					if _, members, rerr := r.read(ctx, id); rerr == nil {
						if add = without(want, members); len(add) == 0 {
							return nil
						}
					}
				}
				return err
			})
		}
		if rm := without(have, want); err == nil && len(rm) > 0 {
			err = r.c.Groups.Members.Remove(ctx, id, rm)
		}
	}
	var g *workflow.Group
	var members []string
	if err == nil {
		g, members, err = r.read(ctx, id)
	}
	if err != nil {
		failed(&resp.Diagnostics, "Updating the group", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan.state(g, members))...)
}

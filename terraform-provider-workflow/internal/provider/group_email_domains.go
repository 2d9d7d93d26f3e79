package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// groupEmailDomainsResource is workflow_group_email_domains: the e-mail
// domains of a dynamic group (admin.GroupDomainsService), read through
// the group (workflow.GroupsService.Get).
type groupEmailDomainsResource struct{ base }

// What groupEmailDomainsResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*groupEmailDomainsResource)(nil)
	_ deleting   = (*groupEmailDomainsResource)(nil)
)

func newGroupEmailDomainsResource() own { return &groupEmailDomainsResource{} }

// groupEmailDomainsModel is the resource's state.
type groupEmailDomainsModel struct {
	ID      types.String `tfsdk:"id"`
	GroupID types.String `tfsdk:"group_id"`
	Domains types.Set    `tfsdk:"domains"`
}

func (r *groupEmailDomainsResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The e-mail domains of a dynamic group, all of them: a domain the group has that the configuration " +
			"does not list is removed. Destroy removes the listed domains from the group.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("The group's id, as group_id."),
			"group_id": schema.StringAttribute{Required: true, Description: "The group's id (workflow_group.<name>.id).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"domains": schema.SetAttribute{Required: true, ElementType: types.StringType,
				Description: `The e-mail domains, e.g. "example.com".`},
		},
	}
}

// ValidateConfig checks the domains with the SDK's checks, with no request.
func (r *groupEmailDomainsResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m groupEmailDomainsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !known(m.Domains) {
		return
	}
	validated(&resp.Diagnostics, "Invalid domains", nil, wireAttrs{"*": "domains"}, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.Domains.Groups.Add(ctx, "checked", stringSet(m.Domains), opt)
		return err
	})
}

// set makes the group's domains want, from have, and reads them back.
func (r *groupEmailDomainsResource) set(ctx context.Context, m groupEmailDomainsModel, have []string) (groupEmailDomainsModel, error) {
	id, want := m.GroupID.ValueString(), stringSet(m.Domains)
	var err error
	if add := without(want, have); len(add) > 0 {
		err = resend(ctx, func() error {
			_, err := r.ws.Domains.Groups.Add(ctx, id, add)
			if workflow.OutcomeUnknown(err) { // added or not: what is still missing is sent again
				if cur, rerr := r.read(ctx, m); rerr == nil {
					if add = without(want, stringSet(cur.Domains)); len(add) == 0 {
						return nil
					}
				}
			}
			return err
		})
	}
	if rm := without(have, want); err == nil && len(rm) > 0 {
		_, err = r.ws.Domains.Groups.Remove(ctx, id, rm)
	}
	if err != nil {
		return m, err
	}
	return r.read(ctx, m)
}

// read is m with the group's domains as the service holds them.
func (r *groupEmailDomainsResource) read(ctx context.Context, m groupEmailDomainsModel) (groupEmailDomainsModel, error) {
	g, err := r.c.Groups.Get(ctx, m.GroupID.ValueString())
	if err != nil {
		return m, err
	}
	domains := make([]string, len(g.Domains))
	for i, d := range g.Domains {
		domains[i] = d.Domain
	}
	m.ID, m.Domains = m.GroupID, setOf(domains)
	return m, nil
}

func (r *groupEmailDomainsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m groupEmailDomainsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	cur, err := r.read(ctx, m)
	if err == nil {
		m, err = r.set(ctx, m, stringSet(cur.Domains))
	}
	if err != nil {
		failed(&resp.Diagnostics, "Setting the group's domains", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *groupEmailDomainsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m groupEmailDomainsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m, err := r.read(ctx, m)
	if errors.Is(err, workflow.ErrNotFound) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		failed(&resp.Diagnostics, "Reading the group's domains", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *groupEmailDomainsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, prior groupEmailDomainsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m, err := r.set(ctx, plan, stringSet(prior.Domains))
	if err != nil {
		failed(&resp.Diagnostics, "Setting the group's domains", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Delete removes the domains of the state from the group.
func (r *groupEmailDomainsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m groupEmailDomainsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || len(stringSet(m.Domains)) == 0 {
		return
	}
	_, err := r.ws.Domains.Groups.Remove(ctx, m.GroupID.ValueString(), stringSet(m.Domains))
	if err != nil && !errors.Is(err, workflow.ErrNotFound) {
		failed(&resp.Diagnostics, "Removing the group's domains", err)
	}
}

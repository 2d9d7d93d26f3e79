package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// organizationDomainResource is workflow_organization_domain: a domain of
// the organisation (admin.DomainsService). The API has no read and no
// delete for them: the provider keeps what it wrote, and destroy removes
// one from the state, with a warning.
type organizationDomainResource struct {
	base
}

// What organizationDomainResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*organizationDomainResource)(nil)
)

func newOrganizationDomainResource() own { return &organizationDomainResource{} }

// organizationDomainModel is the resource's state.
type organizationDomainModel struct {
	ID               types.String `tfsdk:"id"`
	Type             types.String `tfsdk:"type"`
	Domain           types.String `tfsdk:"domain"`
	Name             types.String `tfsdk:"name"`
	Internal         types.Bool   `tfsdk:"internal"`
	Approved         types.Bool   `tfsdk:"approved"`
	StartURL         types.String `tfsdk:"start_url"`
	SelfRegistration types.Bool   `tfsdk:"self_registration"`
	SSO              types.Bool   `tfsdk:"sso"`
}

func (r *organizationDomainResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	managed := " A MANAGED domain's only."
	resp.Schema = schema.Schema{
		Description: "A domain of the organisation: a MANAGED domain (sign-in, SSO) or an EMAIL sending domain.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("The domain's id, set by the service."),
			"type": schema.StringAttribute{Required: true, Description: `"MANAGED" or "EMAIL". A new type creates a new domain.`,
				Validators: []validator.String{oneOf(admin.DomainManaged, admin.DomainEmail)},
				// a type first written after an import (unset there) is no new type
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(
					func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
						resp.RequiresReplace = !req.StateValue.IsNull()
					}, "a new type creates a new domain", "a new type creates a new domain")}},
			"domain":            schema.StringAttribute{Required: true, Description: "The domain, e.g. example.com."},
			"name":              schema.StringAttribute{Optional: true, Description: "The domain's name." + managed},
			"internal":          schema.BoolAttribute{Optional: true, Description: "The domain is internal." + managed},
			"approved":          schema.BoolAttribute{Optional: true, Description: "The domain is approved." + managed},
			"start_url":         schema.StringAttribute{Optional: true, Description: "The URL sign-in starts at." + managed},
			"self_registration": schema.BoolAttribute{Optional: true, Description: "Users of the domain may register themselves." + managed},
			"sso":               schema.BoolAttribute{Optional: true, Description: "Users of the domain sign in with SSO." + managed},
		},
	}
}

// body is the domain's body: what the configuration sets. A member of
// a MANAGED domain set on an EMAIL one is an error naming its attribute.
func (m organizationDomainModel) body() (admin.DomainRequest, error) {
	if m.Type.ValueString() == string(admin.DomainEmail) {
		for name, v := range map[string]attr.Value{"name": m.Name, "internal": m.Internal, "approved": m.Approved,
			"start_url": m.StartURL, "self_registration": m.SelfRegistration, "sso": m.SSO} {
			if !v.IsNull() {
				return admin.DomainRequest{}, attrError{name, "is a MANAGED domain's only; this domain's type is EMAIL"}
			}
		}
		return admin.DomainRequest{Email: &admin.EmailDomain{Domain: strPtr(m.Domain)}}, nil
	}
	return admin.DomainRequest{Managed: &admin.ManagedDomain{
		Domain: strPtr(m.Domain), Name: strPtr(m.Name), Internal: boolPtr(m.Internal), Approved: boolPtr(m.Approved),
		StartURL: strPtr(m.StartURL), SelfRegistration: boolPtr(m.SelfRegistration), SSO: boolPtr(m.SSO),
	}}, nil
}

// attrError is a rule a configuration breaks, on one attribute.
type attrError struct{ attr, rule string }

func (e attrError) Error() string { return e.attr + " " + e.rule }

// ValidateConfig checks the body with the SDK's checks, with no request.
func (r *organizationDomainResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m organizationDomainModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !known(m.Type) {
		return
	}
	m.Domain = checkable(m.Domain, "checked.example.com")
	body, err := m.body()
	validated(&resp.Diagnostics, "Invalid domain", err, nil, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.Domains.Create(ctx, body, opt)
		return err
	})
}

func (r *organizationDomainResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m organizationDomainModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body, err := m.body()
	var d *admin.Domain
	if err == nil {
		d, err = r.ws.Domains.Create(ctx, body)
	}
	if err != nil {
		failed(&resp.Diagnostics, "Creating the domain", blind("domain", "<the domain's id>", err))
		return
	}
	m.ID = optString(d.ID)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Read keeps the state: the API has no read for domains.
func (r *organizationDomainResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {
}

func (r *organizationDomainResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m organizationDomainModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body, err := m.body()
	if err == nil {
		_, err = r.ws.Domains.Update(ctx, m.ID.ValueString(), body)
	}
	if err != nil {
		failed(&resp.Diagnostics, "Updating the domain", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

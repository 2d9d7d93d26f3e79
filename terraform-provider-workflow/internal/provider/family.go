package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A family is what the API can do with one kind of object, said once:
// how it is destroyed, its import id (and so its identity), and its
// natural key. The resource's import, identity, plan-time destroy note
// and the part of its schema description that says these derive from it
// (declared); what the family needs beyond that is its resource's own
// code.
type family struct {
	what string // the family in words: "agent", "search table"
	// importID are the attributes of the import id, joined by "/" in this
	// order (the segments of the object's path), and of the identity.
	importID []string
	// key is the natural key in words ("its handle in its app"), by which
	// a create finds an object that exists (createOnce); "" when the API
	// cannot look one up by what the configuration says.
	key     string
	reads   readKind
	destroy destroyKind
	// named is the attribute that names an object in a destroy's note.
	named string
}

// readKind is how the API reads an object of the family.
type readKind int

const (
	byGet   readKind = iota // by its id (or its parent's)
	byList                  // only through its app's list
	notRead                 // not at all
)

// destroyKind is what a destroy does.
type destroyKind int

const (
	deletes     destroyKind = iota // the API deletes the object
	forgets                        // the API has no delete: removed from the state only
	deactivates                    // a user: deactivated
	releases                       // a set the resource manages inside another object: emptied
)

// doc is what the schema's description says of the family.
func (f family) doc() string {
	s := map[readKind]string{
		byGet:   " The API reads it by id: a change made elsewhere shows in the next plan.",
		byList:  " The API reads it only through its app's list, read once a run: what the list does not give is kept as written.",
		notRead: " The API has no read for it: the provider keeps what it wrote, and drift is not detected.",
	}[f.reads]
	s += " Import with the id " + strings.Join(f.importID, "/") + ", or by identity (" + strings.Join(f.importID, ", ") + ")."
	switch {
	case f.key != "":
		s += keyDoc(f.key, f.destroy == deletes)
	case f.destroy == forgets:
		s += blindDoc(f.what)
	}
	return s
}

// declared is a family's resource with what its declaration says
// applied: the import by id or identity, the identity kept after each
// create, read and update, the destroy note at plan time, and the
// description. Everything else is the resource's own.
type declared struct {
	resource.Resource
	fam family
}

// declare returns the constructor of r's resource declared as fam.
func declare(fam family, r func() resource.Resource) func() resource.Resource {
	return func() resource.Resource { return &declared{Resource: r(), fam: fam} }
}

var (
	_ resource.ResourceWithConfigure      = (*declared)(nil)
	_ resource.ResourceWithValidateConfig = (*declared)(nil)
	_ resource.ResourceWithModifyPlan     = (*declared)(nil)
	_ resource.ResourceWithImportState    = (*declared)(nil)
	_ resource.ResourceWithIdentity       = (*declared)(nil)
)

func (d *declared) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	d.Resource.Schema(ctx, req, resp)
	resp.Schema.Description += d.fam.doc()
}

// IdentitySchema is the import id's attributes, each required to import.
func (d *declared) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	attrs := map[string]identityschema.Attribute{}
	for _, a := range d.fam.importID {
		attrs[a] = identityschema.StringAttribute{RequiredForImport: true,
			Description: "The " + d.fam.what + "'s " + strings.ReplaceAll(a, "_", " ") + ", as in the import id."}
	}
	resp.IdentitySchema = identityschema.Schema{Attributes: attrs}
}

func (d *declared) Configure(ctx context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if r, ok := d.Resource.(resource.ResourceWithConfigure); ok {
		r.Configure(ctx, req, resp)
	}
}

func (d *declared) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if r, ok := d.Resource.(resource.ResourceWithValidateConfig); ok {
		r.ValidateConfig(ctx, req, resp)
	}
}

// ModifyPlan says what a destroy does where the API cannot delete, then
// leaves the plan to the resource.
func (d *declared) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	switch d.fam.destroy {
	case forgets:
		instead := forgetsDoc(d.fam.what)
		if d.fam.key == "" {
			instead += "; to manage it again, import it with this id"
		}
		destroyNote(ctx, req, resp, d.fam.what, d.fam.named, instead)
	case deactivates:
		destroyNote(ctx, req, resp, d.fam.what, d.fam.named, "deactivates the "+d.fam.what+": the API has no delete for "+
			d.fam.what+"s, and no reactivation")
	}
	if r, ok := d.Resource.(resource.ResourceWithModifyPlan); ok && !resp.Diagnostics.HasError() {
		r.ModifyPlan(ctx, req, resp)
	}
	if len(resp.RequiresReplace) > 0 && !req.State.Raw.IsNull() && d.fam.destroy != deletes {
		var name, id types.String
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(d.fam.named), &name)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
		old := "removes the old one from the state only (the API has no delete for " + d.fam.what + "s): it stays in the workspace"
		if d.fam.destroy == deactivates {
			old = "deactivates the old one (the API has no delete for " + d.fam.what + "s)"
		}
		resp.Diagnostics.AddWarning("Replacing the "+d.fam.what+" "+name.ValueString()+" "+strings.SplitN(old, " (", 2)[0],
			"The replacement of the "+d.fam.what+" "+name.ValueString()+" (id "+id.ValueString()+") "+old+".")
	}
}

// ImportState takes the import id's parts, or the identity's attributes,
// then leaves the rest to the resource, when it has more to do.
func (d *declared) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID != "" {
		importParts(ctx, req, resp, d.fam.importID...)
	} else {
		for _, a := range d.fam.importID {
			var v types.String
			if req.Identity != nil {
				resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root(a), &v)...)
			}
			if v.ValueString() == "" {
				resp.Diagnostics.AddError("Missing identity attribute",
					"Importing a "+d.fam.what+" by identity needs "+strings.Join(d.fam.importID, ", ")+": "+a+" is empty.")
				return
			}
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(a), v)...)
		}
	}
	if r, ok := d.Resource.(resource.ResourceWithImportState); ok && !resp.Diagnostics.HasError() {
		r.ImportState(ctx, req, resp)
	}
}

func (d *declared) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	d.Resource.Create(ctx, req, resp)
	d.identify(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

func (d *declared) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	d.Resource.Read(ctx, req, resp)
	d.identify(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

func (d *declared) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	d.Resource.Update(ctx, req, resp)
	d.identify(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

// identify sets id, the identity of the object st holds, from its import
// id's attributes; nothing when st holds none (a read that found none).
func (d *declared) identify(ctx context.Context, st tfsdk.State, id *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if id == nil || st.Raw.IsNull() || diags.HasError() {
		return
	}
	for _, a := range d.fam.importID {
		var v types.String
		diags.Append(st.GetAttribute(ctx, path.Root(a), &v)...)
		diags.Append(id.SetAttribute(ctx, path.Root(a), v)...)
	}
}

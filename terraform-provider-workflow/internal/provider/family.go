package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A family is what the API can do with one kind of object, said once:
// how the API reads it and how it is destroyed, its import id (and so its
// identity), its natural key, and which attributes no read returns. The
// resource's import, identity, plan-time notes, the keeping of what no
// read returns, the destroy of what the API cannot delete, and the part
// of its schema descriptions that says these derive from it (declared);
// what the family needs beyond that is its resource's own code.
type family struct {
	typ  string // the resource type, after "workflow_": "agent", "linked_search_table"
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
	// kept are the attributes kept as written: the API takes them, but no
	// reply holds them. After a create or an update the state holds the
	// plan's value of each, after a read the prior state's (declared does
	// both), each one's description says so, and an import leaves them
	// unset. Every other attribute the service sets or the configuration
	// may leave out is read by the family's read (reads).
	kept []string
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
		byGet:  " The API reads it by id: a change made elsewhere shows in the next plan.",
		byList: " The API reads it only through its app's list, read once a run: a change made elsewhere to what the list gives shows in the next plan.",
		notRead: " The API has no read for it: the provider keeps what it wrote, drift is not detected, and an import leaves " +
			"what the configuration sets unset, for the next apply to write.",
	}[f.reads]
	if len(f.kept) > 0 {
		s += " No reply of the API holds " + inWords(f.kept) + map[bool]string{true: ": it is", false: ": they are"}[len(f.kept) == 1] +
			" kept as written."
	}
	s += " Import with the id " + strings.Join(f.importID, "/") + ", or by identity (" + strings.Join(f.importID, ", ") + ")."
	switch {
	case f.key != "":
		s += keyDoc(f.key, f.destroy)
	case f.destroy == forgets:
		s += blindDoc(f.what)
	}
	return s
}

// keptNote is what the description of an attribute kept as written adds.
const keptNote = " Kept as written: no reply of the API holds it, so the state keeps the value the provider wrote, " +
	"a change made elsewhere is not seen, and an import leaves it unset (the next apply writes the configured value)."

// inWords is names as a list in words: "a, b and c".
func inWords(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// name is how a note names the object st holds: its named attribute, then
// the parents in its import id ("open of the app crm-accounts").
func (f family) name(ctx context.Context, st tfsdk.State, d *diag.Diagnostics) string {
	value := func(a string) string {
		var v types.String
		d.Append(st.GetAttribute(ctx, path.Root(a), &v)...)
		return v.ValueString()
	}
	s := value(f.named)
	for _, a := range f.importID {
		if a != "id" && a != f.named {
			s += " of the " + strings.ReplaceAll(a, "_", " ") + " " + value(a)
		}
	}
	return s
}

// declared is a family's resource: its own code (own) with what its
// declaration says applied: the type name, the import by id or identity,
// the identity kept after each create, read and update, what no read
// returns kept as written, the notes of a destroy or a replacement, the
// destroy of what the API cannot delete, and the descriptions.
type declared struct {
	own
	fam family
}

// own is what a family's resource does itself: its configuration (base),
// its schema, and how it creates, reads and updates; declared calls the
// rest of its code only through validating, planning, importing and
// deleting, each asserted (var _) beside the resource that implements it.
type own interface {
	Configure(context.Context, resource.ConfigureRequest, *resource.ConfigureResponse)
	Schema(context.Context, resource.SchemaRequest, *resource.SchemaResponse)
	Create(context.Context, resource.CreateRequest, *resource.CreateResponse)
	Read(context.Context, resource.ReadRequest, *resource.ReadResponse)
	Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse)
}

// validating is a resource that checks its configuration.
type validating interface {
	ValidateConfig(context.Context, resource.ValidateConfigRequest, *resource.ValidateConfigResponse)
}

// planning is a resource that changes its plan.
type planning interface {
	ModifyPlan(context.Context, resource.ModifyPlanRequest, *resource.ModifyPlanResponse)
}

// importing is a resource with more to do at an import than take its id.
type importing interface {
	ImportState(context.Context, resource.ImportStateRequest, *resource.ImportStateResponse)
}

// deleting is the resource of a family the API deletes (or deactivates,
// or empties): a family that forgets has none, for nothing is sent.
type deleting interface {
	Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse)
}

// declare returns the constructor of r's resource declared as fam.
func declare(fam family, r func() own) func() resource.Resource {
	return func() resource.Resource { return &declared{own: r(), fam: fam} }
}

var (
	_ resource.ResourceWithConfigure      = (*declared)(nil)
	_ resource.ResourceWithValidateConfig = (*declared)(nil)
	_ resource.ResourceWithModifyPlan     = (*declared)(nil)
	_ resource.ResourceWithImportState    = (*declared)(nil)
	_ resource.ResourceWithIdentity       = (*declared)(nil)
)

// Schema is the resource's, with the declaration's sentences added to
// its description and to the description of each attribute kept as
// written.
func (d *declared) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	d.own.Schema(ctx, req, resp)
	resp.Schema.Description += d.fam.doc()
	for _, a := range d.fam.kept {
		var ok bool
		switch s := resp.Schema.Attributes[a].(type) {
		case schema.StringAttribute:
			s.Description, ok = s.Description+keptNote, true
			resp.Schema.Attributes[a] = s
		case schema.BoolAttribute:
			s.Description, ok = s.Description+keptNote, true
			resp.Schema.Attributes[a] = s
		case schema.Float64Attribute:
			s.Description, ok = s.Description+keptNote, true
			resp.Schema.Attributes[a] = s
		case schema.ListAttribute:
			s.Description, ok = s.Description+keptNote, true
			resp.Schema.Attributes[a] = s
		}
		if !ok {
			resp.Diagnostics.AddError("A declaration the schema does not match",
				"The "+d.fam.what+"'s declaration keeps "+a+" as written: the schema has no such attribute, or not of a kind it keeps.")
		}
	}
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

// Metadata names the resource type from the declaration.
func (d *declared) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.fam.typ
}

func (d *declared) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if r, ok := d.own.(validating); ok {
		r.ValidateConfig(ctx, req, resp)
	}
}

// ModifyPlan says what a destroy or a replacement does where the API
// cannot delete, then leaves the plan to the resource.
func (d *declared) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if d.fam.destroy == forgets || d.fam.destroy == deactivates {
		d.destroyNote(ctx, req, resp)
	}
	if r, ok := d.own.(planning); ok && !resp.Diagnostics.HasError() {
		r.ModifyPlan(ctx, req, resp)
	}
	if len(resp.RequiresReplace) > 0 && !req.State.Raw.IsNull() && d.fam.destroy != deletes {
		name, id := d.fam.name(ctx, req.State, &resp.Diagnostics), d.id(ctx, req.State, &resp.Diagnostics)
		old := "removes the old one from the state only (the API has no delete for " + d.fam.what + "s): it stays in the workspace"
		if d.fam.destroy == deactivates {
			old = "deactivates the old one (the API has no delete for " + d.fam.what + "s)"
		}
		resp.Diagnostics.AddWarning("Replacing the "+d.fam.what+" "+name+" "+strings.SplitN(old, " (", 2)[0],
			"The replacement of the "+d.fam.what+" "+name+" (id "+id+") "+old+".")
	}
}

// destroyNote warns, when req plans the destroy of an object the API
// cannot delete, what the destroy does instead; it is said at plan time,
// before approval.
func (d *declared) destroyNote(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	what := d.fam.what
	instead := "removes it from the state only: the API has no delete for " + what + "s, and it stays in the workspace"
	if d.fam.destroy == deactivates {
		instead = "deactivates the " + what + ": the API has no delete for " + what + "s, and no reactivation"
	} else if d.fam.key == "" {
		instead += "; to manage it again, import it with this id"
	}
	name, id := d.fam.name(ctx, req.State, &resp.Diagnostics), d.id(ctx, req.State, &resp.Diagnostics)
	resp.Diagnostics.AddWarning(fmt.Sprintf("Destroying the %s %s %s", what, name, strings.SplitN(instead, ":", 2)[0]),
		fmt.Sprintf("The destroy of the %s %s (id %s) %s. The resource's description says how a later apply converges.",
			what, name, id, instead))
}

// id is the id of the object st holds.
func (d *declared) id(ctx context.Context, st tfsdk.State, diags *diag.Diagnostics) string {
	var id types.String
	diags.Append(st.GetAttribute(ctx, path.Root("id"), &id)...)
	return id.ValueString()
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
	if r, ok := d.own.(importing); ok && !resp.Diagnostics.HasError() {
		r.ImportState(ctx, req, resp)
	}
}

// Create, Read and Update are the resource's, then the attributes kept
// as written are set from the plan (or, after a read, from the prior
// state), and the identity from the state.
func (d *declared) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	d.own.Create(ctx, req, resp)
	d.keep(ctx, tfsdk.State(req.Plan), &resp.State, &resp.Diagnostics)
	d.identify(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

func (d *declared) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	d.own.Read(ctx, req, resp)
	d.keep(ctx, req.State, &resp.State, &resp.Diagnostics)
	d.identify(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

func (d *declared) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	d.own.Update(ctx, req, resp)
	d.keep(ctx, tfsdk.State(req.Plan), &resp.State, &resp.Diagnostics)
	d.identify(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

// Delete is the resource's where the API deletes (or deactivates, or
// empties); where it has no delete, nothing is sent, and a warning says
// the object still exists.
func (d *declared) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if r, ok := d.own.(deleting); ok && d.fam.destroy != forgets {
		r.Delete(ctx, req, resp)
		return
	}
	what, name := d.fam.what, d.fam.name(ctx, req.State, &resp.Diagnostics)
	resp.Diagnostics.AddWarning("The "+what+" still exists", "The API has no delete for "+what+"s: the "+what+" "+name+
		" was removed from the state only, and still exists in the workspace.")
}

// keep sets, in st, each attribute kept as written to its value in from
// (the plan, or the prior state); nothing when st holds no object (a read
// that found none).
func (d *declared) keep(ctx context.Context, from tfsdk.State, st *tfsdk.State, diags *diag.Diagnostics) {
	if st.Raw.IsNull() || from.Raw.IsNull() || diags.HasError() {
		return
	}
	for _, a := range d.fam.kept {
		var v attr.Value
		diags.Append(from.GetAttribute(ctx, path.Root(a), &v)...)
		if v != nil && !v.IsUnknown() { // unknown: computed, and not configured; the resource said what it is
			diags.Append(st.SetAttribute(ctx, path.Root(a), v)...)
		}
	}
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

// keyDoc is what a schema's description says of a family created once
// by its natural key (key, in words), and of its destroy.
func keyDoc(key string, destroy destroyKind) string {
	over := ", and the configuration is written over it"
	if destroy == deactivates {
		over = "" // the API has no update: the resource checks what it finds instead
	}
	s := " Natural key: " + key + ". A create first looks the object of that key up, and looks again after a create whose " +
		"outcome is unknown (a 5xx, a lost answer) before anything is sent again: one found is adopted into the state, with a " +
		"warning" + over + "; it is never created twice."
	switch destroy {
	case deletes:
		return s + " Destroy deletes it; an ephemeral environment's cycle (destroy, then apply) creates it again."
	case deactivates:
		return s + " The API has no delete and no reactivation: destroy deactivates it, and the plan says so before approval; " +
			"an ephemeral environment's cycle (destroy, then apply) does not converge: the second apply finds it deactivated " +
			"and fails the plan, naming it."
	}
	return s + " The API has no delete: destroy removes it from the state only, and the plan says so before approval; " +
		"an ephemeral environment's cycle (destroy, then apply) adopts it again."
}

// blindDoc is keyDoc for a family the API cannot look up by what the
// configuration says (what: its name) and cannot delete.
func blindDoc(what string) string {
	return " Natural key: none the API can look up. A create whose outcome is unknown (a 5xx, a lost answer) is not sent " +
		"again: the apply fails, saying that the " + what + " may exist and how to import it. The API has no delete: destroy " +
		"removes it from the state only, and the plan says so before approval, naming its id; an ephemeral environment's " +
		"cycle (destroy, then apply) converges by importing it with that id; without the import, the apply makes a second one " +
		"(or fails, where the service refuses a second one)."
}

package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// note is a stand-in family's resource: an id the service sets and a
// note the API takes but never returns. Its CRUD writes note as the API
// would show it (null), or, where gone, finds no object.
type note struct {
	base
	gone    bool // Read finds no object
	deletes int  // Deletes called
}

func (n *note) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) { n.deletes++ }

type noteModel struct {
	ID   types.String `tfsdk:"id"`
	Note types.String `tfsdk:"note"`
}

func (note) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   idAttribute("The id."),
		"note": schema.StringAttribute{Optional: true, Description: "A note."},
	}}
}

// answered is the state the API's answer gives: note is never in it.
var noteAnswer = noteModel{ID: types.StringValue("n1"), Note: types.StringNull()}

func (note) Create(ctx context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	resp.Diagnostics.Append(resp.State.Set(ctx, noteAnswer)...)
}

func (n note) Read(ctx context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	if n.gone {
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, noteAnswer)...)
}

func (note) Update(ctx context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.Append(resp.State.Set(ctx, noteAnswer)...)
}

// noteFamily keeps note as written.
var noteFamily = family{what: "note", importID: []string{"id"}, destroy: forgets, named: "id", kept: []string{"note"}}

// A family's attributes kept as written hold, after a create or an
// update, the plan's value, and after a read the prior state's, whatever
// the API's answer (which never has them); a read that finds no object
// leaves none, and a value the plan does not know yet leaves the
// resource's own.
func TestDeclaredKeepsWhatNoReplyHolds(t *testing.T) {
	ctx := t.Context()
	s := schemaOf(t, &declared{own: &note{}, fam: noteFamily})
	written := stateOf(ctx, t, s, noteModel{ID: types.StringValue("n1"), Note: types.StringValue("as written")})
	empty := func() tfsdk.State { return tfsdk.State{Schema: s.Schema, Raw: written.Raw.Copy()} }
	noteOf := func(st tfsdk.State) types.String {
		var m noteModel
		if d := st.Get(ctx, &m); d.HasError() {
			t.Fatal(d)
		}
		return m.Note
	}

	d := &declared{own: &note{}, fam: noteFamily}
	created := resource.CreateResponse{State: empty()}
	d.Create(ctx, resource.CreateRequest{Plan: tfsdk.Plan(written)}, &created)
	updated := resource.UpdateResponse{State: empty()}
	d.Update(ctx, resource.UpdateRequest{Plan: tfsdk.Plan(written), State: written}, &updated)
	read := resource.ReadResponse{State: empty()}
	d.Read(ctx, resource.ReadRequest{State: written}, &read)
	for name, st := range map[string]tfsdk.State{"create": created.State, "update": updated.State, "read": read.State} {
		if got := noteOf(st); got.ValueString() != "as written" {
			t.Errorf("after a %s the note is %s, want the value written", name, got)
		}
	}

	gone := resource.ReadResponse{State: empty()}
	(&declared{own: &note{gone: true}, fam: noteFamily}).Read(ctx, resource.ReadRequest{State: written}, &gone)
	if !gone.State.Raw.IsNull() || gone.Diagnostics.HasError() {
		t.Errorf("a read that found none left %v (%v), want no object", gone.State.Raw, gone.Diagnostics)
	}

	unknown := stateOf(ctx, t, s, noteModel{ID: types.StringUnknown(), Note: types.StringUnknown()})
	kept := resource.CreateResponse{State: empty()}
	d.Create(ctx, resource.CreateRequest{Plan: tfsdk.Plan(unknown)}, &kept)
	if got := noteOf(kept.State); !got.IsNull() || kept.Diagnostics.HasError() {
		t.Errorf("an unknown note in the plan gave %s (%v), want the resource's own (null)", got, kept.Diagnostics)
	}

	forgot := &declared{own: &note{}, fam: family{what: "note", importID: []string{"id"}}}
	plain := resource.ReadResponse{State: empty()}
	forgot.Read(ctx, resource.ReadRequest{State: written}, &plain)
	if got := noteOf(plain.State); !got.IsNull() {
		t.Errorf("undeclared, the note was kept (%s): the test's resource does not show what the declaration does", got)
	}
}

// A kept attribute's description says so, and so does the resource's;
// one the schema has not is an error of the declaration.
func TestDeclaredSaysWhatItKeeps(t *testing.T) {
	s := schemaOf(t, &declared{own: &note{}, fam: noteFamily})
	if d := s.Schema.Attributes["note"].GetDescription(); d != "A note."+keptNote {
		t.Errorf("note's description is %q, want it with keptNote", d)
	}
	if d := s.Schema.Attributes["id"].GetDescription(); strings.Contains(d, keptNote) {
		t.Errorf("id's description %q says it is kept", d)
	}
	if !strings.Contains(s.Schema.Description, "No reply of the API holds note: it is kept as written.") {
		t.Errorf("the description does not name what is kept: %q", s.Schema.Description)
	}
	var resp resource.SchemaResponse
	(&declared{own: &note{}, fam: family{what: "note", importID: []string{"id"}, kept: []string{"memo"}}}).
		Schema(t.Context(), resource.SchemaRequest{}, &resp)
	if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics[0].Detail(), "keeps memo as written") {
		t.Errorf("a declaration keeping an attribute the schema has not gave %v, want an error naming it", resp.Diagnostics)
	}
	if got := inWords([]string{"a", "b", "c"}); got != "a, b and c" {
		t.Errorf("inWords = %q", got)
	}
}

// A destroy of a family with no delete sends nothing and warns that the
// object still exists, naming it and its parents in its import id; one
// of a family with a delete is the resource's alone.
func TestDeclaredDestroy(t *testing.T) {
	ctx := t.Context()
	srv := workflowtest.Start(t)
	fam := families()["workflow_view"]
	r := &declared{own: &viewResource{base: base{ws: admin.New(srv.Client()), lists: &runLists{}}}, fam: fam}
	s := schemaOf(t, r)
	var resp resource.DeleteResponse
	r.Delete(ctx, resource.DeleteRequest{State: stateOf(ctx, t, s, listView(checkUUID))}, &resp)
	w := resp.Diagnostics.Warnings()
	if resp.Diagnostics.HasError() || len(w) != 1 || w[0].Summary() != "The view still exists" ||
		!strings.Contains(w[0].Detail(), "the view open of the app crm-accounts was removed from the state only") {
		t.Errorf("diagnostics %v, want one warning naming the view and its app", resp.Diagnostics)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the destroy sent %d requests", n)
	}

	for _, destroy := range []destroyKind{deletes, forgets} {
		fam.destroy = destroy
		resp = resource.DeleteResponse{}
		n := &note{}
		(&declared{own: n, fam: fam}).Delete(ctx, resource.DeleteRequest{State: stateOf(ctx, t, s, listView(checkUUID))}, &resp)
		if destroy == deletes && (len(resp.Diagnostics) != 0 || n.deletes != 1) {
			t.Errorf("a family that deletes warned %v, and its Delete was called %d times", resp.Diagnostics, n.deletes)
		}
		if destroy == forgets && (len(resp.Diagnostics.Warnings()) != 1 || n.deletes != 0) {
			t.Errorf("a family that forgets warned %v, and its Delete was called %d times", resp.Diagnostics, n.deletes)
		}
	}
}

// The plan of a destroy or a replacement that the API cannot do says
// what happens instead, naming the object; one the API does says nothing.
func TestDeclaredNotes(t *testing.T) {
	ctx := t.Context()
	s := schemaOf(t, &declared{own: &note{}, fam: noteFamily})
	held := stateOf(ctx, t, s, noteModel{ID: types.StringValue("n1"), Note: types.StringValue("hello")})
	destroy := tfsdk.Plan{Schema: s.Schema, Raw: tftypes.NewValue(held.Raw.Type(), nil)}
	for _, tt := range []struct {
		name     string
		fam      family
		replace  bool
		summary  string // "" for no warning
		inDetail string
	}{
		{"forgets, no key", noteFamily, false, "Destroying the note n1 removes it from the state only",
			"(id n1) removes it from the state only: the API has no delete for notes, and it stays in the workspace; to manage it again, import it with this id."},
		{"forgets, a key", family{typ: "note", what: "note", importID: []string{"id"}, destroy: forgets, named: "note", key: "its note"}, false,
			"Destroying the note hello removes it from the state only", "it stays in the workspace. The resource's description"},
		{"deactivates", family{typ: "note", what: "note", importID: []string{"id"}, destroy: deactivates, named: "id"}, false,
			"Destroying the note n1 deactivates the note", "the API has no delete for notes, and no reactivation"},
		{"deletes", family{typ: "note", what: "note", importID: []string{"id"}, destroy: deletes, named: "id"}, false, "", ""},
		{"replaced, forgets", noteFamily, true, "Replacing the note n1 removes the old one from the state only",
			"The replacement of the note n1 (id n1) removes the old one from the state only (the API has no delete for notes): it stays in the workspace."},
		{"replaced, deactivates", family{typ: "note", what: "note", importID: []string{"id"}, destroy: deactivates, named: "id"}, true,
			"Replacing the note n1 deactivates the old one", "(the API has no delete for notes)."},
		{"replaced, deletes", family{typ: "note", what: "note", importID: []string{"id"}, destroy: deletes, named: "id"}, true, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := resource.ModifyPlanRequest{State: held, Plan: destroy}
			resp := resource.ModifyPlanResponse{Plan: destroy}
			if tt.replace {
				req.Plan, resp.Plan = tfsdk.Plan(held), tfsdk.Plan(held)
				resp.RequiresReplace = path.Paths{path.Root("note")}
			}
			(&declared{own: &note{}, fam: tt.fam}).ModifyPlan(ctx, req, &resp)
			w := resp.Diagnostics.Warnings()
			switch {
			case resp.Diagnostics.HasError():
				t.Fatal(resp.Diagnostics)
			case tt.summary == "" && len(w) != 0:
				t.Errorf("warned %v, want nothing", w)
			case tt.summary != "" && (len(w) != 1 || w[0].Summary() != tt.summary || !strings.Contains(w[0].Detail(), tt.inDetail)):
				t.Errorf("warned %v, want one %q saying %q", w, tt.summary, tt.inDetail)
			}
		})
	}
	var resp resource.ModifyPlanResponse
	(&declared{own: &note{}, fam: noteFamily}).ModifyPlan(ctx, resource.ModifyPlanRequest{State: held, Plan: tfsdk.Plan(held)}, &resp)
	if len(resp.Diagnostics) != 0 {
		t.Errorf("an update warned %v", resp.Diagnostics)
	}
}

// An import takes the import id's parts, or the identity's attributes;
// a missing one is an error naming it.
func TestDeclaredImport(t *testing.T) {
	ctx := t.Context()
	fam := family{typ: "note", what: "note", importID: []string{"note", "id"}, destroy: forgets, named: "id"}
	d := &declared{own: &note{}, fam: fam}
	s := schemaOf(t, d)
	var ids resource.IdentitySchemaResponse
	d.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &ids)
	identity := func(note, id string) *tfsdk.ResourceIdentity {
		i := &tfsdk.ResourceIdentity{Schema: ids.IdentitySchema, Raw: tftypes.NewValue(ids.IdentitySchema.Type().TerraformType(ctx), nil)}
		if d := i.Set(ctx, struct {
			Note types.String `tfsdk:"note"`
			ID   types.String `tfsdk:"id"`
		}{types.StringValue(note), types.StringValue(id)}); d.HasError() {
			t.Fatal(d)
		}
		return i
	}
	for _, tt := range []struct {
		name     string
		req      resource.ImportStateRequest
		want     noteModel
		errorSay string
	}{
		{"by id", resource.ImportStateRequest{ID: "hello/n1"}, noteModel{ID: types.StringValue("n1"), Note: types.StringValue("hello")}, ""},
		{"by identity", resource.ImportStateRequest{Identity: identity("hello", "n1")}, noteModel{ID: types.StringValue("n1"), Note: types.StringValue("hello")}, ""},
		{"an id of one part", resource.ImportStateRequest{ID: "n1"}, noteModel{}, "the import id is note/id"},
		{"an identity without its id", resource.ImportStateRequest{Identity: identity("hello", "")}, noteModel{}, "needs note, id: id is empty"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := resource.ImportStateResponse{State: tfsdk.State{Schema: s.Schema, Raw: tftypes.NewValue(s.Schema.Type().TerraformType(ctx), nil)}}
			d.ImportState(ctx, tt.req, &resp)
			if tt.errorSay != "" {
				if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), tt.errorSay) {
					t.Errorf("diagnostics %v, want an error saying %q", resp.Diagnostics, tt.errorSay)
				}
				return
			}
			var got noteModel
			if d := resp.State.Get(ctx, &got); d.HasError() || resp.Diagnostics.HasError() {
				t.Fatal(d, resp.Diagnostics)
			}
			if got != tt.want {
				t.Errorf("imported %v, want %v", got, tt.want)
			}
		})
	}
}

// A linked search table's Update, reached only when cloud_link_id is
// first written after an import (which leaves it unset), sends nothing
// and keeps the state; the declaration, the one place that keeps what no
// reply holds, sets cloud_link_id to the plan's.
func TestDeclaredWritesAnImportedLink(t *testing.T) {
	ctx := t.Context()
	fam := families()["workflow_linked_search_table"]
	d := &declared{own: &linkedSearchTableResource{}, fam: fam}
	s := schemaOf(t, d)
	imported := linkedSearchTableModel{ID: types.StringValue("s1"), AspectID: types.StringValue(checkUUID),
		DisplayName: types.StringValue("Docs"), Status: types.StringValue("READY"), CloudLinkID: types.StringNull(),
		Database: types.StringValue("DB"), Schema: types.StringValue("PUBLIC"), ServiceName: types.StringValue("SEARCH"),
		Warehouse: types.StringNull()}
	planned := imported
	planned.CloudLinkID = types.StringValue("10000000-0000-4000-8000-000000000001")
	state, plan := stateOf(ctx, t, s, imported), tfsdk.Plan(stateOf(ctx, t, s, planned))
	update := func(d *declared) linkedSearchTableModel {
		resp := resource.UpdateResponse{State: tfsdk.State{Schema: s.Schema, Raw: plan.Raw.Copy()}}
		d.Update(ctx, resource.UpdateRequest{Plan: plan, State: state}, &resp)
		got, ok := read[linkedSearchTableModel](ctx, resp.State, &resp.Diagnostics)
		if !ok {
			t.Fatal(resp.Diagnostics)
		}
		return got
	}
	if got := update(d); got != planned {
		t.Errorf("after the update the state holds %+v, want %+v", got, planned)
	}
	fam.kept = nil
	if got := update(&declared{own: &linkedSearchTableResource{}, fam: fam}); got != imported {
		t.Errorf("undeclared, the update left %+v, want the state as it was: the resource's own Update sets cloud_link_id too", got)
	}
}

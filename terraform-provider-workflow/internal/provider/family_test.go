package provider

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Each resource's description says what its declaration says: how the
// API reads it, its import id and identity, its natural key or that it
// has none, and what a destroy does.
func TestDescriptionsComeFromTheDeclarations(t *testing.T) {
	for _, f := range New("test")().Resources(context.Background()) {
		r := f().(*declared)
		var meta resource.MetadataResponse
		r.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "workflow"}, &meta)
		var resp resource.SchemaResponse
		r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
		desc := resp.Schema.Description
		fam := r.fam
		want := []string{"Import with the id " + strings.Join(fam.importID, "/") + ", or by identity (" + strings.Join(fam.importID, ", ") + ")."}
		switch fam.reads {
		case byGet:
			want = append(want, "reads it by id")
		case byList:
			want = append(want, "only through its app's list")
		case notRead:
			want = append(want, "has no read for it")
		}
		switch {
		case fam.key != "":
			want = append(want, "Natural key: "+fam.key)
		case fam.destroy == forgets:
			want = append(want, "Natural key: none the API can look up")
		}
		if fam.destroy == forgets {
			want = append(want, "destroy removes it from the state only")
		}
		if len(fam.kept) > 1 {
			want = append(want, "No reply of the API holds "+inWords(fam.kept)+": they are kept as written.")
		}
		for _, w := range want {
			if !strings.Contains(desc, w) {
				t.Errorf("%s: the description does not say %q:\n%s", meta.TypeName, w, desc)
			}
		}
		for name, a := range resp.Schema.Attributes {
			if says, kept := strings.Contains(a.GetDescription(), keptNote), slices.Contains(fam.kept, name); says != kept {
				t.Errorf("%s: %s's description says it is kept as written: %v; the declaration: %v", meta.TypeName, name, says, kept)
			}
			if d := strings.Replace(a.GetDescription(), keptNote, "", 1); strings.Contains(d, "import leaves") || strings.Contains(d, "read it back") {
				t.Errorf("%s: %s's description says on its own what the declaration says: %q", meta.TypeName, name, d)
			}
		}
		var ident resource.IdentitySchemaResponse
		r.IdentitySchema(context.Background(), resource.IdentitySchemaRequest{}, &ident)
		if len(ident.IdentitySchema.Attributes) != len(fam.importID) {
			t.Errorf("%s: the identity has %d attributes, the import id %d", meta.TypeName, len(ident.IdentitySchema.Attributes), len(fam.importID))
		}
		for _, a := range fam.importID {
			if _, ok := resp.Schema.Attributes[a]; !ok {
				t.Errorf("%s: the import id names %s, which the schema has not", meta.TypeName, a)
			}
		}
	}
}

// A family the API deletes (deactivates, empties) has a Delete of its
// own; one the API cannot delete has none, for nothing is sent.
func TestDestroyIsDeclared(t *testing.T) {
	for _, f := range New("test")().Resources(t.Context()) {
		d := f().(*declared)
		_, deletes := d.own.(deleting)
		if deletes != (d.fam.destroy != forgets) {
			t.Errorf("workflow_%s: a Delete of its own: %v; its declaration's destroy: %d", d.fam.typ, deletes, d.fam.destroy)
		}
	}
}

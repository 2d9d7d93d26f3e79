package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/terraform-provider-workflow/internal/imports"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestAccImportsEverything: the three walk-through examples (app,
// catalog, people) applied to one fake give an object of every resource
// type; workflow-imports' library, every family on, writes an import
// block for each object of every type the API lists, with the import id
// of its resource (a group named beyond ASCII included, under a name
// that keeps its letters); the configuration OpenTofu generates from
// them is applied, and plans no changes. The types the API cannot list
// get no block.
func TestAccImportsEverything(t *testing.T) {
	acc(t)
	// the resource types workflow-imports cannot find: the API lists no
	// app, flow, search table (of either kind) or organisation domain
	undiscovered := []string{"workflow_app", "workflow_flow", "workflow_search_table", "workflow_linked_search_table",
		"workflow_organization_domain"}
	// the attributes of each resource type's import id, as its family
	// declares them
	attrs := map[string][]string{}
	for _, f := range New("test")().Resources(context.Background()) {
		r := f()
		var resp resource.MetadataResponse
		r.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "workflow"}, &resp)
		if d, ok := r.(*declared); ok {
			attrs[resp.TypeName] = d.fam.importID
		}
	}
	srv := workflowtest.Start(t)
	srv.Define(workflow.Apps, "crm-accounts") // the app the app example configures
	id, secret := srv.Credentials()
	t.Setenv("WORKFLOW_CLIENT_ID", id)
	t.Setenv("WORKFLOW_CLIENT_SECRET", secret)
	t.Setenv("WORKFLOW_BASE_URL", srv.BaseURL())
	t.Setenv("WORKFLOW_AUTH_URL", srv.AuthURL())

	// the examples applied, each in its own directory, as a user would
	type object struct {
		address, typ string
		values       map[string]any
	}
	var objects []object
	for _, name := range []string{"app", "catalog", "people"} {
		src, err := os.ReadFile("../../examples/" + name + "/main.tf")
		if err != nil {
			t.Fatal(err)
		}
		cli := newTofu(t)
		cli.write("main.tf", string(src))
		var vars []string
		if strings.Contains(string(src), `variable "category_id"`) {
			vars = append(vars, "-var=category_id="+testCategory)
		}
		cli.run([]string{"init"})
		cli.run(append([]string{"apply", "-auto-approve"}, vars...))
		out, _ := cli.run([]string{"show", "-json"})
		var st struct {
			Values struct {
				RootModule struct {
					Resources []struct {
						Address, Type string
						Values        map[string]any
					}
				} `json:"root_module"`
			}
		}
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("tofu show -json: %v", err)
		}
		for _, r := range st.Values.RootModule.Resources {
			objects = append(objects, object{name + ": " + r.Address, r.Type, r.Values})
		}
	}
	// the element's records' definition, which the service's element is
	// and the fake's is not, for its automations' list
	srv.Define(workflow.Elements, "products")
	// an object named beyond ASCII
	umlaut, err := srv.Client().Groups.Create(t.Context(), workflow.GroupRequest{Name: new("Prüfer & Gäste")})
	if err != nil {
		t.Fatal(err)
	}

	types := resourceTypes()
	for _, typ := range types {
		if !slices.ContainsFunc(objects, func(o object) bool { return o.typ == typ }) {
			t.Errorf("the examples make no %s", typ)
		}
	}

	blocks, err := imports.Find(t.Context(), srv.Client(), imports.Options{Apps: []string{"crm-accounts", "crm-deals"},
		Elements: []string{"products"}, Tables: true, Users: true, Groups: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objects {
		var parts []string
		for _, a := range attrs[o.typ] {
			parts = append(parts, fmt.Sprint(o.values[a]))
		}
		want := strings.Join(parts, "/")
		found := slices.ContainsFunc(blocks, func(b imports.Block) bool { return b.Type == o.typ && b.ID == want })
		switch {
		case slices.Contains(undiscovered, o.typ) && found:
			t.Errorf("%s: a block, for a type the API does not list", o.address)
		case slices.Contains(undiscovered, o.typ):
			t.Logf("%s: not discovered (the API lists no %s), as expected", o.address, o.typ)
		case !found:
			t.Errorf("%s: no block of %s with the id %s", o.address, o.typ, want)
		}
	}
	wantUmlaut := imports.Block{Type: "workflow_group", Name: "prüfer_gäste", ID: umlaut.ID}
	if !slices.ContainsFunc(blocks, func(b imports.Block) bool { b.Note = ""; return b == wantUmlaut }) {
		t.Errorf("no block %+v", wantUmlaut)
	}
	if t.Failed() {
		t.FailNow()
	}

	// the configuration generated from the blocks, applied, plans no changes
	var imp strings.Builder
	if err := imports.Write(&imp, blocks); err != nil {
		t.Fatal(err)
	}
	cli := newTofu(t)
	cli.write("main.tf", mainTF(srv))
	cli.write("imports.tf", imp.String())
	cli.run([]string{"init"})
	cli.run([]string{"plan", "-generate-config-out=generated.tf"})
	generated := cli.read("generated.tf")
	t.Logf("imports.tf:\n%s\ngenerated.tf:\n%s", imp.String(), generated)
	// No edit is needed: a table's category_id, generated as null, is
	// valid for an import, and a dynamic group's members, which follow its
	// domains, are not generated (the provider refuses them there).
	groupBlock := regexp.MustCompile(`(?s)resource "workflow_group" "[^"]*" \{\n.*?\n\}\n`)
	dynamicTrue := regexp.MustCompile(`\n *dynamic *= true\n`)
	for _, block := range groupBlock.FindAllString(generated, -1) {
		if dynamicTrue.MatchString(block) && regexp.MustCompile(`member_ids *= \[`).MatchString(block) {
			t.Errorf("a dynamic group's members are generated:\n%s", block)
		}
	}
	for _, b := range blocks {
		if want := fmt.Sprintf("resource %q %q {", b.Type, b.Name); !strings.Contains(generated, want) {
			t.Errorf("generated.tf has no %s", want)
		}
	}
	cli.run([]string{"apply", "-auto-approve"})
	if out, _ := cli.run([]string{"plan", "-detailed-exitcode"}); !strings.Contains(out, "No changes") {
		t.Fatalf("the generated configuration plans changes:\n%s", out)
	}
}

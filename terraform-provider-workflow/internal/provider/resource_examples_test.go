package provider

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// exampleVars are the values of the variables the resource examples
// declare, as the fake takes them.
var exampleVars = map[string]string{
	"category_id": testCategory,
	"source_id":   sourceID,
}

// TestAccResourceExamples applies the example of every resource type
// (examples/resources/<type>/resource.tf, which the registry's page of the
// type shows) to a fake seeded with the demo workspace, then plans it
// again: no changes.
func TestAccResourceExamples(t *testing.T) {
	acc(t)
	files, err := filepath.Glob("../../examples/resources/*/resource.tf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no resource examples: %v", err)
	}
	declared := regexp.MustCompile(`(?m)^variable "([a-z_]+)"`)
	for _, file := range files {
		t.Run(filepath.Base(filepath.Dir(file)), func(t *testing.T) {
			srv := workflowtest.Start(t)
			srv.SeedDemo()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var vars []string
			for _, m := range declared.FindAllStringSubmatch(string(src), -1) {
				v, ok := exampleVars[m[1]]
				if !ok {
					t.Fatalf("the example declares the variable %s, which the test has no value for", m[1])
				}
				vars = append(vars, "-var="+m[1]+"="+v)
			}
			cli := newTofu(t)
			cli.write("main.tf", mainTF(srv))
			cli.write("example.tf", string(src))
			cli.run([]string{"init"})
			cli.run(append([]string{"apply", "-auto-approve"}, vars...))
			if out, _ := cli.run(append([]string{"plan", "-detailed-exitcode"}, vars...)); !strings.Contains(out, "No changes") {
				t.Fatalf("the applied example plans changes:\n%s", out)
			}
		})
	}
}

// TestResourceExamples: every resource type has an example, and the
// import command beside it imports a resource the example declares, with
// an id of as many parts as the type's import id has.
func TestResourceExamples(t *testing.T) {
	parts := map[string]int{} // the parts of each type's import id, by "/", as declared
	for typ, fam := range families() {
		parts[typ] = len(fam.importID)
	}
	for _, typ := range resourceTypes() {
		dir := filepath.Join("../../examples/resources", typ)
		src, err := os.ReadFile(filepath.Join(dir, "resource.tf"))
		if err != nil {
			t.Errorf("%s has no example: %v", typ, err)
			continue
		}
		imp, err := os.ReadFile(filepath.Join(dir, "import.sh"))
		if os.IsNotExist(err) {
			if _, ok := parts[typ]; ok {
				t.Errorf("%s is imported, but its example has no import.sh", typ)
			}
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)^tofu import (\S+)\.(\S+) (\S+)$`).FindStringSubmatch(string(imp))
		switch {
		case m == nil:
			t.Errorf("%s/import.sh has no line tofu import ADDRESS ID:\n%s", dir, imp)
		case m[1] != typ:
			t.Errorf("%s/import.sh imports a %s", dir, m[1])
		case !strings.Contains(string(src), `resource "`+typ+`" "`+m[2]+`"`):
			t.Errorf("%s/import.sh imports %s.%s, which the example does not declare", dir, typ, m[2])
		case len(strings.Split(m[3], "/")) != parts[typ]:
			t.Errorf("%s/import.sh: the id %s has not the %d parts of the type's import id", dir, m[3], parts[typ])
		}
	}
}

// families returns each resource type's declaration.
func families() map[string]family {
	out := map[string]family{}
	for _, f := range New("test")().Resources(context.Background()) {
		r := f()
		var resp resource.MetadataResponse
		r.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "workflow"}, &resp)
		if d, ok := r.(*declared); ok {
			out[resp.TypeName] = d.fam
		}
	}
	return out
}

package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestAccImportByIdentity: every importable resource imports by identity
// (an import block's identity, Terraform and OpenTofu 1.12+). Each resource
// example is applied; a second configuration, the same with an import
// block by identity for each of its resources, imports them all (nothing
// created), applies, and then plans no changes.
func TestAccImportByIdentity(t *testing.T) {
	acc(t)
	files, err := filepath.Glob("../../examples/resources/*/resource.tf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no resource examples: %v", err)
	}
	fams := families()
	declaredRes := regexp.MustCompile(`(?m)^resource "([a-z_]+)" "([a-z_0-9]+)"`)
	declaredVar := regexp.MustCompile(`(?m)^variable "([a-z_]+)"`)
	tested := map[string]bool{}
	for _, file := range files {
		t.Run(filepath.Base(filepath.Dir(file)), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var vars []string
			for _, m := range declaredVar.FindAllStringSubmatch(string(src), -1) {
				vars = append(vars, "-var="+m[1]+"="+exampleVars[m[1]])
			}
			srv := workflowtest.Start(t)
			srv.SeedDemo()
			first := newTofu(t)
			first.write("main.tf", mainTF(srv))
			first.write("example.tf", string(src))
			first.run([]string{"init"})
			first.run(append([]string{"apply", "-auto-approve"}, vars...))
			values := first.values()

			var blocks strings.Builder
			for _, m := range declaredRes.FindAllStringSubmatch(string(src), -1) {
				typ, addr := m[1], m[1]+"."+m[2]
				fam, ok := fams[typ]
				if !ok {
					t.Fatalf("%s is not declared", typ)
				}
				var ident []string
				for _, a := range fam.importID {
					ident = append(ident, fmt.Sprintf("%s = %q", a, values[addr][a]))
				}
				fmt.Fprintf(&blocks, "import {\n  to       = %s\n  identity = { %s }\n}\n\n", addr, strings.Join(ident, ", "))
				tested[typ] = true
			}
			second := newTofu(t)
			second.write("main.tf", mainTF(srv))
			second.write("example.tf", string(src))
			second.write("imports.tf", blocks.String())
			second.run([]string{"init"})
			out, _ := second.run(append([]string{"plan", "-no-color"}, vars...))
			if !strings.Contains(out, " 0 to add") || strings.Contains(out, "0 to import") {
				t.Fatalf("the import by identity plans more than imports:\n%s\n%s", blocks.String(), out)
			}
			second.run(append([]string{"apply", "-auto-approve"}, vars...))
			if out, _ := second.run(append([]string{"plan", "-detailed-exitcode"}, vars...)); !strings.Contains(out, "No changes") {
				t.Fatalf("imported by identity and applied, the example plans changes:\n%s", out)
			}
		})
	}
	for typ := range fams {
		if !tested[typ] {
			t.Errorf("no example imports %s by identity", typ)
		}
	}
	if !slices.Contains(resourceTypes(), "workflow_view") {
		t.Fatal("the provider serves no views")
	}
}

// values returns the state's resources' attributes, by address, as text.
func (c *tofu) values() map[string]map[string]string {
	c.t.Helper()
	m := map[string]map[string]string{}
	for _, r := range c.resources() {
		m[r.Address] = map[string]string{}
		for k, v := range r.Values {
			m[r.Address][k] = fmt.Sprint(v)
		}
	}
	return m
}

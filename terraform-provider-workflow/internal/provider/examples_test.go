package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestAccExamples applies every example configuration of the module
// (examples/*/main.tf) to a fake seeded with the demo workspace, as a
// user would with cmd/workflow-fake, then plans it again: no changes.
func TestAccExamples(t *testing.T) {
	acc(t)
	dirs, err := filepath.Glob("../../examples/*/main.tf")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, file := range dirs {
		name := filepath.Base(filepath.Dir(file))
		t.Run(name, func(t *testing.T) {
			srv := workflowtest.Start(t)
			srv.SeedDemo()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			// the provider is served in this process: it reads this
			// process's environment
			id, secret := srv.Credentials()
			t.Setenv("WORKFLOW_CLIENT_ID", id)
			t.Setenv("WORKFLOW_CLIENT_SECRET", secret)
			t.Setenv("WORKFLOW_BASE_URL", srv.BaseURL())
			t.Setenv("WORKFLOW_AUTH_URL", srv.AuthURL())
			cli := newTofu(t)
			cli.write("main.tf", string(src))
			vars := []string{}
			if strings.Contains(string(src), `variable "category_id"`) {
				vars = append(vars, "-var=category_id="+testCategory)
			}
			cli.run([]string{"init"})
			cli.run(append([]string{"apply", "-auto-approve"}, vars...))
			if out, _ := cli.run(append([]string{"plan", "-detailed-exitcode"}, vars...)); !strings.Contains(out, "No changes") {
				t.Fatalf("the applied example plans changes:\n%s", out)
			}
		})
	}
}

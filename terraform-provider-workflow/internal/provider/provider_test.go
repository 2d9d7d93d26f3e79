package provider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// The acceptance tests run a real OpenTofu (or Terraform) CLI, named by
// TF_ACC_TERRAFORM_PATH, against workflowtest fakes: no account and no
// registry. Without it they skip; .ci/opentofu builds the pinned CLI.
// TestMain sets what the CLI needs beside it, unless already set:
// TF_ACC=1, TF_ACC_PROVIDER_NAMESPACE=hashicorp (OpenTofu refuses the
// test framework's legacy "-" namespace); and always TF_CLI_CONFIG_FILE,
// a configuration whose only provider source is an empty filesystem
// mirror, so that nothing reaches a registry.
func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "workflow-provider-acc")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	mirror = filepath.Join(dir, "mirror")
	cliConfig := filepath.Join(dir, "cli.tfrc")
	cfg := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror)
	if err = os.Mkdir(mirror, 0o755); err == nil {
		err = os.WriteFile(cliConfig, []byte(cfg), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for k, v := range map[string]string{"TF_ACC": "1", "TF_ACC_PROVIDER_NAMESPACE": "hashicorp"} {
		if os.Getenv(k) == "" {
			os.Setenv(k, v)
		}
	}
	os.Setenv("TF_CLI_CONFIG_FILE", cliConfig)
	return m.Run()
}

// mirror is the filesystem mirror of the acceptance tests' CLI
// configuration: empty but for the provider's binary once a test built it
// (binary).
var mirror string

// binaryVersion is the version the provider's binary is installed as.
const binaryVersion = "0.0.1"

// buildBinary builds the provider into the mirror, once.
var buildBinary = sync.OnceValue(func() error {
	dir := filepath.Join(mirror, Address, binaryVersion, runtime.GOOS+"_"+runtime.GOARCH)
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "terraform-provider-workflow_v"+binaryVersion),
		"github.com/seed-a15e58aa/workflow-go/terraform-provider-workflow").CombinedOutput()
	if err != nil {
		return fmt.Errorf("building the provider: %v\n%s", err, out)
	}
	return nil
})

// binary skips t unless a CLI is named, builds the provider, and returns
// the steps' provider as a binary the CLI installs from the mirror and
// starts itself: one process for each provider configuration, as in use.
// (Served from the test, as acc serves it, one process takes every
// configuration, and aliases of different workspaces cannot work.)
func binary(t *testing.T) map[string]resource.ExternalProvider {
	t.Helper()
	acc(t)
	if err := buildBinary(); err != nil {
		t.Fatal(err)
	}
	return map[string]resource.ExternalProvider{"workflow": {Source: Address, VersionConstraint: binaryVersion}}
}

// acc skips t unless a CLI is named, and returns the provider factories
// the steps run with.
func acc(t *testing.T) map[string]func() (tfprotov6.ProviderServer, error) {
	t.Helper()
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		t.Skip("acceptance test: set TF_ACC_TERRAFORM_PATH to an OpenTofu or Terraform CLI (.ci/opentofu builds one)")
	}
	return map[string]func() (tfprotov6.ProviderServer, error){
		"workflow": providerserver.NewProtocol6WithError(New("test")()),
	}
}

// importedBy is the step that imports name by the id parent/*id (id as
// an earlier step left it) and verifies the state it had, but for ignore.
func importedBy(name, parent string, id *string, ignore ...string) resource.TestStep {
	return resource.TestStep{
		ResourceName:            name,
		ImportState:             true,
		ImportStateIdFunc:       func(*terraform.State) (string, error) { return parent + "/" + *id, nil },
		ImportStateVerify:       true,
		ImportStateVerifyIgnore: ignore,
	}
}

// providerBlock is the provider block reaching srv; a non-empty alias
// names a second configuration.
func providerBlock(srv *workflowtest.Server, alias string) string {
	id, secret := srv.Credentials()
	a := ""
	if alias != "" {
		a = fmt.Sprintf("  alias = %q\n", alias)
	}
	return fmt.Sprintf("provider \"workflow\" {\n%s  client_id = %q\n  client_secret = %q\n  base_url = %q\n  auth_url = %q\n}\n",
		a, id, secret, srv.BaseURL(), srv.AuthURL())
}

// changesExactly is a plan check: the resource addr is updated in place,
// and attrs are exactly the attributes whose value changes.
func changesExactly(addr string, attrs ...string) plancheck.PlanCheck {
	return changedAttrs{addr: addr, attrs: attrs}
}

type changedAttrs struct {
	addr  string
	attrs []string
}

func (c changedAttrs) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr {
			continue
		}
		if !rc.Change.Actions.Update() {
			resp.Error = fmt.Errorf("%s: planned %v, want an update in place", c.addr, rc.Change.Actions)
			return
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		unknown, _ := rc.Change.AfterUnknown.(map[string]any)
		var changed []string
		for k, b := range before {
			if fmt.Sprint(b) != fmt.Sprint(after[k]) || unknown[k] == true {
				changed = append(changed, k)
			}
		}
		slices.Sort(changed)
		want := slices.Sorted(slices.Values(c.attrs))
		if !slices.Equal(changed, want) {
			resp.Error = fmt.Errorf("%s: the plan changes %v, want exactly %v", c.addr, changed, want)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: not in the plan", c.addr)
}

// TestSkipsWithoutCLI: without TF_ACC_TERRAFORM_PATH, an acceptance test
// skips, naming the variable, so that go test ./... passes anywhere.
func TestSkipsWithoutCLI(t *testing.T) {
	if os.Getenv("TF_ACC_TERRAFORM_PATH") != "" {
		t.Skip("a CLI is named")
	}
	ok := t.Run("acc", func(t *testing.T) {
		acc(t)
		t.Error("acc did not skip")
	})
	if !ok {
		t.Fatal("the acceptance test failed instead of skipping")
	}
}

// TestAccProviderSettings: a setting in neither the provider block nor
// its environment variable fails the plan, naming both; the variables
// stand in for the block.
func TestAccProviderSettings(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	srv.Define(workflow.Apps, "crm-accounts")
	id, secret := srv.Credentials()
	for _, k := range []string{"WORKFLOW_CLIENT_ID", "WORKFLOW_CLIENT_SECRET", "WORKFLOW_BASE_URL", "WORKFLOW_AUTH_URL"} {
		t.Setenv(k, "")
	}
	const res = `
resource "workflow_automation" "a" {
  record_type = "apps"
  alias       = "crm-accounts"
  workflow    = jsonencode({ name = "A" })
}
`
	partial := fmt.Sprintf("provider \"workflow\" {\n  client_id = %q\n  base_url = %q\n}\n", id, srv.BaseURL())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{Config: partial + res, ExpectError: regexp.MustCompile(`(?s)client_secret is required.*WORKFLOW_CLIENT_SECRET`)},
			{Config: partial + res, ExpectError: regexp.MustCompile(`(?s)auth_url is required.*WORKFLOW_AUTH_URL`)},
			{
				PreConfig: func() {
					os.Setenv("WORKFLOW_CLIENT_SECRET", secret)
					os.Setenv("WORKFLOW_AUTH_URL", srv.AuthURL())
				},
				Config: partial + res,
				Check: func(*terraform.State) error {
					if n := len(srv.Automations(workflow.Apps, "crm-accounts")); n != 1 {
						return fmt.Errorf("the fake holds %d automations", n)
					}
					return nil
				},
			},
		},
	})
}

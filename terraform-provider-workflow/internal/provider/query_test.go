package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// queryCLI skips t unless the CLI runs `query` (Terraform 1.14 and later;
// OpenTofu has no query mode).
func queryCLI(t *testing.T, cli *tofu) {
	t.Helper()
	out, err := exec.Command(cli.path, "version").CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^Terraform v1\.(\d+)`).FindSubmatch(out)
	if m == nil || len(m[1]) < 2 || string(m[1]) < "14" {
		t.Skipf("list resources need Terraform 1.14 or later (terraform query); the CLI is %s", strings.SplitN(string(out), "\n", 2)[0])
	}
}

// TestAccQuery: `terraform query`, given the list resources' examples,
// lists every family the API lists, each object with its display name and
// identity, and -generate-config-out writes configuration that imports
// them all and then plans no changes.
func TestAccQuery(t *testing.T) {
	srv, lk := lookupFake(t)
	ctx := t.Context()
	srv.AddUser("ada@example.com", "Ada", "Lovelace")
	srv.AddGroup("Ops")
	lk.table("Accounts", "acct")
	lk.agent("Helper")
	lk.skill("Triage")

	cli := newTofu(t)
	queryCLI(t, cli)
	cli.write("main.tf", requireTF)
	// the list resources' examples, which their registry pages show
	files, err := filepath.Glob("../../examples/list-resources/*/list-resource.tfquery.hcl")
	if n := len(New("test")().(*workflowProvider).ListResources(ctx)); err != nil || len(files) != n {
		t.Fatalf("%d list resource examples (%v), want %d, one a list resource", len(files), err, n)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cli.write(filepath.Base(filepath.Dir(f))+".tfquery.hcl", string(src))
	}
	cli.run([]string{"init"})
	out, _ := cli.run([]string{"query", "-no-color"})
	for _, want := range []string{"list.workflow_user.all", "ada@example.com", "list.workflow_group.all", "Ops",
		"list.workflow_table.all", "Accounts (acct)", "list.workflow_view.crm", "list.workflow_agent.crm", "Helper",
		"list.workflow_skill.crm", "Triage", "list.workflow_automation.crm", "Welcome new accounts"} {
		if !strings.Contains(out, want) {
			t.Errorf("the query does not show %q:\n%s", want, out)
		}
	}
	cli.run([]string{"query", "-generate-config-out=generated.tf"})
	generated := cli.read("generated.tf")
	for _, want := range []string{`resource "workflow_user"`, `resource "workflow_group"`, `resource "workflow_table"`,
		`resource "workflow_view"`, `resource "workflow_agent"`, `resource "workflow_skill"`, `resource "workflow_automation"`, "identity"} {
		if !strings.Contains(generated, want) {
			t.Errorf("the generated configuration has no %s:\n%s", want, generated)
		}
	}
	plan, _ := cli.run([]string{"plan", "-no-color"})
	if !strings.Contains(plan, " 0 to add") || strings.Contains(plan, " 0 to import") {
		t.Fatalf("the generated configuration plans more than imports:\n%s", plan)
	}
	cli.run([]string{"apply", "-auto-approve"})
	if out, _ := cli.run([]string{"plan", "-detailed-exitcode"}); !strings.Contains(out, "No changes") {
		t.Fatalf("imported from the query, the workspace plans changes:\n%s", out)
	}
}

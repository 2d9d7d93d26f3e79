package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/terraform-provider-workflow/internal/imports"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// mainTF is a configuration's provider requirement and block, reaching srv.
func mainTF(srv *workflowtest.Server) string {
	return "terraform {\n  required_providers {\n    workflow = { source = \"seed-a15e58aa/workflow\" }\n  }\n}\n\n" +
		providerBlock(srv, "")
}

// resourceTypes are the resource types the provider serves.
func resourceTypes() []string {
	var out []string
	p := New("test")()
	for _, f := range p.Resources(context.Background()) {
		var resp resource.MetadataResponse
		f().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "workflow"}, &resp)
		out = append(out, resp.TypeName)
	}
	return out
}

// automationNames are the names of the automations of crm-accounts on srv.
func automationNames(t *testing.T, srv *workflowtest.Server) []string {
	t.Helper()
	all, err := admin.New(srv.Client()).Automations.List(t.Context(), workflow.Apps, "crm-accounts")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range all {
		names = append(names, strings.Trim(string(a.Member("name")), `"`))
	}
	slices.Sort(names)
	return names
}

// TestAccGeneratedConfiguration: a workspace's configuration kept in files. The
// demo app of a staging workspace imported with generated configuration
// plans no changes; one nested member changed plans as exactly that
// change, and applied, plans no changes again. The same configuration,
// applied to a production workspace whose ids differ, creates what it
// lacks and leaves alone what only production has; then plans no
// changes; an automation removed from the configuration is deleted.
func TestAccGeneratedConfiguration(t *testing.T) {
	staging, production := workflowtest.Start(t), workflowtest.Start(t)
	staging.SeedDemo()
	production.Define(workflow.Apps, "crm-accounts")
	production.AddAutomation(workflow.Apps, "crm-accounts", map[string]any{"name": "Production only",
		"triggers": []any{map[string]any{"type": "RECORD_CREATED"}}})

	// staging: import blocks for every object of the app, the configuration generated
	cli := newTofu(t)
	blocks, err := imports.App(t.Context(), admin.New(staging.Client()), "crm-accounts")
	if err != nil {
		t.Fatal(err)
	}
	types := resourceTypes()
	blocks = slices.DeleteFunc(blocks, func(b imports.Block) bool { return !slices.Contains(types, b.Type) })
	var imp strings.Builder
	if err := imports.Write(&imp, blocks); err != nil {
		t.Fatal(err)
	}
	cli.write("main.tf", mainTF(staging))
	cli.write("imports.tf", imp.String())
	cli.run([]string{"init"})
	cli.run([]string{"plan", "-generate-config-out=generated.tf"})
	generated := cli.read("generated.tf")
	t.Logf("generated.tf:\n%s", generated)
	cli.run([]string{"apply", "-auto-approve"})
	if out, _ := cli.run([]string{"plan", "-detailed-exitcode"}); !strings.Contains(out, "No changes") {
		t.Fatalf("the imported configuration plans changes:\n%s", out)
	}

	// one nested member changed in the file plans as exactly that change
	welcome := regexp.MustCompile(`\bwelcome(\\?")`)
	if !welcome.MatchString(generated) {
		t.Fatalf("generated.tf has no template welcome:\n%s", generated)
	}
	generated = welcome.ReplaceAllString(generated, "welcome-v2$1")
	cli.write("generated.tf", generated)
	want := map[string][]string{"workflow_automation.welcome_new_accounts": {"[update]", "workflow"}}
	if got := cli.planChanges(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the plan changes %v, want %v", got, want)
	}
	cli.run([]string{"apply", "-auto-approve"})
	cli.run([]string{"plan", "-detailed-exitcode"})

	// production: the same configuration, without the import blocks
	prod := newTofu(t)
	prod.write("main.tf", mainTF(production))
	prod.write("generated.tf", generated)
	prod.run([]string{"init"})
	prod.run([]string{"apply", "-auto-approve"})
	prod.run([]string{"plan", "-detailed-exitcode"})
	want2 := []string{"Archive closed accounts", "Flag gold accounts", "Production only", "Welcome new accounts"}
	if got := automationNames(t, production); !slices.Equal(got, want2) {
		t.Fatalf("production's automations are %v, want %v", got, want2)
	}

	// an automation removed from the configuration is deleted; the one
	// only production has is left alone
	start := strings.Index(generated, `resource "workflow_automation" "archive_closed_accounts"`)
	if start < 0 {
		t.Fatal("generated.tf has no archive_closed_accounts")
	}
	end := start + strings.Index(generated[start:], "\n}\n") + 3
	prod.write("generated.tf", generated[:start]+generated[end:])
	want3 := map[string][]string{"workflow_automation.archive_closed_accounts": {"[delete]"}}
	if got := prod.planChanges(); fmt.Sprint(got) != fmt.Sprint(want3) {
		t.Fatalf("the plan changes %v, want %v", got, want3)
	}
	prod.run([]string{"apply", "-auto-approve"})
	want4 := []string{"Flag gold accounts", "Production only", "Welcome new accounts"}
	if got := automationNames(t, production); !slices.Equal(got, want4) {
		t.Fatalf("production's automations are %v, want %v", got, want4)
	}
}

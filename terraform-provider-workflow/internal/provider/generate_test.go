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
// The source is the full address: a short one (NAMESPACE/TYPE) is
// expanded with the CLI's default registry, OpenTofu's or Terraform's,
// and only one of them is the provider's.
func mainTF(srv *workflowtest.Server) string {
	return fmt.Sprintf("terraform {\n  required_providers {\n    workflow = { source = %q }\n  }\n}\n\n", Address) +
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
	// an element only production has: the ids of elements created later differ
	if _, err := admin.New(production.Client()).Elements.Create(t.Context(),
		admin.NewElement{Name: "Production only", CategoryID: testCategory}); err != nil {
		t.Fatal(err)
	}

	// staging also has an agent and a skill of the app, a table, and an
	// element with a search table, which no list reads: their import
	// blocks are written by hand
	ws := admin.New(staging.Client())
	ctx := t.Context()
	_, err := ws.Agents.Create(ctx, "crm-accounts", admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{
		Name: new("Account helper"), Temperature: new(0.0), Instructions: new("Answer briefly.")}}})
	if err == nil {
		_, err = ws.Skills.Create(ctx, "crm-accounts", admin.SkillBundle{Skill: admin.SkillSettings{Name: new("Triage"),
			Status: new(admin.SkillActive), Properties: []byte(`{"threshold":0}`)}})
	}
	var element *admin.Aspect
	if err == nil {
		element, err = ws.Elements.Create(ctx, admin.NewElement{Name: "Widgets", CategoryID: testCategory, Namespace: new("widgets")})
	}
	var search *admin.SearchTable
	if err == nil {
		search, err = ws.SearchTables.Create(ctx, element.ID.Value(), admin.SnowflakeSearchTableRequest{
			AttributeFieldIDs: []string{}, Duration: admin.TimeUnitHours, TargetLag: 1})
	}
	var table *admin.Table
	if err == nil {
		table, err = ws.Tables.Create(ctx, admin.TableCreateRequest{Name: "Accounts", Handle: "acct", Source: sourceID, CategoryID: categoryID,
			Fields: []admin.TableFieldInput{{Calculation: &admin.TableCalculationField{Name: new("score"), Text: new("1 + 1")}}}})
	}
	if err != nil {
		t.Fatal(err)
	}

	// staging: import blocks for every object of the app, the configuration generated
	cli := newTofu(t)
	blocks, err := imports.App(ctx, ws, "crm-accounts")
	if err != nil {
		t.Fatal(err)
	}
	blocks = append(blocks, imports.Block{Type: "workflow_element", Name: "widgets", ID: element.ID.Value()},
		imports.Block{Type: "workflow_search_table", Name: "widgets", ID: element.ID.Value() + "/" + search.ID.Value()})
	tables, err := imports.Tables(ctx, ws)
	if err != nil || len(tables) != 1 || tables[0].ID != table.ID.Value() {
		t.Fatalf("the tables' blocks: %v, %v", tables, err)
	}
	blocks = append(blocks, tables...)
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
	for _, want := range []string{`resource "workflow_agent" "account_helper"`, `resource "workflow_skill" "triage"`,
		`resource "workflow_element" "widgets"`, `resource "workflow_search_table" "widgets"`, `resource "workflow_view" "by_tier"`,
		`resource "workflow_table" "accounts"`} {
		if !strings.Contains(generated, want) {
			t.Errorf("generated.tf has no %s", want)
		}
	}
	cli.run([]string{"apply", "-auto-approve"})
	if out, _ := cli.run([]string{"plan", "-detailed-exitcode"}); !strings.Contains(out, "No changes") {
		t.Fatalf("the imported configuration plans changes:\n%s", out)
	}

	// the element's id copied into the search table becomes a reference:
	// still no changes here, and the production element's id there
	copied := regexp.MustCompile(`aspect_id( *)= "` + regexp.QuoteMeta(element.ID.Value()) + `"`)
	if !copied.MatchString(generated) {
		t.Fatalf("generated.tf does not copy the element's id into the search table:\n%s", generated)
	}
	generated = copied.ReplaceAllString(generated, "aspect_id$1= workflow_element.widgets.id")
	cli.write("generated.tf", generated)
	cli.run([]string{"plan", "-detailed-exitcode"})

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

	// production: the same configuration, without the import blocks. The
	// table's category, which no reply holds, was generated as null: a
	// create needs it (the plan says so), so it is written in first.
	category := regexp.MustCompile(`category_id( *)= null`)
	if !category.MatchString(generated) {
		t.Fatalf("generated.tf does not leave the table's category unset:\n%s", generated)
	}
	prodGenerated := category.ReplaceAllString(generated, fmt.Sprintf("category_id$1= %q", categoryID))
	prod := newTofu(t)
	prod.write("main.tf", mainTF(production))
	prod.write("generated.tf", prodGenerated)
	prod.run([]string{"init"})
	prod.run([]string{"apply", "-auto-approve"})
	prod.run([]string{"plan", "-detailed-exitcode"})
	want2 := []string{"Archive closed accounts", "Flag gold accounts", "Production only", "Welcome new accounts"}
	if got := automationNames(t, production); !slices.Equal(got, want2) {
		t.Fatalf("production's automations are %v, want %v", got, want2)
	}
	pws := admin.New(production.Client())
	prodElement, err := pws.Elements.Get(ctx, "widgets")
	if err != nil {
		t.Fatal(err)
	}
	if prodElement.ID.Value() == element.ID.Value() {
		t.Fatal("the workspaces' element ids do not differ: the reference is not tested")
	}
	if _, err := pws.SearchTables.Get(ctx, prodElement.ID.Value(), prod.state("workflow_search_table.widgets", "id")); err != nil {
		t.Fatalf("production's search table is not on production's element: %v", err)
	}

	// an automation removed from the configuration is deleted; the one
	// only production has is left alone
	start := strings.Index(prodGenerated, `resource "workflow_automation" "archive_closed_accounts"`)
	if start < 0 {
		t.Fatal("generated.tf has no archive_closed_accounts")
	}
	end := start + strings.Index(prodGenerated[start:], "\n}\n") + 3
	prod.write("generated.tf", prodGenerated[:start]+prodGenerated[end:])
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

package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// workspaceConfig is one workspace's configuration: two tables, the one
// joined into the other, a mapping of the join's pair, a view whose
// columns are the table's fields and an automation, every id a
// reference. ws names the provider alias and suffixes the resources.
const workspaceConfig = `
resource "workflow_table" "regions_WS" {
  provider    = workflow.WS
  name        = "Regions"
  handle      = "region"
  source      = "00000000-0000-4000-8000-0000000000a1"
  category_id = "00000000-0000-4000-8000-0000000000c1"
  fields = [
    { name = "Code", kind = "cloud", column_name = "CODE", column_type = "TEXT" },
  ]
}

resource "workflow_table" "accounts_WS" {
  provider    = workflow.WS
  name        = "Accounts"
  handle      = "acct"
  source      = workflow_table.regions_WS.id
  category_id = "00000000-0000-4000-8000-0000000000c1"
  fields = [
    { name = "Region", kind = "cloud", column_name = "REGION", column_type = "TEXT" },
    { name = "Region code", kind = "reference", field = workflow_table.regions_WS.fields[0].id },
  ]
}

resource "workflow_table_join" "region_WS" {
  provider = workflow.WS
  table_id = workflow_table.accounts_WS.id
  source   = workflow_table.regions_WS.id
  type     = "LEFT"
  on = [{
    left_field_id  = workflow_table.accounts_WS.fields[0].id
    right_field_id = workflow_table.regions_WS.fields[0].id
  }]
}

resource "workflow_table_join_mappings" "region_WS" {
  provider       = workflow.WS
  table_id       = workflow_table.accounts_WS.id
  join_fields_id = workflow_table_join.region_WS.on[0].id
  mappings       = { "EMEA" = "EU", "AMER" = "US" }
}

resource "workflow_view" "by_region_WS" {
  provider         = workflow.WS
  app              = "crm-accounts"
  handle           = "by-region"
  type             = "kanban"
  name             = "By region"
  columns          = [for f in workflow_table.accounts_WS.fields : f.id]
  display_by_field = workflow_table.accounts_WS.fields[0].id
}

resource "workflow_automation" "notify_WS" {
  provider    = workflow.WS
  record_type = "apps"
  alias       = "crm-accounts"
  workflow    = jsonencode({ name = "Notify", triggers = [{ type = "RECORD_CREATED" }], tasks = [] })
}
`

// TestAccTwoWorkspaces applies one configuration to a staging and a
// production workspace whose ids differ (production was used before),
// through two provider aliases: each workspace's objects point at its
// own ids, and a second plan has no changes on either.
func TestAccTwoWorkspaces(t *testing.T) {
	providers := binary(t)
	staging, production := workflowtest.Start(t), workflowtest.Start(t)
	for _, srv := range []*workflowtest.Server{staging, production} {
		srv.Define(workflow.Apps, "crm-accounts")
	}
	// Production has history: its next ids are not staging's.
	ws := admin.New(production.Client())
	for i := range 3 {
		if _, err := ws.Tables.Create(t.Context(), admin.TableCreateRequest{
			Name: "Old", Handle: fmt.Sprintf("old%d", i), Source: sourceID, CategoryID: categoryID,
			Fields: []admin.TableFieldInput{{Calculation: &admin.TableCalculationField{Name: new("x"), Text: new("1")}}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	production.AddView("crm-accounts", "old", "list", map[string]any{"name": "Old"})
	production.AddAutomation(workflow.Apps, "crm-accounts", map[string]any{"name": "Old"})

	config := providerBlock(staging, "staging") + providerBlock(production, "production") +
		strings.ReplaceAll(workspaceConfig, "WS", "staging") + strings.ReplaceAll(workspaceConfig, "WS", "production")

	// ownIDs checks, for each workspace, that its objects point at its own
	// objects' ids, which differ from the other workspace's.
	ownIDs := func(s *terraform.State) error {
		attr := func(addr, name string) string { return s.RootModule().Resources[addr].Primary.Attributes[name] }
		for _, w := range []struct {
			name string
			srv  *workflowtest.Server
		}{{"staging", staging}, {"production", production}} {
			regions, accounts := "workflow_table.regions_"+w.name, "workflow_table.accounts_"+w.name
			regionsID, regionCode, accountRegion := attr(regions, "id"), attr(regions, "fields.0.id"), attr(accounts, "fields.0.id")
			a, ok := w.srv.Table(attr(accounts, "id"))
			if !ok || len(a.Joins) != 1 {
				return fmt.Errorf("%s: the accounts table %+v", w.name, a)
			}
			pair := attr("workflow_table_join.region_"+w.name, "on.0.id")
			if got := strings.Join(a.Mappings[pair], ","); got != "AMER=US,EMEA=EU" {
				return fmt.Errorf("%s: the pair %s maps %q", w.name, pair, got)
			}
			if got := attr(accounts, "source"); got != regionsID {
				return fmt.Errorf("%s: accounts' source %s, the regions table is %s", w.name, got, regionsID)
			}
			if got := attr(accounts, "fields.1.field"); got != regionCode {
				return fmt.Errorf("%s: the reference field points at %s, the region code is %s", w.name, got, regionCode)
			}
			var view map[string]json.RawMessage
			for _, v := range w.srv.Views("crm-accounts") {
				if v.Handle == "by-region" {
					_ = json.Unmarshal(v.Config, &view)
				}
			}
			if got := string(view["displayByField"]); got != `"`+accountRegion+`"` {
				return fmt.Errorf("%s: the view groups by %s, the region field is %s", w.name, got, accountRegion)
			}
		}
		if attr("workflow_table.regions_staging", "id") == attr("workflow_table.regions_production", "id") {
			return fmt.Errorf("the workspaces' ids are the same: the test proves nothing")
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ExternalProviders: providers,
		Steps: []resource.TestStep{
			{Config: config, Check: ownIDs},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

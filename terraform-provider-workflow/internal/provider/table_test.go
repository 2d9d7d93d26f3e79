package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// Ids of objects the tables point at (UUIDs of the document's form).
const (
	sourceID   = "00000000-0000-4000-8000-0000000000a1"
	categoryID = "00000000-0000-4000-8000-0000000000c1"
	refFieldID = "00000000-0000-4000-8000-0000000000f1"
)

// tableConfig is a configuration of the table accounts with the extra
// attributes extra and the fields fields.
func tableConfig(srv *workflowtest.Server, extra, fields string) string {
	return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_table" "accounts" {
  name        = "Accounts"
  handle      = "acct"
  source      = %q
  category_id = %q
%s
  fields = [
%s
  ]
}
`, sourceID, categoryID, extra, fields)
}

// tableID returns the id of workflow_table.accounts in s.
func tableID(s *terraform.State) string {
	return s.RootModule().Resources["workflow_table.accounts"].Primary.ID
}

// tableFields checks that the fake's table holds n fields.
func tableFields(srv *workflowtest.Server, n *string, want int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		*n = tableID(s)
		t, ok := srv.Table(*n)
		if !ok || len(t.Fields) != want {
			return fmt.Errorf("the fake's table %s: %+v (found: %v), want %d fields", *n, t, ok, want)
		}
		return nil
	}
}

func TestAccTable(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	fields := fmt.Sprintf(`
    { name = "Name", kind = "cloud", column_name = "NAME", column_type = "TEXT" },
    { name = "Revenue", kind = "reference", field = %q, aggregation = "SUM" },
    { name = "Score", kind = "calculation", text = "1 + 1", tags = [] },`, refFieldID)
	moreFields := fields + `
    { name = "Region", kind = "cloud", column_name = "REGION", column_type = "TEXT", tags = ["geo"] },`
	var id string
	var fieldIDs []string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy: func(*terraform.State) error {
			if _, ok := srv.Table(id); ok {
				return fmt.Errorf("after destroy the fake holds the table %s", id)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{ // create; "" is a value, and settles
				Config: tableConfig(srv, `  description = ""`, fields),
				Check: resource.ComposeTestCheckFunc(
					tableFields(srv, &id, 3),
					resource.TestCheckResourceAttr("workflow_table.accounts", "description", ""),
					resource.TestCheckResourceAttr("workflow_table.accounts", "fields.1.field", refFieldID),
					resource.TestCheckResourceAttrSet("workflow_table.accounts", "fields.2.id"),
					func(*terraform.State) error {
						ti, _ := srv.Table(id)
						fieldIDs = ti.Fields
						return nil
					},
				),
			},
			{ // update in place: a field added, the others kept with their ids
				Config: tableConfig(srv, `  description = "Every account"`, moreFields),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_table.accounts", "description", "fields")},
				},
				Check: resource.ComposeTestCheckFunc(
					tableFields(srv, &id, 4),
					func(*terraform.State) error {
						ti, _ := srv.Table(id)
						if !slices.Equal(ti.Fields[:3], fieldIDs) {
							return fmt.Errorf("the fields' ids changed: %v, were %v", ti.Fields, fieldIDs)
						}
						return nil
					},
				),
			},
			{ // import by the table's id
				ResourceName:      "workflow_table.accounts",
				ImportState:       true,
				ImportStateVerify: true,
				// The fake serves no empty tag list (its "tags" is left out
				// when empty): imported, an empty list reads as none. No
				// reply holds the category and the description: import
				// leaves them unset (kept as written).
				ImportStateVerifyIgnore: []string{"fields.2.tags", "category_id", "description"},
			},
			{ // drift: a field renamed behind the engine's back shows in the fields
				PreConfig: func() {
					ws := admin.New(srv.Client())
					body := admin.TableUpdateRequest{Color: new("teal"), Fields: &admin.TableFieldChanges{Updates: []admin.TableFieldUpdate{{
						ID: fieldIDs[2], Field: admin.TableFieldInput{Calculation: &admin.TableCalculationField{Text: new("2 + 2")}},
					}}}}
					if _, err := ws.Tables.Update(t.Context(), id, body); err != nil {
						t.Fatal(err)
					}
				},
				Config: tableConfig(srv, `  description = "Every account"`, moreFields),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_table.accounts", "fields")},
				},
				// applied: the field restored; the color, not managed and
				// not read back, is not in the state, and the update did
				// not send one (updateBody's tests)
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("workflow_table.accounts", "fields.2.text", "1 + 1"),
					resource.TestCheckNoResourceAttr("workflow_table.accounts", "color"),
				),
			},
			{ // a field removed from the configuration is deleted
				Config: tableConfig(srv, `  description = "Every account"`, fields),
				Check:  tableFields(srv, &id, 3),
			},
			{ // a field renamed at its place keeps its id: updated, not deleted and created
				Config: tableConfig(srv, `  description = "Every account"`, strings.Replace(fields, `"Score"`, `"Points"`, 1)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_table.accounts", "fields")},
				},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("workflow_table.accounts", "fields.2.name", "Points"),
					func(s *terraform.State) error {
						ti, _ := srv.Table(id)
						got := s.RootModule().Resources["workflow_table.accounts"].Primary.Attributes["fields.2.id"]
						if !slices.Equal(ti.Fields, fieldIDs) || got != fieldIDs[2] {
							return fmt.Errorf("the fields' ids: %v (state %s), want %v", ti.Fields, got, fieldIDs)
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccTableInvalid: a configuration the SDK refuses fails before
// anything is written, naming the attribute (in the configuration's
// words, not the body's) and the rule.
func TestAccTableInvalid(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	steps := []struct{ extra, fields, err string }{
		{"", `{ name = "Name", kind = "column" }`, `(?s)kind must be one of "cloud", "reference", "calculation"`},
		{"", `{ name = "Name", kind = "cloud", column_name = "NAME", column_type = "STRING" }`, `(?s)fields\[0\]\.column_type must\s+be\s+one\s+of`},
		{"", `{ name = "Total", kind = "reference", field = "not-a-uuid" }`, `(?s)fields\[0\]\.field must\s+be`},
		{"", `{ name = "Total", kind = "calculation" }`, `(?s)fields\[0\]\.text`},
		{`  limit = jsonencode(10)`, `{ name = "Score", kind = "calculation", text = "1" }`, `(?s)limit must be one JSON object`},
	}
	var ts []resource.TestStep
	for _, s := range steps {
		ts = append(ts, resource.TestStep{Config: tableConfig(srv, s.extra, s.fields), ExpectError: regexp.MustCompile(s.err)})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: factories, Steps: ts})
	ws := admin.New(srv.Client())
	page, err := ws.Tables.List(t.Context(), nil)
	if err != nil || len(page.Items) != 0 {
		t.Errorf("the fake holds tables: %v, %v", page, err)
	}
}

// joinConfig is two tables, the second joined into the first, and the
// mappings of the join's pair.
func joinConfig(srv *workflowtest.Server, joinType, mappings string) string {
	return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_table" "regions" {
  name        = "Regions"
  handle      = "region"
  source      = %[1]q
  category_id = %[2]q
  fields      = [{ name = "Code", kind = "cloud", column_name = "CODE", column_type = "TEXT" }]
}

resource "workflow_table" "accounts" {
  name        = "Accounts"
  handle      = "acct"
  source      = %[1]q
  category_id = %[2]q
  fields      = [{ name = "Region", kind = "cloud", column_name = "REGION", column_type = "TEXT" }]
}

resource "workflow_table_join" "region" {
  table_id = workflow_table.accounts.id
  source   = workflow_table.regions.id
  type     = %[3]q
  on = [{
    left_field_id  = workflow_table.accounts.fields[0].id
    right_field_id = workflow_table.regions.fields[0].id
  }]
}

resource "workflow_table_join_mappings" "region" {
  table_id       = workflow_table.accounts.id
  join_fields_id = workflow_table_join.region.on[0].id
  mappings       = %[4]s
}
`, sourceID, categoryID, joinType, mappings)
}

func TestAccTableJoin(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	var tableID, pairID string
	mapped := func(want string) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			tableID = s.RootModule().Resources["workflow_table.accounts"].Primary.ID
			pairID = s.RootModule().Resources["workflow_table_join.region"].Primary.Attributes["on.0.id"]
			ti, _ := srv.Table(tableID)
			if got := strings.Join(ti.Mappings[pairID], ","); got != want {
				return fmt.Errorf("the pair %s maps %q, want %q", pairID, got, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{Config: joinConfig(srv, "LEFT", `{ "EMEA" = "EU", "AMER" = "US" }`), Check: mapped("AMER=US,EMEA=EU")},
			{ // update in place: the join's type; a mapping changed, one removed, one added
				Config: joinConfig(srv, "INNER", `{ "EMEA" = "Europe", "APAC" = "Asia" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					changesExactly("workflow_table_join.region", "type"),
					changesExactly("workflow_table_join_mappings.region", "mappings"),
				}},
				Check: mapped("EMEA=Europe,APAC=Asia"),
			},
			{
				ResourceName:      "workflow_table_join.region",
				ImportState:       true,
				ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return tableID + "/" + s.RootModule().Resources["workflow_table_join.region"].Primary.ID, nil
				},
			},
			{
				ResourceName:      "workflow_table_join_mappings.region",
				ImportState:       true,
				ImportStateVerify: true,
				ImportStateIdFunc: func(*terraform.State) (string, error) { return tableID + "/" + pairID, nil },
			},
			{ // drift: a mapping changed behind the engine's back, then restored
				PreConfig: func() {
					ws := admin.New(srv.Client())
					if err := ws.Tables.JoinMappings.Update(t.Context(), tableID, pairID, []admin.JoinMapping{{Source: "APAC", Target: "Pacific"}}); err != nil {
						t.Fatal(err)
					}
				},
				Config: joinConfig(srv, "INNER", `{ "EMEA" = "Europe", "APAC" = "Asia" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					changesExactly("workflow_table_join_mappings.region", "mappings"),
					plancheck.ExpectResourceAction("workflow_table_join.region", plancheck.ResourceActionNoop),
				}},
				Check: mapped("EMEA=Europe,APAC=Asia"),
			},
		},
	})
}

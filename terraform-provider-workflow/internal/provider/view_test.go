package provider

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// Field ids of the app, as a view's columns hold them (UUIDs).
const (
	colA = "00000000-0000-4000-8000-00000000000a"
	colB = "00000000-0000-4000-8000-00000000000b"
)

// viewConfig is a configuration of one list view of crm-accounts with the
// attributes body.
func viewConfig(srv *workflowtest.Server, body string) string {
	return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_view" "open" {
  app    = "crm-accounts"
  handle = "open-accounts"
%s
}
`, body)
}

// viewHolds checks that the fake's one view of crm-accounts has the
// configuration member name = want (JSON), or lacks it when want is "".
func viewHolds(srv *workflowtest.Server, name, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		vs := srv.Views("crm-accounts")
		if len(vs) != 1 {
			return fmt.Errorf("the fake holds %d views, want 1", len(vs))
		}
		var cfg map[string]json.RawMessage
		if err := json.Unmarshal(vs[0].Config, &cfg); err != nil {
			return err
		}
		got, ok := cfg[name]
		switch {
		case want == "" && ok:
			return fmt.Errorf("the view holds %s = %s, want none", name, got)
		case want != "" && string(got) != want:
			return fmt.Errorf("the view holds %s = %s (present: %v), want %s", name, got, ok, want)
		}
		return nil
	}
}

func TestAccView(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	srv.Define(workflow.Apps, "crm-accounts")
	first := fmt.Sprintf(`
  type                  = "list"
  name                  = ""
  allow_record_creation = false
  rows                  = 0
  columns               = [%q, %q]
  filter                = jsonencode({ status = "open", owner = { me = true } })
`, colA, colB)
	second := fmt.Sprintf(`
  type                  = "list"
  name                  = ""
  allow_record_creation = false
  rows                  = 25
  columns               = [%q, %q]
  filter                = <<-EOT
    { "owner": {"me": true},
      "status": "open" }
  EOT
`, colA, colB)
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy: func(*terraform.State) error {
			// Views have no delete: destroy forgets the view, which stays.
			if n := len(srv.Views("crm-accounts")); n != 1 {
				return fmt.Errorf("after destroy the fake holds %d views, want the 1 it had", n)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{ // create; "", false and 0 are values, and settle
				Config: viewConfig(srv, first),
				Check: resource.ComposeTestCheckFunc(
					viewHolds(srv, "name", `""`), viewHolds(srv, "allowRecordCreation", "false"), viewHolds(srv, "rows", "0"),
					viewHolds(srv, "density", ""), // left out of the configuration, not sent
					resource.TestCheckResourceAttr("workflow_view.open", "type", "list"),
					func(s *terraform.State) error {
						id = s.RootModule().Resources["workflow_view.open"].Primary.ID
						if vs := srv.Views("crm-accounts"); vs[0].ID != id || vs[0].Type != "AspectViewList" {
							return fmt.Errorf("state id %q, the fake's view %+v", id, vs[0])
						}
						return nil
					},
				),
			},
			{ // update in place; the filter, spelled otherwise, is no change
				Config: viewConfig(srv, second),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_view.open", "rows")},
				},
				Check: viewHolds(srv, "rows", "25"),
			},
			{ // import by app/id
				ResourceName:            "workflow_view.open",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateIdFunc:       func(*terraform.State) (string, error) { return "crm-accounts/" + id, nil },
				ImportStateVerifyIgnore: []string{"filter"}, // compared by meaning below
				Check:                   resource.TestCheckResourceAttr("workflow_view.open", "filter", `{"owner":{"me":true},"status":"open"}`),
			},
			{ // drift on a managed member shows as exactly that attribute;
				// a member the configuration does not manage is not a change
				PreConfig: func() {
					ws := admin.New(srv.Client())
					body := admin.ViewRequest{View: admin.ViewInput{List: &admin.ViewConfig{
						Name: new(""), AllowRecordCreation: new(false), Rows: new(10), Columns: []string{colA, colB},
						Filter: []byte(`{"status":"open","owner":{"me":true}}`), Density: new("compact"),
					}}}
					if _, err := ws.Views.Update(t.Context(), "crm-accounts", "open-accounts", body); err != nil {
						t.Fatal(err)
					}
				},
				Config: viewConfig(srv, second),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_view.open", "rows")},
				},
				// applied, the managed member is restored and the other kept
				Check: resource.ComposeTestCheckFunc(
					viewHolds(srv, "rows", "25"), viewHolds(srv, "density", `"compact"`),
					resource.TestCheckResourceAttr("workflow_view.open", "density", "compact"),
				),
			},
			{ // the variant changes in place
				Config: viewConfig(srv, `  type = "kanban"`+"\n"+`  display_by_field = "`+colA+`"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("workflow_view.open", plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeTestCheckFunc(
					viewHolds(srv, "displayByField", `"`+colA+`"`), viewHolds(srv, "rows", "25"),
					func(*terraform.State) error {
						if typ := srv.Views("crm-accounts")[0].Type; typ != "AspectViewKanban" {
							return fmt.Errorf("the view's type is %s", typ)
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccViewInvalid: a configuration the provider or the SDK refuses
// fails before anything is written, naming the attribute and the rule.
func TestAccViewInvalid(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	srv.Define(workflow.Apps, "crm-accounts")
	steps := []struct{ body, err string }{
		{`type = "table"`, `(?s)type must be one of "list", "kanban"`},
		{`type = "list"` + "\n" + `rows = "fifty"`, `(?s)Inappropriate value for attribute "rows"`},
		{`type = "list"` + "\n" + `filter = jsonencode(null)`, `(?s)filter must be one JSON object`},
		{`type = "list"` + "\n" + `filter = jsonencode("open")`, `(?s)filter must be one JSON object`},
		{`type = "list"` + "\n" + `sort = "{"`, `(?s)sort must be one JSON object`},
		{`type = "list"` + "\n" + `rows = 3000000000`, `(?s)rows.*int32`},
	}
	var ts []resource.TestStep
	for _, s := range steps {
		ts = append(ts, resource.TestStep{Config: viewConfig(srv, s.body), ExpectError: regexp.MustCompile(s.err)})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: factories, Steps: ts})
	if n := len(srv.Views("crm-accounts")); n != 0 {
		t.Errorf("the fake holds %d views", n)
	}
}

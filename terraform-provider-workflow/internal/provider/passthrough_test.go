package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// answered checks that srv answered route with status, count times.
func answered(srv *workflowtest.Server, route string, status, count int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		n := 0
		for _, r := range srv.Requests() {
			if r.Route == route && r.Status == status {
				n++
			}
		}
		if n != count {
			return fmt.Errorf("%s answered %d %d times, want %d", route, status, n, count)
		}
		return nil
	}
}

// TestAccApp: an app composed, its alias referenced by an automation,
// then changed in place; destroy forgets the app, which still exists.
func TestAccApp(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	config := func(label string) string {
		return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_app" "crm" {
  definition = jsonencode({ namespace = "crm-deals", name = %q, archived = false })
}

resource "workflow_automation" "hello" {
  record_type = "apps"
  alias       = workflow_app.crm.alias
  workflow    = jsonencode({ name = "Hello", triggers = [{ type = "RECORD_CREATED" }] })
}
`, label)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy: func(*terraform.State) error {
			// the app still exists: its record list answers
			_, err := srv.Client().Records.List(t.Context(), workflow.Apps, "crm-deals", nil)
			return err
		},
		Steps: []resource.TestStep{
			{ // a definition holding an id fails at plan
				Config:      providerBlock(srv, "") + `resource "workflow_app" "bad" { definition = jsonencode({ id = "x", namespace = "y" }) }`,
				ExpectError: regexp.MustCompile(`(?s)definition must not hold an "id"`),
			},

			{
				Config: config("Deals"),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("workflow_app.crm", "alias", "crm-deals"),
					answered(srv, "POST /v1/aspects/compose", 201, 1),
					func(*terraform.State) error {
						if n := len(srv.Automations(workflow.Apps, "crm-deals")); n != 1 {
							return fmt.Errorf("the app has %d automations", n)
						}
						return nil
					},
				),
			},
			{ // the same meaning, respelled, plans nothing
				Config: providerBlock(srv, "") + `
resource "workflow_app" "crm" {
  definition = "{\"archived\": false, \"name\": \"Deals\",   \"namespace\": \"crm-deals\"}"
}

resource "workflow_automation" "hello" {
  record_type = "apps"
  alias       = workflow_app.crm.alias
  workflow    = jsonencode({ name = "Hello", triggers = [{ type = "RECORD_CREATED" }] })
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ // update in place, by the app's id
				Config: config("Pipeline"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("workflow_app.crm", plancheck.ResourceActionUpdate)},
				},
				Check: answered(srv, "PUT /v1/aspects/compose/{id}", 200, 1),
			},
		},
	})
}

// TestAccFlow: a flow created and updated in place; destroy forgets it
// with a warning.
func TestAccFlow(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	config := func(enabled bool) string {
		return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_flow" "nightly" {
  definition = jsonencode({ name = "Nightly", enabled = %t, steps = [] })
}
`, enabled)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{
				Config:      providerBlock(srv, "") + `resource "workflow_flow" "bad" { definition = "[1]" }`,
				ExpectError: regexp.MustCompile(`(?s)definition must be one JSON object`),
			},

			{Config: config(false), Check: answered(srv, "POST /v1/flows/create", 201, 1)},
			{
				Config: config(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_flow.nightly", "definition")},
				},
				Check: answered(srv, "PUT /v1/flows/{id}", 200, 1),
			},
		},
	})
}

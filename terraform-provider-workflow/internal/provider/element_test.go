package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

const testCategory = "c0000000-0000-4000-8000-000000000001"

func TestAccElement(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	config := func(desc string) string {
		return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_element" "widgets" {
  name                         = "Widgets"
  category_id                  = %q
  namespace                    = "widgets"
  description                  = %q
  read_only                    = false
  allow_inline_image_ingestion = false
  source = jsonencode({
    fields = [{ name = "Title", type = "TEXT" }]
  })
}

resource "workflow_search_table" "widgets" {
  aspect_id           = workflow_element.widgets.id
  target_lag          = 1
  duration            = "HOURS"
  attribute_field_ids = []
}
`, testCategory, desc)
	}
	described := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			a, err := ws.Elements.Get(t.Context(), "widgets")
			if err == nil && a.Description.Value() != want {
				err = fmt.Errorf("the element's description is %q, want %q", a.Description.Value(), want)
			}
			return err
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy: func(*terraform.State) error { // the element still exists
			_, err := ws.Elements.Get(t.Context(), "widgets")
			return err
		},
		Steps: []resource.TestStep{
			{ // a source member that is not one fails at plan
				Config: config("Parts we sell") + fmt.Sprintf(`
resource "workflow_element" "bad" {
  name        = "Bad"
  category_id = %q
  source      = jsonencode({ name = "Other" })
}
`, testCategory),
				ExpectError: regexp.MustCompile(`(?s)source must not hold name`),
			},

			{Config: config("Widgets we make"), Check: described("Widgets we make")},
			{
				Config: config("Parts we sell"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_element.widgets", "description")},
				},
				Check: described("Parts we sell"),
			},
			{ // import by namespace; what the service does not read back is left out
				ResourceName:            "workflow_element.widgets",
				ImportState:             true,
				ImportStateId:           "widgets",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"allow_inline_image_ingestion", "source"},
			},
			{ // drift
				PreConfig: func() {
					if _, err := ws.Elements.Update(t.Context(), "widgets", admin.ElementUpdate{Name: new("Gadgets")}); err != nil {
						t.Fatal(err)
					}
				},
				Config: config("Parts we sell"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_element.widgets", "name")},
				},
			},
		},
	})
}

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

const testAspect = "a0000000-0000-4000-8000-000000000001"

func TestAccSearchTable(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	config := func(lag int) string {
		return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_search_table" "accounts" {
  aspect_id           = %q
  target_lag          = %d
  duration            = "MINUTES"
  warehouse           = ""
  attribute_field_ids = ["f0000000-0000-4000-8000-000000000001", "f0000000-0000-4000-8000-000000000002"]
  vector_indexes      = [{ field_id = "f0000000-0000-4000-8000-000000000003", ai_provider_connector_id = "c0000000-0000-4000-8000-000000000009" }]
}

resource "workflow_linked_search_table" "docs" {
  aspect_id     = %q
  cloud_link_id = "10000000-0000-4000-8000-000000000001"
  database      = "DOCS"
  schema        = "PUBLIC"
  service_name  = "DOC_SEARCH"
}
`, testAspect, lag, testAspect)
	}
	var id, linked string
	lagIs := func(want int) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			id, linked = stateID(s, "workflow_search_table.accounts"), stateID(s, "workflow_linked_search_table.docs")
			st, err := ws.SearchTables.Get(t.Context(), testAspect, id)
			if err == nil && st.TargetLag.Value() != want {
				err = fmt.Errorf("the search table's targetLag is %d, want %d", st.TargetLag.Value(), want)
			}
			if err == nil {
				_, err = ws.SearchTables.Get(t.Context(), testAspect, linked)
			}
			return err
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             lagIs(10), // the API cannot delete them
		Steps: []resource.TestStep{
			{
				Config: config(10) + fmt.Sprintf(`
resource "workflow_search_table" "bad" {
  aspect_id           = %q
  target_lag          = 1
  duration            = "WEEKS"
  attribute_field_ids = []
}
`, testAspect),
				ExpectError: regexp.MustCompile(`(?s)duration must be one of`),
			},

			{Config: config(0), Check: lagIs(0)}, // 0 is a value, and settles
			{
				Config: config(10),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_search_table.accounts", "target_lag", "status")},
				},
				Check: lagIs(10),
			},
			importedBy("workflow_search_table.accounts", testAspect, &id),
			importedBy("workflow_linked_search_table.docs", testAspect, &linked, "cloud_link_id"),
			{ // drift
				PreConfig: func() {
					u := admin.SearchTableUpdate{Snowflake: &admin.SnowflakeSearchTableUpdate{Duration: new(admin.TimeUnitHours)}}
					if _, err := ws.SearchTables.Update(t.Context(), testAspect, id, u); err != nil {
						t.Fatal(err)
					}
				},
				Config: config(10),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_search_table.accounts", "duration", "status")},
				},
			},
			{Config: config(10)},
		},
	})
}

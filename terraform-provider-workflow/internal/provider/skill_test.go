package provider

import (
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

func TestAccSkill(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	srv.Define(workflow.Apps, "crm-accounts")
	ws := admin.New(srv.Client())
	config := func(status string) string {
		return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_skill" "triage" {
  app          = "crm-accounts"
  name         = "Triage"
  type         = "CUSTOM"
  status       = %q
  description  = ""
  instructions = "Sort by urgency."
  properties   = jsonencode({ threshold = 0, strict = false })
  discovery    = jsonencode({ positiveKeywords = ["urgent"], routingPriority = 1 })
  tools        = [jsonencode({ type = "lookup" })]
}
`, status)
	}
	var id string
	holds := func(status admin.SkillStatus) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			id = stateID(s, "workflow_skill.triage")
			k, err := listed(ws.Skills.All(t.Context(), "crm-accounts", nil), func(k admin.Skill) string { return k.ID.Value() }, id)
			if err == nil && (k == nil || k.Status.Value() != status || k.Name.Value() != "Triage") {
				err = fmt.Errorf("the fake's skill is %+v", k)
			}
			return err
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             holds(admin.SkillActive), // the API cannot delete it
		Steps: []resource.TestStep{
			{
				Config: config("ACTIVE") + `
resource "workflow_skill" "bad" {
  app    = "crm-accounts"
  name   = "Bad"
  status = "LIVE"
}
`,
				ExpectError: regexp.MustCompile(`(?s)status must be one of`),
			},

			{Config: config("DRAFT"), Check: holds(admin.SkillDraft)},
			{
				Config: config("ACTIVE"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_skill.triage", "status")},
				},
				Check: holds(admin.SkillActive),
			},
			importedBy("workflow_skill.triage", "crm-accounts", &id, "tools", "discovery"), // kept as written
			{ // drift in a nested member of properties shows as that attribute
				PreConfig: func() {
					b := admin.SkillBundle{Skill: admin.SkillSettings{Properties: []byte(`{"threshold":5,"strict":false}`)}}
					if _, err := ws.Skills.Update(t.Context(), "crm-accounts", id, b); err != nil {
						t.Fatal(err)
					}
				},
				Config: config("ACTIVE"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_skill.triage", "properties")},
				},
			},
			{Config: config("ACTIVE")},
		},
	})
}

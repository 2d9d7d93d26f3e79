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

func TestAccAgent(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	srv.Define(workflow.Apps, "crm-accounts")
	ws := admin.New(srv.Client())
	config := func(desc string) string {
		return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_agent" "helper" {
  app              = "crm-accounts"
  name             = "Helper"
  description      = %q
  temperature      = 0
  reasoning_effort = "LOW"
  instructions     = "Answer briefly."
  tools            = [jsonencode({ type = "search", name = "records" })]
}
`, desc)
	}
	var id string
	only := func(want string) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			id = stateID(s, "workflow_agent.helper")
			a, err := listed(ws.Agents.All(t.Context(), "crm-accounts", nil), func(a admin.Agent) string { return a.ID.Value() }, id)
			if err == nil && (a == nil || a.Description.Value() != want || a.Name.Value() != "Helper") {
				err = fmt.Errorf("the fake's agent is %+v", a)
			}
			return err
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             only("Knows the accounts"), // the API cannot delete it
		Steps: []resource.TestStep{
			{
				Config: config("Knows the accounts") + `
resource "workflow_agent" "bad" {
  app   = "crm-accounts"
  name  = "Bad"
  tools = ["[1]"]
}
`,
				ExpectError: regexp.MustCompile(`(?s)tools element 0 must be one JSON object`),
			},

			{Config: config(""), Check: only("")},
			{
				Config: config("Knows the accounts"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_agent.helper", "description")},
				},
				Check: only("Knows the accounts"),
			},
			// import by app/id: what the list does not show is left out
			importedBy("workflow_agent.helper", "crm-accounts", &id, "instructions", "tools"),
			{ // drift in a listed attribute
				PreConfig: func() {
					b := admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{Temperature: new(0.7)}}}
					if _, err := ws.Agents.Update(t.Context(), "crm-accounts", id, b); err != nil {
						t.Fatal(err)
					}
				},
				Config: config("Knows the accounts"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_agent.helper", "temperature")},
				},
			},
			{Config: config("Knows the accounts")},
		},
	})
}

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

// automationConfig is a configuration of one automation of the app
// crm-accounts with the workflow expression wf.
func automationConfig(srv *workflowtest.Server, wf string) string {
	return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_automation" "welcome" {
  record_type = "apps"
  alias       = "crm-accounts"
  workflow    = %s
}
`, wf)
}

// onlyAutomation returns the one automation of crm-accounts on srv,
// decoded, failing when there is not exactly one.
func onlyAutomation(srv *workflowtest.Server) (map[string]any, error) {
	all := srv.Automations(workflow.Apps, "crm-accounts")
	if len(all) != 1 {
		return nil, fmt.Errorf("the fake holds %d automations, want 1", len(all))
	}
	var m map[string]any
	err := json.Unmarshal(all[0], &m)
	return m, err
}

// holds checks that the fake's one automation has member name = want.
func holds(srv *workflowtest.Server, name string, want any) resource.TestCheckFunc {
	return func(*terraform.State) error {
		m, err := onlyAutomation(srv)
		if err != nil {
			return err
		}
		if got, ok := m[name]; !ok || fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("the automation's %s is %v (present: %v), want %v", name, got, ok, want)
		}
		return nil
	}
}

func TestAccAutomation(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	srv.Define(workflow.Apps, "crm-accounts")
	const first = `jsonencode({
    name     = "Welcome"
    enabled  = false
    retries  = 0
    note     = ""
    triggers = [{ type = "RECORD_CREATED" }]
    tasks    = [{ type = "email", to = "owner" }]
  })`
	// The same meaning: other key order, white space and number spelling.
	const respelled = `<<-EOT
    { "tasks": [ {"to": "owner", "type": "email"} ], "triggers": [{"type": "RECORD_CREATED"}],
      "retries": 0.0, "note": "", "enabled": false, "name": "Welcome" }
  EOT`
	const second = `jsonencode({
    name     = "Welcome"
    enabled  = true
    retries  = 0
    note     = ""
    triggers = [{ type = "RECORD_CREATED" }]
    tasks    = [{ type = "email", to = "owner" }]
  })`
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy: func(*terraform.State) error {
			if n := len(srv.Automations(workflow.Apps, "crm-accounts")); n != 0 {
				return fmt.Errorf("after destroy the fake holds %d automations", n)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{ // create; false, 0 and "" are values, and settle (the framework plans again after apply)
				Config: automationConfig(srv, first),
				Check: resource.ComposeTestCheckFunc(
					holds(srv, "enabled", false), holds(srv, "retries", 0), holds(srv, "note", ""),
					func(s *terraform.State) error {
						id = s.RootModule().Resources["workflow_automation.welcome"].Primary.ID
						m, err := onlyAutomation(srv)
						if err == nil && m["id"] != id {
							err = fmt.Errorf("state id %q, the fake's %v", id, m["id"])
						}
						return err
					},
				),
			},
			{ // the same meaning spelled otherwise plans nothing
				Config: automationConfig(srv, respelled),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{ // update in place
				Config: automationConfig(srv, second),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_automation.welcome", "workflow")},
				},
				Check: holds(srv, "enabled", true),
			},
			importedBy("workflow_automation.welcome", "apps/crm-accounts", &id), // import by record_type/alias/id
			{ // drift: a change behind the engine's back shows as exactly that attribute
				PreConfig: func() {
					ws := admin.New(srv.Client())
					a, err := admin.Canonical([]byte(`{"name":"Welcome","enabled":true,"retries":3,"note":"","triggers":[{"type":"RECORD_CREATED"}],"tasks":[{"type":"email","to":"owner"}]}`))
					if err == nil {
						_, err = ws.Automations.Update(t.Context(), workflow.Apps, "crm-accounts", id, a)
					}
					if err != nil {
						t.Fatal(err)
					}
				},
				Config: automationConfig(srv, second),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_automation.welcome", "workflow")},
				},
			},
			{ // applied, the configuration wins again
				Config: automationConfig(srv, second),
				Check:  holds(srv, "retries", 0),
			},
		},
	})
}

// TestAccAutomationInvalid: a configuration the SDK or the service
// refuses fails at plan, naming the attribute, and nothing is written.
func TestAccAutomationInvalid(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	srv.Define(workflow.Apps, "crm-accounts")
	nothingWritten := func(*terraform.State) error {
		if n := len(srv.Automations(workflow.Apps, "crm-accounts")); n != 0 {
			return fmt.Errorf("the fake holds %d automations", n)
		}
		return nil
	}
	steps := []struct{ wf, rt, err string }{
		{`jsonencode({ triggers = [{ type = "RECORD_CREATED" }] })`, "apps", `(?s)refuses the workflow.*name`},
		{`jsonencode([1, 2])`, "apps", `(?s)workflow must be one JSON object`},
		{`"{\"name\": \"x\",}"`, "apps", `(?s)workflow must be one JSON object`},
		{`null`, "apps", `(?s)workflow is required`},
		{`jsonencode({ name = "x", id = "0000" })`, "apps", `(?s)must not hold an "id"`},
		{`jsonencode({ name = "x" })`, "records", `(?s)record_type must be one of`},
	}
	var ts []resource.TestStep
	for _, s := range steps {
		cfg := providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_automation" "bad" {
  record_type = %q
  alias       = "crm-accounts"
  workflow    = %s
}
`, s.rt, s.wf)
		ts = append(ts, resource.TestStep{Config: cfg, ExpectError: regexp.MustCompile(s.err)})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             nothingWritten,
		Steps:                    ts,
	})
	if err := nothingWritten(nil); err != nil {
		t.Error(err)
	}
}

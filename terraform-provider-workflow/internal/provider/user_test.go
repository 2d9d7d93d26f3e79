package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// fakeUser returns the fake's user id, failing the check when there is none.
func fakeUser(srv *workflowtest.Server, id string) (workflowtest.User, error) {
	for _, u := range srv.Users() {
		if u.ID == id {
			return u, nil
		}
	}
	return workflowtest.User{}, fmt.Errorf("the fake has no user %q", id)
}

func TestAccUser(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	config := func(email, title string) string {
		return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_user" "ada" {
  email        = %q
  first_name   = "Ada"
  last_name    = "Lovelace"
  job_title    = %q
  never_notify = false
}
`, email, title)
	}
	var id string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy: func(*terraform.State) error { // destroy deactivates
			u, err := fakeUser(srv, id)
			if err == nil && u.Active {
				err = fmt.Errorf("after destroy the user %s is active", id)
			}
			return err
		},
		Steps: []resource.TestStep{
			{ // an address that is not one fails at plan
				Config:      config("Ada <ada@example.com>", ""),
				ExpectError: regexp.MustCompile(`(?s)email`),
			},
			{ // create; an empty job title is a value, and settles
				Config: config("ada@example.com", ""),
				Check: func(s *terraform.State) error {
					id = stateID(s, "workflow_user.ada")
					u, err := fakeUser(srv, id)
					if err == nil && (u.Email != "ada@example.com" || !u.Active || u.JobTitle != "" || u.NeverNotify) {
						err = fmt.Errorf("the fake's user is %+v", u)
					}
					return err
				},
			},
			{ // import by id
				ResourceName:            "workflow_user.ada",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"never_notify"},
			},
			{ // a new e-mail address replaces the user: the API has no update
				Config: config("ada.lovelace@example.com", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("workflow_user.ada", plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: func(s *terraform.State) error {
					old, err := fakeUser(srv, id)
					if err == nil && old.Active {
						err = fmt.Errorf("the replaced user %s is still active", id)
					}
					id = stateID(s, "workflow_user.ada")
					return err
				},
			},
			{ // a new job title or name is never a replacement: the plan fails, naming the service's value
				Config:      config("ada.lovelace@example.com", "Analyst"),
				ExpectError: regexp.MustCompile(`(?s)cannot change job_title.*Set it to ""`),
			},
			{ // ... and nothing was deactivated
				Config: config("ada.lovelace@example.com", ""),
				Check: func(*terraform.State) error {
					u, err := fakeUser(srv, id)
					if err == nil && !u.Active {
						err = fmt.Errorf("the user %s was deactivated by a refused plan", id)
					}
					return err
				},
			},
			{ // deactivated behind the engine's back: the plan fails, saying so
				PreConfig: func() {
					if !srv.DeactivateUser(id) {
						t.Fatal("no user to deactivate")
					}
				},
				Config:      config("ada.lovelace@example.com", ""),
				ExpectError: regexp.MustCompile(`(?s)The user is deactivated.*cannot\s+activate\s+a\s+user\s+again`),
			},
		},
	})
}

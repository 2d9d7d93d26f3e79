package provider

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// stateID returns the id of the resource addr in s.
func stateID(s *terraform.State, addr string) string {
	if r := s.RootModule().Resources[addr]; r != nil {
		return r.Primary.ID
	}
	return ""
}

func TestAccGroup(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	ada := srv.AddUser("ada@example.com", "Ada", "Lovelace").UserID
	bob := srv.AddUser("bob@example.com", "Bob", "Byte").UserID
	cat := srv.AddUser("cat@example.com", "Cat", "Code").UserID
	config := func(name, members string) string {
		return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_group" "ops" {
  name        = %q
  assignable  = false
  watchable   = true
  approver    = false
  tags        = []
  member_ids  = %s
}
`, name, members)
	}
	var id string
	group := func() workflowtest.GroupInfo { g, _ := srv.Group(id); return g }
	holds := func(name string, members ...string) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			id = stateID(s, "workflow_group.ops")
			g, ok := srv.Group(id)
			switch {
			case !ok:
				return fmt.Errorf("the fake has no group %q", id)
			case g.Name != name || g.Flags.Assignable || !g.Flags.Watchable:
				return fmt.Errorf("the fake's group is %+v", g)
			case !slices.Equal(g.Members, members):
				return fmt.Errorf("the group's members are %v, want %v", g.Members, members)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy: func(*terraform.State) error {
			if _, ok := srv.Group(id); !ok {
				return fmt.Errorf("destroy removed the group %s, which the API cannot delete", id)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{ // a member list on a dynamic group fails at plan, and nothing is written
				Config: providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_group" "dyn" {
  name       = "Everyone"
  dynamic    = true
  member_ids = [%q]
}
`, ada),
				ExpectError: regexp.MustCompile(`(?s)member_ids.*(?i)dynamic`),
			},
			{ // create with members; false and [] are values, and settle
				Config: config("Ops", fmt.Sprintf("[%q]", ada)),
				Check:  holds("Ops", ada),
			},
			{ // update in place: the name, and the members added and removed
				Config: config("Operations", fmt.Sprintf("[%q, %q]", bob, cat)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_group.ops", "name", "member_ids")},
				},
				Check: holds("Operations", bob, cat),
			},
			{ // import by id: the members the service does not read back are left out
				ResourceName:            "workflow_group.ops",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"approver", "tags"},
			},
			{ // drift behind the engine's back shows as exactly those attributes
				PreConfig: func() {
					c := srv.Client()
					_, err := c.Groups.Update(t.Context(), id, workflow.GroupRequest{Name: new("Renamed")})
					if err == nil {
						err = c.Groups.Members.Add(t.Context(), id, []string{ada})
					}
					if err != nil {
						t.Fatal(err)
					}
				},
				Config: config("Operations", fmt.Sprintf("[%q, %q]", bob, cat)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_group.ops", "name", "member_ids")},
				},
			},
			{ // applied, the configuration wins again
				Config: config("Operations", fmt.Sprintf("[%q, %q]", bob, cat)),
				Check:  holds("Operations", bob, cat),
			},
		},
	})
	if g := group(); g.Name != "Operations" {
		t.Errorf("after destroy the group is %+v", g)
	}
}

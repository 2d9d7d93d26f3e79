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

// TestAccOrganizationDomain: a managed domain created with false values,
// updated in place; destroy forgets it, and it still exists.
func TestAccOrganizationDomain(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	config := func(name string, sso bool) string {
		return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_organization_domain" "corp" {
  type              = "MANAGED"
  domain            = "example.com"
  name              = %q
  internal          = false
  self_registration = false
  sso               = %t
}
`, name, sso)
	}
	only := func(want workflowtest.OrganizationDomainInfo) resource.TestCheckFunc {
		return func(*terraform.State) error {
			all := srv.OrganizationDomains()
			if len(all) != 1 {
				return fmt.Errorf("the fake holds %d domains", len(all))
			}
			want.ID = all[0].ID
			if all[0] != want {
				return fmt.Errorf("the fake's domain is %+v, want %+v", all[0], want)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy: func(*terraform.State) error {
			if n := len(srv.OrganizationDomains()); n != 1 {
				return fmt.Errorf("after destroy the fake holds %d domains, want the 1 the API cannot delete", n)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{ // a managed domain's member on an e-mail domain fails at plan
				Config: config("Corporate", true) + `
resource "workflow_organization_domain" "mail" {
  type   = "EMAIL"
  domain = "mail.example.com"
  sso    = false
}
`,
				ExpectError: regexp.MustCompile(`(?s)sso is a MANAGED domain's only`),
			},
			{ // the SDK's rule: SSO and self-registration are not both true
				Config: config("Corporate", true) + `
resource "workflow_organization_domain" "other" {
  type              = "MANAGED"
  domain            = "other.example.com"
  sso               = true
  self_registration = true
}
`,
				ExpectError: regexp.MustCompile(`(?s)Invalid domain`),
			},

			{
				Config: config("Corp", false),
				Check:  only(workflowtest.OrganizationDomainInfo{Type: "MANAGED", Domain: "example.com", Name: "Corp"}),
			},
			{
				Config: config("Corporate", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_organization_domain.corp", "name", "sso")},
				},
				Check: only(workflowtest.OrganizationDomainInfo{Type: "MANAGED", Domain: "example.com", Name: "Corporate", SSO: true}),
			},
		},
	})
}

// TestAccGroupEmailDomains: a dynamic group's domains set, changed,
// imported, drifted and removed at destroy.
func TestAccGroupEmailDomains(t *testing.T) {
	factories := acc(t)
	srv := workflowtest.Start(t)
	gid := srv.AddDynamicGroup("Everyone")
	config := func(domains string) string {
		return providerBlock(srv, "") + fmt.Sprintf(`
resource "workflow_group_email_domains" "everyone" {
  group_id = %q
  domains  = %s
}
`, gid, domains)
	}
	has := func(want ...string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			g, _ := srv.Group(gid)
			if fmt.Sprint(g.Domains) != fmt.Sprint(want) {
				return fmt.Errorf("the group's domains are %v, want %v", g.Domains, want)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy: func(s *terraform.State) error {
			return has()(s)
		},
		Steps: []resource.TestStep{
			{Config: config(`["example.com"]`), Check: has("example.com")},
			{
				Config: config(`["example.org", "example.net"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_group_email_domains.everyone", "domains")},
				},
				Check: has("example.net", "example.org"),
			},
			{
				ResourceName:      "workflow_group_email_domains.everyone",
				ImportState:       true,
				ImportStateId:     gid,
				ImportStateVerify: true,
			},
			{ // a domain added behind the engine's back shows in the plan
				PreConfig: func() {
					if _, err := admin.New(srv.Client()).Domains.Groups.Add(t.Context(), gid, []string{"example.com"}); err != nil {
						t.Fatal(err)
					}
				},
				Config: config(`["example.org", "example.net"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{changesExactly("workflow_group_email_domains.everyone", "domains")},
				},
			},
			{Config: config(`["example.org", "example.net"]`), Check: has("example.net", "example.org")},
		},
	})
}

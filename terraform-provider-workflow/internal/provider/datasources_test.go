package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestAccDataSources: each lookup finds the one object of its key, each
// list every object (the filter's only, where the API filters); none, or
// several, is an error naming what was looked for.
func TestAccDataSources(t *testing.T) {
	srv, lk := lookupFake(t)
	ada := srv.AddUser("ada@example.com", "Ada", "Lovelace")
	ops := must[*workflow.Group](t)(srv.Client().Groups.Create(t.Context(), workflow.GroupRequest{Name: new("Ops"), Assignable: new(true),
		Watchable: new(false), Mentionable: new(true)})).ID
	table := lk.table("Accounts", "acct")
	view := srv.AddView("crm-accounts", "open", "list", map[string]any{"name": "Open"})
	agent, skill := lk.agent("Helper"), lk.skill("Triage")
	automation := srv.AddAutomation(workflow.Apps, "crm-accounts", map[string]any{"name": "Welcome", "triggers": []any{map[string]any{"type": "RECORD_CREATED"}}})
	element := lk.element("Widgets", "widgets")

	cli := newTofu(t)
	cli.write("main.tf", requireTF+`
data "workflow_user" "ada" { email = "ada@example.com" }
data "workflow_users" "ada" { filter = "email==ada@example.com" }
data "workflow_users" "all" {}
data "workflow_group" "ops" { name = "Ops" }
data "workflow_groups" "all" {}
data "workflow_table" "by_handle" { handle = "acct" }
data "workflow_table" "by_name" { name = "Accounts" }
data "workflow_tables" "all" {}
data "workflow_view" "open" {
  app    = "crm-accounts"
  handle = "open"
}
data "workflow_views" "all" { app = "crm-accounts" }
data "workflow_agent" "helper" {
  app  = "crm-accounts"
  name = "Helper"
}
data "workflow_agents" "all" { app = "crm-accounts" }
data "workflow_skill" "triage" {
  app  = "crm-accounts"
  name = "Triage"
}
data "workflow_skills" "all" { app = "crm-accounts" }
data "workflow_automation" "welcome" {
  record_type = "apps"
  alias       = "crm-accounts"
  name        = "Welcome"
}
data "workflow_automations" "all" {
  record_type = "apps"
  alias       = "crm-accounts"
}
data "workflow_element" "widgets" { namespace = "widgets" }
`)
	cli.run([]string{"init"})
	cli.run([]string{"apply", "-auto-approve"})
	got := cli.values()
	for addr, want := range map[string]string{
		"data.workflow_user.ada": ada.UserID, "data.workflow_group.ops": ops, "data.workflow_table.by_handle": table.ID.Value(),
		"data.workflow_table.by_name": table.ID.Value(), "data.workflow_view.open": view, "data.workflow_agent.helper": agent.ID.Value(),
		"data.workflow_skill.triage": skill.ID.Value(), "data.workflow_automation.welcome": automation,
		"data.workflow_element.widgets": element.ID.Value(),
	} {
		if got[addr]["id"] != want {
			t.Errorf("%s found %q, want %q", addr, got[addr]["id"], want)
		}
	}
	if got["data.workflow_user.ada"]["last_name"] != "Lovelace" {
		t.Errorf("the user's lookup shows %v", got["data.workflow_user.ada"])
	}
	for attr, want := range map[string]string{"name": "Ops", "assignable": "true", "watchable": "false", "mentionable": "true", "dynamic": "false"} {
		if v := got["data.workflow_group.ops"][attr]; v != want {
			t.Errorf("the group's lookup shows %s = %q, want %q", attr, v, want)
		}
	}
	for addr, want := range map[string]string{
		"data.workflow_users.ada": ada.UserID, "data.workflow_users.all": ada.UserID, "data.workflow_groups.all": ops,
		"data.workflow_tables.all": table.ID.Value(), "data.workflow_views.all": view, "data.workflow_agents.all": agent.ID.Value(),
		"data.workflow_skills.all": skill.ID.Value(), "data.workflow_automations.all": automation,
	} {
		if !strings.Contains(got[addr]["items"], want) {
			t.Errorf("%s lists no %s: %s", addr, want, got[addr]["items"])
		}
	}
	if n := strings.Count(got["data.workflow_users.ada"]["items"], "map["); n != 1 {
		t.Errorf("the filtered users list has %d users, want 1: %s", n, got["data.workflow_users.ada"]["items"])
	}
	if n := strings.Count(got["data.workflow_users.all"]["items"], "map["); n < 2 {
		t.Errorf("the users list has %d users, want every one", n)
	}

	srv.AddGroup("Twice")
	srv.AddGroup("Twice")
	for _, tt := range []struct{ config, want string }{
		{`data "workflow_user" "x" { email = "nobody@example.com" }`, `No user`},
		{`data "workflow_group" "x" { name = "Twice" }`, `several objects have it`},
		{`data "workflow_table" "x" { name = "Nothing" }`, `table with name = "Nothing"`},
	} {
		bad := newTofu(t)
		bad.write("main.tf", requireTF+tt.config)
		bad.run([]string{"init"})
		if out, _ := bad.run([]string{"plan", "-no-color"}, 1); !strings.Contains(strings.Join(strings.Fields(out), " "), tt.want) {
			t.Errorf("%s: the error does not say %q:\n%s", tt.config, tt.want, out)
		}
	}
}

// TestAccDataSourceExamples applies the example of every data source
// (examples/data-sources/<type>/data-source.tf, which its registry page
// shows) to a fake holding the objects they name: each finds one object,
// or, plural, the ones made.
func TestAccDataSourceExamples(t *testing.T) {
	srv, lk := lookupFake(t)
	ctx := t.Context()
	// what each example should find: "" for the demo's own objects
	made := map[string]string{
		"workflow_user.ada":           srv.AddUser("ada@example.com", "Ada", "Lovelace").UserID,
		"workflow_group.engineering":  srv.AddGroup("Engineering"),
		"workflow_view.open":          srv.AddView("crm-accounts", "open-accounts", "list", map[string]any{"name": "Open"}),
		"workflow_table.accounts":     lk.table("Accounts", "acct").ID.Value(),
		"workflow_agent.assistant":    lk.agent("Account assistant").ID.Value(),
		"workflow_skill.triage":       lk.skill("Triage").ID.Value(),
		"workflow_element.products":   lk.element("Products", "products").ID.Value(),
		"workflow_automation.welcome": "",
		"workflow_automations.crm":    "",
	}
	made["workflow_users.staff"], made["workflow_groups.all"] = made["workflow_user.ada"], made["workflow_group.engineering"]
	made["workflow_views.crm"], made["workflow_tables.all"] = made["workflow_view.open"], made["workflow_table.accounts"]
	made["workflow_agents.crm"], made["workflow_skills.crm"] = made["workflow_agent.assistant"], made["workflow_skill.triage"]

	files, err := filepath.Glob("../../examples/data-sources/*/data-source.tf")
	if err != nil || len(files) != len(New("test")().DataSources(ctx)) {
		t.Fatalf("%d data source examples (%v), want one a data source", len(files), err)
	}
	cli := newTofu(t)
	cli.write("main.tf", requireTF)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cli.write(filepath.Base(filepath.Dir(f))+".tf", string(src))
	}
	cli.run([]string{"init"})
	cli.run([]string{"apply", "-auto-approve"})
	got := cli.values()
	if len(got) != len(files) {
		t.Errorf("%d data sources read, want %d: %v", len(got), len(files), got)
	}
	for addr, vals := range got {
		want, ok := made[strings.TrimPrefix(addr, "data.")]
		switch {
		case !ok:
			t.Errorf("%s: the test does not know what it should find", addr)
		case want == "": // what the demo holds
			if vals["id"] == "" && (vals["items"] == "" || vals["items"] == "[]") {
				t.Errorf("%s found nothing: %v", addr, vals)
			}
		case vals["id"] != want && !strings.Contains(vals["items"], "id:"+want):
			t.Errorf("%s found %v, want %s", addr, vals, want)
		}
	}
}

// TestDataSourcesOfEveryReadableFamily: a singular lookup for each family
// with a natural key, and a list for each family the API lists.
func TestDataSourcesOfEveryReadableFamily(t *testing.T) {
	var names []string
	for _, f := range New("test")().DataSources(context.Background()) {
		var resp datasource.MetadataResponse
		f().Metadata(context.Background(), datasource.MetadataRequest{ProviderTypeName: "workflow"}, &resp)
		names = append(names, resp.TypeName)
	}
	for _, want := range []string{"user", "users", "group", "groups", "table", "tables", "view", "views", "agent", "agents",
		"skill", "skills", "automation", "automations", "element"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " workflow_"+want+" ") {
			t.Errorf("no data source workflow_%s: %v", want, names)
		}
	}
}

// TestLookupExamples: every data source and every list resource has the
// example its registry page shows, declaring it.
func TestLookupExamples(t *testing.T) {
	p := New("test")()
	for _, f := range p.DataSources(context.Background()) {
		var resp datasource.MetadataResponse
		f().Metadata(context.Background(), datasource.MetadataRequest{ProviderTypeName: "workflow"}, &resp)
		src, err := os.ReadFile(filepath.Join("../../examples/data-sources", resp.TypeName, "data-source.tf"))
		if err != nil || !strings.Contains(string(src), `data "`+resp.TypeName+`"`) {
			t.Errorf("%s has no example declaring it: %v", resp.TypeName, err)
		}
	}
	for _, f := range p.(*workflowProvider).ListResources(context.Background()) {
		var resp resource.MetadataResponse
		f().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "workflow"}, &resp)
		src, err := os.ReadFile(filepath.Join("../../examples/list-resources", resp.TypeName, "list-resource.tfquery.hcl"))
		if err != nil || !strings.Contains(string(src), `list "`+resp.TypeName+`"`) {
			t.Errorf("%s has no list example declaring it: %v", resp.TypeName, err)
		}
	}
}

// lookups makes, through the SDK, the objects the lookups find.
type lookups struct {
	t  *testing.T
	ws *admin.Workspace
}

// lookupFake is a fake seeded with the demo workspace that the provider
// uses, and what makes objects in it.
func lookupFake(t *testing.T) (*workflowtest.Server, lookups) {
	acc(t)
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	useFake(t, srv)
	return srv, lookups{t, admin.New(srv.Client())}
}

// must returns the result of a call that makes an object, ending the test
// when it failed.
func must[T any](t *testing.T) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func (l lookups) table(name, handle string) *admin.Table {
	return must[*admin.Table](l.t)(l.ws.Tables.Create(l.t.Context(), admin.TableCreateRequest{Name: name, Handle: handle, Source: sourceID,
		CategoryID: categoryID, Fields: []admin.TableFieldInput{{Calculation: &admin.TableCalculationField{Name: new("A"), Text: new("1")}}}}))
}

func (l lookups) agent(name string) *admin.Agent {
	return must[*admin.Agent](l.t)(l.ws.Agents.Create(l.t.Context(), "crm-accounts",
		admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{Name: new(name)}}}))
}

func (l lookups) skill(name string) *admin.Skill {
	return must[*admin.Skill](l.t)(l.ws.Skills.Create(l.t.Context(), "crm-accounts",
		admin.SkillBundle{Skill: admin.SkillSettings{Name: new(name), Status: new(admin.SkillActive)}}))
}

func (l lookups) element(name, namespace string) *admin.Aspect {
	return must[*admin.Aspect](l.t)(l.ws.Elements.Create(l.t.Context(), admin.NewElement{Name: name, CategoryID: testCategory,
		Namespace: new(namespace)}))
}

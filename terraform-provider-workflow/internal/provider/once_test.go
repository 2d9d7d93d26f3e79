package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// The tests of this file drive the CLI by hand (newTofu) against fakes in
// the document-only reply mode or today's, as WORKFLOWTEST_REPLIES says:
// creates that happen once, destroys that say what they do, a plan that
// fails once and fast on bad settings, apps imported by id, and a run
// under faults that converges.

// useFake points the provider, served in this process, at srv through
// the environment, as the examples' empty provider blocks expect.
func useFake(t *testing.T, srv *workflowtest.Server) {
	t.Helper()
	id, secret := srv.Credentials()
	t.Setenv("WORKFLOW_CLIENT_ID", id)
	t.Setenv("WORKFLOW_CLIENT_SECRET", secret)
	t.Setenv("WORKFLOW_BASE_URL", srv.BaseURL())
	t.Setenv("WORKFLOW_AUTH_URL", srv.AuthURL())
}

// requireTF is the configuration's provider requirement.
var requireTF = fmt.Sprintf("terraform {\n  required_providers {\n    workflow = { source = %q }\n  }\n}\n\nprovider \"workflow\" {}\n", Address)

// objects is what a fake holds of the families the provider can list, as
// "type key" to ids: a key with two ids is a duplicate.
func objects(t *testing.T, srv *workflowtest.Server, apps ...string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	add := func(typ, key, id string) { out[typ+" "+key] = append(out[typ+" "+key], id) }
	for _, u := range srv.Users() {
		add("workflow_user", u.Email, u.ID)
	}
	ctx := t.Context()
	c := srv.Client()
	ws := admin.New(c)
	for g, err := range c.Groups.All(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		add("workflow_group", g.Name, g.ID)
	}
	for tb, err := range ws.Tables.All(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		add("workflow_table", tb.Handle.Value(), tb.ID.Value())
		for _, j := range tb.Joins.Value() {
			src, _ := j.Source.Get()
			add("workflow_table_join", tb.ID.Value()+" "+src.ID.Value(), j.ID.Value())
		}
	}
	for _, d := range srv.OrganizationDomains() {
		add("workflow_organization_domain", d.Domain, d.ID)
	}
	for _, app := range apps {
		for _, v := range srv.Views(app) {
			add("workflow_view", app+" "+v.Handle, v.ID)
		}
		for _, raw := range srv.Automations(workflow.Apps, app) {
			a := admin.Automation(raw)
			add("workflow_automation", app+" "+a.Name(), a.ID())
		}
		for a, err := range ws.Agents.All(ctx, app, nil) {
			if errors.Is(err, workflow.ErrNotFound) {
				break // the app is not made yet
			}
			if err != nil {
				t.Fatal(err)
			}
			add("workflow_agent", app+" "+a.Name.Value(), a.ID.Value())
		}
		for k, err := range ws.Skills.All(ctx, app, nil) {
			if errors.Is(err, workflow.ErrNotFound) {
				break // the app is not made yet
			}
			if err != nil {
				t.Fatal(err)
			}
			add("workflow_skill", app+" "+k.Name.Value(), k.ID.Value())
		}
	}
	return out
}

// stateIDs returns the ids of the resources of the CLI's state, by type.
func (c *tofu) stateIDs() map[string][]string {
	c.t.Helper()
	ids := map[string][]string{}
	for _, r := range c.resources() {
		ids[r.Type] = append(ids[r.Type], fmt.Sprint(r.Values["id"]))
	}
	return ids
}

// exactlyOnce fails t when after, the fake's objects, holds a key twice,
// or an object that before did not hold and no state names.
func exactlyOnce(t *testing.T, before, after map[string][]string, states ...map[string][]string) {
	t.Helper()
	managed := map[string]bool{}
	for _, st := range states {
		for typ, ids := range st {
			for _, id := range ids {
				managed[typ+" "+id] = true
			}
		}
	}
	for key, ids := range after {
		if len(ids) > 1 {
			t.Errorf("duplicate: %s has %d objects %v", key, len(ids), ids)
		}
		typ, _, _ := strings.Cut(key, " ")
		for _, id := range ids {
			if !slices.Contains(before[key], id) && !managed[typ+" "+id] {
				t.Errorf("outside the state: %s (%s)", key, id)
			}
		}
	}
}

// example returns the configuration of the example name and the variables
// it needs.
func example(t *testing.T, name string) (string, []string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("../../examples", name, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	var vars []string
	if strings.Contains(string(src), `variable "category_id"`) {
		vars = append(vars, "-var=category_id="+testCategory)
	}
	return string(src), vars
}

// TestAccFaultRun applies the provider's three examples to a fake that
// answers 5% of API requests 429, 5% 503, and drops the answer of 5% of
// writes after doing them, for ten seeds: each example converges within
// two applies (the second apply and the plan after it succeed), with no
// duplicate and nothing outside the state.
//
// The 503s and lost answers hit every operation but the creates of the
// families the API cannot look up by what the configuration says (apps,
// flows, search tables, organisation domains: no list, no get by name):
// after such a create's unknown outcome nothing can tell whether the
// object was made, so the provider fails the apply saying so (blind)
// instead of risking a second one; TestAccUnknownOutcomeOfABlindCreate
// tests that. Those creates still meet the 429s.
func TestAccFaultRun(t *testing.T) {
	acc(t)
	lookedUp := []string{"createUser", "createGroup", "updateGroup", "addUsersToGroup", "removeUsersFromGroup", "deactivateUser",
		"createTable", "updateTable", "deleteTable", "createTableJoin", "updateTableJoin", "deleteTableJoin",
		"createTableJoinMapping", "updateTableJoinMapping", "deleteTableJoinMapping", "createView", "updateView",
		"createAgent", "updateAgent", "createSkill", "updateSkill", "createAutomation", "updateAutomation", "deleteAutomation",
		"validateAutomation", "createElement", "updateElement", "addDomainsToGroup", "removeDomainsFromGroup",
		"updateApp", "updateFlow", "updateSearchTable", "updateOrganizationDomain"}
	total := map[string]int{}
	for seed := uint64(1); seed <= 10; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			srv := workflowtest.Start(t, workflowtest.WithSeed(seed))
			srv.SeedDemo()
			useFake(t, srv)
			before := objects(t, srv, "crm-accounts", "crm-deals")
			srv.Inject(workflowtest.Fault{Route: "/v1/**", Probability: 0.05, Status: 429})
			srv.Inject(workflowtest.Fault{Route: "GET /v1/**", Probability: 0.05 / 0.95, Status: 503})
			for _, o := range lookedUp {
				srv.Inject(workflowtest.Fault{Operation: o, Probability: 0.05 / 0.95, Status: 503})
				srv.Inject(workflowtest.Fault{Operation: o, Probability: 0.05 / 0.90, DropAfter: true})
			}
			var states []map[string][]string
			for _, name := range []string{"people", "app", "catalog"} {
				src, vars := example(t, name)
				cli := newTofu(t)
				cli.write("main.tf", src)
				cli.run([]string{"init"})
				first, status := cli.run(append([]string{"apply", "-auto-approve", "-no-color"}, vars...), 0, 1)
				if status != 0 {
					t.Logf("%s: the first apply failed (the second must converge):\n%s", name, tail(first, 40))
				}
				if out, status := cli.run(append([]string{"apply", "-auto-approve", "-no-color"}, vars...), 0, 1); status != 0 {
					t.Fatalf("%s: the second apply failed:\n%s", name, out)
				}
				if out, status := cli.run(append([]string{"plan", "-detailed-exitcode", "-no-color"}, vars...), 0, 1, 2); status != 0 {
					t.Fatalf("%s: the plan after the second apply exits %d:\n%s", name, status, out)
				}
				states = append(states, cli.stateIDs())
			}
			srv.ClearFaults()
			exactlyOnce(t, before, objects(t, srv, "crm-accounts", "crm-deals"), states...)
			faults, requests := 0, 0
			for _, rq := range srv.Requests() {
				requests++
				if rq.Fault {
					faults++
				}
			}
			total["requests"] += requests
			total["faults"] += faults
			t.Logf("seed %d: %d requests, %d of them faults", seed, requests, faults)
		})
	}
	t.Logf("10 seeds: %d requests, %d faults", total["requests"], total["faults"])
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// lookupConfig is a configuration of every family the API can look up by
// a natural key, in the demo app crm-accounts: what adoption and the
// destroy-then-apply cycle are tested on.
const lookupConfig = `
resource "workflow_group" "ops" {
  name       = "Ops"
  assignable = true
}

resource "workflow_table" "regions" {
  name        = "Regions"
  handle      = "region"
  source      = "00000000-0000-4000-8000-0000000000a1"
  category_id = "00000000-0000-4000-8000-0000000000c1"
  fields      = [{ name = "Code", kind = "cloud", column_name = "CODE", column_type = "TEXT" }]
}

resource "workflow_table" "accounts" {
  name        = "Accounts"
  handle      = "acct"
  source      = "00000000-0000-4000-8000-0000000000a1"
  category_id = "00000000-0000-4000-8000-0000000000c1"
  fields      = [{ name = "Region", kind = "cloud", column_name = "REGION", column_type = "TEXT" }]
}

resource "workflow_table_join" "region" {
  table_id = workflow_table.accounts.id
  source   = workflow_table.regions.id
  type     = "LEFT"
  on       = [{ left_field_id = workflow_table.accounts.fields[0].id, right_field_id = workflow_table.regions.fields[0].id }]
}

resource "workflow_view" "open" {
  app    = "crm-accounts"
  handle = "open-accounts"
  type   = "list"
  name   = "Open accounts"
  rows   = 50
}

resource "workflow_automation" "welcome" {
  record_type = "apps"
  alias       = "crm-accounts"
  workflow    = jsonencode({ name = "Welcome", triggers = [{ type = "RECORD_CREATED" }] })
}

resource "workflow_agent" "helper" {
  app          = "crm-accounts"
  name         = "Helper"
  temperature  = 0
  instructions = "Answer briefly."
}

resource "workflow_skill" "triage" {
  app          = "crm-accounts"
  name         = "Triage"
  status       = "ACTIVE"
  instructions = "Sort."
}

resource "workflow_element" "widgets" {
  name        = "Widgets"
  category_id = "c0000000-0000-4000-8000-000000000001"
  namespace   = "widgets"
}
`

// TestAccDestroyThenApply: an ephemeral environment's cycle. The destroy's
// plan says, object by object, what is only forgotten; the apply after
// the destroy adopts what was forgotten and creates what was deleted,
// exits 0, and the plan after it is empty: no duplicate.
func TestAccDestroyThenApply(t *testing.T) {
	acc(t)
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	useFake(t, srv)
	before := objects(t, srv, "crm-accounts")
	cli := newTofu(t)
	cli.write("main.tf", requireTF+lookupConfig)
	cli.run([]string{"init"})
	cli.run([]string{"apply", "-auto-approve"})

	plan, _ := cli.run([]string{"plan", "-destroy", "-no-color"})
	for _, want := range []string{"Destroying the group Ops removes it from the state", "Destroying the view open-accounts of the app crm-accounts removes it from the state",
		"Destroying the agent Helper of the app crm-accounts removes it from the state",
		"Destroying the skill Triage of the app crm-accounts removes it from the state",
		"Destroying the element widgets removes it from the state"} {
		if !strings.Contains(strings.Join(strings.Fields(plan), " "), want) {
			t.Errorf("the destroy's plan does not say %q:\n%s", want, plan)
		}
	}
	cli.run([]string{"destroy", "-auto-approve"})
	out, _ := cli.run([]string{"apply", "-auto-approve", "-no-color"})
	for _, want := range []string{`Adopted the existing view "open-accounts"`, `Adopted the existing agent "Helper"`,
		`Adopted the existing skill "Triage"`, `Adopted the existing group "Ops"`, `Adopted the existing element "widgets"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply after the destroy does not say %q:\n%s", want, out)
		}
	}
	if out, _ := cli.run([]string{"plan", "-detailed-exitcode"}); !strings.Contains(out, "No changes") {
		t.Fatalf("the apply after the destroy did not converge:\n%s", out)
	}
	exactlyOnce(t, before, objects(t, srv, "crm-accounts"), cli.stateIDs())
}

// TestAccAdoptsWhatExists: objects made outside the state (by hand, or by
// an apply whose answer was lost) are adopted by their natural key, the
// configuration written over them, never created twice; and a create
// whose answer is lost is looked up before anything is sent again.
func TestAccAdoptsWhatExists(t *testing.T) {
	acc(t)
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	useFake(t, srv)
	ws := admin.New(srv.Client())
	ctx := t.Context()
	before := objects(t, srv, "crm-accounts")
	// made by hand, with other values than the configuration's
	srv.AddGroup("Ops")
	srv.AddView("crm-accounts", "open-accounts", "list", map[string]any{"name": "Made by hand"})
	if _, err := ws.Agents.Create(ctx, "crm-accounts", admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{
		Name: new("Helper"), Instructions: new("Old")}}}); err != nil {
		t.Fatal(err)
	}
	// the answers of the first create of a skill and of a table are lost
	srv.Inject(workflowtest.Fault{Operation: "createSkill", Count: 1, DropAfter: true})
	srv.Inject(workflowtest.Fault{Operation: "createTable", Count: 1, Status: 503})
	handMade := objects(t, srv, "crm-accounts")

	cli := newTofu(t)
	cli.write("main.tf", requireTF+lookupConfig)
	cli.run([]string{"init"})
	out, _ := cli.run([]string{"apply", "-auto-approve", "-no-color"})
	for _, want := range []string{`Adopted the existing group "Ops"`, `Adopted the existing view "open-accounts"`,
		`Adopted the existing agent "Helper"`, `Adopted the existing skill "Triage"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `Adopted the existing table`) {
		t.Errorf("a table refused with 503 was adopted, not created again:\n%s", out)
	}
	if out, _ := cli.run([]string{"plan", "-detailed-exitcode"}); !strings.Contains(out, "No changes") {
		t.Fatalf("the adopted objects plan changes:\n%s", out)
	}
	if name := cli.state("workflow_view.open", "name"); name != "Open accounts" {
		t.Errorf("the adopted view's name is %q: the configuration was not written over it", name)
	}
	for _, key := range []string{"workflow_group Ops", "workflow_view crm-accounts open-accounts", "workflow_agent crm-accounts Helper"} {
		if len(handMade[key]) != 1 {
			t.Fatalf("the hand-made %s is missing: %v", key, handMade[key])
		}
	}
	exactlyOnce(t, before, objects(t, srv, "crm-accounts"), cli.stateIDs())
}

// TestAccUnknownOutcomeOfABlindCreate: a family the API cannot look up
// (a flow) is not created again after a create whose answer was lost:
// the apply fails, saying that the flow may exist and how to import it.
func TestAccUnknownOutcomeOfABlindCreate(t *testing.T) {
	acc(t)
	srv := workflowtest.Start(t)
	useFake(t, srv)
	srv.Inject(workflowtest.Fault{Operation: "createFlow", Count: 1, DropAfter: true})
	cli := newTofu(t)
	cli.write("main.tf", requireTF+`
resource "workflow_flow" "nightly" {
  definition = jsonencode({ name = "Nightly" })
}
`)
	cli.run([]string{"init"})
	out, _ := cli.run([]string{"apply", "-auto-approve", "-no-color"}, 1)
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "The outcome of the create is unknown: the flow may have been made") ||
		!strings.Contains(flat, "import it") {
		t.Fatalf("the failed apply does not explain the unknown outcome:\n%s", out)
	}
	n := 0
	for _, rq := range srv.Requests() {
		if rq.Operation == "createFlow" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the flow's create was sent %d times, want once", n)
	}
}

// TestAccImportApp: an app (and an organisation domain) made outside the
// state is imported by its id; its definition, which no read returns, is
// written by the next apply.
func TestAccImportApp(t *testing.T) {
	acc(t)
	srv := workflowtest.Start(t)
	useFake(t, srv)
	ws := admin.New(srv.Client())
	answer, err := ws.Apps.Compose(t.Context(), []byte(`{"namespace":"crm-deals","name":"Deals (old)"}`))
	if err != nil {
		t.Fatal(err)
	}
	domain, err := ws.Domains.Create(t.Context(), admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("mail.example.com")}})
	if err != nil {
		t.Fatal(err)
	}
	var app struct{ ID string }
	if err := json.Unmarshal(answer, &app); err != nil {
		t.Fatal(err)
	}
	cli := newTofu(t)
	cli.write("main.tf", requireTF+fmt.Sprintf(`
import {
  to = workflow_app.deals
  id = %q
}

resource "workflow_app" "deals" {
  definition = jsonencode({ namespace = "crm-deals", name = "Deals" })
}

import {
  to = workflow_organization_domain.mail
  id = %q
}

resource "workflow_organization_domain" "mail" {
  type   = "EMAIL"
  domain = "mail.example.com"
}
`, app.ID, domain.ID.Value()))
	cli.run([]string{"init"})
	want := map[string][]string{"workflow_app.deals": {"[update]", "alias", "definition"},
		"workflow_organization_domain.mail": {"[update]", "domain", "type"}}
	if got := cli.planChanges(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the import plans %v, want %v", got, want)
	}
	cli.run([]string{"apply", "-auto-approve"})
	if id := cli.state("workflow_app.deals", "id"); id != app.ID {
		t.Fatalf("the imported app's id is %q, want %q", id, app.ID)
	}
	if alias := cli.state("workflow_app.deals", "alias"); alias != "crm-deals" {
		t.Fatalf("the imported app's alias is %q", alias)
	}
	cli.run([]string{"plan", "-detailed-exitcode"})
}

// TestAccFailsFast: a plan with a wrong secret or an endpoint that does
// not answer fails once, naming the setting, within 20 seconds, with and
// without a state.
func TestAccFailsFast(t *testing.T) {
	acc(t)
	refused, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + refused.Addr().String()
	refused.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0") // accepts, never answers
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	silentURL := "http://" + silent.Addr().String()

	tests := []struct {
		name, env, value, setting string
	}{
		{"a wrong secret", "WORKFLOW_CLIENT_SECRET", "wrong", "client_secret"},
		{"a refused endpoint", "WORKFLOW_AUTH_URL", closedURL, "auth_url"},
		{"a silent endpoint", "WORKFLOW_AUTH_URL", silentURL, "auth_url"},
		{"a base URL without /v1", "WORKFLOW_BASE_URL", "/nothing-here", "base_url"},
		{"a base URL that is not the API", "WORKFLOW_BASE_URL", "/elsewhere/v1", "base_url"},
	}
	for _, withState := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s, state %v", tt.name, withState), func(t *testing.T) {
				srv := workflowtest.Start(t)
				useFake(t, srv)
				cli := newTofu(t)
				cli.write("main.tf", requireTF+`
resource "workflow_group" "a" { name = "A" }
resource "workflow_group" "b" { name = "B" }
resource "workflow_group" "c" { name = "C" }
`)
				cli.run([]string{"init"})
				if withState {
					cli.run([]string{"apply", "-auto-approve"})
				}
				value := tt.value
				if tt.setting == "base_url" {
					value = srv.URL() + tt.value
				}
				t.Setenv(tt.env, value)
				start := time.Now()
				out, _ := cli.run([]string{"plan", "-no-color"}, 1)
				took := time.Since(start)
				t.Logf("failed in %v", took)
				if n := strings.Count(out, "Error: "); n != 1 {
					t.Errorf("the plan has %d errors, want one:\n%s", n, out)
				}
				if !strings.Contains(out, tt.setting) {
					t.Errorf("the error does not name %s:\n%s", tt.setting, out)
				}
				if strings.Contains(out, "wrong") && tt.value == "wrong" {
					t.Errorf("the error shows the secret:\n%s", out)
				}
				if took > 60*time.Second { // 20 s on a quiet machine; generous for a loaded one
					t.Errorf("the plan took %v to fail", took)
				}
			})
		}
	}
}

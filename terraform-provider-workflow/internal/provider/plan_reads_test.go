package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// workspaceOf is a configuration of n views, agents, skills, automations
// and tables of the demo app crm-accounts: 5n resources.
func workspaceOf(n int) string {
	var b strings.Builder
	b.WriteString(requireTF)
	for i := range n {
		fmt.Fprintf(&b, `
resource "workflow_view" "v%[1]d" {
  app    = "crm-accounts"
  handle = "view-%[1]d"
  type   = "list"
  name   = "View %[1]d"
}
resource "workflow_agent" "a%[1]d" {
  app         = "crm-accounts"
  name        = "Agent %[1]d"
  temperature = 0
}
resource "workflow_skill" "s%[1]d" {
  app    = "crm-accounts"
  name   = "Skill %[1]d"
  status = "ACTIVE"
}
resource "workflow_automation" "w%[1]d" {
  record_type = "apps"
  alias       = "crm-accounts"
  workflow    = jsonencode({ name = "Automation %[1]d", triggers = [{ type = "RECORD_CREATED" }] })
}
resource "workflow_table" "t%[1]d" {
  name        = "Table %[1]d"
  handle      = "t%[1]d"
  source      = "00000000-0000-4000-8000-0000000000a1"
  category_id = "00000000-0000-4000-8000-0000000000c1"
  fields      = [{ name = "A", kind = "calculation", text = "1" }]
}
`, i)
	}
	return b.String()
}

// planReads applies a workspace of 5n resources, then plans it again and
// returns how many requests of each operation the plan sent, and the
// plan's time.
func planReads(t *testing.T, n int) (map[string]int, time.Duration) {
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	useFake(t, srv)
	cli := newTofu(t)
	cli.write("main.tf", workspaceOf(n))
	cli.run([]string{"init"})
	cli.run([]string{"apply", "-auto-approve", "-parallelism=10"})
	srv.ResetRequests()
	start := time.Now()
	if out, _ := cli.run([]string{"plan", "-detailed-exitcode"}); !strings.Contains(out, "No changes") {
		t.Fatalf("the applied workspace plans changes:\n%s", out)
	}
	took := time.Since(start)
	reads := map[string]int{}
	for _, rq := range srv.Requests() {
		reads[rq.Operation]++
	}
	return reads, took
}

// TestAccPlanReadsEachListOnce: a plan reads each object the API reads by
// get once, each list the API reads agents and skills through once (its
// pages), validates no unchanged automation, and adds only the token and
// the settings' check: never a list per resource.
func TestAccPlanReadsEachListOnce(t *testing.T) {
	acc(t)
	const n = 30 // 150 resources; the agents' and skills' lists are one page each
	reads, took := planReads(t, n)
	t.Logf("a plan of %d resources: %v, %d requests: %v", 5*n, took, total(reads), reads)
	want := map[string]int{"getView": n, "getAutomation": n, "getTable": n, "listAgents": 1, "listSkills": 1,
		"requestAccessToken": 1, "listUsers": 1}
	for op, w := range want {
		if reads[op] != w {
			t.Errorf("%s: %d requests, want %d", op, reads[op], w)
		}
	}
	if got, bound := total(reads), 3*n+2+2; got > bound {
		t.Errorf("%d requests, want at most the %d reads by get, the 2 lists' pages, the token and the settings' check (%d)", got, 3*n, bound)
	}
}

// total is the number of requests of reads.
func total(reads map[string]int) int {
	n := 0
	for _, c := range reads {
		n += c
	}
	return n
}

// TestAccPlan1000 plans a workspace of 1,000 resources (200 each of
// views, agents, skills, automations and tables) on the fake, and reports
// the requests and the time (BENCHMARKS.md). It runs with
// WORKFLOW_PLAN_1000=1 only: the apply that makes the workspace takes
// minutes on a busy machine.
func TestAccPlan1000(t *testing.T) {
	acc(t)
	if os.Getenv("WORKFLOW_PLAN_1000") == "" {
		t.Skip("set WORKFLOW_PLAN_1000=1 to plan 1,000 resources")
	}
	reads, took := planReads(t, 200)
	t.Logf("a plan of 1000 resources: %v, %d requests: %v", took, total(reads), reads)
	if got, bound := total(reads), 600+2*2+2; got > bound {
		t.Errorf("%d requests, want at most %d", got, bound)
	}
}

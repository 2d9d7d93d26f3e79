package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
	"github.com/seed-a15e58aa/workflow-go/internal/exampletest"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

var update = flag.Bool("update", false, "rewrite testdata/tour.golden with the tour's output")

// check checks every exchange with the fake against the service's
// published contract.
var check *contract.FakeCheck

func TestMain(m *testing.M) {
	exampletest.RunMain(main) // for TestHelp
	check = contract.CheckFakes()
	goleak.VerifyTestMain(m, goleak.Cleanup(check.Exit))
}

// TestHelp checks -h exits with status 0 and a bad flag does not.
func TestHelp(t *testing.T) { exampletest.CheckHelp(t, "write") }

// clearEnv makes sure no WORKFLOW_* variable of the machine leaks into a
// test.
func clearEnv(t *testing.T) {
	for _, k := range envVars {
		t.Setenv(k, "")
	}
}

func TestTourOnFake(t *testing.T) {
	clearEnv(t)
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(t.Context(), nil, &stdout, &stderr))
	out := stdout.String()
	assert.Empty(t, stderr.String())

	golden := filepath.Join("testdata", "tour.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, stdout.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), out, "the tour's output changed; if on purpose, run go test -run TestTourOnFake -update")

	// Each step, and what shows that it worked.
	steps := []struct{ heading, proof string }{
		{"== 1. Access token", "tasks/it-requests holds 1000 records; token requests so far: 1"},
		{"== 2. Define a record type and create records", "created tasks/office-moves/1172: Move Chen's desk, room 3.02"},
		{"== 3. Typed records", `CreateAs: request 1173 "Replace the toner of printer 3F" (Open, priority 2, due 2025-03-03)`},
		{"== 3. Typed records", "AllAs: 50 waiting requests of priority 5"},
		{"== 4. Search with an RSQL filter", "filter: Status==Open;Priority=ge=4;Due Date=lt=2025-02-01T00:00:00.000Z"},
		{"== 4. Search with an RSQL filter", "9 matching records; the first 3:"},
		{"== 5. Iterate pages both ways", "1001 records in 5 pages, ids 1 .. 1173"},
		{"== 5. Iterate pages both ways", "resumed with After: <cursor of the 2nd>: 3, 4, 5"},
		{"== 5. Iterate pages both ways", "backward, 3 a page (Last: 3), from the end: 1173, 1000, 999"},
		{"== 6. Update a record", "request 1173: Status Open -> In Progress"},
		{"== 7. Related items", "request 1173 relates to elements/parts/1027"},
		{"== 8. Upload a file and wait for processing", "uploaded notes.txt (69 bytes, text/plain): PROCESSING"},
		{"== 8. Upload a file and wait for processing", "after WaitProcessed: VALID"},
		{"== 8. Upload a file and wait for processing", `downloaded notes.txt (application/octet-stream, 69 bytes): "Printer 3F: toner cartridge TN-421, ordered from the usual supplier.\n"`},
		{"== 9. Watchers", "watching request 1173: Bruno Berg <bruno.berg@example.com>"},
		{"== 10. Comments", "comment by admin@example.com (API): Toner ordered, it arrives on Tuesday."},
		{"== 11. Users and groups", "created user 00000000-0000-4000-8000-000000000007 grace.hopper@example.com (status ACTIVE, active: true)"},
		{"== 11. Users and groups", "00000000-0000-4000-8000-000000000007 Grace Hopper"},
		{"== 12. A handled error", "errors.Is(err, workflow.ErrNotFound) is true"},
		{"== 12. A handled error", `status 404, message: no record with id "999999" in tasks/it-requests`},
	}
	for _, s := range steps {
		section := sectionOf(out, s.heading)
		require.NotEmpty(t, section, "missing step %q", s.heading)
		assert.Contains(t, section, s.proof, "step %q", s.heading)
	}
	assert.True(t, strings.HasPrefix(out, "No WORKFLOW_* variables set: running on an embedded fake server"), "the first line says where the tour runs")
	assert.Contains(t, out, "1 token request(s).")
}

// sectionOf returns the text of the step that starts with heading, up to
// the next step.
func sectionOf(out, heading string) string {
	_, rest, ok := strings.Cut(out, heading+"\n")
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "\n== "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

func TestTourVerboseLogsRequestsWithoutSecrets(t *testing.T) {
	clearEnv(t)
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-v"}, &stdout, &stderr))
	logs := stderr.String()
	assert.Contains(t, logs, "workflow: request")
	assert.Contains(t, logs, "route=/{recordType}/{alias}")
	assert.NotContains(t, logs, workflowtest.DefaultClientSecret)
	assert.NotContains(t, logs, "Bearer")
}

func TestAccountTourReadsOnly(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	exampletest.UseAccount(t, check, srv)

	var stdout, stderr bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-type", "tasks", "-alias", "it-requests"}, &stdout, &stderr))
	out := stdout.String()
	assert.Contains(t, out, "Using the account of WORKFLOW_CLIENT_ID at "+os.Getenv(workflow.EnvBaseURL)+"/ (read-only")
	assert.Contains(t, out, "tasks/it-requests holds 1000 records; token requests so far: 1")
	assert.Contains(t, sectionOf(out, "== 2. Search with an RSQL filter"), "filter: Assignee==alice.anders@example.com")
	assert.Contains(t, sectionOf(out, "== 3. Iterate pages both ways"), "backward, 3 a page (Last: 3), from the end: 1000, 999, 998")
	assert.Contains(t, out, "record 1: 2 related items, 1 attachments, 3 watchers, 1 comments")
	assert.Contains(t, out, `group 10000000-0000-4000-8000-000000000001 "IT Support": 3 members`)
	assert.Contains(t, out, "errors.Is(err, workflow.ErrNotFound) is true")
	assert.NotContains(t, out, "Create a record")

	for _, r := range srv.Requests() {
		if r.Path == "/oauth/token" {
			continue
		}
		assert.Equal(t, "GET", r.Method, "the read-only tour sent %s %s", r.Method, r.Path)
	}
	assert.Len(t, srv.Records(workflow.Tasks, workflowtest.DemoTasks), 1000)
}

func TestAccountTourWrites(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	exampletest.UseAccount(t, check, srv)

	var stdout, stderr bytes.Buffer
	args := []string{"-alias", "it-requests", "-write", "-field", "Title=From the quickstart", "-field", "Status=Open"}
	require.NoError(t, run(t.Context(), args, &stdout, &stderr))
	out := stdout.String()
	assert.Contains(t, out, "created tasks/it-requests/1171")
	assert.Contains(t, out, "comment by admin@example.com (API): Created by the workflow-go quickstart.")
	assert.Contains(t, out, "after WaitProcessed: VALID")

	rec, ok := srv.Record(workflow.Tasks, workflowtest.DemoTasks, "1171")
	require.True(t, ok)
	assert.Equal(t, "From the quickstart", rec["Title"])
	assert.Equal(t, "Open", rec["Status"])
	assert.Equal(t, []string{"Created by the workflow-go quickstart."}, srv.Comments(workflow.Tasks, workflowtest.DemoTasks, "1171"))
	atts := srv.Attachments(workflow.Tasks, workflowtest.DemoTasks, "1171")
	require.Len(t, atts, 1)
	assert.Equal(t, "notes.txt", atts[0].Name)
	assert.Equal(t, workflowtest.StateValid, atts[0].State)
}

func TestFlagErrors(t *testing.T) {
	srv := workflowtest.Start(t)
	tests := []struct {
		name    string
		account bool
		args    []string
		want    string
	}{
		{"write on the fake", false, []string{"-write"}, "-write and -field are for the account tour"},
		{"write without fields", true, []string{"-write"}, "-write needs the fields"},
		{"fields without write", true, []string{"-field", "Title=x"}, "-field is used only with -write"},
		{"field without value", true, []string{"-write", "-field", "Title"}, "want Name=Value"},
		{"bad record type", true, []string{"-type", "cases"}, `-type "cases"`},
		{"extra argument", false, []string{"now"}, "unexpected arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clearEnv(t)
			if tt.account {
				exampletest.UseAccount(t, check, srv)
			}
			var stdout, stderr bytes.Buffer
			err := run(t.Context(), tt.args, &stdout, &stderr)
			require.Error(t, err)
			assert.Contains(t, err.Error()+stderr.String(), tt.want)
			assert.Empty(t, stdout.String(), "nothing runs after a usage error")
		})
	}
	assert.Empty(t, srv.Requests(), "no request after a usage error")
}

func TestAccountTourNeedsTheSecret(t *testing.T) {
	clearEnv(t)
	t.Setenv(workflow.EnvClientID, "someone")
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), nil, &stdout, &stderr)
	var ve *workflow.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Contains(t, err.Error(), workflow.EnvClientSecret)
}

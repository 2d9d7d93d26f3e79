package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
	"github.com/seed-a15e58aa/workflow-go/internal/exampletest"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestMain(m *testing.M) {
	exampletest.RunMain(main) // for TestHelp
	check := contract.CheckFakes()
	goleak.VerifyTestMain(m, goleak.Cleanup(check.Exit))
}

// TestHelp checks -h exits with status 0 and a bad flag does not.
func TestHelp(t *testing.T) { exampletest.CheckHelp(t, "fake") }

// dryRun is the plan between the fakes: automations, then views, each in
// the source's order.
const dryRun = `= leave   automation "Welcome new accounts"
~ update  automation "Flag gold accounts"
+ create  automation "Archive closed accounts"
= leave   view all-accounts
~ update  view gold-accounts
+ create  view by-tier
dry run: 2 to create, 2 to update, 2 to leave; run again with -apply to make these changes
`

// TestSample runs the command of the package documentation as written.
func TestSample(t *testing.T) {
	t.Chdir("../..")
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-fake", "-app", "crm-accounts"}, &stdout, &stderr))
	assert.Equal(t, dryRun, stdout.String())
	assert.Empty(t, stderr.String())
}

// TestNoAccountRunsOnFakes: without credentials, promote says so and runs
// between the fakes.
func TestNoAccountRunsOnFakes(t *testing.T) {
	t.Setenv(workflow.EnvClientID, "")
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-app", "crm-accounts"}, &stdout, &stderr))
	assert.Equal(t, dryRun, stdout.String())
	assert.Contains(t, stderr.String(), "two embedded fakes")
}

// TestApply promotes between two checked fakes, then finds nothing left
// to do.
func TestApply(t *testing.T) {
	ctx := t.Context()
	staging, production := workflowtest.Start(t), workflowtest.Start(t)
	staging.SeedDemo()
	production.AddView(workflowtest.DemoApps, "gold-accounts", "kanban", map[string]any{"name": "Old"})
	p := promotion{src: admin.New(staging.Client()), dst: admin.New(production.Client()), rt: workflow.Apps, app: workflowtest.DemoApps}
	var out bytes.Buffer
	p.out = &out
	require.NoError(t, p.run(ctx, true))
	assert.Contains(t, out.String(), "applied: 5 created, 1 updated, 0 left as they were")
	assert.Len(t, production.Automations(workflow.Apps, workflowtest.DemoApps), 3)
	views := production.Views(workflowtest.DemoApps)
	require.Len(t, views, 3)
	assert.Equal(t, "AspectViewList", views[0].Type, "the changed view was updated")

	out.Reset()
	p.counts = [3]int{}
	require.NoError(t, p.run(ctx, false))
	assert.Contains(t, out.String(), "dry run: 0 to create, 0 to update, 6 to leave")
	assert.Equal(t, 3, len(production.Automations(workflow.Apps, workflowtest.DemoApps)), "a dry run changes nothing")
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{{"-fake"}, {"-fake", "-app", "x", "extra"}} {
		assert.Error(t, run(t.Context(), args, &bytes.Buffer{}, &bytes.Buffer{}))
	}
	var out bytes.Buffer
	err := run(t.Context(), []string{"-fake", "-app", "nope"}, &out, &bytes.Buffer{})
	assert.ErrorIs(t, err, workflow.ErrNotFound, "an app the source does not have")
}

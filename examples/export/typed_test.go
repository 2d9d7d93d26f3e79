package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/exampletest"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestTypedExportResumesAfterABadRecord(t *testing.T) {
	srv := workflowtest.Start(t)
	recs := make([]workflow.Record, 20)
	for i := range recs {
		recs[i] = workflow.Record{"Title": "task " + strconv.Itoa(i+1), "Status": "Open", "Priority": strconv.Itoa(i%5 + 1), "Team": "ops"}
	}
	recs[6]["Priority"] = "high" // record 7 does not decode into Task
	ids := srv.Seed(workflow.Tasks, "typed", recs...)
	exampletest.UseAccount(t, check, srv)
	dir := t.TempDir()
	out, statePath := filepath.Join(dir, "tasks.jsonl"), filepath.Join(dir, "state.json")
	args := []string{"-alias", "typed", "-typed", "-page-size", "5", "-out", out, "-state", statePath, "-quiet"}

	_, _, err := export(t, t.Context(), args...)
	var de *workflow.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "Priority", de.Field)
	st := readState(t, statePath)
	assert.EqualValues(t, 6, st.Done, "the records before the bad one are saved")
	assert.True(t, st.Typed)

	// Fix the record, then resume from the saved cursor.
	_, err = srv.Client().Records.Update(t.Context(), workflow.Tasks, "typed", ids[6], workflow.Record{"Priority": "2"})
	require.NoError(t, err)
	_, _, err = export(t, t.Context(), append(args, "-resume")...)
	require.NoError(t, err)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, seq(20), jsonlIDs(t, string(b)), "every record exactly once")
	assert.Contains(t, string(b), `"Team":"ops"`, "fields the struct does not name are kept")

	// -resume of a typed export needs -typed.
	_, _, err = export(t, t.Context(), "-alias", "typed", "-page-size", "5", "-out", out, "-state", statePath, "-quiet", "-resume")
	assert.ErrorContains(t, err, "-typed")
}

package main

import (
	"bytes"
	"fmt"
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

// check checks every exchange with the fake against the service's
// published contract.
var check *contract.FakeCheck

func TestMain(m *testing.M) {
	exampletest.RunMain(main) // for TestHelp
	check = contract.CheckFakes()
	goleak.VerifyTestMain(m, goleak.Cleanup(check.Exit))
}

// TestHelp checks -h exits with status 0 and a bad flag does not.
func TestHelp(t *testing.T) { exampletest.CheckHelp(t, "fake") }

const sample = "testdata/customers.csv"

func writeCSV(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.csv")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

func TestDryRunOnFake(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run(t.Context(), []string{"-fake", "-csv", sample}, &out, &errOut)
	require.EqualError(t, err, "2 of 7 rows failed")
	s := out.String()
	for _, want := range []string{
		"line 3  update  alan@example.com (2): Plan\n",
		"line 5  create  linus@example.com\n",
		"line 7  create  margaret@example.com\n",
		"line 6  FAILED  : workflow: invalid Email: must not be empty",
		`line 8  FAILED  ada@example.com: workflow: invalid Email: must be unique in the input: line 2 has the same key`,
		"dry run   rows", "created      2", "updated      1", "unchanged      2", "failed      2", "total      7",
		"nothing was written; run again with -apply",
	} {
		assert.Contains(t, s, want)
	}
	assert.NotContains(t, s, "same    ", "unchanged rows are printed with -v only")
}

// The rows are printed in input order, with one numbering (their line in
// the file, which the output's first line says), though the sync reports
// them in the order their outcomes become known.
func TestRowsInInputOrderWithOneNumbering(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Error(t, run(t.Context(), []string{"-fake", "-v", "-csv", sample}, &out, &errOut))
	lines := strings.Split(out.String(), "\n")
	assert.Equal(t, sample+", in row order; line 1 is the header:", lines[0])
	var numbers []int
	for _, l := range lines[1:] {
		var n int
		if _, err := fmt.Sscanf(l, "line %d ", &n); err == nil {
			numbers = append(numbers, n)
		}
	}
	assert.Equal(t, []int{2, 3, 4, 5, 6, 7, 8}, numbers)
	assert.NotContains(t, out.String(), "records[", "no second numbering from 0")
}

func TestApplyOnAccount(t *testing.T) {
	srv := workflowtest.Start(t)
	seedFake(srv)
	exampletest.UseAccount(t, check, srv)
	path := writeCSV(t, "Email,Plan\nada@example.com,enterprise\nnew@example.com,basic\ngrace@example.com,pro\n")
	var out, errOut bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-csv", path, "-apply", "-v"}, &out, &errOut))
	s := out.String()
	assert.Contains(t, s, "line 2  updated ada@example.com (1): Plan\n")
	assert.Contains(t, s, "line 3  created new@example.com (5)\n")
	assert.Contains(t, s, "line 4  same    grace@example.com (3)\n")
	assert.NotContains(t, s, "nothing was written")

	recs := srv.Records(workflow.Apps, "customers")
	require.Len(t, recs, 5)
	assert.Equal(t, workflow.Record{"id": "1", "Email": "ada@example.com", "Name": "Ada Lovelace", "Plan": "enterprise"}, recs[0], "the Name column is absent: kept")
	assert.Equal(t, workflow.Record{"id": "5", "Email": "new@example.com", "Plan": "basic"}, recs[4])

	// Again: nothing to do, only look-ups.
	srv.ResetRequests()
	out.Reset()
	require.NoError(t, run(t.Context(), []string{"-csv", path, "-apply"}, &out, &errOut))
	assert.Contains(t, out.String(), "unchanged      3")
	for _, r := range srv.Requests() {
		assert.NotEqual(t, "POST /v1/{recordType}/{alias}", r.Route)
		assert.NotEqual(t, "PUT /v1/{recordType}/{alias}/{id}", r.Route)
	}
}

func TestBadCSV(t *testing.T) {
	for _, tc := range []struct {
		name, content, want string
	}{
		{"empty", "", "empty file"},
		{"unnamed column", "Email,,Plan\n", "column 2 of the header row has no name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(t.Context(), []string{"-fake", "-csv", writeCSV(t, tc.content)}, &out, &errOut)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// A malformed row stops the reading; the rows before it are synced.
	var out, errOut bytes.Buffer
	err := run(t.Context(), []string{"-fake", "-apply", "-csv", writeCSV(t, "Email,Plan\nx@example.com,pro\ny@example.com\n")}, &out, &errOut)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "reading stopped")
	assert.Contains(t, out.String(), "created x@example.com")
	assert.True(t, strings.Contains(out.String(), "total      1"))
}

func TestFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.EqualError(t, run(t.Context(), []string{"-fake"}, &out, &errOut), "-csv is required")
	assert.Error(t, run(t.Context(), []string{"-fake", "-csv", sample, "extra"}, &out, &errOut))
	err := run(t.Context(), []string{"-fake", "-csv", sample, "-key", ""}, &out, &errOut)
	var ve *workflow.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "Options.KeyField", ve.Field)
}

package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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

// export runs the command and returns its stdout and stderr.
func export(t *testing.T, ctx context.Context, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(ctx, args, &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

// jsonlIDs reads JSON Lines output and returns the ids in order.
func jsonlIDs(t *testing.T, out string) []string {
	t.Helper()
	var ids []string
	for line := range strings.Lines(out) {
		var r workflow.Record
		require.NoError(t, json.Unmarshal([]byte(line), &r), "line %q", line)
		ids = append(ids, r["id"])
	}
	return ids
}

// seq returns "1" .. "n".
func seq(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(i + 1)
	}
	return s
}

func readState(t *testing.T, path string) state {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var st state
	require.NoError(t, json.Unmarshal(b, &st))
	return st
}

func TestExportJSONLToFile(t *testing.T) {
	dir := t.TempDir()
	out, statePath := filepath.Join(dir, "tasks.jsonl"), filepath.Join(dir, "state.json")
	stdout, stderr, err := export(t, t.Context(), "-fake", "250", "-page-size", "100", "-out", out, "-state", statePath)
	require.NoError(t, err)
	assert.Empty(t, stdout)

	b, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, seq(250), jsonlIDs(t, string(b)), "every record once, in list order")
	first, _, _ := strings.Cut(string(b), "\n")
	assert.JSONEq(t, `{"id":"1","Title":"Request 00001","Status":"Open","Priority":"1",
		"Due Date":"2025-01-06T08:00:00.000Z","Notes":"line one of 1, \"quoted\"\nline two"}`, first)

	// stderr is no terminal: no progress bar, only the summary, with the
	// records, the time taken and the rate.
	assert.Regexp(t, `^exported 250 records of tasks/it-requests to `+regexp.QuoteMeta(out)+
		` \(jsonl\); this run: 250 records in [0-9.]+(ms|s|µs), [0-9]+ records/s\n$`, stderr)

	st := readState(t, statePath)
	assert.True(t, st.Complete)
	assert.EqualValues(t, 250, st.Done)
	assert.EqualValues(t, len(b), st.Offset)
}

// TestProgressLines: without a terminal, -progress prints the share of the
// list written, at most as often as it says, and once at the end; after
// -resume the share counts the records of the earlier run too.
func TestProgressLines(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")
	_, stderr, err := export(t, t.Context(), "-fake", "250", "-page-size", "100", "-state", statePath, "-progress", "1ns")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	require.Len(t, lines, 4, stderr)
	assert.Equal(t, []string{
		"progress: 100 of 250 records (40.0%)",
		"progress: 200 of 250 records (80.0%)",
		"progress: 250 of 250 records (100.0%)",
	}, lines[:3], "each count once: the end does not repeat the last page's line")
	assert.True(t, strings.HasPrefix(lines[3], "exported 250 records"), lines[3])

	_, stderr, err = export(t, t.Context(), "-fake", "250", "-page-size", "100", "-state", statePath, "-progress", "1h")
	require.NoError(t, err)
	assert.Equal(t, []string{"progress: 100 of 250 records (40.0%)", "progress: 250 of 250 records (100.0%)"},
		slices.DeleteFunc(strings.Split(stderr, "\n"), func(l string) bool { return !strings.HasPrefix(l, "progress:") }),
		"at most once an hour, and at the end")

	_, stderr, err = export(t, t.Context(), "-fake", "250", "-page-size", "100", "-state", statePath, "-quiet")
	require.NoError(t, err)
	assert.NotContains(t, stderr, "progress:", "off by default")

	_, _, err = export(t, t.Context(), "-fake", "250", "-progress", "-1s")
	assert.ErrorContains(t, err, "-progress")
}

// TestExitStatus: an interrupted export exits with 130, as a shell reports
// a command ended by Ctrl-C; any other failure with 1.
func TestExitStatus(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, _, err := export(t, ctx, "-fake", "100", "-state", filepath.Join(t.TempDir(), "state.json"), "-quiet")
	require.Error(t, err)
	assert.Equal(t, 130, exitStatus(err))
	assert.Regexp(t, `interrupted after 0 records \(this run: 0 records in \S+, [0-9]+ records/s\)`, err.Error())

	_, _, err = export(t, t.Context(), "-alias", "x", "-format", "xml")
	require.Error(t, err)
	assert.Equal(t, 1, exitStatus(err))
}

// TestProgressBar checks the bar a terminal gets: records of the total,
// with a rate; and that a file is not taken for a terminal.
func TestProgressBar(t *testing.T) {
	var out bytes.Buffer
	bar := newBar(250, 0, &out)
	require.NoError(t, bar.Add(250))
	assert.Contains(t, out.String(), "250/250")
	assert.Contains(t, out.String(), "records/s")

	f, err := os.Create(filepath.Join(t.TempDir(), "stderr.txt"))
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, isTerminal(f), "a regular file")
	assert.False(t, isTerminal(&out), "a buffer")
}

func TestExportCSVWithFilter(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, err := export(t, t.Context(), "-fake", "100", "-format", "csv", "-filter", "Status==Open;Priority=ge=3",
		"-state", filepath.Join(dir, "s.json"), "-quiet")
	require.NoError(t, err)
	assert.NotContains(t, stderr, "%", "-quiet: no progress bar")

	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	require.NoError(t, err)
	require.NotEmpty(t, rows)
	assert.Equal(t, []string{"id", "Due Date", "Notes", "Priority", "Status", "Title"}, rows[0])
	// Records i (0-based) with i%4 == 0 are Open, priority i%5+1.
	var want []string
	for i := range 100 {
		if i%4 == 0 && i%5+1 >= 3 {
			want = append(want, strconv.Itoa(i+1))
		}
	}
	var got []string
	for _, r := range rows[1:] {
		got = append(got, r[0])
		assert.Equal(t, "Open", r[4])
		assert.Contains(t, r[2], "\"quoted\"\nline two", "quotes and line breaks survive the CSV")
	}
	assert.Equal(t, want, got)
}

func TestExportCSVColumns(t *testing.T) {
	stdout, _, err := export(t, t.Context(), "-fake", "3", "-format", "csv", "-columns", "Title, Status,Missing",
		"-state", filepath.Join(t.TempDir(), "s.json"), "-quiet")
	require.NoError(t, err)
	assert.Equal(t, "Title,Status,Missing\nRequest 00001,Open,\nRequest 00002,In Progress,\nRequest 00003,Waiting,\n", stdout)
}

func TestExportCSVWarnsAboutLateFields(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "moves",
		workflow.Record{"Title": "a"}, workflow.Record{"Title": "b"},
		workflow.Record{"Title": "c", "Room": "2.14"})
	exampletest.UseAccount(t, check, srv)

	stdout, stderr, err := export(t, t.Context(), "-alias", "moves", "-format", "csv", "-page-size", "2",
		"-state", filepath.Join(t.TempDir(), "s.json"), "-quiet")
	require.NoError(t, err)
	assert.Equal(t, "id,Title\n1,a\n2,b\n3,c\n", stdout)
	assert.Contains(t, stderr, `warning: field "Room" (first in record 3) is not a CSV column`)
}

// cancelAfter is an output that cancels the export's context once it has
// received n lines, as a Ctrl-C would.
type cancelAfter struct {
	bytes.Buffer
	n      int
	cancel context.CancelFunc
}

func (w *cancelAfter) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	if bytes.Count(w.Bytes(), []byte("\n")) >= w.n {
		w.cancel()
	}
	return n, err
}

func TestExportResumesAfterInterrupt(t *testing.T) {
	tests := []struct {
		name     string
		pageSize string
		cancelAt int
		midPage  bool
	}{
		// Small pages: the output is flushed page by page, so the
		// interruption lands on a page boundary.
		{"between pages", "100", 250, false},
		// Pages larger than the output buffer: the interruption lands in
		// the middle of a page, and the export stops at that record.
		{"within a page", "1000", 300, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			statePath := filepath.Join(t.TempDir(), "state.json")
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			first := &cancelAfter{n: tt.cancelAt, cancel: cancel}
			var stderr bytes.Buffer
			err := run(ctx, []string{"-fake", "2000", "-page-size", tt.pageSize, "-state", statePath, "-quiet"}, first, &stderr)
			require.ErrorIs(t, err, context.Canceled)
			assert.Contains(t, err.Error(), "run the same command with -resume to continue")

			st := readState(t, statePath)
			assert.False(t, st.Complete)
			firstIDs := jsonlIDs(t, first.String())
			require.EqualValues(t, len(firstIDs), st.Done, "the state counts exactly what was written")
			require.Less(t, len(firstIDs), 2000)
			pageSize, _ := strconv.Atoi(tt.pageSize)
			assert.Equal(t, tt.midPage, len(firstIDs)%pageSize != 0, "stopped at %d records", len(firstIDs))

			stdout, _, err := export(t, t.Context(), "-fake", "2000", "-page-size", tt.pageSize, "-state", statePath, "-resume", "-quiet")
			require.NoError(t, err)
			assert.Equal(t, seq(2000), append(firstIDs, jsonlIDs(t, stdout)...), "every record exactly once, in order")
			assert.True(t, readState(t, statePath).Complete)
		})
	}
}

func TestExportResumesFileAfterFailure(t *testing.T) {
	srv := workflowtest.Start(t)
	recs := make([]workflow.Record, 500)
	for i := range recs {
		recs[i] = workflow.Record{"Title": "record " + strconv.Itoa(i+1)}
	}
	srv.Seed(workflow.Tasks, "big", recs...)
	exampletest.UseAccount(t, check, srv)
	dir := t.TempDir()
	out, statePath := filepath.Join(dir, "big.csv"), filepath.Join(dir, "state.json")
	args := []string{"-alias", "big", "-format", "csv", "-page-size", "100", "-out", out, "-state", statePath, "-quiet"}

	// The third page fails (400 is not retried): the export stops with
	// two pages saved.
	fault := srv.Inject(workflowtest.Fault{Route: "GET /v1/tasks/big", After: 2, Status: 400})
	_, _, err := export(t, t.Context(), args...)
	var apiErr *workflow.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Contains(t, err.Error(), "after 200 records")
	assert.Contains(t, err.Error(), "-resume")
	fault.Remove()
	st := readState(t, statePath)
	assert.EqualValues(t, 200, st.Done)

	// As if a killed process had written a row after the last save: the
	// resume cuts it off.
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString("201,record 201\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	_, _, err = export(t, t.Context(), append(args, "-resume")...)
	require.NoError(t, err)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, []string{"id", "Title"}, rows[0], "one header")
	var ids []string
	for _, r := range rows[1:] {
		ids = append(ids, r[0])
		assert.Equal(t, "record "+r[0], r[1])
	}
	assert.Equal(t, seq(500), ids, "every record exactly once")

	// Resuming a complete export does nothing.
	_, stderr, err := export(t, t.Context(), append(args, "-resume")...)
	require.NoError(t, err)
	assert.Contains(t, stderr, "already complete (500 records)")
	b2, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, b, b2)
}

func TestExportResumeRefusesAnotherExport(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")
	_, _, err := export(t, t.Context(), "-fake", "10", "-filter", "Status==Open", "-state", statePath, "-quiet")
	require.NoError(t, err)
	_, _, err = export(t, t.Context(), "-fake", "10", "-filter", "Status==Done", "-state", statePath, "-resume", "-quiet")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `-filter "Status==Open" (now "Status==Done")`)

	_, _, err = export(t, t.Context(), "-fake", "10", "-state", filepath.Join(t.TempDir(), "none.json"), "-resume")
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestExportUsageErrors(t *testing.T) {
	srv := workflowtest.Start(t)
	exampletest.UseAccount(t, check, srv)
	state := filepath.Join(t.TempDir(), "s.json")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-format", "xml", "-alias", "a"}, `-format "xml"`},
		{[]string{"-alias", "a", "-filter", "Status=~Open"}, "-filter:"},
		{[]string{"-alias", "a", "-page-size", "0"}, "-page-size 0"},
		{[]string{"-alias", "a", "-columns", "a,b"}, "-columns is for -format csv"},
		{[]string{"-alias", "a", "-format", "csv", "-columns", "a,,b"}, "empty or repeated column"},
		{[]string{}, "-alias is required"},
		{[]string{"-type", "cases", "-alias", "a"}, `-type "cases"`},
		{[]string{"-alias", "a", "extra"}, "unexpected arguments"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, _, err := export(t, t.Context(), append(tt.args, "-state", state)...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	assert.Empty(t, srv.Requests(), "no request is sent after a usage error")
	assert.NoFileExists(t, state)
}

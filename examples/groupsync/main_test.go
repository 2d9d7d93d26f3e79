package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

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

func writeCSV(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "team.csv")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

// uid and gid are the ids the fake gives its n-th user and group.
func uid(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012x", n) }
func gid(n int) string { return fmt.Sprintf("10000000-0000-4000-8000-%012x", n) }

// changes returns the membership changes srv received.
func changes(srv *workflowtest.Server) []string {
	var out []string
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Path, "/v1/groups/") && r.Method != http.MethodGet {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

func TestDryRunOnFake(t *testing.T) {
	path := writeCSV(t, "Name,E-Mail\nAlice,Alice.Anders@example.com\nDana, dana.diaz@example.com \nNobody,nobody@example.com\nAlice again,alice.anders@EXAMPLE.com\n")
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-fake", "-group", "IT Support", "-csv", path}, &stdout, &stderr))
	assert.Equal(t, fmt.Sprintf(`group %s "IT Support": 3 members; %s lists 3 addresses
+ add     dana.diaz@example.com (%s)
- remove  bruno.berg@example.com (%s)
- remove  chen.cho@example.com (%s)
! skip    nobody@example.com: no user has this address
dry run: 1 to add, 2 to remove; run again with -apply to make these changes
`, gid(1), path, uid(5), uid(3), uid(4)), stdout.String())
}

// TestSample runs the command of the package documentation as written,
// from the repository's root, on the sample file.
func TestSample(t *testing.T) {
	t.Chdir("../..")
	const sample = "examples/groupsync/testdata/team.csv"
	var stdout bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-fake", "-group", "IT Support", "-csv", sample}, &stdout, &bytes.Buffer{}))
	assert.Equal(t, fmt.Sprintf(`group %s "IT Support": 3 members; %s lists 4 addresses
+ add     dana.diaz@example.com (%s)
- remove  chen.cho@example.com (%s)
! skip    grace.hopper@example.com: no user has this address
dry run: 1 to add, 1 to remove; run again with -apply to make these changes
`, gid(1), sample, uid(5), uid(4)), stdout.String())
}

func TestApply(t *testing.T) {
	srv := workflowtest.Start(t)
	demo := srv.SeedDemo()
	srv.DeactivateUser(demo.Users[4].UserID) // emeka.eze@example.com, the sixth user
	exampletest.UseAccount(t, check, srv)
	// No header: the addresses are in the first column.
	path := writeCSV(t, "alice.anders@example.com\ndana.diaz@example.com,Dana\nemeka.eze@example.com\n\n")

	var stdout bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-group", gid(1), "-csv", path}, &stdout, &bytes.Buffer{}))
	assert.Contains(t, stdout.String(), "! skip    emeka.eze@example.com ("+uid(6)+"): the user is deactivated\n")
	assert.Contains(t, stdout.String(), "dry run: 1 to add, 2 to remove")
	assert.Empty(t, changes(srv), "a dry run changes nothing")
	assert.Equal(t, []string{uid(2), uid(3), uid(4)}, srv.Members(gid(1)))

	stdout.Reset()
	require.NoError(t, run(t.Context(), []string{"-group", gid(1), "-csv", path, "-apply"}, &stdout, &bytes.Buffer{}))
	assert.Contains(t, stdout.String(), "applied: added 1, removed 2; the group has 2 members\n")
	assert.Equal(t, []string{uid(2), uid(5)}, srv.Members(gid(1)))
	assert.Equal(t, []string{"POST /v1/groups/" + gid(1) + "/users", "DELETE /v1/groups/" + gid(1) + "/users"}, changes(srv))

	// A second run finds nothing to do.
	stdout.Reset()
	require.NoError(t, run(t.Context(), []string{"-group", "IT Support", "-csv", path, "-apply"}, &stdout, &bytes.Buffer{}))
	assert.Contains(t, stdout.String(), "the group is in sync: nothing to change\n")
	assert.Len(t, changes(srv), 2)
}

func TestApplyInBatches(t *testing.T) {
	srv := workflowtest.Start(t)
	g := srv.AddGroup("Everyone")
	var csv strings.Builder
	csv.WriteString("email\n")
	for i := range 250 {
		srv.AddUser(fmt.Sprintf("user%03d@example.com", i), "User", fmt.Sprint(i))
		fmt.Fprintf(&csv, "user%03d@example.com\n", i)
	}
	exampletest.UseAccount(t, check, srv)

	var stdout bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-group", g, "-csv", writeCSV(t, csv.String()), "-apply"}, &stdout, &bytes.Buffer{}))
	assert.Contains(t, stdout.String(), "applied: added 250, removed 0; the group has 250 members")
	assert.Len(t, srv.Members(g), 250)
	assert.Equal(t, []string{"POST /v1/groups/" + g + "/users", "POST /v1/groups/" + g + "/users", "POST /v1/groups/" + g + "/users"}, changes(srv),
		"100 ids a request")
}

func TestErrors(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	srv.AddGroup("Twins")
	srv.AddGroup("Twins")
	exampletest.UseAccount(t, check, srv)
	good := writeCSV(t, "alice.anders@example.com\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no flags", nil, "-group and -csv are required"},
		{"unknown group", []string{"-group", "Nobody's", "-csv", good}, `no group has the id or the name "Nobody's"`},
		{"ambiguous name", []string{"-group", "Twins", "-csv", good}, `2 groups are named "Twins"`},
		{"empty CSV", []string{"-group", gid(1), "-csv", writeCSV(t, "email\n\n")}, "lists no e-mail address; refusing to remove every member"},
		{"not an address", []string{"-group", gid(1), "-csv", writeCSV(t, "email\na@example.com\nBob Smith\n")}, `row 3: "Bob Smith" is not an e-mail address`},
		{"missing CSV", []string{"-group", gid(1), "-csv", filepath.Join(t.TempDir(), "none.csv")}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout bytes.Buffer
			err := run(t.Context(), append(tt.args, "-apply"), &stdout, &bytes.Buffer{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	assert.Empty(t, changes(srv))
	assert.Equal(t, []string{uid(2), uid(3), uid(4)}, srv.Members(gid(1)))
}

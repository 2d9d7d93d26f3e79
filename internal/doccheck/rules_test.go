package doccheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const readme = "# A README\n" +
	"\n" +
	"```sh\n" +
	"go run ./examples/a   # a tour; no account needed\n" +
	"go test -race ./...\n" +
	"go run ./cmd/server -addr 127.0.0.1:8080\n" +
	"```\n" +
	"\n" +
	"| Program | What it shows |\n" +
	"|---|---|\n" +
	"| b | an export: `cd examples/b && go run . -fake 5 -out t.jsonl` (a module; `go test ./...` runs its tests) |\n" +
	"| c | a sync: `go run ./examples/c -fake -csv x.csv` (it has bad rows: the command exits with status 1) | `go run ./examples/a` |\n" +
	"\n" +
	"On an account, `go run ./examples/d -alias x` needs\n" +
	"WORKFLOW_CLIENT_ID set.\n"

func TestReadmeCommands(t *testing.T) {
	var got []command
	for _, c := range readmeCommands("README.md", readme) {
		got = append(got, *c)
	}
	assert.Equal(t, []command{
		{shell: "go run ./examples/a", dir: ".", notes: []string{"a tour; no account needed"}, where: []string{"README.md:4"}},
		{shell: "go run ./cmd/server -addr 127.0.0.1:8080", dir: ".", where: []string{"README.md:6"}},
		{shell: "cd examples/b && go run . -fake 5 -out t.jsonl", dir: "examples/b",
			notes: []string{"(a module; `go test ./...` runs its tests)"}, where: []string{"README.md:11"}},
		{shell: "go run ./examples/c -fake -csv x.csv", dir: ".",
			notes: []string{"(it has bad rows: the command exits with status 1)"}, where: []string{"README.md:12"}},
		{shell: "go run ./examples/a", dir: ".", where: []string{"README.md:12"}},
		{shell: "go run ./examples/d -alias x", dir: ".", notes: []string{"needs WORKFLOW_CLIENT_ID set."}, where: []string{"README.md:14"}},
	}, got)
}

func TestDocCommands(t *testing.T) {
	doc := "Command b exports.\n" +
		"\n" +
		"\tcd examples/b\n" +
		"\tgo run . -fake 5 -out 'a b.jsonl'   # on a fake; 'quoted # is no comment'\n" +
		"\tgo run . -alias x\n" +
		"\n" +
		"Text.\n" +
		"\n" +
		"\tgo run ./examples/b -h\n"
	var got []command
	for _, c := range docCommands("examples/b/main.go", 1, doc) {
		got = append(got, *c)
	}
	assert.Equal(t, []command{
		{shell: "cd examples/b && go run . -fake 5 -out 'a b.jsonl'", dir: "examples/b",
			notes: []string{"on a fake; 'quoted # is no comment'"}, where: []string{"examples/b/main.go:4"}},
		{shell: "cd examples/b && go run . -alias x", dir: "examples/b", where: []string{"examples/b/main.go:5"}},
		{shell: "go run ./examples/b -h", dir: ".", where: []string{"examples/b/main.go:9"}},
	}, got)
}

func TestDecide(t *testing.T) {
	progs := map[string]program{
		"examples/a": {doc: "Command a is a tour."},
		"cmd/server": {doc: "Command server serves until SIGINT."},
		"examples/b": {doc: "Command b exports.", fake: true},
		"examples/c": {doc: "Command c syncs; a bad row fails, and the exit status is then 1.", fake: true},
		"examples/e": {doc: "Command e copies. Without -fake, it refuses to start unless WORKFLOW_CLIENT_ID is set.", fake: true},
	}
	cmd := func(shell, dir string, notes ...string) *command {
		return &command{shell: shell, dir: dir, notes: notes, where: []string{"README.md:1"}}
	}
	tests := []struct {
		name string
		cmd  *command
		want plan
		err  string
	}{
		{"no flag needed", cmd("go run ./examples/a", "."), plan{want: []int{0}}, ""},
		{"runs until stopped", cmd("go run ./cmd/server -addr 127.0.0.1:8080", "."), plan{skip: "runs until stopped, as its package documentation says"}, ""},
		{"from a cd", cmd("cd examples/b && go run . -fake 5", "examples/b"), plan{want: []int{0}}, ""},
		{"-fake=true", cmd("go run ./examples/b --fake=true", "."), plan{want: []int{0}}, ""},
		{"no -fake where the program has one", cmd("cd examples/b && go run . -alias x -out fake", "examples/b"),
			plan{skip: "needs an account: its program has -fake, and it does not pass it"}, ""},
		{"a WORKFLOW_ variable in the note", cmd("go run ./examples/a -alias x", ".", "on the WORKFLOW_* account"),
			plan{skip: "needs an account: it names a WORKFLOW_ variable"}, ""},
		{"a WORKFLOW_ variable in the command", cmd("WORKFLOW_CLIENT_ID=x go run ./examples/a", "."),
			plan{skip: "needs an account: it names a WORKFLOW_ variable"}, ""},
		{"refuses to start, a variable in the note", cmd("go run ./examples/e -app x", ".", "on the account of WORKFLOW_CLIENT_ID (and WORKFLOW_*), WORKFLOW_CLIENT_ID"),
			plan{refuse: true, names: []string{"WORKFLOW_CLIENT_ID"}}, ""},
		{"refuses to start, no -fake", cmd("go run ./examples/e -app x", "."), plan{refuse: true}, ""},
		{"refuses to start, with -fake", cmd("go run ./examples/e -fake", "."), plan{want: []int{0}}, ""},
		{"refuses to start, a variable set", cmd("WORKFLOW_CLIENT_ID=x go run ./examples/e", "."),
			plan{skip: "needs an account: it names a WORKFLOW_ variable"}, ""},
		{"a status next to it", cmd("go run ./examples/c -fake", ".", "the command exits with status 1"), plan{want: []int{1}}, ""},
		{"a status in the package documentation", cmd("go run ./examples/c -fake -apply", "."), plan{want: []int{0, 1}}, ""},
		{"a program from elsewhere", cmd("go run example.com/tool@v1.0.0 ./...", "."), plan{skip: "runs no program of this repository"}, ""},
		{"no program there", cmd("go run ./examples/none", "."), plan{}, "README.md:1: no command (package main) in examples/none"},
		{"two statuses", cmd("go run ./examples/c -fake", ".", "exits with status 1", "exits with status 2"), plan{},
			`README.md:1: "go run ./examples/c -fake" is documented with exit statuses [1 2]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decide(tt.cmd, progs)
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestProgramStatus(t *testing.T) {
	for _, tt := range []struct {
		status int
		out    string
		want   int
	}{
		{0, "done\n", 0},
		{1, "dry run: 7 changes\nexit status 2\n", 2},
		{1, "exit status 1\n", 1},
		{1, "export: missing WORKFLOW_CLIENT_ID\n", 1},
		{3, "exit status 2\n", 3},
		{-1, "exit status 2\n(stopped after 5m0s)", -1},
	} {
		assert.Equal(t, tt.want, programStatus(tt.status, tt.out), tt.out)
	}
}

func TestRefusal(t *testing.T) {
	names := []string{"WORKFLOW_CLIENT_ID", "WORKFLOW_TARGET_CLIENT_ID"}
	for _, tt := range []struct {
		status int
		out    string
		want   string
	}{
		{1, "missing WORKFLOW_CLIENT_ID, WORKFLOW_TARGET_CLIENT_ID", ""},
		{0, "missing WORKFLOW_CLIENT_ID, WORKFLOW_TARGET_CLIENT_ID", "a status other than 0"},
		{2, "missing WORKFLOW_CLIENT_ID_X", "WORKFLOW_CLIENT_ID, WORKFLOW_TARGET_CLIENT_ID"},
		{1, "no account", "a WORKFLOW_ variable, WORKFLOW_CLIENT_ID, WORKFLOW_TARGET_CLIENT_ID"},
	} {
		assert.Equal(t, tt.want, refusal(tt.status, tt.out, names), tt.out)
	}
	assert.Empty(t, refusal(1, "set WORKFLOW_AUTH_URL", nil))
}

func TestMerge(t *testing.T) {
	cmds := merge(append(readmeCommands("README.md", readme),
		&command{shell: "go run ./examples/a", dir: ".", notes: []string{"in a doc"}, where: []string{"examples/a/main.go:3"}}))
	require.Len(t, cmds, 5)
	assert.Equal(t, &command{shell: "go run ./examples/a", dir: ".", notes: []string{"a tour; no account needed", "in a doc"},
		where: []string{"README.md:4", "README.md:12", "examples/a/main.go:3"}}, cmds[0])
}

// TestRepositoryDocs reads this repository's documentation: every command
// with a -fake flag documents at least one command that is run.
func TestRepositoryDocs(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	progs, _, err := mainDocs(root)
	require.NoError(t, err)
	cmds, plans, err := documented(root)
	require.NoError(t, err)
	for dir, prog := range progs {
		if !prog.fake {
			continue
		}
		run := false
		for i, c := range cmds {
			if d, _ := programDir(c); d == dir && plans[i].skip == "" {
				run = true
			}
		}
		assert.True(t, run, "%s has -fake but documents no command that runs without an account", dir)
	}
}

// TestReadmeFirstRun checks that the README says, right after the block of
// its two first commands, how long their first run takes, and why.
func TestReadmeFirstRun(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	block, after, ok := strings.Cut(string(b), "go test -race ./...")
	require.True(t, ok, "README.md has no go test -race ./... command")
	assert.Contains(t, block[strings.LastIndex(block, "```"):], "go run ./examples/quickstart", "the two commands are in one block")
	_, after, _ = strings.Cut(after, "```\n")
	next, _, _ := strings.Cut(strings.TrimLeft(after, "\n"), "\n")
	assert.Regexp(t, `(?i)first run .*2 to 3 minutes on a two-core machine, most of it Go building its standard library`, next,
		"the line after the commands' block")
}

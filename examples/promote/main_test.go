package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
	"github.com/seed-a15e58aa/workflow-go/internal/exampletest"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

var check *contract.FakeCheck

func TestMain(m *testing.M) {
	exampletest.RunMain(main) // for the tests of exit statuses
	check = contract.CheckFakes()
	goleak.VerifyTestMain(m, goleak.Cleanup(check.Exit))
}

// testdata is the export of the staging fake, which the package
// documentation plans and applies from.
const testdata = "testdata/crm-accounts"

// dryRun is the plan between the fakes of -fake, and from testdata to the
// production fake.
const dryRun = `+ create automation Archive closed accounts
      /name: (absent) -> "Archive closed accounts"
      /tasks: (absent) -> [{"field":"Status","type":"UPDATE_FIELD","value":"Archived"}]
      /triggers: (absent) -> [{"cron":"0 3 * * 1","type":"SCHEDULE"}]
~ update automation Flag gold accounts
      /tasks/0/group: "Sales" -> "Finance"
? keep   automation Prod-only hotfix (only in the target; -prune would delete it)
= same   automation Welcome new accounts
~ update view all-accounts
      /view/list/sort/direction: "DESC" -> "ASC"
~ update view assistant
      /view/agent/agentId: "60000000-0000-4000-8000-000000000001" -> "60000000-0000-4000-8000-000000000002"
      ! /view/agent/agentId: agent 60000000-0000-4000-8000-000000000002 is missing: the target's agents list does not hold it
+ create view by-country
      /handle: (absent) -> "by-country"
      /view/kanban/columns: (absent) -> ["f0000000-0000-4000-8000-000000000002","f0000000-0000-4000-8000-000000000003"]
      /view/kanban/displayByField: (absent) -> "f0000000-0000-4000-8000-000000000001"
      /view/kanban/name: (absent) -> "Accounts by country"
      ! /view/kanban/columns: field ids, unverified: no operation reads an app's fields
      ! /view/kanban/displayByField: a field id, unverified: no operation reads an app's fields
+ create view by-tier
      /handle: (absent) -> "by-tier"
      /view/kanban/allowRecordCreation: (absent) -> true
      /view/kanban/name: (absent) -> "Accounts by tier"
~ update view gold-accounts
      /view/list/filter/Tier: (absent) -> "Gold"
? keep   view legacy-accounts (only in the target; the API has no delete for views: left as it is)
plan: 3 to create, 4 to update, 0 to delete, 1 the same, 2 kept (only in the target)
dry run: 7 changes; run again with -apply to make them
`

// noAccount clears every variable promote reads.
func noAccount(t *testing.T) {
	for _, p := range []string{"WORKFLOW_", "WORKFLOW_TARGET_"} {
		for _, n := range []string{"CLIENT_ID", "CLIENT_SECRET", "BASE_URL", "AUTH_URL"} {
			t.Setenv(p+n, "")
		}
	}
}

// runPromote runs the command with args and returns its stdout.
func runPromote(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), args, &stdout, &stderr)
	assert.Empty(t, stderr.String())
	return stdout.String(), err
}

// TestHelp checks -h exits with status 0 and a bad flag does not.
func TestHelp(t *testing.T) { exampletest.CheckHelp(t, "fake") }

// TestDocumentedRuns runs the commands of the package documentation that
// need no account: the plan between the fakes and from the exported
// files, as a dry run and applied.
func TestDocumentedRuns(t *testing.T) {
	t.Chdir("../..")
	noAccount(t)
	for _, from := range []string{"", "examples/promote/" + testdata} {
		args := []string{"-fake", "-app", "crm-accounts"}
		if from != "" {
			args = append(args, "-from", from)
		}
		out, err := runPromote(t, args...)
		assert.ErrorIs(t, err, errPending)
		assert.Equal(t, dryRun, out)

		out, err = runPromote(t, append(args, "-apply")...)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(out, strings.TrimSuffix(dryRun, "dry run: 7 changes; run again with -apply to make them\n")), out)
		assert.True(t, strings.HasSuffix(out, "\napplied: 3 created, 4 updated, 0 deleted\nplanned again: no changes\n"), out)
	}
}

// TestExitStatuses runs main as a user would: 2 for changes pending, 0
// after an apply, 1 for an error.
func TestExitStatuses(t *testing.T) {
	noAccount(t)
	for _, tt := range []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"-fake", "-app", "crm-accounts"}, 2, ""},
		{[]string{"-fake", "-app", "crm-accounts", "-apply"}, 0, ""},
		{[]string{"-fake", "-app", "crm-accounts", "-from", testdata}, 2, ""},
		{[]string{"-fake", "-app", "crm-accounts", "-export", t.TempDir()}, 0, ""},
		{[]string{"-fake", "-app", "nope"}, 1, "promote: source: automations: "},
		{[]string{"-app", "crm-accounts", "-apply"}, 1, "promote: missing WORKFLOW_CLIENT_ID, "},
	} {
		status, stderr := exampletest.ExitStatus(t, tt.args...)
		assert.Equal(t, tt.status, status, "%q: %s", tt.args, stderr)
		if tt.stderr == "" {
			assert.Empty(t, stderr, "%q", tt.args)
		} else {
			assert.Contains(t, stderr, tt.stderr, "%q", tt.args)
		}
	}
}

// TestCredentials (found item 3): without -fake, every run refuses to
// start unless the variables of the workspaces it reads are set, and
// names those missing; no fake is started in their place.
func TestCredentials(t *testing.T) {
	source := "WORKFLOW_CLIENT_ID, WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL, WORKFLOW_AUTH_URL"
	target := "WORKFLOW_TARGET_CLIENT_ID, WORKFLOW_TARGET_CLIENT_SECRET, WORKFLOW_TARGET_BASE_URL, WORKFLOW_TARGET_AUTH_URL"
	for _, tt := range []struct {
		args    []string
		set     []string
		missing string
	}{
		{[]string{"-app", "crm-accounts"}, nil, source + ", " + target},
		{[]string{"-app", "crm-accounts", "-apply"}, nil, source + ", " + target},
		{[]string{"-app", "crm-accounts", "-export", "dir"}, nil, source},
		{[]string{"-app", "crm-accounts", "-from", testdata, "-apply"}, nil, target},
		{[]string{"-app", "crm-accounts", "-from", testdata}, []string{"WORKFLOW_CLIENT_ID", "WORKFLOW_TARGET_CLIENT_ID"},
			"WORKFLOW_TARGET_CLIENT_SECRET, WORKFLOW_TARGET_BASE_URL, WORKFLOW_TARGET_AUTH_URL"},
		{[]string{"-app", "crm-accounts"}, []string{"WORKFLOW_CLIENT_ID", "WORKFLOW_CLIENT_SECRET", "WORKFLOW_BASE_URL", "WORKFLOW_AUTH_URL"}, target},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			noAccount(t)
			for _, n := range tt.set {
				t.Setenv(n, "x")
			}
			out, err := runPromote(t, tt.args...)
			require.Error(t, err)
			assert.Equal(t, "missing "+tt.missing+": set them to the account of each workspace, or run on two embedded fakes with -fake", err.Error())
			assert.Empty(t, out)
		})
	}
}

// TestAccounts runs without -fake on two accounts, the target's through
// the WORKFLOW_TARGET_* variables.
func TestAccounts(t *testing.T) {
	staging, production := workflowtest.Start(t), workflowtest.Start(t)
	staging.SeedDemo()
	production.Define(workflow.Apps, workflowtest.DemoApps, "Name")
	exampletest.UseAccount(t, check, staging)
	id, secret := production.Credentials()
	t.Setenv("WORKFLOW_TARGET_CLIENT_ID", id)
	t.Setenv("WORKFLOW_TARGET_CLIENT_SECRET", secret)
	proxy := check.Proxy(t, production.URL())
	t.Setenv("WORKFLOW_TARGET_BASE_URL", proxy+"/v1")
	t.Setenv("WORKFLOW_TARGET_AUTH_URL", proxy)

	out, err := runPromote(t, "-app", workflowtest.DemoApps, "-apply")
	require.NoError(t, err)
	assert.Contains(t, out, "applied: 6 created, 0 updated, 0 deleted\nplanned again: no changes\n")
	assert.Len(t, production.Automations(workflow.Apps, workflowtest.DemoApps), 3)
	assert.Len(t, production.Views(workflowtest.DemoApps), 3)
}

// setView replaces the view handle of the demo app in srv, as someone
// editing the target would.
func setView(t *testing.T, srv *workflowtest.Server, handle string, body map[string]any) {
	t.Helper()
	require.NoError(t, srv.Client().Call(t.Context(), http.MethodPut, "apps/"+workflowtest.DemoApps+"/views/"+handle, nil, body, nil))
}

// twoFakes returns the demo's staging and a production fake, whose
// objects get other ids than staging's, and a workspace for each.
func twoFakes(t *testing.T) (staging, production *workflowtest.Server, src, dst *workspace) {
	staging, production = workflowtest.Start(t), workflowtest.Start(t)
	staging.SeedDemo()
	production.AddAutomation(workflow.Apps, "other-app", map[string]any{"name": "Elsewhere"})
	production.AddView("other-app", "elsewhere", "list", map[string]any{"name": "Elsewhere"})
	production.Define(workflow.Apps, workflowtest.DemoApps, "Name")
	return staging, production, newWorkspace(staging.Client(), workflow.Apps, workflowtest.DemoApps),
		newWorkspace(production.Client(), workflow.Apps, workflowtest.DemoApps)
}

// changeLines are the member lines of a plan.
func changeLines(out string) []string {
	return regexp.MustCompile(`(?m)^      /.*$`).FindAllString(out, -1)
}

// TestPlanShowsTheChangedMember (found item 1): on two fakes with other
// ids, one nested member of one view changed in the target is the plan's
// one change, with its path, old and new value; after apply, the next
// plan has none.
func TestPlanShowsTheChangedMember(t *testing.T) {
	ctx := t.Context()
	staging, production, src, dst := twoFakes(t)
	var out bytes.Buffer
	require.NoError(t, promote(ctx, src.read, dst, options{apply: true}, &out))
	assert.NotEqual(t, staging.Views(workflowtest.DemoApps)[0].ID, production.Views(workflowtest.DemoApps)[0].ID, "the ids differ")
	assert.NotEqual(t, staging.Automations(workflow.Apps, workflowtest.DemoApps), production.Automations(workflow.Apps, workflowtest.DemoApps))

	setView(t, production, "all-accounts", map[string]any{"view": map[string]any{"list": map[string]any{
		"name": "All accounts", "rows": 50, "sort": map[string]any{"field": "Name", "direction": "DESC"}}}})
	out.Reset()
	assert.ErrorIs(t, promote(ctx, src.read, dst, options{}, &out), errPending)
	assert.Equal(t, []string{`      /view/list/sort/direction: "DESC" -> "ASC"`}, changeLines(out.String()), out.String())
	assert.Contains(t, out.String(), "~ update view all-accounts\n")
	assert.Contains(t, out.String(), "plan: 0 to create, 1 to update, 0 to delete, 5 the same, 0 kept")

	out.Reset()
	require.NoError(t, promote(ctx, src.read, dst, options{apply: true}, &out))
	assert.Contains(t, out.String(), "applied: 0 created, 1 updated, 0 deleted\nplanned again: no changes\n")
	out.Reset()
	require.NoError(t, promote(ctx, src.read, dst, options{}, &out))
	assert.Empty(t, changeLines(out.String()))
	assert.Contains(t, out.String(), "\nno changes\n")
}

// TestDuplicatesAndTargetOnly (found item 2): duplicate names on either
// side are reported and block -apply; objects only in the target are
// listed, automations deleted with -prune, views left with a note.
func TestDuplicatesAndTargetOnly(t *testing.T) {
	ctx := t.Context()
	t.Run("in the target", func(t *testing.T) {
		_, production, src, dst := twoFakes(t)
		for range 2 {
			production.AddAutomation(workflow.Apps, workflowtest.DemoApps, map[string]any{"name": "Flag gold accounts"})
		}
		var out bytes.Buffer
		err := promote(ctx, src.read, dst, options{apply: true}, &out)
		require.EqualError(t, err, "1 problems (listed above): nothing applied")
		assert.Regexp(t, `(?m)^error: the target has 2 automations with the name Flag gold accounts \(id \S+, id \S+\): keep one$`, out.String())
		assert.NotContains(t, out.String(), "automation Flag gold accounts\n", "no step for a duplicate")
		assert.NotContains(t, out.String(), "applied")
		assert.Len(t, production.Automations(workflow.Apps, workflowtest.DemoApps), 2, "nothing applied")
		assert.Empty(t, production.Views(workflowtest.DemoApps), "nothing applied")

		err = promote(ctx, src.read, dst, options{}, &bytes.Buffer{})
		assert.EqualError(t, err, "1 problems (listed above): -apply would change nothing", "a dry run fails too")
	})
	t.Run("in the source", func(t *testing.T) {
		_, _, _, dst := twoFakes(t)
		dir := t.TempDir()
		for _, f := range []string{"a.json", "b.json"} {
			writeFile(t, filepath.Join(dir, "views", f), `{"handle":"x","view":{"list":{"name":"X"}}}`)
		}
		writeFile(t, filepath.Join(dir, "automations", "c.json"), `{"triggers":[]}`)
		var out bytes.Buffer
		err := promote(ctx, func(context.Context) (map[kind][]*object, error) { return readDir(dir) }, dst, options{apply: true}, &out)
		require.EqualError(t, err, "2 problems (listed above): nothing applied")
		assert.Contains(t, out.String(), "error: the source has an automation with no \"name\" string (automations/c.json): plans match automations by it\n")
		assert.Contains(t, out.String(), "error: the source has 2 views with the handle x (views/a.json, views/b.json): keep one\n")
	})
	t.Run("only in the target", func(t *testing.T) {
		_, production, src, dst := twoFakes(t)
		production.AddAutomation(workflow.Apps, workflowtest.DemoApps, map[string]any{"name": "Prod-only hotfix"})
		production.AddView(workflowtest.DemoApps, "legacy", "list", map[string]any{"name": "Legacy"})
		require.NoError(t, promote(ctx, src.read, dst, options{apply: true}, &bytes.Buffer{}))

		var out bytes.Buffer
		require.NoError(t, promote(ctx, src.read, dst, options{}, &out), "only in the target is no change")
		assert.Contains(t, out.String(), "? keep   automation Prod-only hotfix (only in the target; -prune would delete it)\n")
		assert.Contains(t, out.String(), "? keep   view legacy (only in the target; the API has no delete for views: left as it is)\n")
		assert.Contains(t, out.String(), "\nno changes\n")

		out.Reset()
		assert.ErrorIs(t, promote(ctx, src.read, dst, options{prune: true}, &out), errPending, "with -prune, a deletion is a change")
		assert.Contains(t, out.String(), "- delete automation Prod-only hotfix (only in the target; -prune)\n")
		assert.Contains(t, out.String(), "? keep   view legacy (only in the target; the API has no delete for views: left as it is)\n")

		out.Reset()
		require.NoError(t, promote(ctx, src.read, dst, options{prune: true, apply: true}, &out))
		assert.Contains(t, out.String(), "applied: 0 created, 0 updated, 1 deleted\nplanned again: no changes\n")
		assert.Len(t, production.Automations(workflow.Apps, workflowtest.DemoApps), 3)
		assert.Len(t, production.Views(workflowtest.DemoApps), 4, "no view is deleted")
	})
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
	require.NoError(t, os.WriteFile(name, []byte(text), 0o644))
}

// readTree returns the files under dir, by path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	}))
	return files
}

// TestExportRoundTrip (found item 4): export, plan from the files, apply,
// export the target: the files are byte for byte the same, and so are two
// exports. Members the SDK does not model, numbers as written and
// escapes survive.
func TestExportRoundTrip(t *testing.T) {
	ctx := t.Context()
	staging, _, src, dst := twoFakes(t)
	staging.AddAutomation(workflow.Apps, workflowtest.DemoApps, map[string]any{"name": "Edge cases",
		"big": workflowNumber("12345678901234567890"), "float": workflowNumber("1.50"), "text": "<tag> & \u00e9\u2028",
		"nested": map[string]any{"z": []any{map[string]any{"b": 1, "a": nil}}, "a": true}})
	setView(t, staging, "by-tier", map[string]any{"view": map[string]any{"kanban": map[string]any{
		"name": "Accounts by tier", "allowRecordCreation": true, "customThing": map[string]any{"y": 1, "x": []any{}}}}})

	first, second, third := t.TempDir(), t.TempDir(), t.TempDir()
	var out bytes.Buffer
	require.NoError(t, exportApp(ctx, src, first, &out))
	assert.Equal(t, "exported 4 automations and 3 views of crm-accounts to "+first+"\n", out.String())
	require.NoError(t, exportApp(ctx, src, second, &bytes.Buffer{}))
	files := readTree(t, first)
	assert.Equal(t, files, readTree(t, second), "two exports")
	assert.Contains(t, files["automations/edge-cases.json"], `"big": 12345678901234567890,`)
	assert.Contains(t, files["automations/edge-cases.json"], `"float": 1.50,`)
	assert.Contains(t, files["views/by-tier.json"], `"customThing": {`)

	read := func(context.Context) (map[kind][]*object, error) { return readDir(first) }
	out.Reset()
	require.NoError(t, promote(ctx, read, dst, options{apply: true}, &out))
	assert.Contains(t, out.String(), "applied: 7 created, 0 updated, 0 deleted\nplanned again: no changes\n")
	require.NoError(t, exportApp(ctx, dst, third, &bytes.Buffer{}))
	assert.Equal(t, files, readTree(t, third), "the target's export")
}

// workflowNumber is a JSON number literal for the fake's seeding.
type workflowNumber string

func (n workflowNumber) MarshalJSON() ([]byte, error) { return []byte(n), nil }

// TestTestdataIsTheStagingExport: the sample export of the documentation
// is what -export writes from the staging fake.
func TestTestdataIsTheStagingExport(t *testing.T) {
	staging, production, err := fakes(t.Context())
	require.NoError(t, err)
	defer staging.Close()
	defer production.Close()
	dir := t.TempDir()
	require.NoError(t, exportApp(t.Context(), newWorkspace(staging.Client(), workflow.Apps, workflowtest.DemoApps), dir, &bytes.Buffer{}))
	assert.Equal(t, readTree(t, testdata), readTree(t, dir))
}

// TestExportRemovesStaleFiles: an export leaves only its own .json files
// in its two folders, and other files as they are.
func TestExportRemovesStaleFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "views", "gone.json"), "{}")
	writeFile(t, filepath.Join(dir, "views", "README"), "notes")
	writeFile(t, filepath.Join(dir, "notes.json"), "{}")
	o, err := newObject(viewKind, []byte(`{"handle":"a","view":{"list":{}}}`))
	require.NoError(t, err)
	n, err := export(dir, map[kind][]*object{viewKind: {o}})
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, map[string]string{
		"notes.json": "{}", "views/README": "notes",
		"views/a.json": "{\n  \"handle\": \"a\",\n  \"view\": {\n    \"list\": {}\n  }\n}\n",
	}, readTree(t, dir))
}

// TestFileNames checks the naming rule and its collisions.
func TestFileNames(t *testing.T) {
	objs := func(keys ...string) []*object {
		var out []*object
		for i, k := range keys {
			out = append(out, &object{kind: automationKind, key: k, keyed: true, form: jsontext.Value(fmt.Sprintf(`{"n":%d,"name":%q}`, i, k))})
		}
		return out
	}
	for _, tt := range []struct {
		keys []string
		want []string
	}{
		{[]string{"Welcome new accounts", "by-tier", "  Ünïcode / ok?  ", "", "***"},
			[]string{"welcome-new-accounts.json", "by-tier.json", "n-code-ok.json", "unnamed~e3b0c442.json", "unnamed~596f4162.json"}},
		{[]string{"Flag Gold", "flag-gold", "FLAG_GOLD"}, []string{"flag-gold~1c226cd0.json", "flag-gold~e3939a3c.json", "flag-gold~98416b37.json"}},
		{[]string{"CON", "Nul"}, []string{"con~a3dbc4b6.json", "nul~e54bdb05.json"}},
		{[]string{strings.Repeat("a", 70) + " b"}, []string{strings.Repeat("a", 64) + ".json"}},
		{[]string{"Twice", "Twice", "Once"}, []string{"twice~cc1b4c8d.json", "twice~cc1b4c8d~2.json", "once.json"}},
	} {
		group := objs(tt.keys...)
		names := fileNames(group)
		var got []string
		for _, o := range group {
			got = append(got, names[o])
		}
		assert.Equal(t, tt.want, got, "%q", tt.keys)
	}
}

// TestNamesPrintOneWay (found item 5): automations' names and views'
// handles print the same way, unquoted unless that would be unclear.
func TestNamesPrintOneWay(t *testing.T) {
	out, err := runPromote(t, "-fake", "-app", "crm-accounts")
	assert.ErrorIs(t, err, errPending)
	assert.Contains(t, out, "~ update automation Flag gold accounts\n")
	assert.Contains(t, out, "~ update view gold-accounts\n")
	assert.NotContains(t, out, `automation "`)
	for in, want := range map[string]string{"Flag gold accounts": "Flag gold accounts", "": `""`, " pad": `" pad"`, "a\nb": `"a\nb"`, "ünï": "ünï"} {
		assert.Equal(t, want, label(in))
	}
}

// TestIDMembers (found item 6): an agentId the target's agents do not
// hold is missing; field ids are unverified; an agentId the target holds
// is not flagged.
func TestIDMembers(t *testing.T) {
	ctx := t.Context()
	_, production, _, dst := twoFakes(t)
	staging := workflowtest.Start(t)
	staging.AddView(workflowtest.DemoApps, "placeholder", "list", map[string]any{"name": "P"})
	agent, err := addAgent(ctx, staging, "Helper")
	require.NoError(t, err)
	staging.AddView(workflowtest.DemoApps, "helper", "agent", map[string]any{"name": "Helper", "agentId": agent})
	staging.AddView(workflowtest.DemoApps, "board", "kanban", map[string]any{"name": "Board", "displayByField": fieldTier,
		"allowedFilterFields": []string{fieldCountry}, "columns": []string{fieldName}})
	src := newWorkspace(staging.Client(), workflow.Apps, workflowtest.DemoApps)

	var out bytes.Buffer
	assert.ErrorIs(t, promote(ctx, src.read, dst, options{}, &out), errPending)
	for _, want := range []string{
		"      ! /view/agent/agentId: agent " + agent + " is missing: the target's agents list does not hold it\n",
		"      ! /view/kanban/allowedFilterFields: field ids, unverified: no operation reads an app's fields\n",
		"      ! /view/kanban/columns: field ids, unverified: no operation reads an app's fields\n",
		"      ! /view/kanban/displayByField: a field id, unverified: no operation reads an app's fields\n",
	} {
		assert.Contains(t, out.String(), want)
	}

	for range 2 { // the target's second agent has the id of the source's
		_, err := addAgent(ctx, production, "Helper")
		require.NoError(t, err)
	}
	out.Reset()
	assert.ErrorIs(t, promote(ctx, src.read, dst, options{}, &out), errPending)
	assert.NotContains(t, out.String(), "is missing")
	assert.Contains(t, out.String(), "/view/kanban/columns: field ids, unverified")
}

// TestEmptyMemberReadBack: a file's explicit empty member is sent as
// written, and a view as read keeps it apart from a member left out, so
// the apply settles: the plan after it has no changes.
func TestEmptyMemberReadBack(t *testing.T) {
	ctx := t.Context()
	_, production, _, dst := twoFakes(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "views", "v.json"), `{"handle":"v","view":{"list":{"name":"V","rows":0}}}`)
	var out bytes.Buffer
	err := promote(ctx, func(context.Context) (map[kind][]*object, error) { return readDir(dir) }, dst, options{apply: true}, &out)
	require.NoError(t, err)
	assert.Contains(t, out.String(), "/view/list/rows: (absent) -> 0")
	assert.Len(t, production.Views(workflowtest.DemoApps), 1)
}

// TestReadDirErrors: a file that is no object's write form is an error
// naming the file.
func TestReadDirErrors(t *testing.T) {
	for text, want := range map[string]string{
		`[1]`:                     "views/x.json: a view must be a JSON object",
		`{"handle":"x"} {}`:       "views/x.json: more than one JSON value",
		`{"a":1,"a":2}`:           `views/x.json: jsontext: duplicate object member name "a"`,
		`{"id":"1","handle":"x"}`: `views/x.json: an "id" member: the files hold the write form, which has no ids`,
	} {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "views", "x.json"), text)
		_, err := readDir(dir)
		assert.ErrorContains(t, err, want, text)
	}
	_, err := readDir(filepath.Join(t.TempDir(), "none"))
	assert.Error(t, err)
}

func TestBadArguments(t *testing.T) {
	for args, want := range map[string]string{
		"-fake":                          "-app is required",
		"-fake -app x extra":             `unexpected arguments: ["extra"]`,
		"-fake -app x -export d -apply":  "-export writes files and plans nothing: it takes none of -from, -apply and -prune",
		"-fake -app x -export d -from e": "-export writes files and plans nothing: it takes none of -from, -apply and -prune",
		"-fake -app x -from " + filepath.Join(t.TempDir(), "none"): "source: stat ",
	} {
		_, err := runPromote(t, strings.Fields(args)...)
		assert.ErrorContains(t, err, want, args)
	}
	_, err := runPromote(t, "-fake", "-app", "nope")
	assert.ErrorIs(t, err, workflow.ErrNotFound, "an app the source does not have")
}

// TestCanonical checks the canonical form of an object and the
// comparison.
func TestCanonical(t *testing.T) {
	o, err := newObject(automationKind, []byte(`{"b":[1.0,{"d":"\u00e9\/<>","c":null}],"a":1e2, "\u007f":false}`))
	require.NoError(t, err)
	assert.Equal(t, "{\"a\":1e2,\"b\":[1.0,{\"c\":null,\"d\":\"é/<>\"}],\"\u007f\":false}", string(o.form))
	assert.Equal(t, "{\n  \"a\": 1e2,\n  \"b\": [\n    1.0,\n    {\n      \"c\": null,\n      \"d\": \"é/<>\"\n    }\n  ],\n  \"\u007f\": false\n}\n", string(indented(o.form)))

	old, _ := canonical(automationKind, []byte(`{"a":{"x":1,"y":[1,2]},"b":[1],"c":{},"e":"s"}`))
	new, _ := canonical(automationKind, []byte(`{"a":{"x":1.0,"y":[1,3]},"b":[1,2],"d":{},"e/~":"s"}`))
	var got []string
	for _, c := range diff("", old, new, nil) {
		got = append(got, c.Path+": "+show(c.Old)+" -> "+show(c.New))
	}
	assert.Equal(t, []string{
		"/a/x: 1 -> 1.0", "/a/y/1: 2 -> 3", "/b: [1] -> [1,2]", "/c: {} -> (absent)", "/d: (absent) -> {}",
		"/e: \"s\" -> (absent)", "/e~1~0: (absent) -> \"s\"",
	}, got)
}

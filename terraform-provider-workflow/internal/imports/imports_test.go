package imports

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestApp: the demo app's objects, each an import block named after it,
// with the import id of its resource.
func TestApp(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	ws := admin.New(srv.Client())
	blocks, err := App(t.Context(), ws, "crm-accounts")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range blocks {
		got = append(got, b.Type+"."+b.Name)
		prefix := "crm-accounts/"
		if b.Type == "workflow_automation" {
			prefix = "apps/crm-accounts/"
		}
		if !strings.HasPrefix(b.ID, prefix) || len(b.ID) == len(prefix) {
			t.Errorf("%s.%s: import id %q, want %s<id>", b.Type, b.Name, b.ID, prefix)
		}
	}
	want := []string{
		"workflow_automation.welcome_new_accounts", "workflow_automation.flag_gold_accounts", "workflow_automation.archive_closed_accounts",
		"workflow_view.all_accounts", "workflow_view.gold_accounts", "workflow_view.by_tier",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("blocks %v, want %v", got, want)
	}
	var buf bytes.Buffer
	if err := Write(&buf, blocks[:1]); err != nil {
		t.Fatal(err)
	}
	if want := "import {\n  to = workflow_automation.welcome_new_accounts\n  id = \"" + blocks[0].ID + "\"\n}\n"; buf.String() != want {
		t.Errorf("Write wrote %q, want %q", buf.String(), want)
	}
}

func TestResourceName(t *testing.T) {
	for in, want := range map[string]string{
		"Welcome new accounts": "welcome_new_accounts",
		"by-tier":              "by_tier",
		"  Gold  (VIP) ":       "gold_vip",
		"2024 review":          "_2024_review",
		"Überblick":            "berblick",
		"":                     "unnamed",
		"!!!":                  "unnamed",
	} {
		if got := resourceName(in); got != want {
			t.Errorf("resourceName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDuplicateNames: two objects of one name get distinct addresses.
func TestDuplicateNames(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	for range 2 {
		srv.AddAutomation("apps", "crm-accounts", map[string]any{"name": "Same", "trigger": map[string]any{"type": "recordCreated"}})
	}
	blocks, err := App(t.Context(), admin.New(srv.Client()), "crm-accounts")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range blocks {
		if strings.HasPrefix(b.Name, "same") {
			names = append(names, b.Name)
		}
	}
	if strings.Join(names, " ") != "same same_2" {
		t.Errorf("names %v, want [same same_2]", names)
	}
}

// TestTables: a block per table of the workspace, by the table's id.
func TestTables(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	var ids []string
	for _, handle := range []string{"acct", "acc2"} {
		tb, err := ws.Tables.Create(t.Context(), admin.TableCreateRequest{Name: "Accounts", Handle: handle,
			Source: "00000000-0000-4000-8000-0000000000a1", CategoryID: "00000000-0000-4000-8000-0000000000c1",
			Fields: []admin.TableFieldInput{{Calculation: &admin.TableCalculationField{Name: new("x"), Text: new("1")}}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tb.ID.Value())
	}
	blocks, err := Tables(t.Context(), ws)
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{{"workflow_table", "accounts", ids[0]}, {"workflow_table", "accounts_2", ids[1]}}
	if len(blocks) != 2 || blocks[0] != want[0] || blocks[1] != want[1] {
		t.Errorf("blocks %v, want %v", blocks, want)
	}
}

// TestNamer: every block's address is unique, whatever names the objects
// have, one already looking like a suffixed other included.
func TestNamer(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"a", "a", "a"}, "a a_2 a_3"},
		{[]string{"a_2", "a", "a"}, "a_2 a a_3"},
		{[]string{"a", "a", "a_2"}, "a a_2 a_2_2"},
		{[]string{"a", "A", "a_3", "a", "a"}, "a a_2 a_3 a_4 a_5"},
		{[]string{"", "!", "unnamed"}, "unnamed unnamed_2 unnamed_3"},
	} {
		var n namer
		for i, name := range tc.names {
			n.add("workflow_view", name, strconv.Itoa(i))
		}
		n.add("workflow_agent", tc.names[0], "other") // another type: its own names
		var got []string
		for _, b := range n.blocks[:len(tc.names)] {
			got = append(got, b.Name)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("names of %q: %v, want %s", tc.names, got, tc.want)
		}
		if last := n.blocks[len(tc.names)]; last.Name != resourceName(tc.names[0]) {
			t.Errorf("names of %q: the agent is %s, want %s", tc.names, last.Name, resourceName(tc.names[0]))
		}
	}
}

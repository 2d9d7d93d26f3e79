package imports

import (
	"bytes"
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

package provider

import (
	"strings"
	"testing"

	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestAccDiagnostics: a rule is reported once, on the attribute that
// broke it, in the words of its family; the configuration's own values
// are shown.
func TestAccDiagnostics(t *testing.T) {
	acc(t)
	tests := []struct {
		name, config string
		want         []string // in the output, spaces and line breaks aside
		not          []string
	}{
		{name: "an unknown view type is one error",
			config: `resource "workflow_view" "v" {
  app    = "crm-accounts"
  handle = "open"
  type   = "grid"
}`,
			want: []string{`type must be one of "list", "kanban", "calendar", "dashboard", "agent" (got "grid")`},
			not:  []string{"ViewRequest"}},
		{name: "a view's filter that is no object is the view's filter",
			config: `resource "workflow_view" "v" {
  app    = "crm-accounts"
  handle = "open"
  type   = "list"
  filter = jsonencode("open")
}`,
			want: []string{"filter must be one JSON object"},
			not:  []string{"automation"}},
		{name: "a table's column type is the field's column_type",
			config: `resource "workflow_table" "t" {
  name        = "T"
  handle      = "t"
  source      = "00000000-0000-4000-8000-0000000000a1"
  category_id = "00000000-0000-4000-8000-0000000000c1"
  fields      = [{ name = "A", kind = "cloud", column_name = "A", column_type = "STRING" }]
}`,
			want: []string{`fields[0].column_type must be one of`},
			not:  []string{"TableCreateRequest", "snowflake"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cli := newTofu(t)
			cli.write("main.tf", requireTF+tt.config)
			cli.run([]string{"init"})
			out, _ := cli.run([]string{"validate", "-no-color"}, 1)
			flat := strings.Join(strings.Fields(out), " ")
			if n := strings.Count(out, "Error: "); n != 1 {
				t.Errorf("%d errors, want one:\n%s", n, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(flat, w) {
					t.Errorf("the error does not say %q:\n%s", w, out)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(flat, w) {
					t.Errorf("the error says %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestAccServiceMessageShowsTheConfiguration: the service's message about
// a value of the configuration (an app's alias that is taken) shows the
// value, which the SDK's own error text leaves out as a request's data.
func TestAccServiceMessageShowsTheConfiguration(t *testing.T) {
	acc(t)
	srv := workflowtest.Start(t)
	useFake(t, srv)
	if _, err := admin.New(srv.Client()).Apps.Compose(t.Context(), []byte(`{"namespace":"crm-deals","name":"Deals"}`)); err != nil {
		t.Fatal(err)
	}
	cli := newTofu(t)
	cli.write("main.tf", requireTF+`
resource "workflow_app" "deals" {
  definition = jsonencode({ namespace = "crm-deals", name = "Deals" })
}
`)
	cli.run([]string{"init"})
	out, _ := cli.run([]string{"apply", "-auto-approve", "-no-color"}, 1)
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "crm-deals") || strings.Contains(flat, "REDACTED") {
		t.Fatalf("the service's message does not show the alias:\n%s", out)
	}
}

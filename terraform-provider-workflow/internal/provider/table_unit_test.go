package provider

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// field is a field of a model: id "" for one not created yet.
func field(id, name, kind, text string) fieldModel {
	f := fieldModel{ID: types.StringNull(), Name: types.StringValue(name), Kind: types.StringValue(kind),
		ColumnName: types.StringNull(), ColumnType: types.StringNull(), Field: types.StringNull(),
		Aggregation: types.StringNull(), Expanded: types.StringNull(), Text: types.StringValue(text),
		Tags: types.ListNull(types.StringType)}
	if id != "" {
		f.ID = types.StringValue(id)
	}
	return f
}

// TestUpdateBody: the update body of a table sends what the configuration
// sets and the field changes by name: a new field created at its place,
// a changed or moved one updated by id, a kind changed replaced, one no
// longer listed deleted, an unchanged one left out.
func TestUpdateBody(t *testing.T) {
	state := tableModel{Name: types.StringValue("T"), Fields: []fieldModel{
		field("f1", "Same", "calculation", "1"),
		field("f2", "Changed", "calculation", "2"),
		field("f3", "Gone", "calculation", "3"),
		field("f4", "Kind", "calculation", "4"),
	}}
	cfg := tableModel{Name: types.StringValue("T"), Description: types.StringValue(""), Fields: []fieldModel{
		field("", "Same", "calculation", "1"),
		field("", "Changed", "calculation", "two"),
		field("", "New", "calculation", "5"),
		field("", "Kind", "reference", ""),
	}}
	cfg.Fields[3].Text, cfg.Fields[3].Field = types.StringNull(), types.StringValue("00000000-0000-4000-8000-000000000001")
	b, err := json.Marshal(updateBody(cfg, state))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"T","description":"","fields":{` +
		`"creates":[{"field":{"calculation":{"name":"New","text":"5"}},"index":2},` +
		`{"field":{"reference":{"name":"Kind","field":"00000000-0000-4000-8000-000000000001"}},"index":3}],` +
		`"updates":[{"id":"f2","field":{"calculation":{"name":"Changed","text":"two"}},"index":1}],` +
		`"deletes":[{"id":"f4"},{"id":"f3"}]}}`
	if string(b) != want {
		t.Errorf("updateBody =\n%s\nwant\n%s", b, want)
	}
	// Nothing changed: no field changes, and only what is set.
	b, _ = json.Marshal(updateBody(tableModel{Name: types.StringValue("T"), Fields: state.Fields}, state))
	if string(b) != `{"name":"T"}` {
		t.Errorf("updateBody of the same fields = %s", b)
	}
}

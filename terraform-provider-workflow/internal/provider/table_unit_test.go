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
// sets and the field changes: a new field created at its place, a
// changed, moved or renamed one updated by its id, a kind changed
// replaced, one no longer listed deleted, an unchanged one left out.
func TestUpdateBody(t *testing.T) {
	const ref = "00000000-0000-4000-8000-000000000001"
	state := []fieldModel{
		field("f1", "Same", "calculation", "1"),
		field("f2", "Changed", "calculation", "2"),
		field("f3", "Gone", "cloud", ""),
		field("f4", "Kind", "calculation", "4"),
	}
	reference := field("", "Kind", "reference", "")
	reference.Text, reference.Field = types.StringNull(), types.StringValue(ref)
	for _, tc := range []struct {
		name   string
		fields []fieldModel
		want   string // the body's fields member
	}{{
		name: "created, updated, replaced and deleted",
		fields: []fieldModel{
			field("", "Same", "calculation", "1"),
			field("", "Changed", "calculation", "two"),
			field("", "New", "calculation", "5"), // f3 at its place is a cloud field
			reference,
		},
		want: `{"creates":[{"field":{"calculation":{"name":"New","text":"5"}},"index":2},` +
			`{"field":{"reference":{"name":"Kind","field":"` + ref + `"}},"index":3}],` +
			`"updates":[{"id":"f2","field":{"calculation":{"name":"Changed","text":"two"}},"index":1}],` +
			`"deletes":[{"id":"f3"},{"id":"f4"}]}`,
	}, {
		name: "renamed: the same field updated, nothing deleted or created",
		fields: []fieldModel{
			field("", "Same", "calculation", "1"),
			field("", "Renamed", "calculation", "2"),
			state[2],
			state[3],
		},
		want: `{"updates":[{"id":"f2","field":{"calculation":{"name":"Renamed","text":"2"}},"index":1}]}`,
	}, {
		name: "new at the place of a moved field: created, the moved one kept",
		fields: []fieldModel{
			field("", "Same", "calculation", "1"),
			field("", "Other", "calculation", "2"),
			field("", "Changed", "calculation", "2"),
		},
		want: `{"creates":[{"field":{"calculation":{"name":"Other","text":"2"}},"index":1}],` +
			`"updates":[{"id":"f2","field":{"calculation":{"name":"Changed","text":"2"}},"index":2}],` +
			`"deletes":[{"id":"f3"},{"id":"f4"}]}`,
	}, {
		name:   "unchanged: no field changes",
		fields: state,
		want:   ``,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tableModel{Name: types.StringValue("T"), Fields: tc.fields}
			b, err := json.Marshal(updateBody(cfg, tableModel{Name: types.StringValue("T"), Fields: state}))
			if err != nil {
				t.Fatal(err)
			}
			want := `{"name":"T"}`
			if tc.want != "" {
				want = `{"name":"T","fields":` + tc.want + `}`
			}
			if string(b) != want {
				t.Errorf("updateBody =\n%s\nwant\n%s", b, want)
			}
		})
	}
}

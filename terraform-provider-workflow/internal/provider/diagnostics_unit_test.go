package provider

import (
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

func TestOnAttribute(t *testing.T) {
	attrs := camelAttrs("", "categoryId", "name").with(wireAttrs{"fields[*].cloud.snowflake.type": "fields[*].column_type",
		"userIds[*]": "member_ids"})
	other := errors.New("not a check's")
	tests := []struct {
		name   string
		err    error
		attrs  wireAttrs
		path   path.Path // empty: on the resource
		detail string
	}{
		{name: "a nested member, on its attribute in the configuration's words",
			err:   &workflow.ValidationError{Field: "TableCreateRequest.Fields[2].Cloud.Snowflake.Type", Rule: "must be one of TEXT"},
			attrs: attrs, path: path.Root("fields").AtListIndex(2).AtName("column_type"), detail: "fields[2].column_type must be one of TEXT"},
		{name: "a member named by its JSON name, as the document does",
			err:   &workflow.ValidationError{Field: "TableCreateRequest.fields[2].cloud.snowflake.type", Rule: "must be one of TEXT"},
			attrs: attrs, path: path.Root("fields").AtListIndex(2).AtName("column_type"), detail: "fields[2].column_type must be one of TEXT"},
		{name: "a top-level member, snake case",
			err:   &workflow.ValidationError{Field: "TableCreateRequest.CategoryID", Rule: "must be a UUID"},
			attrs: attrs, path: path.Root("category_id"), detail: "category_id must be a UUID"},
		{name: "a member with no type before it",
			err:   &workflow.ValidationError{Field: "name", Rule: "must not be empty"},
			attrs: attrs, path: path.Root("name"), detail: "name must not be empty"},
		{name: "a set's element: the set",
			err:   &workflow.ValidationError{Field: "GroupRequest.UserIDs[1]", Rule: "must be a UUID"},
			attrs: attrs, path: path.Root("member_ids"), detail: "member_ids must be a UUID"},
		{name: "a member not mapped: on the resource, as the SDK says it",
			err:   &workflow.ValidationError{Field: "TableCreateRequest.dataView", Rule: "x"},
			attrs: attrs, detail: "workflow: invalid TableCreateRequest.dataView: x"},
		{name: "a member not mapped, with a whole attribute: on it",
			err:   &workflow.ValidationError{Field: "ViewRequest.view", Rule: "x"},
			attrs: wireAttrs{"*": "definition"}, path: path.Root("definition"), detail: "workflow: invalid ViewRequest.view: x"},
		{name: "an attrError, on its attribute",
			err:   attrError{"tools", "element 0 must be one JSON object"},
			attrs: attrs, path: path.Root("tools"), detail: "tools element 0 must be one JSON object"},
		{name: "another error, on the resource", err: other, attrs: attrs, detail: "not a check's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d diag.Diagnostics
			onAttribute(&d, "Invalid thing", tt.err, tt.attrs)
			if len(d) != 1 {
				t.Fatalf("%d diagnostics, want one: %v", len(d), d)
			}
			got := d[0]
			if got.Summary() != "Invalid thing" || got.Detail() != tt.detail {
				t.Errorf("got %q: %q, want %q", got.Summary(), got.Detail(), tt.detail)
			}
			wp, ok := got.(diag.DiagnosticWithPath)
			switch {
			case len(tt.path.Steps()) == 0 && ok:
				t.Errorf("on %s, want the resource", wp.Path())
			case len(tt.path.Steps()) > 0 && (!ok || !wp.Path().Equal(tt.path)):
				t.Errorf("on %v, want %s", got, tt.path)
			}
		})
	}
}

func TestObjectRule(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`"open"`, "must be one JSON object, not string"},
		{`{"a":}`, "must be one JSON object: "},
	} {
		_, err := canonicalOf(tt.in)
		if got := objectRule(err); len(got) < len(tt.want) || got[:len(tt.want)] != tt.want {
			t.Errorf("objectRule(%s) = %q, want it to start %q", tt.in, got, tt.want)
		}
	}
}

func canonicalOf(s string) ([]byte, error) { return admin.Canonical([]byte(s)) }

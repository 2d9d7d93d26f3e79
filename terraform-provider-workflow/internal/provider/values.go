package provider

import (
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seed-a15e58aa/workflow-go/admin"
)

// Conversions between the framework's values and the SDK's: a request
// body's member is a pointer (nil leaves it out), a read model's an
// admin.Opt (absent, null or a value). A null or unknown attribute is
// left out of a body; an explicit false, 0 or "" is sent.

// known reports whether v holds a value: neither null nor unknown.
func known(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

func strPtr(v types.String) *string {
	if !known(v) {
		return nil
	}
	s := v.ValueString()
	return &s
}

func boolPtr(v types.Bool) *bool {
	if !known(v) {
		return nil
	}
	b := v.ValueBool()
	return &b
}

// stringList returns the strings of a list, nil when the list or one of its
// elements is null or unknown.
func stringList(v types.List) []string {
	if !known(v) {
		return nil
	}
	out := make([]string, 0, len(v.Elements()))
	for _, e := range v.Elements() {
		s, ok := e.(types.String)
		if !ok || !known(s) {
			return nil
		}
		out = append(out, s.ValueString())
	}
	return out
}

// rawJSON returns a JSON attribute's object, nil when it is null or
// unknown or not one JSON object (which validation reports).
func rawJSON(v types.String) jsontext.Value {
	if !known(v) {
		return nil
	}
	c, err := admin.Canonical([]byte(v.ValueString()))
	if err != nil {
		return nil
	}
	return jsontext.Value(c)
}

package provider

import (
	"maps"

	json "github.com/go-json-experiment/json"

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

func intPtr(v types.Int64) *int {
	if !known(v) {
		return nil
	}
	i := int(v.ValueInt64())
	return &i
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

// listOf is the list attribute of strings v.
func listOf(v []string) types.List {
	elems := make([]attr.Value, len(v))
	for i, s := range v {
		elems[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, elems)
}

// optString, optBool, optInt and optList are the attribute values of a
// read model's members: null when the member was absent or null.
func optString[T ~string](o admin.Opt[T]) types.String {
	if v, ok := o.Get(); ok {
		return types.StringValue(string(v))
	}
	return types.StringNull()
}

func optBool(o admin.Opt[bool]) types.Bool {
	if v, ok := o.Get(); ok {
		return types.BoolValue(v)
	}
	return types.BoolNull()
}

func optInt(o admin.Opt[int]) types.Int64 {
	if v, ok := o.Get(); ok {
		return types.Int64Value(int64(v))
	}
	return types.Int64Null()
}

func optList(o admin.Opt[[]string]) types.List {
	if v, ok := o.Get(); ok {
		return listOf(v)
	}
	return types.ListNull(types.StringType)
}

// overlay returns base with the members top sends (its JSON members)
// replacing base's; the members top leaves out are base's, Extra ones
// included. base and top are request bodies of one type.
func overlay[T any](base, top T) (T, error) {
	var out T
	var m, t map[string]jsontext.Value
	b, err := json.Marshal(base)
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err == nil {
		if b, err = json.Marshal(top); err == nil {
			err = json.Unmarshal(b, &t)
		}
	}
	if err != nil {
		return out, err
	}
	maps.Copy(m, t)
	if b, err = json.Marshal(m); err == nil {
		err = json.Unmarshal(b, &out)
	}
	return out, err
}

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

// ptr is a body member: a pointer to value, v's value, or nil when v is
// null or unknown. strPtr, boolPtr and intPtr are ptr of each kind.
func ptr[T any](v attr.Value, value T) *T {
	if !known(v) {
		return nil
	}
	return &value
}

func strPtr(v types.String) *string { return ptr(v, v.ValueString()) }

func boolPtr(v types.Bool) *bool { return ptr(v, v.ValueBool()) }

func intPtr(v types.Int64) *int { return ptr(v, int(v.ValueInt64())) }

// stringList returns the strings of a list, nil when the list or one of its
// elements is null or unknown.
func stringList(v types.List) []string {
	if !known(v) {
		return nil
	}
	return stringsOf(v.Elements())
}

// stringsOf returns the strings of the elements of a list or a set, nil
// when one of them is null or unknown.
func stringsOf(elems []attr.Value) []string {
	out := make([]string, 0, len(elems))
	for _, e := range elems {
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

// opt is the attribute value of a read model's member o: value of what o
// holds, null when the member was absent or null. optString, optBool,
// optInt and optList are opt of each kind.
func opt[T any, V attr.Value](o admin.Opt[T], value func(T) V, null V) V {
	if v, ok := o.Get(); ok {
		return value(v)
	}
	return null
}

func optString[T ~string](o admin.Opt[T]) types.String {
	return opt(o, func(v T) types.String { return types.StringValue(string(v)) }, types.StringNull())
}

func optBool(o admin.Opt[bool]) types.Bool { return opt(o, types.BoolValue, types.BoolNull()) }

func optInt(o admin.Opt[int]) types.Int64 {
	return opt(o, func(v int) types.Int64 { return types.Int64Value(int64(v)) }, types.Int64Null())
}

func optList(o admin.Opt[[]string]) types.List {
	return opt(o, listOf, types.ListNull(types.StringType))
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

package provider

import (
	"context"
	"fmt"
	"iter"
	"math"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seed-a15e58aa/workflow-go/admin"
)

// What the families share: the schemas of their attributes by how the
// service treats them (read back, set by the service; what is kept as
// written is declared, family.go),
// sets of ids, JSON lists, numbers in range, and the stand-in for a value
// not known while validating.

// idAttribute is a computed id the service sets, kept across plans.
func idAttribute(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, Description: desc,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

// readString and readBool are optional members the service reads back:
// left out of the configuration they are not managed, and show what the
// service holds; set, they are sent, "" and false included.
func readString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, Computed: true, Description: desc,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

func readBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{Optional: true, Computed: true, Description: desc,
		PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}}
}

func readInt(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{Optional: true, Computed: true, Description: desc,
		PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}}
}

func readFloat(desc string) schema.Float64Attribute {
	return schema.Float64Attribute{Optional: true, Computed: true, Description: desc,
		PlanModifiers: []planmodifier.Float64{float64planmodifier.UseStateForUnknown()}}
}

// writtenJSON is an optional JSON object that the state holds as the
// configuration writes it (an attribute kept as written, family.kept).
func writtenJSON(desc string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, Description: desc + " A JSON object (jsonencode).",
		Validators: []validator.String{jsonObject{}}}
}

// readList is a list of strings read back, as readString.
func readList(desc string) schema.ListAttribute {
	return schema.ListAttribute{Optional: true, Computed: true, ElementType: types.StringType, Description: desc,
		PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()}}
}

// readSet is a set of strings read back, as readString.
func readSet(desc string) schema.SetAttribute {
	return schema.SetAttribute{Optional: true, Computed: true, ElementType: types.StringType, Description: desc,
		PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()}}
}

// stringSet returns the strings of a set, sorted; nil when the set or one
// of its elements is null or unknown.
func stringSet(v types.Set) []string {
	if !known(v) {
		return nil
	}
	out := stringsOf(v.Elements())
	slices.Sort(out)
	return out
}

// setOf is the set of strings ss.
func setOf(ss []string) types.Set {
	elems := make([]attr.Value, len(ss))
	for i, s := range ss {
		elems[i] = types.StringValue(s)
	}
	return types.SetValueMust(types.StringType, elems)
}

// without returns the strings of a not in b.
func without(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// listed finds the item whose id is id in a list the API reads a family
// through (agents, skills): nil when no item has it.
func listed[T any](all iter.Seq2[T, error], idOf func(T) string, id string) (*T, error) {
	return only(all, func(t T) bool { return idOf(t) == id }, "the id "+id)
}

// jsonObjects returns the JSON objects of a list attribute, each checked
// with admin.Canonical; nil when the list is null or unknown.
func jsonObjects(v types.List) ([]jsontext.Value, error) {
	ss := stringList(v)
	if ss == nil {
		return nil, nil
	}
	out := make([]jsontext.Value, len(ss))
	for i, s := range ss {
		c, err := admin.Canonical([]byte(s))
		if err != nil {
			return nil, fmt.Errorf("element %d %s", i, objectRule(err))
		}
		out[i] = jsontext.Value(c)
	}
	return out, nil
}

// float64Ptr is ptr (values.go) for a float.
func float64Ptr(v types.Float64) *float64 { return ptr(v, v.ValueFloat64()) }

// int32Ptr is ptr (values.go) for an int32 member, the value of the
// attribute attr: a value out of int32's range is an attrError naming
// the range, never a truncated value.
func int32Ptr(attr string, v types.Int64) (*int32, error) {
	n := v.ValueInt64()
	if known(v) && (n < math.MinInt32 || n > math.MaxInt32) {
		return nil, attrError{attr, fmt.Sprintf("must be between %d and %d", math.MinInt32, math.MaxInt32)}
	}
	return ptr(v, int32(n)), nil
}

// optInt32 and optFloat are opt (values.go) for the other numbers of
// read models.
func optInt32(o admin.Opt[int32]) types.Int64 {
	return opt(o, func(v int32) types.Int64 { return types.Int64Value(int64(v)) }, types.Int64Null())
}

func optFloat(o admin.Opt[float64]) types.Float64 {
	return opt(o, types.Float64Value, types.Float64Null())
}

// checkUUID stands for an id not known while validating.
const checkUUID = "00000000-0000-4000-8000-000000000000"

// checkable returns v, or placeholder when v is unknown (a reference, or
// a variable not known while validating), so that the SDK's checks judge
// the rest of a body.
func checkable(v types.String, placeholder string) types.String {
	if v.IsUnknown() {
		return types.StringValue(placeholder)
	}
	return v
}

// replacedOnceWritten requires a replacement when a member fixed at
// creation changes, but not when it is first written after an import that
// left it unset (no read returns it): that is no change.
func replacedOnceWritten() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(
		func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
			resp.RequiresReplace = !req.StateValue.IsNull()
		}, "a change creates a new object (a first value after an import does not)",
		"a change creates a new object (a first value after an import does not)")
}

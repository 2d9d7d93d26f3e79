package provider

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"math/big"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seed-a15e58aa/workflow-go/admin"
)

// JSON attributes hold a JSON object as a string, compared by meaning:
// key order, white space and the escaping of strings never make a
// difference (admin.Canonical is the one comparison). The string kept in
// state is the one written in the configuration while its meaning is
// the service's; a change made elsewhere is kept in canonical form.
//
// Such an attribute is Optional and Computed: the framework compares
// values by meaning after reads and writes, not while planning, so the
// plan modifier keeps the prior string when the configuration's means
// the same; that is only allowed for a computed attribute. Left out of
// the configuration, it is not managed: the plan keeps what the service
// holds, as for every optional attribute of this provider.

// jsonAttribute is the schema of a JSON attribute; required ones fail
// validation when left out.
func jsonAttribute(desc string, required bool) schema.StringAttribute {
	return schema.StringAttribute{
		Optional:      true,
		Computed:      true,
		Description:   desc + " A JSON object (jsonencode), compared by meaning.",
		Validators:    []validator.String{jsonObject{required: required}},
		PlanModifiers: []planmodifier.String{sameMeaning{}, stringplanmodifier.UseStateForUnknown()},
	}
}

// sameJSON reports whether a and b are JSON objects of the same meaning:
// the same canonical form (admin.Canonical), or one that differs only in
// how numbers are spelled (1, 1.0 and 1e0 are one number; the comparison
// is exact, never through float64).
func sameJSON(a, b string) bool {
	ca, err := admin.Canonical([]byte(a))
	if err != nil {
		return false
	}
	cb, err := admin.Canonical([]byte(b))
	if err != nil {
		return false
	}
	if bytes.Equal(ca, cb) {
		return true
	}
	var va, vb any
	return decodeNumbers(ca, &va) == nil && decodeNumbers(cb, &vb) == nil && sameValue(va, vb)
}

// decodeNumbers decodes data into v, numbers as json.Number.
func decodeNumbers(data []byte, v *any) error {
	d := stdjson.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(v)
}

// sameValue compares two decoded JSON values, numbers by their exact
// value.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, va := range a {
			if vb, ok := b[k]; !ok || !sameValue(va, vb) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		return ok && slices.EqualFunc(a, b, sameValue)
	case stdjson.Number:
		b, ok := b.(stdjson.Number)
		if !ok {
			return false
		}
		ra, okA := new(big.Rat).SetString(a.String())
		rb, okB := new(big.Rat).SetString(b.String())
		return okA && okB && ra.Cmp(rb) == 0
	default:
		return a == b
	}
}

// refreshJSON is the state of a JSON attribute after a read that found
// remote (nil: the service sent none): the prior string when it means
// the same, remote's canonical form otherwise.
func refreshJSON(prior types.String, remote []byte) types.String {
	if len(remote) == 0 {
		return types.StringNull()
	}
	if !prior.IsNull() && !prior.IsUnknown() && sameJSON(prior.ValueString(), string(remote)) {
		return prior
	}
	c, err := admin.Canonical(remote)
	if err != nil {
		return types.StringValue(string(remote))
	}
	return types.StringValue(string(c))
}

// jsonObject validates a JSON attribute.
type jsonObject struct{ required bool }

func (v jsonObject) Description(context.Context) string { return "must be one JSON object" }

func (v jsonObject) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v jsonObject) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsUnknown() {
		return
	}
	if req.ConfigValue.IsNull() {
		if v.required {
			resp.Diagnostics.AddAttributeError(req.Path, "Missing attribute", req.Path.String()+" is required.")
		}
		return
	}
	if _, err := admin.Canonical([]byte(req.ConfigValue.ValueString())); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid JSON", req.Path.String()+" "+objectRule(err))
	}
}

// sameMeaning plans the prior string of a JSON attribute whose configured
// string means the same, and the configured one otherwise.
type sameMeaning struct{}

func (sameMeaning) Description(context.Context) string {
	return "keeps the prior value when the configured JSON means the same"
}

func (m sameMeaning) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (sameMeaning) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	resp.PlanValue = req.ConfigValue
	if !req.StateValue.IsNull() && !req.StateValue.IsUnknown() && sameJSON(req.StateValue.ValueString(), req.ConfigValue.ValueString()) {
		resp.PlanValue = req.StateValue
	}
}

// objectRule is the rule an admin.Canonical error says was broken, in the
// configuration's words: "must be one JSON object", and why.
func objectRule(err error) string {
	why := strings.TrimPrefix(err.Error(), "admin: ")
	if strings.HasPrefix(why, "must be one JSON object") {
		return why
	}
	return "must be one JSON object: " + strings.TrimPrefix(why, "not one JSON object: ")
}

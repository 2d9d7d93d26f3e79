package provider

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seed-a15e58aa/workflow-go/admin"
)

// The bodies of the part 2 families, built from attributes with no CLI:
// what a configuration sets is sent, unknown and null are left out, and
// the rules the SDK cannot know name their attribute.

func TestSetsAndLists(t *testing.T) {
	set := setOf([]string{"b", "a"})
	if got := stringSet(set); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("stringSet = %v, want [a b]", got)
	}
	if got := stringSet(types.SetUnknown(types.StringType)); got != nil {
		t.Errorf("stringSet(unknown) = %v, want nil", got)
	}
	if got := stringSet(setOf(nil)); got == nil || len(got) != 0 {
		t.Errorf("stringSet(empty) = %#v, want an empty non-nil slice (sent as [])", got)
	}
	if got := without([]string{"a", "b", "c"}, []string{"b"}); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("without = %v", got)
	}
	if got := checkable(types.StringUnknown(), "x"); got.ValueString() != "x" {
		t.Errorf("checkable(unknown) = %v", got)
	}
	if got := checkable(types.StringNull(), "x"); !got.IsNull() {
		t.Errorf("checkable(null) = %v, want null", got)
	}
}

func TestGroupRequest(t *testing.T) {
	m := groupModel{Name: types.StringValue("Ops"), Assignable: types.BoolValue(false), Watchable: types.BoolUnknown(),
		Mentionable: types.BoolNull(), Tags: listOf(nil)}
	r := m.body()
	switch {
	case r.Name == nil || *r.Name != "Ops":
		t.Errorf("Name = %v", r.Name)
	case r.Assignable == nil || *r.Assignable:
		t.Errorf("Assignable = %v, want a pointer to false", r.Assignable)
	case r.Watchable != nil || r.Mentionable != nil:
		t.Error("unknown and null flags are sent")
	case r.Tags == nil || len(r.Tags) != 0:
		t.Errorf("Tags = %#v, want [] sent", r.Tags)
	}
}

func TestOrganizationDomainRequest(t *testing.T) {
	m := organizationDomainModel{Type: types.StringValue("EMAIL"), Domain: types.StringValue("mail.example.com"), SSO: types.BoolValue(false)}
	_, err := m.body()
	var ae attrError
	if !errors.As(err, &ae) || ae.attr != "sso" {
		t.Fatalf("an EMAIL domain with sso: %v, want an error on sso", err)
	}
	m.SSO = types.BoolNull()
	r, err := m.body()
	if err != nil || r.Email == nil || r.Managed != nil || *r.Email.Domain != "mail.example.com" {
		t.Fatalf("request = %+v, %v", r, err)
	}
	m = organizationDomainModel{Type: types.StringValue("MANAGED"), Domain: types.StringValue("example.com"), Internal: types.BoolValue(false)}
	if r, err = m.body(); err != nil || r.Managed == nil || r.Managed.Internal == nil || *r.Managed.Internal || r.Managed.SSO != nil {
		t.Fatalf("request = %+v, %v", r.Managed, err)
	}
}

func TestElementCreate(t *testing.T) {
	m := elementModel{Name: types.StringValue("Widgets"), CategoryID: types.StringValue(checkUUID), ReadOnly: types.BoolValue(false),
		Source: types.StringValue(`{"fields":[{"name":"Title","type":"TEXT"}],"cloudLinkId":"` + checkUUID + `"}`)}
	n, err := m.body()
	if err != nil {
		t.Fatal(err)
	}
	if n.Name != "Widgets" || n.ReadOnly == nil || *n.ReadOnly || len(n.Fields) != 1 || n.CloudLinkID == nil {
		t.Errorf("create = %+v", n)
	}
	m.Source = types.StringValue(`{"name":"Other"}`)
	var ae attrError
	if _, err := m.body(); !errors.As(err, &ae) || ae.attr != "source" || !strings.Contains(err.Error(), "must not hold name") {
		t.Errorf("a source holding name: %v", err)
	}
}

func TestPassthroughDefinition(t *testing.T) {
	for def, ok := range map[string]bool{`{"namespace":"x"}`: true, `{"id":"1","namespace":"x"}`: false, `{"nested":{"id":"1"}}`: true} {
		_, err := passthroughModel{Definition: types.StringValue(def)}.body()
		if (err == nil) != ok {
			t.Errorf("definition %s: %v", def, err)
		}
	}
}

func TestAgentAndSkillBodies(t *testing.T) {
	a := agentModel{Name: types.StringValue("Helper"), Temperature: types.Float64Value(0), MaxLength: types.Int64Null(),
		Tools: listOf([]string{`{"type":"search"}`}), A2ASkills: types.ListNull(types.StringType)}
	b, err := a.body()
	if err != nil {
		t.Fatal(err)
	}
	s := b.Agent.Elementum
	if s.Temperature == nil || *s.Temperature != 0 || s.MaxLength != nil || len(b.Tools) != 1 || b.A2ASkills != nil {
		t.Errorf("bundle = %+v, tools %v, a2a %v", s, b.Tools, b.A2ASkills)
	}
	a.Tools = listOf([]string{`[1]`})
	var ae attrError
	if _, err := a.body(); !errors.As(err, &ae) || ae.attr != "tools" {
		t.Errorf("a tool that is not an object: %v", err)
	}
	k := skillModel{Name: types.StringValue("Triage"), Status: types.StringValue("DRAFT"), Discovery: types.StringValue(`{"aliases":["t"]}`)}
	sb, err := k.body()
	if err != nil || sb.Skill.Status == nil || *sb.Skill.Status != "DRAFT" || sb.Skill.Discovery == nil || len(sb.Skill.Discovery.Aliases) != 1 {
		t.Errorf("bundle = %+v, %v", sb.Skill, err)
	}
}

// TestAgentMaxLength: max_length is an int32 on the wire; a value out of
// its range is an error on max_length naming the range, at validation
// (so at plan) and when the body is built, never a truncated value.
func TestAgentMaxLength(t *testing.T) {
	for _, tc := range []struct {
		v    int64
		want int32
		ok   bool
	}{
		{100, 100, true},
		{math.MaxInt32, math.MaxInt32, true},
		{math.MinInt32, math.MinInt32, true},
		{4294967396, 0, false}, // 2^32 + 100: would be sent as 100
		{math.MaxInt32 + 1, 0, false},
		{math.MinInt32 - 1, 0, false},
	} {
		m := agentModel{ID: types.StringNull(), App: types.StringValue("crm"), Type: types.StringNull(), Name: types.StringValue("Helper"),
			Description: types.StringNull(), MaxLength: types.Int64Value(tc.v), ReasoningEffort: types.StringNull(),
			Temperature: types.Float64Null(), Instructions: types.StringNull(), FirstMessage: types.StringNull(),
			AvatarAttachmentID: types.StringNull(), AIProviderConnectorID: types.StringNull(),
			Tools: types.ListNull(types.StringType), A2ASkills: types.ListNull(types.StringType)}
		b, err := m.body()
		var ae attrError
		switch {
		case tc.ok && (err != nil || *b.Agent.Elementum.MaxLength != tc.want):
			t.Errorf("max_length %d: bundle %v, %v; want %d", tc.v, b.Agent.Elementum, err, tc.want)
		case !tc.ok && (!errors.As(err, &ae) || ae.attr != "max_length" || !strings.Contains(err.Error(), "between -2147483648 and 2147483647")):
			t.Errorf("max_length %d: %v, want an error on max_length naming the range", tc.v, err)
		}
		r := &agentResource{}
		s := schemaOf(t, r)
		var resp resource.ValidateConfigResponse
		r.ValidateConfig(t.Context(), resource.ValidateConfigRequest{
			Config: tfsdk.Config{Schema: s.Schema, Raw: stateOf(t.Context(), t, s, m).Raw}}, &resp)
		errs := resp.Diagnostics.Errors()
		if tc.ok && len(errs) != 0 {
			t.Errorf("max_length %d: validation %v", tc.v, errs)
		}
		if !tc.ok && (len(errs) != 1 || !errs[0].(diag.DiagnosticWithPath).Path().Equal(path.Root("max_length"))) {
			t.Errorf("max_length %d: validation %v, want one error on max_length", tc.v, errs)
		}
	}
}

// TestViewTypes: the view's type accepts exactly the names of the write
// body's variants, and each builds the body's variant of its type.
func TestViewTypes(t *testing.T) {
	s := schemaOf(t, &viewResource{})
	v := s.Schema.Attributes["type"].(interface{ StringValidators() []validator.String }).StringValidators()
	var names []string
	for _, typ := range admin.ViewVariants() {
		names = append(names, typ.Variant())
	}
	if got := slices.Sorted(slices.Values(v[0].(oneOfValidator))); !slices.Equal(got, slices.Sorted(slices.Values(names))) {
		t.Errorf("type accepts %v, want the names of the body's variants %v", got, names)
	}
	for _, typ := range admin.ViewVariants() {
		name := typ.Variant()
		in := input(name, admin.ViewConfig{})
		got := map[admin.ViewType]bool{admin.ViewTypeList: in.List != nil, admin.ViewTypeKanban: in.Kanban != nil,
			admin.ViewTypeCalendar: in.Calendar != nil, admin.ViewTypeDashboard: in.Dashboard != nil, admin.ViewTypeAgent: in.Agent != nil}
		for k, set := range got {
			if set != (k == typ) {
				t.Errorf("input(%q) sets the variant %s: %v", name, k, set)
			}
		}
	}
}

package check

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// refusal has the shape of workflow.ValidationError.
type refusal struct {
	Field string
	Rule  string
	Err   error
}

type groupBody struct {
	Name    *string  `json:"name,omitempty"`
	UserIDs []string `json:"userIds,omitempty"`
}

type membersBody struct {
	UserIDs []string `json:"userIds" arg:"userIDs"`
}

type userBody struct {
	First string `json:"firstName"`
}

const uuid = "5f0c8a8e-4c1b-4d2a-9e3f-0a1b2c3d4e01"

func TestInvalid(t *testing.T) {
	assert.Equal(t, refusal{Field: "f", Rule: "r"}, *Invalid[refusal]("f", "r"))
}

func TestBody(t *testing.T) {
	body := func(v any) []byte {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return b
	}
	for _, tc := range []struct {
		name string
		id   op.ID
		v    any
		want *refusal
	}{
		{"an operation without a JSON body", op.GetGroup, groupBody{UserIDs: []string{"x"}}, nil},
		{"an operation that is none", "", groupBody{UserIDs: []string{"x"}}, nil},
		{"a body that holds", op.CreateGroup, groupBody{UserIDs: []string{uuid}}, nil},
		{"the field by its Go name", op.CreateGroup, groupBody{UserIDs: []string{uuid, "u2"}},
			&refusal{Field: "groupBody.UserIDs[1]", Rule: "must be a UUID"}},
		{"the argument a body is built from", op.AddUsersToGroup, membersBody{UserIDs: []string{"u1"}},
			&refusal{Field: "userIDs[0]", Rule: "must be a UUID"}},
		{"a required member the type does not model", op.CreateUser, userBody{First: "A"},
			&refusal{Field: "userBody.email", Rule: "is required"}},
		{"the whole body", op.CreateGroup, []string{"x"},
			&refusal{Field: "body", Rule: "must be an object (the operation's body)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Body[refusal](tc.id, tc.v, body(tc.v))
			if tc.want == nil {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, *tc.want, *got)
		})
	}
}

// TestBodyOfATakerIsProblemOrNil: an operation that takes a JSON body
// gets a problem or nil from package wire, never another error.
func TestBodyOfATakerIsProblemOrNil(t *testing.T) {
	assert.Nil(t, Body[refusal](op.CreateGroup, groupBody{}, []byte(`{}`)))
	got := Body[refusal](op.CreateGroup, groupBody{}, []byte(`{`))
	require.NotNil(t, got)
	assert.Equal(t, refusal{Field: "groupBody", Rule: "is not JSON"}, *got)
}

// opt is a wrapper whose JSON is its value's, as admin.Opt: it embeds
// Wraps first.
type opt[T any] struct {
	Wraps
	//lint:ignore U1000 its type is what Field reads
	v *T
}

// late embeds Wraps after its value: it is no wrapper.
type late struct {
	V *[]string `json:"v"`
	Wraps
}

// valuer has a Value method, as admin.Opt has, but embeds no Wraps: it is
// no wrapper, whatever its methods.
type valuer struct{ _ int }

func (valuer) Value() []string { return nil }

// exported has a Value method, and a field of its own.
type exported struct {
	Name string `json:"name"`
}

func (exported) Value() []string { return nil }

func TestField(t *testing.T) {
	type inner struct {
		Name string `json:"name"`
	}
	type wrapped struct {
		One  opt[inner]   `json:"one"`
		Many opt[[]inner] `json:"many"`
		Two  valuer       `json:"two"`
		Exp  exported     `json:"exp"`
	}
	wt := reflect.TypeFor[wrapped]()
	type outer struct {
		Items []inner            `json:"items"`
		Ptr   *inner             `json:"ptr,omitempty"`
		Map   map[string]inner   `json:"map"`
		Arr   [2]inner           `json:"arr"`
		Odd   string             `json:"a/b~c"`
		Raw   map[string]any     `json:"raw"`
		Deep  *[]map[string]*int `json:"deep"`
	}
	ot := reflect.TypeFor[outer]()
	for _, tc := range []struct {
		t         reflect.Type
		ptr, want string
	}{
		{ot, "", "outer"},
		{reflect.TypeFor[[]string](), "", "body"},
		{reflect.TypeFor[[]string](), "/3", "body[3]"},
		{reflect.TypeFor[struct{ A int }](), "/a", "body.a"},
		{ot, "/items/2/name", "outer.Items[2].Name"},
		{reflect.TypeFor[*outer](), "/ptr/name", "outer.Ptr.Name"},
		{ot, "/map/k/name", "outer.Map[k].Name"},
		{ot, "/arr/1/name", "outer.Arr[1].Name"},
		{ot, "/a~1b~0c", "outer.Odd"},
		{ot, "/raw/k/0/x", "outer.Raw[k][0].x"},
		{ot, "/deep/0/k", "outer.Deep[0][k]"},
		{ot, "/unknown/0/x", "outer.unknown[0].x"},
		{ot, "/items/0/extra", "outer.Items[0].extra"},
		{wt, "/one/name", "wrapped.One.Name"},
		{wt, "/many/1/name", "wrapped.Many[1].Name"},
		{wt, "/two/x", "wrapped.Two.x"},
		{wt, "/exp/name", "wrapped.Exp.Name"},
		{reflect.TypeFor[opt[inner]](), "/name", "inner.Name"},
		{reflect.TypeFor[late](), "/v/0", "late.V[0]"},
		{reflect.TypeFor[struct{ Wraps }](), "/x", "body.x"},
		{nil, "/name", "body.name"},
	} {
		assert.Equal(t, tc.want, Field(tc.t, tc.ptr), "%v %s", tc.t, tc.ptr)
	}
}

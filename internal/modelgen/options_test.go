package modelgen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlainReadModel: a plain read model's members are plain values, left
// out when zero, but where Tags gives other options; it has Extra and the
// JSON methods of a read model.
func TestPlainReadModel(t *testing.T) {
	out, err := generate(t, Type{Name: "Thing", From: []string{"Thing"}, Plain: true, GoTypes: map[string]string{"part": "bool"},
		Tags: map[string]string{"id": "", "count": "omitempty"}})
	require.NoError(t, err)
	for _, want := range []string{
		"ID string `json:\"id\"`",
		"Count int `json:\"count,omitempty\"`",
		"Kind Kind `json:\"kind,omitzero\"`",
		"Parts []Thing `json:\"parts,omitzero\"`",
		"Opaque jsontext.Value `json:\"opaque,omitzero\"`",
		"Extra map[string]jsontext.Value `json:\",embed\"`",
		"func (v *Thing) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, v) }",
	} {
		assert.Contains(t, squeeze(out), squeeze(want))
	}
	assert.NotContains(t, out, "Opt[")
}

// TestArgs: a member the configuration gives an argument's name has an
// arg tag after its json tag, in every kind of type.
func TestArgs(t *testing.T) {
	for name, typ := range map[string]Type{
		"reply": {Name: "change", From: []string{"ThingUpdate"}, Reply: true},
		"body":  {Name: "change", From: []string{"ThingUpdate"}, Body: true, GoTypes: map[string]string{"part": "string"}},
	} {
		t.Run(name, func(t *testing.T) {
			typ.Args = map[string]string{"extraIds": "ids"}
			typ.Doc = "change is a change."
			typ.GoTypes = map[string]string{"part": "string"}
			out, err := generate(t, typ)
			require.NoError(t, err)
			assert.Contains(t, out, "`json:\"extraIds")
			assert.Contains(t, out, "\" arg:\"ids\"`")
			assert.Equal(t, 1, strings.Count(out, "arg:"), "only the member named")
		})
	}
}

// TestNotesOnly: with NotesOnly, a member's note replaces the document's
// description; a member without a note keeps the description.
func TestNotesOnly(t *testing.T) {
	typ := Type{Name: "ThingCreate", From: []string{"Thing"}, Doc: "ThingCreate is a thing.", GoTypes: map[string]string{"part": "bool"},
		Notes: map[string]string{"count": "Count is the number of things in the set of things it counts."}}
	out, err := generate(t, typ)
	require.NoError(t, err)
	assert.Contains(t, squeeze(out), "// Count is the number of things in the set of things it counts. How many.")
	typ.NotesOnly = true
	out, err = generate(t, typ)
	require.NoError(t, err)
	assert.Contains(t, squeeze(out), "// Count is the number of things in the set of things it counts. Count Opt[int]")
	assert.NotContains(t, out, "How many.")

	typ.Notes = nil
	out, err = generate(t, typ)
	require.NoError(t, err)
	assert.Contains(t, squeeze(out), "Count Opt[int] `json:\"count,omitzero\"` // How many.")
}

// TestUnmarshal: the configuration chooses the function UnmarshalJSON
// calls, or leaves UnmarshalJSON to the hand-written code.
func TestUnmarshal(t *testing.T) {
	for name, c := range map[string]struct {
		body      bool
		unmarshal string
		want      string
	}{
		"read model":               {want: "func (v *In) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, v) }"},
		"body":                     {body: true, want: "func (v *In) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, v) }"},
		"body read as an answer":   {body: true, unmarshal: "Unmarshal", want: "// UnmarshalJSON reads v from JSON; unknown members go to Extra.\nfunc (v *In) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, v) }"},
		"read model, null refused": {unmarshal: "UnmarshalBody", want: "// UnmarshalJSON reads v from JSON; unknown members go to Extra, and a null\n// member is an error.\nfunc (v *In) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, v) }"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := render(t, nil, Type{Name: "In", From: []string{"First"}, Doc: "In is in.", Body: c.body, Unmarshal: c.unmarshal})
			require.NoError(t, err)
			assert.Contains(t, out, c.want)
			assert.Equal(t, 1, strings.Count(out, "UnmarshalJSON("))
		})
	}
	out, err := render(t, nil, Type{Name: "In", From: []string{"First"}, Doc: "In is in.", Unmarshal: "-"})
	require.NoError(t, err)
	assert.NotContains(t, out, "UnmarshalJSON")
	assert.True(t, strings.HasSuffix(out, "func (v In) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(v) }\n"), out)
}

// TestTimeImport: a member of a type of package time imports it, in a
// group of its own before the JSON library's.
func TestTimeImport(t *testing.T) {
	out, err := render(t, nil, Type{Name: "In", From: []string{"First"}, Doc: "In is in.", Plain: true, GoTypes: map[string]string{"a": "time.Time"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"time": "", "github.com/go-json-experiment/json/jsontext": "", "github.com/seed-a15e58aa/workflow-go/internal/jsonmodel": ""}, imports(t, out))
	assert.Contains(t, out, "import (\n\t\"time\"\n\n\t\"github.com/go-json-experiment/json/jsontext\"\n")
	assert.Contains(t, squeeze(out), "A time.Time `json:\"a,omitzero\"`")

	out, err = render(t, nil, Type{Name: "In", From: []string{"First"}, Doc: "In is in, at a time.Time.", Plain: true})
	require.NoError(t, err)
	assert.NotContains(t, imports(t, out), "time", "a comment naming time.Time imports nothing")
}

// TestPackageWorkflowImportsItselfNot: the models of package workflow name
// its types without importing it.
func TestPackageWorkflowImportsItselfNot(t *testing.T) {
	f := File{Package: "workflow", Name: "p_gen.go", Types: []Type{{Name: "Person", From: []string{"Person"}}, {Name: "Address", From: []string{"Address"}, Also: []string{"Home"}}}}
	out, err := Generate([]byte(renderDoc), f, []File{f}, map[string]string{"Manager": "workflow.User"})
	require.NoError(t, err)
	assert.NotContains(t, imports(t, string(out)), "github.com/seed-a15e58aa/workflow-go")
}

// TestCodeInDocComments: a paragraph of a doc comment whose lines begin
// with a tab is code, written as it is.
func TestCodeInDocComments(t *testing.T) {
	code := "\t{\"street\": \"" + strings.Repeat("a", 80) + "\"}\n\t{}"
	out, err := render(t, nil, Type{Name: "Address", From: []string{"Manager"}, Doc: "Address is an address:\n\n" + code + "\n\nThat is all."})
	require.NoError(t, err)
	assert.Equal(t, "// Address is an address:\n//\n//\t{\"street\": \""+strings.Repeat("a", 80)+"\"}\n//\t{}\n//\n// That is all.\n", docComment(t, out, "Address"))
}

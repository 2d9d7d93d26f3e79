package modelgen

import (
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renderDoc is a document for the tests of how members are merged and
// how comments and imports are written.
const renderDoc = `
openapi: 3.0.3
components:
  schemas:
    Address:
      type: object
      description: A postal address.
      properties:
        street: { type: string }
    Home:
      $ref: '#/components/schemas/Address'
    Person:
      type: object
      description: A person.
      properties:
        name: { type: string }
        home: { $ref: '#/components/schemas/Home' }
        office: { $ref: '#/components/schemas/Address' }
        manager: { $ref: '#/components/schemas/Manager' }
    Manager:
      type: object
      properties:
        name: { type: string }
    First:
      type: object
      required: [id, a]
      properties:
        id: { type: string }
        a: { type: string }
    Second:
      type: object
      required: [id]
      properties:
        id: { type: string }
        b: { type: string }
    SecondInt:
      type: object
      properties:
        id: { type: integer }
        b: { type: string }
`

func render(t *testing.T, hand map[string]string, types ...Type) (string, error) {
	t.Helper()
	f := File{Package: "p", Name: "p_gen.go", Types: types}
	out, err := Generate([]byte(renderDoc), f, []File{f}, hand)
	return string(out), err
}

// imports returns the import paths of the Go source src, by the name they
// are imported as ("" where none is given).
func imports(t *testing.T, src string) map[string]string {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "p_gen.go", src, parser.ImportsOnly)
	require.NoError(t, err)
	out := map[string]string{}
	for _, imp := range file.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		require.NoError(t, err)
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		}
		out[path] = name
	}
	return out
}

func TestImportsAreThoseTheModelsUse(t *testing.T) {
	for name, c := range map[string]struct {
		hand  map[string]string
		types []Type
		want  map[string]string
	}{
		"read model": {
			types: []Type{{Name: "Address", From: []string{"Address"}}},
			want: map[string]string{
				"github.com/go-json-experiment/json/jsontext":             "",
				"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel": "",
			},
		},
		"a hand-written type of package workflow": {
			hand:  map[string]string{"Manager": "workflow.User"},
			types: []Type{{Name: "Person", From: []string{"Person"}}, {Name: "Address", From: []string{"Address"}, Also: []string{"Home"}}},
			want: map[string]string{
				"github.com/go-json-experiment/json/jsontext":             "",
				"github.com/seed-a15e58aa/workflow-go":                    "workflow",
				"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel": "",
			},
		},
		"only package workflow, in a reply": {
			hand:  map[string]string{"Manager": "workflow.User"},
			types: []Type{{Name: "person", From: []string{"Person"}, Reply: true, GoTypes: map[string]string{"home": "string", "office": "string"}}},
			want:  map[string]string{"github.com/seed-a15e58aa/workflow-go": "workflow"},
		},
		"none, in a reply of plain values": {
			types: []Type{{Name: "address", From: []string{"Address"}, Reply: true}},
			want:  map[string]string{},
		},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := render(t, c.hand, c.types...)
			require.NoError(t, err)
			assert.Equal(t, c.want, imports(t, out))
		})
	}
}

// TestMemberOfAnAliasSchema: a member whose $ref names a schema that is
// itself a $ref has the Go type the configuration makes of the schema it
// names (through Also), not that of the schema the alias points at.
func TestMemberOfAnAliasSchema(t *testing.T) {
	out, err := render(t, map[string]string{"Manager": "Manager"},
		Type{Name: "Person", From: []string{"Person"}},
		Type{Name: "Address", From: []string{"Address"}},
		Type{Name: "HomeAddress", From: []string{"First"}, Also: []string{"Home"}, Doc: "HomeAddress is where a person lives."})
	require.NoError(t, err)
	assert.Contains(t, squeeze(out), "Home Opt[HomeAddress] `json:\"home,omitzero\"`")
	assert.Contains(t, squeeze(out), "Office Opt[Address] `json:\"office,omitzero\"`")
}

// TestMergedMembers covers a member that every schema of a type has, first
// in each: it is written once, required where all require it, and the
// schemas must agree on its type.
func TestMergedMembers(t *testing.T) {
	out, err := render(t, nil, Type{Name: "Input", From: []string{"First", "Second"}, Body: true, Doc: "Input is an input."})
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(out, `json:"id`), "id is written once:\n%s", out)
	assert.Contains(t, squeeze(out), "ID string `json:\"id\"`")
	assert.Contains(t, squeeze(out), "A *string `json:\"a,omitzero\"`", "a is required by one schema only")
	assert.Contains(t, squeeze(out), "B *string `json:\"b,omitzero\"`")
	assert.Less(t, strings.Index(out, "ID "), strings.Index(out, "A "))
	assert.Less(t, strings.Index(out, "A "), strings.Index(out, "B "))

	_, err = render(t, nil, Type{Name: "Input", From: []string{"First", "SecondInt"}, Body: true, Doc: "Input is an input."})
	assert.ErrorContains(t, err, "Input: member id is string in one schema, int in another")
}

func TestMemberNoteIsTrailingUpToMaxTrailing(t *testing.T) {
	short := strings.Repeat("n", maxTrailing-5) + " note"
	long := short + "s"
	require.Len(t, short, maxTrailing)
	for name, c := range map[string]struct {
		note, want string
	}{
		"at the limit, after the member": {short, "\tA string `json:\"a\"` // " + short + "\n"},
		"longer, above the member":       {long, "\t// " + long + "\n\tA string `json:\"a\"`\n"},
		"naming the member, above it":    {"A is a letter.", "\t// A is a letter.\n\tA string `json:\"a\"`\n"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := render(t, nil, Type{Name: "Input", From: []string{"First"}, Body: true, Doc: "Input is an input.", Notes: map[string]string{"a": c.note}})
			require.NoError(t, err)
			assert.Contains(t, squeeze(out), squeeze(c.want))
		})
	}
}

func TestExtraComment(t *testing.T) {
	const (
		readDefault = "\t// Extra holds the members the fields above do not model, as raw JSON.\n\tExtra map"
		bodyDefault = "\t// Extra holds further members, forwarded as they are.\n\tExtra map"
		custom      = "\t// Extra keeps the rest.\n\tExtra map"
	)
	for name, c := range map[string]struct {
		body  bool
		extra string
		want  string
	}{
		"read model":                  {want: readDefault},
		"read model, from the config": {extra: "Extra keeps the rest.", want: custom},
		"body":                        {body: true, want: bodyDefault},
		"body, from the config":       {body: true, extra: "Extra keeps the rest.", want: custom},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := render(t, nil, Type{Name: "Address", From: []string{"Address"}, Body: c.body, Extra: c.extra})
			require.NoError(t, err)
			assert.Contains(t, squeeze(out), squeeze(c.want))
			assert.Equal(t, 1, strings.Count(out, "// Extra "), "one comment on Extra")
		})
	}
}

// docComment returns the comment before the type declaration of name.
func docComment(t *testing.T, out, name string) string {
	t.Helper()
	end := strings.Index(out, "type "+name+" struct")
	require.GreaterOrEqual(t, end, 0, out)
	start := strings.LastIndex(out[:end], "\n\n")
	return out[start+2 : end]
}

func TestDocCommentParagraphs(t *testing.T) {
	for name, c := range map[string]struct {
		doc, want string
	}{
		"one paragraph":  {"Address is an address.", "// Address is an address.\n"},
		"two paragraphs": {"Address is an address.\n\nIt has a street.", "// Address is an address.\n//\n// It has a street.\n"},
		"three, a blank one left out": {"One.\n\n\n\nTwo.\n\nThree.",
			"// One.\n//\n// Two.\n//\n// Three.\n"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := render(t, nil, Type{Name: "Address", From: []string{"Manager"}, Doc: c.doc})
			require.NoError(t, err)
			assert.Equal(t, c.want, docComment(t, out, "Address"))
		})
	}
}

// TestDocCommentWraps: lines are filled with as many words as fit in 76
// columns; a word longer than that is a line of its own.
func TestDocCommentWraps(t *testing.T) {
	w36 := strings.Repeat("a", 36)
	long := strings.Repeat("z", 80)
	for name, c := range map[string]struct {
		doc, want string
	}{
		"a line of exactly 76 columns": {w36 + " " + w36 + " b c",
			"// " + w36 + " " + w36 + "\n// b c\n"},
		"a short word that just fits": {w36 + " " + w36[2:] + " b c",
			"// " + w36 + " " + w36[2:] + " b\n// c\n"},
		"a word longer than a line": {"x " + long + " y",
			"// x\n// " + long + "\n// y\n"},
		"a long word first": {long + " y", "// " + long + "\n// y\n"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := render(t, nil, Type{Name: "Address", From: []string{"Manager"}, Doc: c.doc})
			require.NoError(t, err)
			assert.Equal(t, c.want, docComment(t, out, "Address"))
		})
	}
}

// TestLongCommentsAreFilled checks the comments of a long text, before a
// type and before a member: no line is longer than 76 columns (a tab
// counting as one), none could have taken the next line's first word, and
// together they are the text.
func TestLongCommentsAreFilled(t *testing.T) {
	text := strings.TrimSpace(strings.Repeat("The quick brown fox jumps over the lazy dog, then naps in the warm sun. ", 6))
	out, err := render(t, nil, Type{Name: "Address", From: []string{"First"}, Body: true, Doc: text, Notes: map[string]string{"a": text}})
	require.NoError(t, err)
	var member []string
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "\tA ") {
			for j := i - 1; j >= 0 && strings.HasPrefix(lines[j], "\t//"); j-- {
				member = append([]string{lines[j]}, member...)
			}
		}
	}
	for name, block := range map[string]struct {
		indent string
		lines  []string
	}{
		"type":   {"", strings.Split(strings.TrimSuffix(docComment(t, out, "Address"), "\n"), "\n")},
		"member": {"\t", member},
	} {
		t.Run(name, func(t *testing.T) {
			require.Greater(t, len(block.lines), 3)
			var words []string
			for i, l := range block.lines {
				assert.LessOrEqual(t, len(l), 76, "line %q", l)
				words = append(words, strings.Fields(strings.TrimPrefix(l, block.indent+"//"))...)
				if i+1 < len(block.lines) {
					next := strings.Fields(strings.TrimPrefix(block.lines[i+1], block.indent+"//"))[0]
					assert.Greater(t, len(l)+1+len(next), 76, "line %q could have taken %q", l, next)
				}
			}
			assert.Equal(t, text, strings.Join(words, " "))
		})
	}
}

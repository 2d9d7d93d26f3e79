package modelgen

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// opsDoc is a document whose operations send bodies that no type of the
// configuration is made of.
const opsDoc = `
openapi: 3.0.3
paths:
  /things:
    parameters: []
    post:
      operationId: createThing
      tags: [Things]
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewThing' }
  /things/{id}:
    put:
      operationId: putThing
      tags: [Other, Things]
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/thingPatch' }
    patch:
      operationId: patchThing
      tags: [Things]
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/thingPatch' }
    get:
      operationId: getThing
      tags: [Things]
  /others:
    post:
      operationId: createOther
      tags: [Other]
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/OtherInput' }
  /free:
    post:
      operationId: sendFree
      tags: [Things]
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Free' }
          text/plain:
            schema: { type: string }
  /empty:
    post:
      operationId: sendEmpty
      tags: [Things]
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Empty' }
  /form:
    post:
      operationId: sendForm
      tags: [Things]
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Form' }
  /known:
    post:
      operationId: sendKnown
      tags: [Things]
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Known' }
  /text:
    post:
      operationId: sendText
      tags: [Things]
      requestBody:
        content:
          text/plain:
            schema: { type: string }
components:
  schemas:
    NewThing:
      type: object
      description: A thing to make.
      required: [name]
      properties:
        name: { type: string }
        avatarUrl: { type: string }
        part: { $ref: '#/components/schemas/Part' }
        parts: { type: array, items: { $ref: '#/components/schemas/Part' } }
        known: { $ref: '#/components/schemas/Known' }
        hand: { $ref: '#/components/schemas/Hand' }
    thingPatch:
      type: object
      properties:
        userIds: { type: array, items: { type: string } }
        items: { type: array, items: { $ref: '#/components/schemas/Item' } }
    Part:
      type: object
      properties:
        on: { type: boolean }
    Item:
      type: object
      properties:
        n: { type: integer }
    Hand:
      type: object
      properties:
        x: { type: string }
    OtherInput:
      type: object
      properties:
        a: { type: string }
    Free:
      type: object
      additionalProperties: true
      properties:
        name: { type: string }
    Empty:
      type: object
    Form:
      type: object
      properties:
        secret: { type: string }
    Known:
      type: object
      properties:
        k: { type: string }
`

// thingsSet is a set of package p for the operations tagged Things, with
// one type of its own (Known) in the file the defaults go to.
func thingsSet() Set {
	return Set{
		Files:  []File{{Package: "p", Name: "p_gen.go", Types: []Type{{Name: "Known", From: []string{"Known"}, Doc: "Known is known."}}}},
		Hand:   map[string]string{"Hand": "Hand"},
		Tags:   []string{"Things"},
		Bodies: "p_gen.go",
		Skip:   []string{"Form"},
	}
}

// TestUnconfiguredBodies: an operation's body that the configuration does
// not name is generated all the same, under its schema's name, exported,
// with the object schemas it names; free-form and skipped bodies, and
// those of other packages' operations, are not.
func TestUnconfiguredBodies(t *testing.T) {
	files, err := thingsSet().Resolve([]byte(opsDoc))
	require.NoError(t, err)
	require.Len(t, files, 1)
	var got []Type
	for _, typ := range files[0].Types {
		got = append(got, Type{Name: typ.Name, From: typ.From, Body: typ.Body, Doc: typ.Doc})
	}
	assert.Equal(t, []Type{
		{Name: "Known", From: []string{"Known"}, Doc: "Known is known."},
		{Name: "NewThing", From: []string{"NewThing"}, Body: true, Doc: "NewThing is the body of createThing."},
		{Name: "Part", From: []string{"Part"}, Body: true, Doc: "Part is a member of NewThing."},
		{Name: "ThingPatch", From: []string{"thingPatch"}, Body: true, Doc: "ThingPatch is the body of putThing and patchThing."},
		{Name: "Item", From: []string{"Item"}, Body: true, Doc: "Item is a member of ThingPatch."},
	}, got)
	assert.Len(t, thingsSet().Files[0].Types, 1, "the configuration is left as it is")

	out, err := Generate([]byte(opsDoc), files[0], files, thingsSet().Hand)
	require.NoError(t, err)
	for _, want := range []string{
		"// NewThing is the body of createThing. A thing to make.\ntype NewThing struct {",
		"Name string `json:\"name\"`",
		"AvatarURL *string `json:\"avatarUrl,omitzero\"`",
		"Part *Part `json:\"part,omitzero\"`",
		"Parts []Part `json:\"parts,omitzero\"`",
		"Known *Known `json:\"known,omitzero\"`",
		"Hand *Hand `json:\"hand,omitzero\"`",
		"// ThingPatch is the body of putThing and patchThing.\ntype ThingPatch struct {",
		"UserIDs []string `json:\"userIds,omitzero\"`",
		"func (v *ThingPatch) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, v) }",
	} {
		assert.Contains(t, squeeze(string(out)), squeeze(want))
	}
}

// TestUnconfiguredBodiesFile: the defaults go to a file of their own when
// the set has no file named Bodies; a set without them has none.
func TestUnconfiguredBodiesFile(t *testing.T) {
	set := thingsSet()
	set.Bodies = "bodies_gen.go"
	files, err := set.Resolve([]byte(opsDoc))
	require.NoError(t, err)
	require.Len(t, files, 2)
	assert.Equal(t, set.Files[0], files[0])
	assert.Equal(t, "bodies_gen.go", files[1].Name)
	assert.Equal(t, "p", files[1].Package)
	assert.Len(t, files[1].Types, 4)

	set.Tags = []string{"Nothing"}
	files, err = set.Resolve([]byte(opsDoc))
	require.NoError(t, err)
	assert.Equal(t, set.Files, files)
}

func TestUnconfiguredBodyRefusals(t *testing.T) {
	set := thingsSet()
	set.Files[0].Types = append(set.Files[0].Types, Type{Name: "Part", From: []string{"Known.k"}, Doc: "Part."})
	_, err := set.Resolve([]byte(opsDoc))
	assert.ErrorContains(t, err, "the default name of body schema Part, Part, is taken")

	set = thingsSet()
	set.Files[0].Types = append(set.Files[0].Types, Type{Name: "NewThing", From: []string{"Known.k"}, Doc: "NewThing."})
	_, err = set.Resolve([]byte(opsDoc))
	assert.ErrorContains(t, err, "the default name of body schema NewThing, NewThing, is taken")

	inline := `
paths:
  /x:
    post:
      operationId: sendX
      tags: [Things]
      requestBody: { content: { application/json: { schema: { type: object } } } }
components: { schemas: {} }
`
	_, err = thingsSet().Resolve([]byte(inline))
	assert.ErrorContains(t, err, "the body of sendX is an inline schema")

	noID := `
paths:
  /x:
    post:
      requestBody: { content: { application/json: { schema: { type: object } } } }
components: { schemas: {} }
`
	_, err = thingsSet().Resolve([]byte(noID))
	assert.ErrorContains(t, err, "post /x has a body and no operationId")

	_, err = thingsSet().Resolve([]byte("openapi: 3.0.3\n"))
	assert.ErrorContains(t, err, "no components.schemas")
	_, err = thingsSet().Resolve([]byte("components: {schemas: {}}\npaths: [\n"))
	assert.ErrorContains(t, err, "reading the document")
}

func TestDefaultName(t *testing.T) {
	for in, want := range map[string]string{
		"GroupUserIdsInput": "GroupUserIDsInput",
		"thingId":           "ThingID",
		"IdInput":           "IDInput",
		"Identity":          "Identity",
		"AvatarUrl":         "AvatarURL",
		"UrlsInput":         "URLsInput",
		"Urlish":            "Urlish",
		"Plain":             "Plain",
	} {
		assert.Equal(t, want, DefaultName(in), in)
	}
}

// TestStaleBodiesFile: a file of defaults that no body needs any more is
// stale (go generate removes it).
func TestStaleBodiesFile(t *testing.T) {
	doc, err := os.ReadFile("../contract/openapi.yaml")
	require.NoError(t, err)
	dir := t.TempDir()
	for _, f := range Admin {
		out, err := Generate(doc, f, Admin, AdminHand)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), out, 0o644))
	}
	stale, err := Stale(doc, "admin", dir)
	require.NoError(t, err)
	assert.Empty(t, stale)
	require.NoError(t, os.WriteFile(filepath.Join(dir, Sets["admin"].Bodies), []byte("package admin\n"), 0o644))
	stale, err = Stale(doc, "admin", dir)
	require.NoError(t, err)
	assert.Equal(t, []string{Sets["admin"].Bodies}, stale)
}

// TestEveryBodyHasAPackage: each JSON request body of the contract
// document is sent by one package: its operation's tags are among the
// Tags of exactly one set, so that a body no entry names is generated
// there (a new tag is named in Sets).
func TestEveryBodyHasAPackage(t *testing.T) {
	doc, err := os.ReadFile("../contract/openapi.yaml")
	require.NoError(t, err)
	ops, err := bodies(doc)
	require.NoError(t, err)
	require.NotEmpty(t, ops)
	for _, b := range ops {
		var in []string // each package once, however many of the tags its set names
		for pkg, set := range Sets {
			if slices.ContainsFunc(b.tags, func(tag string) bool { return slices.Contains(set.Tags, tag) }) {
				in = append(in, pkg)
			}
		}
		slices.Sort(in)
		assert.Len(t, in, 1, "%s (tags %v) is sent by %v: name its tag in one set's Tags", b.op, b.tags, in)
	}
}

package shape

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/wire"
	"github.com/seed-a15e58aa/workflow-go/internal/wire/internal/compile"
)

// smallForm is testdata/small.yaml compiled and read as the embedded form is.
func smallForm(t *testing.T) *wire.Form {
	t.Helper()
	cf := formOf(t, string(readSmall(t)))
	require.Equal(t, 0, cf.Bodies["One"], "One is node 0")
	return cf
}

// formOf is doc compiled and read as the embedded form is.
func formOf(t *testing.T, doc string) *wire.Form {
	t.Helper()
	f, err := compile.Compile([]byte(doc))
	require.NoError(t, err)
	b, err := f.Marshal()
	require.NoError(t, err)
	var cf wire.Form
	require.NoError(t, json.Unmarshal(b, &cf))
	return &cf
}

func TestPromisedOnASmallDocument(t *testing.T) {
	f := smallForm(t)
	tests := []struct {
		name, op    string
		reply, want string
	}{
		{name: "undeclared members by node 0's schema", op: "b",
			reply: `{"map":{"k":{"a":"1","junk":2},"l":{"b":"2"}},"extra":true}`,
			want:  `{"map":{"k":{"a":"1"},"l":{"b":"2"}}}`},
		{name: "items by node 0's schema", op: "b",
			reply: `{"list":[{"a":"1","junk":2},{"b":"2"}]}`,
			want:  `{"list":[{"a":"1"},{"b":"2"}]}`},
		{name: "oneOf: the first alternative whose required members are there", op: "either",
			reply: `{"id":"1","name":"n","kind":"k","junk":0}`, want: `{"id":"1","kind":"k"}`},
		{name: "oneOf: the second", op: "either",
			reply: `{"name":"n","kind":"k","junk":0}`, want: `{"name":"n","kind":"k"}`},
		{name: "oneOf: the last when none fits", op: "either",
			reply: `{"kind":"k","junk":0}`, want: `{"kind":"k"}`},
		{name: "oneOf: a value that is not an object is kept", op: "either",
			reply: `"text"`, want: `"text"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := prune(f, f.Replies[tt.op], []byte(tt.reply))
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}

// sampleDocument's Tree refers to itself through required members, so
// that a sample of it stops at sampleDepth.
const sampleDocument = `openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /tree:
    post:
      operationId: tree
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Tree'}}}}
      responses: {'204': {description: none}}
components:
  schemas:
    Tree:
      type: object
      required: [name, child, children, free, pick, none, ghost]
      properties:
        name: {type: string, minLength: 3}
        child: {$ref: '#/components/schemas/Tree'}
        children: {type: array, items: {$ref: '#/components/schemas/Tree'}}
        free: {type: array}
        pick: {type: object, x-exactly-one: true, properties: {b: {type: boolean}, a: {type: integer}}}
        none: {type: object, x-exactly-one: true}
`

func TestSampleStopsAtItsDepth(t *testing.T) {
	cf := formOf(t, sampleDocument)

	var depth func(v any) int // how deep child nests
	depth = func(v any) int {
		m := v.(map[string]any)
		if c, ok := m["child"]; ok {
			return 1 + depth(c)
		}
		return 0
	}
	got := sample(cf, cf.Bodies["Tree"], 0)
	assert.Equal(t, sampleDepth, depth(got), "child nests down to the bound")

	top := got.(map[string]any)
	assert.Equal(t, "xxx", top["name"], "a string as long as its minLength")
	assert.Equal(t, []any{}, top["free"], "an array of no item schema is empty")
	assert.Equal(t, map[string]any{"a": 1}, top["pick"], "exactly one: the first member by name")
	assert.Equal(t, map[string]any{}, top["none"], "exactly one of nothing: none")
	assert.Equal(t, "x", top["ghost"], "a required member the schema does not declare")
	children := top["children"].([]any)
	require.Len(t, children, 1)
	assert.Equal(t, sampleDepth-2, depth(children[0]), "an array is one level down, its item two")

	at := got
	for range sampleDepth {
		at = at.(map[string]any)["child"]
	}
	assert.Equal(t, map[string]any{}, at, "at the bound, an empty object")
	assert.Equal(t, []any{}, sample(cf, cf.Nodes[cf.Bodies["Tree"]].Props["children"], sampleDepth), "at the bound, an empty array")
}

// readSmall reads the small contract document both wire's and shape's
// tests compile.
func readSmall(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../testdata/small.yaml")
	require.NoError(t, err)
	return b
}

package compile_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/wire/internal/compile"
)

// document returns a contract document of the given path items and
// component schemas, each written flush left in YAML.
func document(paths, schemas string) []byte {
	return []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n" + indent(paths, "  ") +
		"components:\n  schemas:\n" + indent(schemas, "    "))
}

func indent(s, by string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		b.WriteString(by + line)
	}
	if !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
	return b.String()
}

// takes is the path item of operation id, whose JSON body is schema (a
// YAML schema object, in flow style).
func takes(id, schema string) string {
	return "/" + id + ":\n  post:\n    operationId: " + id +
		"\n    requestBody: {content: {application/json: {schema: " + schema + "}}}" +
		"\n    responses: {'204': {description: none}}\n"
}

// answers is the path item of operation id, whose 200 reply is schema.
func answers(id, schema string) string {
	return "/" + id + ":\n  get:\n    operationId: " + id +
		"\n    responses: {'200': {description: ok, content: {application/json: {schema: " + schema + "}}}}\n"
}

func ref(name string) string { return "{$ref: '#/components/schemas/" + name + "'}" }

// render writes node i of f as JSON with its member, item, undeclared
// member and alternative nodes written in place (a node met again on the
// way down is "^" and its name), so that a test states a schema's compiled
// form without its indexes.
func render(f *compile.Form, i int) string {
	b, err := json.Marshal(tree(f, i, nil))
	if err != nil {
		panic(err)
	}
	return string(b)
}

func tree(f *compile.Form, i int, above []int) any {
	n := f.Nodes[i]
	if slices.Contains(above, i) {
		return "^" + n.Name
	}
	above = append(above, i)
	m := map[string]any{}
	set := func(k string, v any, ok bool) {
		if ok {
			m[k] = v
		}
	}
	set("t", n.Type, n.Type != "")
	set("f", n.Format, n.Format != "")
	set("e", n.Enum, n.Enum != nil)
	set("min", n.MinLen, n.MinLen != 0)
	set("r", n.Required, n.Required != nil)
	set("o", n.Open, n.Open)
	set("one", n.OneOf, n.OneOf)
	set("excl", n.Excl, n.Excl != nil)
	set("proj", n.Project, n.Project)
	set("n", n.Name, n.Name != "")
	if n.Props != nil {
		p := map[string]any{}
		for k, x := range n.Props {
			p[k] = tree(f, x, above)
		}
		m["p"] = p
	}
	if n.Extra != -1 {
		m["x"] = tree(f, n.Extra, above)
	}
	if n.Items != -1 {
		m["i"] = tree(f, n.Items, above)
	}
	if n.Alts != nil {
		var alts []any
		for _, a := range n.Alts {
			alts = append(alts, tree(f, a, above))
		}
		m["alts"] = alts
	}
	return m
}

func TestCompileBodies(t *testing.T) {
	tests := []struct {
		name    string
		schemas string // component schemas; the operation "make" takes Body
		want    string // render of Body
	}{
		{name: "members, requirements, formats, enums and the component's name",
			schemas: `Body:
  type: object
  required: [b, a]
  properties:
    a: {type: string, format: uuid}
    b: {type: integer, format: int32}
    c: {type: array, items: {type: string, format: email}}
    d: {type: string, format: date-time, enum: [Y, X]}
    e: {type: number, format: double}
    f: {type: boolean}`,
			want: `{"t":"object","n":"Body","r":["a","b"],"p":{
				"a":{"t":"string","f":"uuid"},
				"b":{"t":"integer","f":"int32"},
				"c":{"t":"array","i":{"t":"string","f":"email"}},
				"d":{"t":"string","f":"date-time","e":["X","Y"]},
				"e":{"t":"number","f":"double"},
				"f":{"t":"boolean"}}}`},
		{name: "allOf merges members and requirements; a later part's member wins",
			schemas: `Base:
  type: object
  required: [a]
  properties:
    a: {type: string}
    b: {type: string}
Body:
  allOf:
    - ` + ref("Base") + `
    - type: object
      required: [c, a]
      properties:
        b: {type: integer, format: int64}
        c: {type: boolean}`,
			want: `{"t":"object","n":"Body","r":["a","c"],"p":{"a":{"t":"string"},"b":{"t":"integer","f":"int64"},"c":{"t":"boolean"}}}`},
		{name: "allOf: a part that leaves out type, format or minLength keeps the others'; enums add up",
			schemas: `Body:
  type: object
  properties:
    s:
      allOf:
        - {type: string, format: uuid, minLength: 3, enum: [b]}
        - {description: more, enum: [a]}
    t:
      allOf:
        - {minLength: 1}
        - {type: string, minLength: 2}`,
			want: `{"t":"object","n":"Body","p":{"s":{"t":"string","f":"uuid","min":3,"e":["a","b"]},"t":{"t":"string","min":2}}}`},
		{name: "members make an object of a schema without a type; an empty schema takes any value",
			schemas: `Body:
  properties:
    any: {}
    none: {type: []}`,
			want: `{"t":"object","n":"Body","p":{"any":{},"none":{}}}`},
		{name: "additionalProperties: true, a schema, false",
			schemas: `Body:
  type: object
  properties:
    open: {type: object, additionalProperties: true}
    typed: {type: object, additionalProperties: {type: string, format: uuid}}
    closed: {type: object, additionalProperties: false, properties: {a: {type: string}}}
    later: {allOf: [{type: object}, {additionalProperties: true}]}`,
			want: `{"t":"object","n":"Body","p":{
				"open":{"t":"object","o":true},
				"typed":{"t":"object","x":{"t":"string","f":"uuid"}},
				"closed":{"t":"object","p":{"a":{"t":"string"}}},
				"later":{"t":"object","o":true}}}`},
		{name: "the prose rules: x-exactly-one, x-mutually-exclusive (in the document's order), x-project-rule",
			schemas: `Body:
  type: object
  x-exactly-one: true
  properties:
    managed:
      type: object
      x-mutually-exclusive: [sso, selfRegistration]
      properties:
        sso: {type: boolean}
        selfRegistration: {type: boolean}
    email: {type: object, x-exactly-one: false}
    name: {type: string, minLength: 1, x-project-rule: the fake's own}`,
			want: `{"t":"object","n":"Body","one":true,"p":{
				"managed":{"t":"object","excl":["sso","selfRegistration"],"p":{"sso":{"t":"boolean"},"selfRegistration":{"t":"boolean"}}},
				"email":{"t":"object"},
				"name":{"t":"string","min":1,"proj":true}}}`},
		{name: "an alias keeps its target's name",
			schemas: `Target: {type: object, properties: {a: {type: string}}}
Body: ` + ref("Target"),
			want: `{"t":"object","n":"Target","p":{"a":{"t":"string"}}}`},
		{name: "a schema that holds itself is one node",
			schemas: `Body:
  type: object
  properties:
    kids: {type: array, items: ` + ref("Body") + `}`,
			want: `{"t":"object","n":"Body","p":{"kids":{"t":"array","i":"^Body"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := compile.Compile(document(takes("make", ref("Body")), tt.schemas))
			require.NoError(t, err)
			require.Contains(t, f.Bodies, "Body")
			assert.JSONEq(t, tt.want, render(f, f.Bodies["Body"]))
		})
	}
}

// A body is known by its component's name; an operation whose body is not
// JSON, has no schema, or that has no body, has none.
func TestCompileWhichBodies(t *testing.T) {
	paths := takes("make", ref("Body")) + takes("alias", ref("Alias")) + `/text:
  post:
    operationId: text
    requestBody: {content: {text/plain: {schema: {type: string}}}}
    responses: {'201': {description: made}}
/schemaless:
  post:
    operationId: schemaless
    requestBody: {content: {application/json: {}}}
    responses: {'201': {description: made}}
/none:
  delete:
    operationId: none
    responses: {'204': {description: gone}}
`
	f, err := compile.Compile(document(paths, `Body: {type: object}
Alias: `+ref("Body")))
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"Alias": 0, "Body": 0}, f.Bodies)
	assert.Equal(t, map[string]int{}, f.Replies)
	assert.Equal(t, []compile.Node{{Type: "object", Extra: -1, Items: -1, Name: "Body"}}, f.Nodes)
}

func TestCompileReplies(t *testing.T) {
	schemas := `A: {type: object, required: [id], properties: {id: {type: string}}}
B: {type: object, required: [name], properties: {name: {type: string}}}
C: {type: object, properties: {error: {type: string}}}
Either: {oneOf: [` + ref("A") + `, ` + ref("B") + `]}`
	tests := []struct {
		name      string
		responses string // the operation "get"'s, in flow style
		want      string // render of its reply; "" none
	}{
		{name: "the lowest 2xx status with JSON content",
			responses: `{'200': {description: no body}, '202': {description: b, content: {application/json: {schema: ` + ref("B") + `}}},` +
				` '201': {description: a, content: {application/json: {schema: ` + ref("A") + `}}}, '400': {description: c, content: {application/json: {schema: ` + ref("C") + `}}}}`,
			want: `{"t":"object","n":"A","r":["id"],"p":{"id":{"t":"string"}}}`},
		{name: "a oneOf's alternatives, in order",
			responses: `{'200': {description: ok, content: {application/json: {schema: ` + ref("Either") + `}}}}`,
			want:      `{"n":"Either","alts":[{"t":"object","n":"A","r":["id"],"p":{"id":{"t":"string"}}},{"t":"object","n":"B","r":["name"],"p":{"name":{"t":"string"}}}]}`},
		{name: "no content", responses: `{'204': {description: none}}`},
		{name: "not JSON", responses: `{'200': {description: text, content: {text/plain: {schema: {type: string}}}}}`},
		{name: "JSON without a schema", responses: `{'200': {description: text, content: {application/json: {}}}}`},
		{name: "JSON on an error only", responses: `{'204': {description: none}, '400': {description: c, content: {application/json: {schema: ` + ref("C") + `}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			paths := "/get:\n  get:\n    operationId: get\n    responses: " + tt.responses + "\n"
			f, err := compile.Compile(document(paths, schemas))
			require.NoError(t, err)
			i, ok := f.Replies["get"]
			if tt.want == "" {
				assert.False(t, ok, "a reply compiled")
				assert.Empty(t, f.Nodes)
				return
			}
			require.True(t, ok)
			assert.JSONEq(t, tt.want, render(f, i))
		})
	}

	t.Run("an operation without responses has no reply", func(t *testing.T) {
		f, err := compile.Compile(document("/get:\n  get:\n    operationId: get\n", schemas))
		require.NoError(t, err)
		assert.Empty(t, f.Replies)
	})
	t.Run("a schema a body and a reply share is one node", func(t *testing.T) {
		f, err := compile.Compile(document(takes("put", ref("A"))+answers("get", ref("A")), schemas))
		require.NoError(t, err)
		assert.Equal(t, map[string]int{"A": 0}, f.Bodies)
		assert.Equal(t, map[string]int{"get": 0}, f.Replies)
	})
}

func TestCompileRefuses(t *testing.T) {
	tests := []struct {
		name           string
		paths, schemas string
		want           string // the error
	}{
		{name: "not a document", paths: "[", want: "compile: loading the document: "},
		{name: "a body that is not a component", paths: takes("make", "{type: object}"), want: "compile: make: the JSON body's schema is not a component"},
		{name: "an enum of numbers", paths: takes("make", ref("Body")), schemas: "Body: {type: object, properties: {n: {type: integer, enum: [1, 2]}}}",
			want: "compile: make/n: an enum of something else than strings"},
		{name: "an unknown format", paths: takes("make", ref("Body")), schemas: "Body: {type: object, properties: {n: {type: string, format: hex}}}",
			want: `compile: make/n: format "hex" is not known`},
		{name: "an int format on a string", paths: takes("make", ref("Body")), schemas: "Body: {type: object, properties: {n: {type: string, format: int32}}}",
			want: `compile: make/n: format "int32" on a string`},
		{name: "an int format on a number", paths: takes("make", ref("Body")), schemas: "Body: {type: object, properties: {n: {type: number, format: int64}}}",
			want: `compile: make/n: format "int64" on a number`},
		{name: "oneOf in a body", paths: takes("make", ref("Body")), schemas: "Body: {oneOf: [{type: string}, {type: integer}]}",
			want: "compile: make: oneOf, anyOf and not are not used by request bodies"},
		{name: "oneOf in a body, though a reply takes it", paths: answers("get", ref("Body")) + takes("make", ref("Body")), schemas: "Body: {oneOf: [{type: string}, {type: integer}]}",
			want: "compile: make: oneOf, anyOf and not are not used by request bodies"},
		{name: "anyOf in a body", paths: takes("make", ref("Body")), schemas: "Body: {type: object, properties: {a: {anyOf: [{type: string}]}}}",
			want: "compile: make/a: oneOf, anyOf and not are not used by request bodies"},
		{name: "not in a body", paths: takes("make", ref("Body")), schemas: "Body: {type: object, properties: {a: {not: {type: string}}}}",
			want: "compile: make/a: oneOf, anyOf and not are not used by request bodies"},
		{name: "anyOf in a reply", paths: answers("get", ref("Body")), schemas: "Body: {anyOf: [{type: string}]}",
			want: "compile: get reply: oneOf, anyOf and not are not used by request bodies"},
		{name: "in a reply's alternative", paths: answers("get", ref("Body")), schemas: "Body: {oneOf: [{type: string}, {type: string, format: hex}]}",
			want: `compile: get reply/oneOf/1: format "hex" is not known`},
		{name: "in a reply's member", paths: answers("get", ref("Body")), schemas: "Body: {type: object, properties: {a: {type: string, format: hex}}}",
			want: `compile: get reply/a: format "hex" is not known`},
		{name: "in an array's items", paths: takes("make", ref("Body")), schemas: "Body: {type: object, properties: {a: {type: array, items: {type: string, format: hex}}}}",
			want: `compile: make/a/items: format "hex" is not known`},
		{name: "in undeclared members' schema", paths: takes("make", ref("Body")), schemas: "Body: {type: object, additionalProperties: {type: string, format: hex}}",
			want: `compile: make/*: format "hex" is not known`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schemas := tt.schemas
			if schemas == "" {
				schemas = "Unused: {type: string}"
			}
			f, err := compile.Compile(document(tt.paths, schemas))
			require.Error(t, err)
			assert.Nil(t, f)
			if strings.HasSuffix(tt.want, ": ") {
				assert.True(t, strings.HasPrefix(err.Error(), tt.want), "%v", err)
				return
			}
			assert.EqualError(t, err, tt.want)
		})
	}
}

// A node without members, items or a schema of undeclared members is
// written once, shared by every schema that compiles to it; every other
// node is its schema's own.
func TestCompileSharesLeaves(t *testing.T) {
	schemas := `Zero: {type: string}
Pair:
  type: object
  properties:
    s1: {type: string}
    s2: {type: string}
    u: {type: string, format: uuid}
    o1: {type: object}
    o2: {type: object}
    x: {type: array, items: ` + ref("Zero") + `}
    y: {type: array, items: ` + ref("Zero") + `}
    m: {type: object, additionalProperties: ` + ref("Zero") + `}
    n: {type: object, additionalProperties: ` + ref("Zero") + `}`
	f, err := compile.Compile(document(takes("a", ref("Zero"))+takes("b", ref("Pair")), schemas))
	require.NoError(t, err)
	require.Equal(t, 0, f.Bodies["Zero"], "the first operation's body is the first node")
	p := f.Nodes[f.Bodies["Pair"]].Props
	tests := []struct {
		a, b string
		same bool
	}{
		{"s1", "s2", true},
		{"o1", "o2", true},
		{"s1", "u", false},
		{"s1", "o1", false},
		{"x", "y", false},
		{"m", "n", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.same, p[tt.a] == p[tt.b], "%s and %s", tt.a, tt.b)
	}
	assert.NotEqual(t, 0, p["s1"], "a component's name is part of its node")
	assert.Len(t, f.Nodes, 9, "Zero, Pair, m, n, o, s, u, x, y")
	for _, k := range []string{"x", "y"} {
		assert.Equal(t, 0, f.Nodes[p[k]].Items, k)
	}
	for _, k := range []string{"m", "n"} {
		assert.Equal(t, 0, f.Nodes[p[k]].Extra, k)
	}
}

func TestMarshal(t *testing.T) {
	tests := []struct {
		name string
		form compile.Form
		want string
	}{
		{name: "empty", form: compile.Form{Bodies: map[string]int{}, Replies: map[string]int{}},
			want: "{\"bodies\":{},\n\"replies\":{},\n\"nodes\":[\n]}\n"},
		{name: "one node", form: compile.Form{Bodies: map[string]int{"B": 0}, Replies: map[string]int{}, Nodes: []compile.Node{{Type: "string", Extra: -1, Items: -1}}},
			want: "{\"bodies\":{\"B\":0},\n\"replies\":{},\n\"nodes\":[\n{\"t\":\"string\",\"x\":-1,\"i\":-1}\n]}\n"},
		{name: "one node a line, members in their order",
			form: compile.Form{Bodies: map[string]int{"B": 0, "A": 2}, Replies: map[string]int{"get": 2},
				Nodes: []compile.Node{
					{Type: "object", Props: map[string]int{"b": 1, "a": 1}, Required: []string{"a"}, Extra: -1, Items: -1, Name: "B", OneOf: true, Excl: []string{"b", "a"}},
					{Type: "string", Format: "uuid", Enum: []string{"x"}, MinLen: 1, Extra: -1, Items: -1, Project: true},
					{Extra: 1, Items: -1, Open: true, Alts: []int{0, 1}},
				}},
			want: "{\"bodies\":{\"A\":2,\"B\":0},\n\"replies\":{\"get\":2},\n\"nodes\":[\n" +
				`{"t":"object","p":{"a":1,"b":1},"r":["a"],"x":-1,"i":-1,"one":true,"excl":["b","a"],"n":"B"},` + "\n" +
				`{"t":"string","f":"uuid","e":["x"],"min":1,"x":-1,"i":-1,"proj":true},` + "\n" +
				`{"x":1,"o":true,"i":-1,"alts":[0,1]}` + "\n]}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.form.Marshal()
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			var back compile.Form
			require.NoError(t, json.Unmarshal(got, &back))
			if tt.form.Nodes == nil {
				back.Nodes = nil
			}
			assert.Equal(t, tt.form, back, "the form reads back")
		})
	}
}

package opgen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doc wraps paths (YAML, indented by four spaces) in a contract document.
func doc(paths string) []byte {
	return []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n" + paths + `
components:
  schemas:
    Thing: {type: object, properties: {id: {type: string}}}
    Page: {type: object, properties: {data: {type: array, items: {type: object}}, paging: {type: object}}}
`)
}

// TestGenerateRefuses: a document the table cannot be made of is refused
// with an error naming the operation and what is wrong.
func TestGenerateRefuses(t *testing.T) {
	for _, tc := range []struct{ name, paths, want string }{
		{"no operationId", `
  /a:
    get:
      responses: {'200': {description: ok}}`, "GET /a has no operationId"},
		{"an operationId twice", `
  /a:
    get:
      operationId: same
      responses: {'200': {description: ok}}
  /b:
    get:
      operationId: same
      responses: {'200': {description: ok}}`, `operationId "same" is used twice`},
		{"a path parameter not declared", `
  /a/{id}:
    get:
      operationId: getA
      responses: {'200': {description: ok}}`, "getA: path parameter id is not declared"},
		{"a declared path parameter not in the path", `
  /a:
    get:
      operationId: getA
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}`, "getA: path parameters not in the path"},
		{"an enum not of strings", `
  /a/{n}:
    get:
      operationId: getA
      parameters: [{name: n, in: path, required: true, schema: {type: integer, enum: [1, 2]}}]
      responses: {'200': {description: ok}}`, "getA: enum of n is not of strings"},
		{"a response code that is no number", `
  /a:
    get:
      operationId: getA
      responses: {'2x0': {description: ok}}`, `getA: response "2x0"`},
		{"no success response", `
  /a:
    get:
      operationId: getA
      responses: {'404': {description: gone}, '302': {description: moved}}`, "getA: no success response"},
		{"not a document", "  - [", "opgen: loading the document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Generate(doc(tc.paths))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestGenerateReads: what the table holds of each operation, read from
// the document: path parameters in path order with their enums, query
// parameters of the path and the operation, the JSON body's schema, the
// media types sorted, success codes (a 2XX range as 2), paging, the auth
// host; operations sorted by id.
func TestGenerateReads(t *testing.T) {
	out, err := Generate(doc(`
  /t/{type}/{alias}/items:
    parameters:
      - {name: alias, in: path, required: true, schema: {type: string}}
      - {name: type, in: path, required: true, schema: {type: string, enum: [apps, tasks]}}
      - {name: first, in: query, schema: {type: integer}}
    get:
      operationId: zList
      summary: '  Lists items.  '
      parameters:
        - {name: after, in: query, schema: {type: string}}
        - {name: X-Trace, in: header, schema: {type: string}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Page'}}}}
        '400': {description: bad}
    post:
      operationId: aCreate
      requestBody:
        content:
          multipart/form-data: {schema: {type: object}}
          application/json: {schema: {$ref: '#/components/schemas/Thing'}}
      responses:
        2XX: {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        '201': {description: made}
  /token:
    x-auth-host: true
    post:
      operationId: mToken
      requestBody: {content: {application/x-www-form-urlencoded: {schema: {type: object}}}}
      responses: {'200': {description: ok}}`))
	require.NoError(t, err)
	src := string(out)
	for _, want := range []string{
		"// ZList is GET /t/{type}/{alias}/items: Lists items.\n",
		`ZList ID = "zList"`,
		`{ID: ZList, Method: "GET", Path: "/t/{type}/{alias}/items", PathParams: []Param{{Name: "type", Enum: []string{"apps", "tasks"}}, {Name: "alias"}}, Query: []string{"first", "after"}, Success: []int{200}, Paged: true},`,
		`{ID: ACreate, Method: "POST", Path: "/t/{type}/{alias}/items", PathParams: []Param{{Name: "type", Enum: []string{"apps", "tasks"}}, {Name: "alias"}}, Query: []string{"first"}, Body: "Thing", Media: []string{"application/json", "multipart/form-data"}, Success: []int{2, 201}},`,
		`{ID: MToken, Method: "POST", Path: "/token", AuthHost: true, Media: []string{"application/x-www-form-urlencoded"}, Success: []int{200}},`,
	} {
		assert.Contains(t, src, want)
	}
	a, m, z := strings.Index(src, "{ID: ACreate"), strings.Index(src, "{ID: MToken"), strings.Index(src, "{ID: ZList")
	assert.True(t, a < m && m < z, "the table is sorted by id")
}

// TestMatchOrder: Match tries a path of more fixed words before one with
// a parameter in their place, word by word from the start, then GET,
// POST, PUT, PATCH, DELETE, then the operations' order (by id); an
// operation on the auth host is not tried.
func TestMatchOrder(t *testing.T) {
	ops := []operation{
		{id: "a", method: "GET", path: "/records/{id}"},
		{id: "b", method: "DELETE", path: "/records/mine"},
		{id: "c", method: "GET", path: "/records/mine"},
		{id: "d", method: "POST", path: "/oauth/token", authHost: true},
		{id: "e", method: "PATCH", path: "/records/mine"},
		{id: "f", method: "GET", path: "/{type}/mine"},
		{id: "g", method: "PUT", path: "/records/mine"},
		{id: "h", method: "POST", path: "/records/mine"},
		{id: "i", method: "GET", path: "/records/{id}"},
	}
	var got []string
	for _, i := range matchOrder(ops) {
		got = append(got, ops[i].id)
	}
	assert.Equal(t, []string{"c", "h", "g", "e", "b", "a", "i", "f"}, got)
}

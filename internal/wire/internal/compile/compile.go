// Package compile turns the request-body schemas and the success-reply
// schemas of the contract document into the compact form package wire
// embeds. It runs at generate time and
// in wire's tests only, so that programs importing wire do not build the
// OpenAPI library.
package compile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Form is the compact form: one node per distinct schema, the schema of
// each JSON request body by its name in the document (package op's table
// names the schema of each operation's body), and the schema of each
// operation's JSON success reply by its operation id.
type Form struct {
	Bodies  map[string]int `json:"bodies"`
	Replies map[string]int `json:"replies"`
	Nodes   []Node         `json:"nodes"`
}

// Node is one schema. Indexes point into Form.Nodes; -1 is none.
type Node struct {
	Type     string         `json:"t,omitempty"`    // JSON Schema type; "" takes any value
	Format   string         `json:"f,omitempty"`    // uuid, email, int32, date-time
	Enum     []string       `json:"e,omitempty"`    // allowed strings
	MinLen   int            `json:"min,omitempty"`  // minLength (project rules only)
	Props    map[string]int `json:"p,omitempty"`    // declared members
	Required []string       `json:"r,omitempty"`    // required members
	Extra    int            `json:"x"`              // schema of undeclared members (additionalProperties), -1 none
	Open     bool           `json:"o,omitempty"`    // additionalProperties: true (undeclared members are kept)
	Items    int            `json:"i"`              // schema of items, -1 none
	OneOf    bool           `json:"one,omitempty"`  // x-exactly-one: exactly one declared member present
	Excl     []string       `json:"excl,omitempty"` // x-mutually-exclusive: members not true together
	Project  bool           `json:"proj,omitempty"` // x-project-rule: a breach is the project's rule
	Name     string         `json:"n,omitempty"`    // the component's name, for messages
	Alts     []int          `json:"alts,omitempty"` // oneOf (replies only): the alternatives
}

// Compile reads the contract document (YAML) and compiles the schema of
// every application/json request body and of every operation's
// application/json success reply (its first 2xx response with one).
func Compile(doc []byte) (*Form, error) {
	t, err := openapi3.NewLoader().LoadFromData(doc)
	if err != nil {
		return nil, fmt.Errorf("compile: loading the document: %w", err)
	}
	names := map[*openapi3.Schema]string{}
	for name, ref := range t.Components.Schemas {
		if ref.Value != nil && ref.Ref == "" { // an alias ($ref) keeps its target's name
			names[ref.Value] = name
		}
	}
	c := &compiler{form: &Form{Bodies: map[string]int{}, Replies: map[string]int{}}, seen: map[*openapi3.Schema]int{}, leaves: map[string]int{}, names: names}
	var ops []*openapi3.Operation
	for _, item := range t.Paths.Map() {
		for _, op := range item.Operations() {
			ops = append(ops, op)
		}
	}
	slices.SortFunc(ops, func(a, b *openapi3.Operation) int { return strings.Compare(a.OperationID, b.OperationID) })
	{
		for _, op := range ops {
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			mt := op.RequestBody.Value.Content.Get("application/json")
			if mt == nil || mt.Schema == nil {
				continue
			}
			name := mt.Schema.Ref[strings.LastIndex(mt.Schema.Ref, "/")+1:]
			if name == "" {
				return nil, fmt.Errorf("compile: %s: the JSON body's schema is not a component", op.OperationID)
			}
			i, err := c.node(mt.Schema, op.OperationID)
			if err != nil {
				return nil, err
			}
			c.form.Bodies[name] = i
		}
	}
	// Replies come after every body, so that a schema both use is
	// compiled as a body's, where oneOf is refused.
	c.replies = true
	for _, op := range ops {
		ref := successReply(op)
		if ref == nil {
			continue
		}
		i, err := c.node(ref, op.OperationID+" reply")
		if err != nil {
			return nil, err
		}
		c.form.Replies[op.OperationID] = i
	}
	return c.form, nil
}

// successReply returns the schema of op's JSON success reply: that of the
// lowest 2xx status with application/json content; nil when none has.
func successReply(op *openapi3.Operation) *openapi3.SchemaRef {
	if op.Responses == nil {
		return nil
	}
	codes := slices.Sorted(maps.Keys(op.Responses.Map()))
	for _, code := range codes {
		r := op.Responses.Value(code)
		if !strings.HasPrefix(code, "2") || r == nil || r.Value == nil {
			continue
		}
		if mt := r.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
			return mt.Schema
		}
	}
	return nil
}

// Marshal writes the compact form as JSON, one node per line, so that a
// change to the document shows as a readable diff.
func (f *Form) Marshal() ([]byte, error) {
	var b bytes.Buffer
	bodies, err := json.Marshal(f.Bodies)
	if err != nil {
		return nil, err
	}
	replies, err := json.Marshal(f.Replies)
	if err != nil {
		return nil, err
	}
	b.WriteString("{\"bodies\":")
	b.Write(bodies)
	b.WriteString(",\n\"replies\":")
	b.Write(replies)
	b.WriteString(",\n\"nodes\":[\n")
	for i, n := range f.Nodes {
		nb, err := json.Marshal(n)
		if err != nil {
			return nil, err
		}
		b.Write(nb)
		if i < len(f.Nodes)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

type compiler struct {
	form   *Form
	seen   map[*openapi3.Schema]int
	leaves map[string]int // a node without members or items, by its JSON: one copy each
	names  map[*openapi3.Schema]string
	// replies: compiling reply schemas, where oneOf is taken (Node.Alts).
	replies bool
}

func (c *compiler) node(ref *openapi3.SchemaRef, where string) (int, error) {
	s := ref.Value
	if s == nil {
		return 0, fmt.Errorf("compile: %s: unresolved schema %s", where, ref.Ref)
	}
	if i, ok := c.seen[s]; ok {
		return i, nil
	}
	if len(s.OneOf) > 0 && !c.replies || len(s.AnyOf) > 0 || s.Not != nil {
		return 0, fmt.Errorf("compile: %s: oneOf, anyOf and not are not used by request bodies", where)
	}
	i := len(c.form.Nodes)
	c.form.Nodes = append(c.form.Nodes, Node{Extra: -1, Items: -1})
	c.seen[s] = i
	n := Node{Extra: -1, Items: -1, Name: c.names[s]}
	for k, alt := range s.OneOf {
		x, err := c.node(alt, where+"/oneOf/"+fmt.Sprint(k))
		if err != nil {
			return 0, err
		}
		n.Alts = append(n.Alts, x)
	}
	// allOf is used to add members and requirements to an object: merge.
	parts := append([]*openapi3.Schema{s}, nil...)
	for _, a := range s.AllOf {
		if a.Value == nil {
			return 0, fmt.Errorf("compile: %s: unresolved allOf", where)
		}
		parts = append(parts, a.Value)
	}
	props := map[string]*openapi3.SchemaRef{}
	for _, p := range parts {
		if p.Type != nil && len(p.Type.Slice()) > 0 {
			n.Type = p.Type.Slice()[0]
		}
		if p.Format != "" {
			n.Format = p.Format
		}
		for _, e := range p.Enum {
			es, ok := e.(string)
			if !ok {
				return 0, fmt.Errorf("compile: %s: an enum of something else than strings", where)
			}
			n.Enum = append(n.Enum, es)
		}
		if p.MinLength > 0 {
			n.MinLen = int(p.MinLength)
		}
		for k, v := range p.Properties {
			props[k] = v // a later part's member wins (it refines the first)
		}
		for _, r := range p.Required {
			if !slices.Contains(n.Required, r) {
				n.Required = append(n.Required, r)
			}
		}
		if ap := p.AdditionalProperties; ap.Has != nil && *ap.Has {
			n.Open = true
		} else if ap.Schema != nil {
			x, err := c.node(ap.Schema, where+"/*")
			if err != nil {
				return 0, err
			}
			n.Extra = x
		}
		if one, _ := p.Extensions["x-exactly-one"].(bool); one {
			n.OneOf = true
		}
		if ex, ok := p.Extensions["x-mutually-exclusive"].([]any); ok {
			for _, m := range ex {
				n.Excl = append(n.Excl, fmt.Sprint(m))
			}
		}
		if _, ok := p.Extensions["x-project-rule"]; ok {
			n.Project = true
		}
	}
	if n.Type == "" && len(props) > 0 {
		n.Type = "object"
	}
	if len(props) > 0 {
		n.Props = map[string]int{}
		keys := slices.Sorted(maps.Keys(props))
		for _, k := range keys {
			v := props[k]
			x, err := c.node(v, where+"/"+k)
			if err != nil {
				return 0, err
			}
			n.Props[k] = x
		}
	}
	if s.Items != nil {
		x, err := c.node(s.Items, where+"/items")
		if err != nil {
			return 0, err
		}
		n.Items = x
	}
	slices.Sort(n.Required)
	slices.Sort(n.Enum)
	if n.Format != "" && !slices.Contains([]string{"uuid", "email", "int32", "int64", "date-time", "double", "float", "binary"}, n.Format) {
		return 0, fmt.Errorf("compile: %s: format %q is not known", where, n.Format)
	}
	if strings.HasPrefix(n.Format, "int") && n.Type != "integer" {
		return 0, fmt.Errorf("compile: %s: format %q on a %s", where, n.Format, n.Type)
	}
	if n.Props == nil && n.Items < 0 && n.Extra < 0 && i == len(c.form.Nodes)-1 {
		key, _ := json.Marshal(n)
		if j, ok := c.leaves[string(key)]; ok {
			c.form.Nodes = c.form.Nodes[:i]
			c.seen[s] = j
			return j, nil
		}
		c.leaves[string(key)] = i
	}
	c.form.Nodes[i] = n
	return i, nil
}

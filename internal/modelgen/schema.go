package modelgen

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// schema is what the generator reads of a schema of the document, its
// members in the document's order.
type schema struct {
	ref         string // the component a $ref names; "" for an inline schema
	typ         string
	format      string
	description string
	required    []string
	props       []prop
	items       *schema
	enum        bool
	free        bool // it keeps members it does not list (additionalProperties)
}

// prop is a member of an object schema.
type prop struct {
	name string
	s    *schema
}

// parse reads the document's top mapping.
func parse(doc []byte) (*yaml.Node, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, fmt.Errorf("modelgen: reading the document: %w", err)
	}
	if len(root.Content) != 1 {
		return nil, fmt.Errorf("modelgen: the document is empty")
	}
	return root.Content[0], nil
}

// components reads the schemas of doc's components, by name.
func components(doc []byte) (map[string]*schema, error) {
	top, err := parse(doc)
	if err != nil {
		return nil, err
	}
	schemas := lookup(lookup(top, "components"), "schemas")
	if schemas == nil {
		return nil, fmt.Errorf("modelgen: the document has no components.schemas")
	}
	out := map[string]*schema{}
	for i := 0; i+1 < len(schemas.Content); i += 2 {
		s, err := read(schemas.Content[i+1])
		if err != nil {
			return nil, fmt.Errorf("modelgen: schema %s: %w", schemas.Content[i].Value, err)
		}
		out[schemas.Content[i].Value] = s
	}
	return out, nil
}

// lookup returns the value of key in the mapping n, or nil.
func lookup(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func read(n *yaml.Node) (*schema, error) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("not a mapping (line %d)", n.Line)
	}
	s := &schema{}
	if r := lookup(n, "$ref"); r != nil {
		const prefix = "#/components/schemas/"
		if !strings.HasPrefix(r.Value, prefix) {
			return nil, fmt.Errorf("$ref %q is not a component schema", r.Value)
		}
		s.ref = strings.TrimPrefix(r.Value, prefix)
		return s, nil
	}
	for _, k := range []struct {
		key string
		to  *string
	}{{"type", &s.typ}, {"format", &s.format}, {"description", &s.description}} {
		if v := lookup(n, k.key); v != nil {
			*k.to = v.Value
		}
	}
	s.enum = lookup(n, "enum") != nil
	if ap := lookup(n, "additionalProperties"); ap != nil && ap.Value != "false" {
		s.free = true
	}
	if req := lookup(n, "required"); req != nil {
		for _, r := range req.Content {
			s.required = append(s.required, r.Value)
		}
	}
	if props := lookup(n, "properties"); props != nil {
		for i := 0; i+1 < len(props.Content); i += 2 {
			p, err := read(props.Content[i+1])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", props.Content[i].Value, err)
			}
			s.props = append(s.props, prop{props.Content[i].Value, p})
		}
	}
	if items := lookup(n, "items"); items != nil {
		it, err := read(items)
		if err != nil {
			return nil, fmt.Errorf("items: %w", err)
		}
		s.items = it
	}
	return s, nil
}

// body is the JSON request body of an operation.
type body struct {
	op     string   // its operationId
	tags   []string // its tags
	schema string   // the component its schema names; "" for an inline schema
}

// bodies returns the JSON request bodies of doc's operations, in the
// document's order.
func bodies(doc []byte) ([]body, error) {
	top, err := parse(doc)
	if err != nil {
		return nil, err
	}
	var out []body
	paths := lookup(top, "paths")
	for i := 0; paths != nil && i+1 < len(paths.Content); i += 2 {
		ops := paths.Content[i+1]
		for j := 0; j+1 < len(ops.Content); j += 2 {
			o := ops.Content[j+1]
			schema := lookup(lookup(lookup(lookup(o, "requestBody"), "content"), "application/json"), "schema")
			if schema == nil {
				continue
			}
			id := lookup(o, "operationId")
			if id == nil {
				return nil, fmt.Errorf("modelgen: %s %s has a body and no operationId", ops.Content[j].Value, paths.Content[i].Value)
			}
			b := body{op: id.Value}
			if tags := lookup(o, "tags"); tags != nil {
				for _, t := range tags.Content {
					b.tags = append(b.tags, t.Value)
				}
			}
			if r := lookup(schema, "$ref"); r != nil {
				b.schema = strings.TrimPrefix(r.Value, "#/components/schemas/")
			}
			out = append(out, b)
		}
	}
	return out, nil
}

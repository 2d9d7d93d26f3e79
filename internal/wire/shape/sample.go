package shape

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
)

// Sample returns a small JSON body that the request schema of the
// operation id accepts (Check passes it): the required members of every
// object, the first member of an object that must have exactly one, one
// item in every array, and for a string its first enum value or a value
// of its format. It returns nil for an operation that takes no JSON body.
func Sample(id op.ID) []byte {
	i, ok := wire.BodyOf(id)
	if !ok {
		return nil
	}
	b, err := json.Marshal(sample(wire.Compiled(), i, 0))
	if err != nil {
		panic("shape: a sample does not encode: " + err.Error())
	}
	return b
}

// sampleDepth bounds the nesting of a sample, should a schema refer to
// itself through required members.
const sampleDepth = 16

func sample(f *wire.Form, i, depth int) any {
	n := &f.Nodes[i]
	switch n.Type {
	case "object":
		m := map[string]any{}
		if depth >= sampleDepth {
			return m
		}
		names := slices.Clone(n.Required)
		if n.OneOf && len(n.Props) > 0 {
			names = append(names, slices.Sorted(maps.Keys(n.Props))[0])
		}
		for _, k := range names {
			if x, ok := n.Props[k]; ok {
				m[k] = sample(f, x, depth+1)
			} else {
				m[k] = "x"
			}
		}
		return m
	case "array":
		if n.Items < 0 || depth >= sampleDepth {
			return []any{}
		}
		return []any{sample(f, n.Items, depth+1)}
	case "integer", "number":
		return 1
	case "boolean":
		return false
	}
	if len(n.Enum) > 0 {
		return n.Enum[0]
	}
	switch n.Format {
	case "uuid":
		return "00000000-0000-4000-8000-000000000001"
	case "email":
		return "ann@example.com"
	case "date-time":
		return "2024-01-02T03:04:05Z"
	}
	return strings.Repeat("x", max(n.MinLen, 1))
}

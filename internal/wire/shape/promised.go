// Package shape builds JSON from the contract document's compiled
// schemas (package wire's form): a reply cut down to what the document
// promises (Promised, the fake's document-only replies) and a small valid
// request body (Sample, the derived calls of the tests). The SDK does not
// import it: it serves the fake and the tests.
package shape

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
)

// Promised returns reply, the JSON success reply of the operation id, with
// only the members its response schema in the contract document names:
// every other member of an object that does not keep undeclared members
// is left out, at any depth. Objects that keep them (additionalProperties:
// true, or no members described, as a Passthrough object) are kept whole,
// and so are values of another JSON type than their schema says (holding
// a reply to its schema is the contract test's work, not this one's). A
// oneOf is read as its first alternative whose required members the
// object holds. An operation with no JSON success reply in the document
// returns reply unchanged.
//
// It is what the service promises back, and so all a client may depend
// on reading: the fake replies so in its document-only mode.
func Promised(id op.ID, reply []byte) ([]byte, error) {
	f := wire.Compiled()
	i, ok := f.Replies[string(id)]
	if !ok {
		return reply, nil
	}
	out, err := prune(f, i, reply)
	if err != nil {
		return nil, fmt.Errorf("shape: the reply of %s: %w", id, err)
	}
	return out, nil
}

// prune is Promised's work on node i of the compiled form f.
func prune(f *wire.Form, i int, reply []byte) ([]byte, error) {
	p := pruner{f: f, dec: jsontext.NewDecoder(bytes.NewReader(reply), lenient...)}
	var out bytes.Buffer
	p.enc = jsontext.NewEncoder(&out, lenient...)
	if err := p.value(i); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// lenient lets a reply through as it is: checking it is not Promised's work.
var lenient = []jsontext.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)}

type pruner struct {
	f   *wire.Form
	dec *jsontext.Decoder
	enc *jsontext.Encoder
}

// value copies the next value of the decoder to the encoder, as node i
// promises it.
func (p *pruner) value(i int) error {
	n := &p.f.Nodes[i]
	if len(n.Alts) > 0 {
		return p.alternative(n)
	}
	switch kind := p.dec.PeekKind(); {
	case kind == '{' && n.Type == "object" && !n.Keeps():
		return p.object(n)
	case kind == '[' && n.Type == "array" && n.Items >= 0:
		if err := p.copyToken(); err != nil {
			return err
		}
		for p.dec.PeekKind() != ']' {
			if err := p.value(n.Items); err != nil {
				return err
			}
		}
		return p.copyToken()
	default:
		v, err := p.dec.ReadValue()
		if err != nil {
			return err
		}
		return p.enc.WriteValue(v)
	}
}

// object copies an object's declared members, and its undeclared ones
// where n gives them a schema.
func (p *pruner) object(n *wire.Node) error {
	if err := p.copyToken(); err != nil {
		return err
	}
	for p.dec.PeekKind() != '}' {
		name, err := p.dec.ReadToken()
		if err != nil {
			return err
		}
		k := name.String()
		member, declared := n.Props[k]
		if !declared && n.Extra >= 0 {
			member, declared = n.Extra, true
		}
		if !declared {
			if err := p.dec.SkipValue(); err != nil {
				return err
			}
			continue
		}
		if err := p.enc.WriteToken(jsontext.String(k)); err != nil {
			return err
		}
		if err := p.value(member); err != nil {
			return err
		}
	}
	return p.copyToken()
}

// alternative copies a value of a oneOf as its first alternative whose
// required members an object value holds (the last one when none fits).
func (p *pruner) alternative(n *wire.Node) error {
	v, err := p.dec.ReadValue()
	if err != nil {
		return err
	}
	var names []string
	if v.Kind() == '{' {
		d := jsontext.NewDecoder(bytes.NewReader(v), lenient...)
		_, _ = d.ReadToken()
		for d.PeekKind() != '}' {
			name, err := d.ReadToken()
			if err != nil {
				return err
			}
			names = append(names, name.String())
			if err := d.SkipValue(); err != nil {
				return err
			}
		}
	}
	alt := n.Alts[len(n.Alts)-1]
	for _, a := range n.Alts {
		if !slices.ContainsFunc(p.f.Nodes[a].Required, func(r string) bool { return !slices.Contains(names, r) }) {
			alt = a
			break
		}
	}
	sub := pruner{f: p.f, dec: jsontext.NewDecoder(bytes.NewReader(v), lenient...), enc: p.enc}
	return sub.value(alt)
}

// copyToken copies one token, a delimiter.
func (p *pruner) copyToken() error {
	t, err := p.dec.ReadToken()
	if err != nil {
		return err
	}
	return p.enc.WriteToken(t)
}

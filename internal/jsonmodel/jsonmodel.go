// Package jsonmodel encodes and decodes the SDK's models: structs whose
// fallback member (tagged `json:",embed"`) keeps the members the other
// fields do not model, as raw JSON.
//
// A model's MarshalJSON and UnmarshalJSON call Marshal and Unmarshal (a
// request body's UnmarshalJSON calls UnmarshalBody), so that encoding/json
// keeps and writes back the unknown members as
// github.com/go-json-experiment/json does. Both work on the model's
// method-less twin: a struct type with the same fields and tags and no
// methods, made once per model, so the JSON library does not call the
// model's methods again.
//
// What a model reads, it writes back: the same members with the same
// values, unknown members at every depth included (the sweep test of this
// package holds every model of the SDK to it). A request body writes back
// an explicit empty value ("", 0, false, [], {}) it read, because its
// optional members are pointers, slices or raw JSON, whose zero value is
// "absent". A read model of package admin (configuration) writes back
// explicit empty values and null too, because its members are admin.Opt
// values (absent, null or a value) or raw JSON: for configuration, absent
// and empty differ on output as on input (the sweep holds every such
// model to it, member by member). The records API's replies keep plain
// values, whose zero value is written as absent.
package jsonmodel

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// model is what jsonmodel keeps of a model type: the pointer type to its
// twin, and the JSON names of its fields other than the fallback.
type model struct {
	twin  reflect.Type
	names []string
	extra int // the fallback's field index; -1 for none
	body  json.Options
}

// models holds, for each model type, its model.
var models sync.Map // reflect.Type → *model

// modelOf returns the model of T, made once.
func modelOf(t reflect.Type) *model {
	if m, ok := models.Load(t); ok {
		return m.(*model)
	}
	fields := slices.Collect(t.Fields())
	m := &model{twin: reflect.PointerTo(reflect.StructOf(fields)), extra: -1}
	for i, f := range fields {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case strings.Contains(opts, "embed"):
			m.extra = i
		case name != "-" && !strings.Contains(opts, "inline"):
			m.names = append(m.names, strings.Trim(name, "'"))
		}
	}
	m.body = json.WithUnmarshalers(json.UnmarshalFromFunc(func(dec *jsontext.Decoder, _ any) error {
		// null is refused, but for a member of the fallback (a member
		// the model does not name, right below the top).
		if dec.PeekKind() != 'n' {
			return errors.ErrUnsupported // decode as usual
		}
		if p := dec.StackPointer(); len(slices.Collect(p.Tokens())) == 1 && !slices.Contains(m.names, p.LastToken()) && m.extra >= 0 {
			return errors.ErrUnsupported
		}
		return ErrNull
	}))
	v, _ := models.LoadOrStore(t, m)
	return v.(*model)
}

// twinOf returns p as a pointer to the twin of T, which must be a struct
// with no embedded field of an unexported type or of a type with methods:
// reflect.StructOf cannot make a twin of those, and twinOf panics. Every
// model's tests call its methods, so a model that breaks this rule fails
// there.
func twinOf[T any](p *T) any {
	return reflect.ValueOf(p).Convert(modelOf(reflect.TypeFor[T]()).twin).Interface()
}

// Marshal encodes the model v with its unknown members in place. A key of
// the fallback member that names a field is an error naming the model
// and the key.
func Marshal[T any](v T) ([]byte, error) {
	t := reflect.TypeFor[T]()
	if m := modelOf(t); m.extra >= 0 {
		extra, _ := reflect.ValueOf(&v).Elem().Field(m.extra).Interface().(map[string]jsontext.Value)
		for _, name := range m.names {
			if _, dup := extra[name]; dup {
				return nil, fmt.Errorf("the Extra member %q names a member %v models: set its field instead", name, t)
			}
		}
	}
	return json.Marshal(twinOf(&v), json.Deterministic(true)) // Extra in the order of its keys, the same every time
}

// Unmarshal decodes data into the model *p, replacing what it held;
// members it does not model go to its fallback member. A JSON null leaves
// *p as it was, as encoding/json does, and so does an error, which names
// the model where it is about the whole value.
func Unmarshal[T any](data []byte, p *T) error { return unmarshal(data, p) }

// UnmarshalBody is Unmarshal for a request body: as on the wire, a JSON
// null for a member the body's fields model, at any depth, is an error
// naming the member by its JSON pointer. Members kept as raw JSON (the
// fallback's, an opaque object's) may hold null.
func UnmarshalBody[T any](data []byte, p *T) error {
	return unmarshal(data, p, modelOf(reflect.TypeFor[T]()).body)
}

// ErrNull is the cause of UnmarshalBody's error for a null member.
var ErrNull = errors.New("must not be null (leave the member out instead)")

func unmarshal[T any](data []byte, p *T, opts ...json.Options) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var v T
	err := json.Unmarshal(data, twinOf(&v), opts...)
	if se := (*json.SemanticError)(nil); errors.As(err, &se) && (se.JSONPointer == "" || errors.Is(se.Err, ErrNull)) {
		se.GoType = reflect.TypeFor[T]() // the model, not its twin nor the null check's any
	}
	if err == nil {
		*p = v
	}
	return err
}

// Package jsonmodel encodes and decodes the SDK's models: structs whose
// fallback member (tagged `json:",embed"`) keeps the members the other
// fields do not model, as raw JSON.
//
// A model's MarshalJSON and UnmarshalJSON call Marshal and Unmarshal, so
// that encoding/json keeps and writes back the unknown members as
// github.com/go-json-experiment/json does. Both work on the model's
// method-less twin: a struct type with the same fields and tags and no
// methods, made once per model, so the JSON library does not call the
// model's methods again.
package jsonmodel

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"sync"

	json "github.com/go-json-experiment/json"
)

// twins holds, for each model type, the pointer type to its twin.
var twins sync.Map // reflect.Type → reflect.Type

// twinOf returns p as a pointer to the twin of T, which must be a struct
// with no embedded field of an unexported type or of a type with methods:
// reflect.StructOf cannot make a twin of those, and twinOf panics. Every
// model's tests call its methods, so a model that breaks this rule fails
// there.
func twinOf[T any](p *T) any {
	t := reflect.TypeFor[T]()
	twin, ok := twins.Load(t)
	if !ok {
		twin, _ = twins.LoadOrStore(t, reflect.PointerTo(reflect.StructOf(slices.Collect(t.Fields()))))
	}
	return reflect.ValueOf(p).Convert(twin.(reflect.Type)).Interface()
}

// Marshal encodes the model v with its unknown members in place.
func Marshal[T any](v T) ([]byte, error) { return json.Marshal(twinOf(&v)) }

// Unmarshal decodes data into the model *p, replacing what it held;
// members it does not model go to its fallback member. A JSON null leaves
// *p as it was, as encoding/json does, and so does an error, which names
// the model where it is about the whole value.
func Unmarshal[T any](data []byte, p *T) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var v T
	err := json.Unmarshal(data, twinOf(&v))
	if se := (*json.SemanticError)(nil); errors.As(err, &se) && se.JSONPointer == "" {
		se.GoType = reflect.TypeFor[T]() // the model, not its twin
	}
	if err == nil {
		*p = v
	}
	return err
}

// Package check makes the SDK's refusals of bad input before sending, for
// the root package and the packages built on it: one constructor of the
// error that names a field and the rule it breaks (Invalid), and one
// check of a JSON request body against the contract document (Body, with
// package internal/wire).
//
// The error type is workflow.ValidationError, which this package cannot
// name (the root package imports it): its shape is the type constraint,
// and each caller instantiates the functions with it.
package check

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
)

// Error is the shape of workflow.ValidationError.
type Error interface {
	~struct {
		Field string
		Rule  string
		Err   error
	}
}

// Invalid returns the error of field breaking rule.
func Invalid[E Error](field, rule string) *E {
	return &E{Field: field, Rule: rule}
}

// Body checks b, the JSON request body of the operation id encoded from
// body, before it is sent, against what the published document states:
// the operation's request schema and its prose rules (package
// internal/wire, with Options.Published: the rules the contract document
// adds as the project's own are the fake's, not the service's). It
// returns nil, or the error of the first rule broken, its field named as
// the caller wrote it (see Field). An operation that takes no JSON body
// has nothing to check.
func Body[E Error](id op.ID, body any, b []byte) *E {
	if !wire.Takes(id) {
		return nil
	}
	p, ok := wire.Check(id, b, wire.Options{Published: true}).(*wire.Problem)
	if !ok {
		return nil // a body of an operation that takes one: no other error
	}
	return Invalid[E](Field(reflect.TypeOf(body), p.Pointer), p.Rule)
}

// Field names the member at the JSON pointer ptr (RFC 6901) of a body of
// type t as the caller wrote it: the type's name, then each struct field
// by its Go name and each index or key in brackets, so that "/userIds/0"
// of a GroupRequest is "GroupRequest.UserIDs[0]". A struct field tagged
// arg names the argument the body was built from in place of all before
// it: "/userIds/1" of a body whose UserIDs field is tagged arg:"userIDs"
// is "userIDs[1]". A member the type does not model keeps its JSON name;
// a body of an unnamed type is "body".
func Field(t reflect.Type, ptr string) string {
	t = deref(t)
	name := "body" // a body of no named type: a JSON value, a map
	if t != nil && t.Name() != "" {
		name = t.Name()
	}
	if ptr == "" {
		return name
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		if f, ok := member(t, tok); ok {
			if arg := f.Tag.Get("arg"); arg != "" {
				name = arg
			} else {
				name += "." + f.Name
			}
			t = deref(f.Type)
			continue
		}
		// An index or a key, or a member the type does not model (t nil
		// from here on).
		if t = elem(t); t == nil && !isIndex(tok) {
			name += "." + tok
			continue
		}
		name += "[" + tok + "]"
	}
	return name
}

// member finds the field of the struct type t that holds the JSON member
// name, by its json tag.
func member(t reflect.Type, name string) (reflect.StructField, bool) {
	if t != nil && t.Kind() == reflect.Struct {
		for f := range t.Fields() {
			if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == name {
				return f, true
			}
		}
	}
	return reflect.StructField{}, false
}

// elem is the type of the elements of a slice, array or map type t, nil
// for another type.
func elem(t reflect.Type) reflect.Type {
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
		return deref(t.Elem())
	}
	return nil
}

// deref is t without its pointers, and a wrapper's value type for a
// wrapper (see Wraps).
func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && t.Kind() == reflect.Struct && t.NumField() > 1 && t.Field(0).Type == wrapsType {
		return deref(t.Field(1).Type)
	}
	return t
}

// Wraps, embedded first in a struct type (by an unexported alias, so that
// it adds no exported field), says that the type's JSON is that of its
// second field's value, as admin.Opt's is: Field names the members of
// that value through it.
type Wraps struct{}

var wrapsType = reflect.TypeFor[Wraps]()

// isIndex reports whether tok is an array index.
func isIndex(tok string) bool {
	_, err := strconv.Atoi(tok)
	return err == nil
}

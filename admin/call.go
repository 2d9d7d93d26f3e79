package admin

import (
	"cmp"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"go/token"
	"iter"
	"reflect"
	"slices"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/check"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
)

// The helpers every family's operations are written with: one way to
// name an operation and fill its path, to send it (with a typed answer, a
// JSON object or no answer), to check a body against the document before
// sending, and to make the write body of a read form.

// target is one request of an operation: the operation, its path filled
// from a method's arguments, and err, the first bad argument, which stops
// it before anything is sent.
type target struct {
	o    *op.Operation
	path string
	err  error
}

// at is the target of the operation id, its path filled from args: pairs
// of a field name (what an error calls the argument) and a value, one
// pair for each parameter of the path template, in order, each checked
// and escaped with workflow.Segment.
func at(id op.ID, args ...string) target {
	o := id.Op()
	p, err := o.Fill(workflow.Segment, args...)
	return target{o: o, path: p, err: err}
}

// or is t stopped by err too, unless a bad argument stops it first.
func (t target) or(err error) target {
	t.err = cmp.Or(t.err, err)
	return t
}

// ctx is the context of t's request: it names the operation, for the
// request path's observers.
func (t target) ctx(ctx context.Context) context.Context {
	if ctx == nil {
		return nil // the request path refuses it
	}
	return op.NewContext(ctx, t.o.ID)
}

// call sends t and decodes its answer into a new T, unless a bad argument
// or the body stops it first (see encode).
func call[T any](ctx context.Context, c *workflow.Client, t target, body any, reqOpts []workflow.RequestOption) (*T, error) {
	b, err := encode(t, body)
	if err != nil {
		return nil, err
	}
	out := new(T)
	if err := c.Call(t.ctx(ctx), t.o.Method, t.path, nil, b, out, reqOpts...); err != nil {
		return nil, err
	}
	return out, nil
}

// callRaw sends t, whose answer is a Passthrough, returned as it came; it
// must be one JSON object.
func callRaw(ctx context.Context, c *workflow.Client, t target, body any, reqOpts []workflow.RequestOption) (jsontext.Value, error) {
	out, err := call[jsontext.Value](ctx, c, t, body, reqOpts)
	if err != nil {
		return nil, err
	}
	if out.Kind() != '{' {
		return nil, fmt.Errorf("%w: %s /%s answered with a JSON value that is not an object", workflow.ErrUnexpectedResponse, t.o.Method, t.path)
	}
	return *out, nil
}

// callNone sends t, whose answer has no body, unless a bad argument or
// the body stops it first.
func callNone(ctx context.Context, c *workflow.Client, t target, body any, reqOpts []workflow.RequestOption) error {
	b, err := encode(t, body)
	if err != nil {
		return err
	}
	return c.Call(t.ctx(ctx), t.o.Method, t.path, nil, b, nil, reqOpts...)
}

// encode returns the JSON request body of t's operation as it is sent,
// byte for byte (a json.RawMessage), or the error that stops it before
// sending: a bad argument, a body that does not encode, or one that
// breaks a rule of the document (checkBody). A nil body is none.
func encode(t target, body any) (any, error) {
	if t.err != nil || body == nil {
		return nil, t.err
	}
	var err error
	name := typeName(body)
	b, ok := body.(jsontext.Value)
	if !ok {
		if b, err = json.Marshal(body); err != nil {
			ve := &workflow.ValidationError{Field: cmp.Or(name, "body"), Rule: "must encode as JSON", Err: err}
			if se := (*json.SemanticError)(nil); errors.As(err, &se) && se.Err != nil {
				ve.Field, ve.Rule, ve.Err = memberPath(name, string(se.JSONPointer)), se.Err.Error(), nil
			}
			return nil, ve
		}
	}
	if err := checkBody(t.o.ID, name, b); err != nil {
		return nil, err
	}
	return stdjson.RawMessage(b), nil
}

// typeName names the Go type of a body in errors: "ViewRequest".
func typeName(body any) string {
	t := reflect.TypeOf(body)
	if !token.IsExported(t.Name()) || t == reflect.TypeFor[jsontext.Value]() {
		return "" // a body the caller did not build as a type of this package
	}
	return t.Name()
}

// memberPath names the member at the JSON pointer p of a body of type
// name: "/fields/0/name" in a TableCreateRequest is
// "TableCreateRequest.fields[0].name".
func memberPath(name, p string) string {
	var b strings.Builder
	b.WriteString(name)
	if p == "" {
		return cmp.Or(name, "body")
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
		} else {
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(tok)
		}
	}
	return b.String()
}

// failed is an iterator that yields err once: a list whose arguments are
// refused before any request.
func failed[T any](err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		yield(zero, err)
	}
}

// invalid is the *workflow.ValidationError of a broken rule.
var invalid = check.Invalid[workflow.ValidationError]

// listPage, listPages and listAll are the List, Pages and All of the
// paged list t, unless a bad argument refuses them before any request.
// A filter is taken where the operation has one.
func listPage[T any](ctx context.Context, c *workflow.Client, t target, opts *workflow.ListOptions, reqOpts []workflow.RequestOption) (*workflow.Page[T], error) {
	if t.err != nil {
		return nil, t.err
	}
	return pagedList[T](c, t).List(t.ctx(ctx), opts, reqOpts...)
}

func listPages[T any](ctx context.Context, c *workflow.Client, t target, opts *workflow.ListOptions, reqOpts []workflow.RequestOption) iter.Seq2[*workflow.Page[T], error] {
	if t.err != nil {
		return failed[*workflow.Page[T]](t.err)
	}
	return pagedList[T](c, t).Pages(t.ctx(ctx), opts, reqOpts...)
}

func listAll[T any](ctx context.Context, c *workflow.Client, t target, opts *workflow.ListOptions, reqOpts []workflow.RequestOption) iter.Seq2[T, error] {
	if t.err != nil {
		return failed[T](t.err)
	}
	return pagedList[T](c, t).All(t.ctx(ctx), opts, reqOpts...)
}

func pagedList[T any](c *workflow.Client, t target) workflow.PagedList[T] {
	return workflow.PagedList[T]{Client: c, Path: t.path, Filtered: slices.Contains(t.o.Query, "filter")}
}

// checkBody checks the JSON request body b of the operation op, of the Go
// type name, before it is sent, against what the published document
// states: the operation's request schema and its prose rules (package
// internal/wire, which the fake's checks use too). The rules the
// contract document adds as the project's own (an automation's name, an
// app's namespace, the types of a view's forwarded members) are the
// fake's, not the service's: they are skipped, and the SDK sends what
// breaks them.
func checkBody(id op.ID, name string, b []byte) error {
	err := wire.Check(id, b, wire.Options{Published: true})
	p := (*wire.Problem)(nil)
	if !errors.As(err, &p) {
		return err // nil, or an operation without a JSON body: a bug
	}
	return &workflow.ValidationError{Field: memberPath(name, p.Pointer), Rule: p.Rule}
}

// writeBody returns the write body W of the read form r: r's JSON members
// without those named in drop, each member of set put in place of the
// member of its name (a nil or zero value, an absent Opt among them,
// leaves it out), decoded as W, whose Extra takes the members it does
// not model. A member r holds as null, but for those in drop, is a
// *workflow.ValidationError naming it (nullMember): a body cannot hold
// null.
func writeBody[W any](r any, drop []string, set map[string]any) (W, error) {
	var w W
	if err := noNull(r, drop); err != nil {
		return w, err
	}
	m := map[string]jsontext.Value{}
	b, err := json.Marshal(r)
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	for _, k := range drop {
		delete(m, k)
	}
	for k, v := range set {
		delete(m, k)
		if err == nil && v != nil && !reflect.ValueOf(v).IsZero() {
			m[k], err = json.Marshal(v)
		}
	}
	if err == nil {
		if b, err = json.Marshal(m); err == nil {
			err = json.Unmarshal(b, &w)
		}
	}
	if err != nil {
		return w, fmt.Errorf("admin: the write body %T of a %T: %w", w, r, err)
	}
	return w, nil
}

// noNull returns the error of the first member of the read model r held
// as null (an Opt, at any depth), but for the members named in skip.
func noNull(r any, skip []string) error {
	v := reflect.ValueOf(r)
	for i, f := range slices.Collect(v.Type().Fields()) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || slices.Contains(skip, name) {
			continue
		}
		if p := firstNull(v.Field(i), "/"+name); p != "" {
			return nullMember(v.Type().Name(), p)
		}
	}
	return nil
}

// firstNull returns the JSON pointer (from p) of the first Opt held as
// null in v, at any depth, or "" for none.
func firstNull(v reflect.Value, p string) string {
	if o, ok := v.Interface().(interface{ elem() (any, bool) }); ok {
		e, null := o.elem()
		if null {
			return p
		}
		if e == nil {
			return ""
		}
		v = reflect.ValueOf(e)
	}
	switch v.Kind() {
	case reflect.Slice:
		for i := range v.Len() {
			if q := firstNull(v.Index(i), p+"/"+strconv.Itoa(i)); q != "" {
				return q
			}
		}
	case reflect.Struct:
		for i, f := range slices.Collect(v.Type().Fields()) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.IsExported() && name != "" {
				if q := firstNull(v.Field(i), p+"/"+name); q != "" {
					return q
				}
			}
		}
	}
	return ""
}

// nullMember is the error of a conversion to a write body for the member
// at the JSON pointer p of the read model named model, read as null.
func nullMember(model, p string) error {
	return invalid(memberPath(model, p), "was read as null, which a write body cannot hold: set a value or leave the member out")
}

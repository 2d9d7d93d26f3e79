package admin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
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
)

// The helpers every family's operations are written with, over the
// SDK's one request path (workflow.Client.Operation and
// workflow.OperationList): one way to name an operation and its path's
// arguments, to send it (with a typed answer, a JSON object or no
// answer), to encode a body for the path's check against the document,
// and to make the write body of a read form.

// target is one request of an operation: its id, its path's arguments
// (each parameter's name, then its value, in the template's order: the
// request path fills and checks them), and err, a bad argument a method
// found itself, which stops it before anything is sent.
type target struct {
	id   op.ID
	args []string
	err  error
}

// at is the target of the operation id with its path's arguments args.
func at(id op.ID, args ...string) target {
	return target{id: id, args: args}
}

// or is t stopped by err too, unless a bad argument stops it first.
func (t target) or(err error) target {
	t.err = cmp.Or(t.err, err)
	return t
}

// call sends t and decodes its answer into a new T, unless a bad argument
// or the body stops it first (see encode).
func call[T any](ctx context.Context, c *workflow.Client, t target, body any, reqOpts []workflow.RequestOption) (*T, error) {
	out := new(T)
	if err := send(ctx, c, t, body, out, reqOpts); err != nil {
		return nil, err
	}
	return out, nil
}

// callRaw is call for an answer that is a JSON object of no modelled
// shape (a Passthrough): anything else is an error matching
// workflow.ErrUnexpectedResponse.
func callRaw(ctx context.Context, c *workflow.Client, t target, body any, reqOpts []workflow.RequestOption) (jsontext.Value, error) {
	out, err := call[jsontext.Value](ctx, c, t, body, reqOpts)
	if err != nil {
		return nil, err
	}
	if out.Kind() != '{' {
		return nil, unexpected(t, "a JSON value that is not an object")
	}
	return *out, nil
}

// callNone is call for an operation whose answer is dropped.
func callNone(ctx context.Context, c *workflow.Client, t target, body any, reqOpts []workflow.RequestOption) error {
	return send(ctx, c, t, body, nil, reqOpts)
}

// send is the request of t with body, its answer read into out (nil
// drops it).
func send(ctx context.Context, c *workflow.Client, t target, body, out any, reqOpts []workflow.RequestOption) error {
	if t.err != nil {
		return t.err
	}
	b, err := encode(body)
	if err != nil {
		return err
	}
	return c.Operation(ctx, t.id, t.args, nil, b, out, reqOpts...)
}

// unexpected is the error of an answer of t that is not what its
// operation answers (what: "a JSON value that is not an object"), naming
// the operation, not the request's values.
func unexpected(t target, what string) error {
	o := t.id.Op()
	return fmt.Errorf("%w: %s (%s %s) answered with %s", workflow.ErrUnexpectedResponse, t.id, o.Method, o.Path, what)
}

// encode is body as the request path takes it: nil for none, or an
// op.Body encoded with this package's JSON library (go-json-experiment,
// whose omitzero and Opt rules the models are written for), which the
// path checks against the operation's request schema and its prose rules
// before sending (a jsontext.Value is sent as it is, checked the same
// way). A value that cannot be encoded is a *workflow.ValidationError
// naming its member.
func encode(body any) (any, error) {
	if body == nil {
		return nil, nil
	}
	b, ok := body.(jsontext.Value)
	if !ok {
		var err error
		if b, err = json.Marshal(body); err != nil {
			ve := &workflow.ValidationError{Field: check.Field(reflect.TypeOf(body), ""), Rule: "must encode as JSON", Err: err}
			if se := (*json.SemanticError)(nil); errors.As(err, &se) && se.Err != nil {
				ve.Field, ve.Rule, ve.Err = check.Field(reflect.TypeOf(body), string(se.JSONPointer)), se.Err.Error(), nil
			}
			return nil, ve
		}
		return op.Body{Value: body, JSON: b}, nil
	}
	return op.Body{JSON: b}, nil
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
// paged list t (workflow.OperationList), unless a bad argument refuses
// them before any request.
func listPage[T any](ctx context.Context, c *workflow.Client, t target, opts *workflow.ListOptions, reqOpts []workflow.RequestOption) (*workflow.Page[T], error) {
	if t.err != nil {
		return nil, t.err
	}
	return workflow.OperationList[T](c, t.id, t.args...).List(ctx, opts, reqOpts...)
}

func listPages[T any](ctx context.Context, c *workflow.Client, t target, opts *workflow.ListOptions, reqOpts []workflow.RequestOption) iter.Seq2[*workflow.Page[T], error] {
	if t.err != nil {
		return failed[*workflow.Page[T]](t.err)
	}
	return workflow.OperationList[T](c, t.id, t.args...).Pages(ctx, opts, reqOpts...)
}

func listAll[T any](ctx context.Context, c *workflow.Client, t target, opts *workflow.ListOptions, reqOpts []workflow.RequestOption) iter.Seq2[T, error] {
	if t.err != nil {
		return failed[T](t.err)
	}
	return workflow.OperationList[T](c, t.id, t.args...).All(ctx, opts, reqOpts...)
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
			return nullMember(v.Type(), p)
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
func nullMember(model reflect.Type, p string) error {
	return invalid(check.Field(model, p), "was read as null, which a write body cannot hold: set a value or leave the member out")
}

package admin

import (
	"context"
	"fmt"
	"iter"
	"regexp"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// The helpers every family's operations are written with: one way to
// build a path, to send an operation (with a typed answer, a JSON object
// or no answer), to refuse bad input and to decode a model.

// segPath builds a path from pairs of a field name and a value: a value
// with a field name is an argument, checked and escaped with
// workflow.Segment; one without is a literal.
func segPath(pairs ...string) (string, error) {
	parts := make([]string, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		v := pairs[i+1]
		if pairs[i] != "" {
			var err error
			if v, err = workflow.Segment(pairs[i], v); err != nil {
				return "", err
			}
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, "/"), nil
}

// call sends one operation and decodes its answer into a new T, unless
// err (a bad argument found before sending) stops it first.
func call[T any](ctx context.Context, c *workflow.Client, method, path string, err error, body any, reqOpts []workflow.RequestOption) (*T, error) {
	if err != nil {
		return nil, err
	}
	out := new(T)
	if err := c.Call(ctx, method, path, nil, body, out, reqOpts...); err != nil {
		return nil, err
	}
	return out, nil
}

// callObject sends one operation whose answer is a Passthrough, returned
// as it came; it must be one JSON object. A jsontext.Value body is sent
// as it is and must be one JSON object too; another body is encoded with
// github.com/go-json-experiment/json, so its Extra members are sent.
func callObject(ctx context.Context, c *workflow.Client, method, path string, err error, body any, reqOpts []workflow.RequestOption) (jsontext.Value, error) {
	v, ok := body.(jsontext.Value)
	if !ok && err == nil {
		if v, err = json.Marshal(body); err != nil {
			err = &workflow.ValidationError{Field: "body", Rule: "must encode as JSON", Err: err}
		}
	}
	if err == nil && !isObject(v) {
		err = invalid("body", "must be one JSON object (the service forwards it as it is)")
	}
	body = v
	out, err := call[jsontext.Value](ctx, c, method, path, err, body, reqOpts)
	if err != nil {
		return nil, err
	}
	if out.Kind() != '{' {
		return nil, fmt.Errorf("%w: %s /%s answered with a JSON value that is not an object", workflow.ErrUnexpectedResponse, method, path)
	}
	return *out, nil
}

// callNone sends one operation whose answer has no body, unless err stops
// it first.
func callNone(ctx context.Context, c *workflow.Client, method, path string, err error, body any, reqOpts []workflow.RequestOption) error {
	if err != nil {
		return err
	}
	return c.Call(ctx, method, path, nil, body, nil, reqOpts...)
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
func invalid(field, rule string) error {
	return &workflow.ValidationError{Field: field, Rule: rule}
}

// at names the element i of a list field: "Tools[2]".
func at(field string, i int) string { return field + "[" + strconv.Itoa(i) + "]" }

var uuidForm = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// checkUUID accepts a textual UUID; an empty v only when it is not
// required.
func checkUUID(field, v string, required bool) error {
	switch {
	case v == "" && required:
		return invalid(field, "must not be empty (the service requires it)")
	case v != "" && !uuidForm.MatchString(v):
		return invalid(field, "must be a UUID such as 550e8400-e29b-41d4-a716-446655440000 (got "+strconv.Quote(v)+")")
	}
	return nil
}

// isObject reports whether v is one well-formed JSON object.
func isObject(v jsontext.Value) bool { return v.Kind() == '{' && v.IsValid() }

// checkObjects requires every value of a list to be one JSON object.
func checkObjects(field string, vs []jsontext.Value) error {
	for i, v := range vs {
		if !isObject(v) {
			return invalid(at(field, i), "must be one JSON object")
		}
	}
	return nil
}

// listPage, listPages and listAll are the List, Pages and All of the
// paged list l, unless err (a bad argument) refuses them before any
// request.
func listPage[T any](ctx context.Context, l workflow.PagedList[T], err error, opts *workflow.ListOptions, reqOpts []workflow.RequestOption) (*workflow.Page[T], error) {
	if err != nil {
		return nil, err
	}
	return l.List(ctx, opts, reqOpts...)
}

func listPages[T any](ctx context.Context, l workflow.PagedList[T], err error, opts *workflow.ListOptions, reqOpts []workflow.RequestOption) iter.Seq2[*workflow.Page[T], error] {
	if err != nil {
		return failed[*workflow.Page[T]](err)
	}
	return l.Pages(ctx, opts, reqOpts...)
}

func listAll[T any](ctx context.Context, l workflow.PagedList[T], err error, opts *workflow.ListOptions, reqOpts []workflow.RequestOption) iter.Seq2[T, error] {
	if err != nil {
		return failed[T](err)
	}
	return l.All(ctx, opts, reqOpts...)
}

// Package opcalls performs every operation of the API through the SDK:
// it finds every method of the services of a client and of its workspace
// (package workflow's Client, package admin's Workspace) by reflection and
// calls it with arguments made from their types, a request body from the
// samples of the contract document's request schemas (shape.Sample). The
// tests that hold the SDK and its telemetry to the operation table
// (package op) run them, and learn which operation a method sends from
// what it reports to an observer.
package opcalls

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire/shape"
)

// Env is what a Call needs: a client, its workspace, and the path of a
// small file to upload.
type Env struct {
	Client    *workflow.Client
	Workspace *admin.Workspace
	File      string
}

// A Call is one SDK method: Method names it as a path from the client or
// workspace ("Records.Get", "admin.Views.Update"). Run calls it, and
// returns the method's error; an iterator stops at its first item.
type Call struct {
	Method string
	Run    func(ctx context.Context, e Env) error
}

// Token is the operation the client sends by itself, for a token, before
// its first call (WithCredentials): no method names it.
const Token = op.RequestAccessToken

const (
	uuid  = "00000000-0000-4000-8000-000000000001"
	email = "ann@example.com"
	link  = "https://example.com/"
)

// words are the strings tried where a string is due and its schema says
// nothing of its form: a path segment or a name, an id, an address, a URL.
var words = []string{"it", uuid, email, link}

// overrides call the methods whose arguments cannot be made from their
// types alone.
var overrides = map[string]func(ctx context.Context, e Env) error{
	// It reads a file: its path must name one.
	"Attachments.UploadFile": func(ctx context.Context, e Env) error {
		_, err := e.Client.Attachments.UploadFile(ctx, workflow.Tasks, "it", "1", e.File, nil)
		return err
	},
	// It follows the attachment's content URL, which must be on the
	// client's own host.
	"Attachments.DownloadAttachment": func(ctx context.Context, e Env) error {
		att := &workflow.Attachment{ID: "a1", ContentURL: e.Client.BaseURL().JoinPath("tasks", "it", "1", "attachments", "a1", "content").Path}
		d, err := e.Client.Attachments.DownloadAttachment(ctx, workflow.Tasks, "it", "1", att)
		if err == nil {
			err = d.Close()
		}
		return err
	},
}

// Calls returns a Call for every method of the services of e's client and
// workspace, and of theirs, in the order of their fields and names.
func Calls(e Env) []Call {
	var calls []Call
	services("", reflect.ValueOf(e.Client).Elem(), &calls)
	services("admin.", reflect.ValueOf(e.Workspace).Elem(), &calls)
	return calls
}

// services appends a Call for each method of the services of the struct
// v (its exported fields that point to structs), and of theirs.
func services(prefix string, v reflect.Value, out *[]Call) {
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		if !f.IsExported() || f.Type.Kind() != reflect.Pointer || fv.IsNil() || f.Type.Elem().Kind() != reflect.Struct {
			continue
		}
		for m := range f.Type.Methods() {
			name := prefix + f.Name + "." + m.Name
			run := overrides[name]
			if run == nil {
				run = func(ctx context.Context, _ Env) error { return call(ctx, fv.Method(m.Index)) }
			}
			*out = append(*out, Call{Method: name, Run: run})
		}
		services(prefix+f.Name+".", fv.Elem(), out)
	}
}

// maxTries bounds the combinations of arguments a call tries.
const maxTries = 100000

// call calls the method m with each combination of the candidates for
// its parameters, until it does not refuse them (a
// *workflow.ValidationError, returned before sending), and returns its
// error. The variadic request options are left out.
func call(ctx context.Context, m reflect.Value) error {
	t := m.Type()
	n := t.NumIn()
	if t.IsVariadic() {
		n--
	}
	cands := make([][]func() reflect.Value, n)
	for i := range n {
		cands[i] = candidates(ctx, t.In(i))
		if len(cands[i]) == 0 {
			return fmt.Errorf("opcalls: no argument of type %s: give the method an override", t.In(i))
		}
	}
	pick := make([]int, n)
	var err error
	for range maxTries {
		args := make([]reflect.Value, n)
		for i, k := range pick {
			args[i] = cands[i][k]()
		}
		err = results(m.Call(args))
		if ve := (*workflow.ValidationError)(nil); !errors.As(err, &ve) {
			return err
		}
		// the next combination: the last parameter's candidates turn
		// fastest.
		i := n - 1
		for ; i >= 0; i-- {
			if pick[i]++; pick[i] < len(cands[i]) {
				break
			}
			pick[i] = 0
		}
		if i < 0 {
			break
		}
	}
	return err
}

// results returns the error of a method's results, after ranging an
// iterator to its first item and closing what it returned to be closed.
func results(out []reflect.Value) error {
	var err error
	for _, r := range out {
		switch {
		case r.Type() == reflect.TypeFor[error]():
			if !r.IsNil() {
				err = r.Interface().(error)
			}
		case r.Kind() == reflect.Func && r.Type().NumIn() == 1:
			// iter.Seq2[T, error]: its first item sends the request.
			yield := reflect.MakeFunc(r.Type().In(0), func(args []reflect.Value) []reflect.Value {
				if e := args[len(args)-1]; !e.IsNil() {
					err = e.Interface().(error)
				}
				return []reflect.Value{reflect.ValueOf(false)}
			})
			r.Call([]reflect.Value{yield})
		case r.Kind() == reflect.Pointer && r.IsNil():
		case r.Type().Implements(reflect.TypeFor[io.Closer]()):
			_ = r.Interface().(io.Closer).Close()
		}
	}
	return err
}

// candidates returns the values to try, in order, for a parameter of
// type t: each made afresh, as a reader is used up by a call.
func candidates(ctx context.Context, t reflect.Type) []func() reflect.Value {
	of := func(vs ...any) []func() reflect.Value {
		var out []func() reflect.Value
		for _, v := range vs {
			out = append(out, func() reflect.Value { return reflect.ValueOf(v) })
		}
		return out
	}
	switch {
	case t == reflect.TypeFor[context.Context]():
		return []func() reflect.Value{func() reflect.Value { return reflect.ValueOf(&ctx).Elem() }}
	case t == reflect.TypeFor[workflow.RecordType]():
		return of(workflow.Tasks, workflow.Apps, workflow.Elements, workflow.Transactions)
	case t == reflect.TypeFor[string]():
		var out []func() reflect.Value
		for _, w := range words {
			out = append(out, of(w)...)
		}
		return out
	case t == reflect.TypeFor[[]string]():
		var out []func() reflect.Value
		for _, w := range words {
			out = append(out, of([]string{w})...)
		}
		return out
	case t == reflect.TypeFor[io.Reader]():
		return []func() reflect.Value{func() reflect.Value {
			return reflect.ValueOf(io.Reader(strings.NewReader("hello")))
		}}
	case t.Kind() == reflect.Pointer:
		// options
		return []func() reflect.Value{func() reflect.Value { return reflect.Zero(t) }}
	case t.Kind() == reflect.Interface:
		return nil
	}
	// a request body: every part of every sample that decodes into t,
	// then, for a slice, one of its element; then t's zero value.
	var out []func() reflect.Value
	for _, b := range bodies() {
		v := reflect.New(t)
		if json.Unmarshal(b, v.Interface(), json.RejectUnknownMembers(true)) == nil {
			out = append(out, func() reflect.Value { return v.Elem() })
		}
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8 {
		for _, elem := range candidates(ctx, t.Elem()) {
			out = append(out, func() reflect.Value { return reflect.Append(reflect.MakeSlice(t, 0, 1), elem()) })
		}
	}
	return append(out, func() reflect.Value { return reflect.Zero(t) })
}

// free is the string a sample holds where its schema says nothing of
// its form (shape.Sample).
const free = "x"

// bodies returns the samples of every operation's request body, and each
// of their members and items, once each.
var bodies = sync.OnceValue(func() []jsontext.Value {
	var out []jsontext.Value
	seen := map[string]bool{}
	var walk func(v jsontext.Value)
	walk = func(v jsontext.Value) {
		if !seen[string(v)] {
			seen[string(v)] = true
			out = append(out, v)
		}
		switch v.Kind() {
		case '{':
			var m map[string]jsontext.Value
			_ = json.Unmarshal(v, &m)
			for _, k := range slices.Sorted(maps.Keys(m)) {
				walk(m[k])
			}
		case '[':
			var a []jsontext.Value
			_ = json.Unmarshal(v, &a)
			for _, x := range a {
				walk(x)
			}
		}
	}
	for _, o := range op.All() {
		if b := shape.Sample(o.ID); b != nil {
			walk(b)
		}
	}
	// each part again with every free string one of the words, for the
	// SDK's own rules (a link's URL is absolute).
	for _, v := range slices.Clone(out) {
		if !strings.Contains(string(v), `"`+free+`"`) {
			continue
		}
		for _, w := range words {
			var x any
			_ = json.Unmarshal(v, &x)
			b, _ := json.Marshal(replace(x, w), json.Deterministic(true))
			if !seen[string(b)] {
				seen[string(b)] = true
				out = append(out, b)
			}
		}
	}
	return out
})

// replace returns v with each free string in it w.
func replace(v any, w string) any {
	switch x := v.(type) {
	case string:
		if x == free {
			return w
		}
	case map[string]any:
		for k, y := range x {
			x[k] = replace(y, w)
		}
	case []any:
		for k, y := range x {
			x[k] = replace(y, w)
		}
	}
	return v
}

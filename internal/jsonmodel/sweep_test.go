package jsonmodel_test

import (
	stdjson "encoding/json"

	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// The sweep: every model and request body of the root package and of
// admin round-trips. The types are found from the source: every exported
// type declared as a struct with a json tag, or with JSON methods. Each
// must be reached from the API (a method of a service, from the client
// and the workspace down), which says whether it is a request body (a
// method takes it, or a body holds it) or a reply; a type that is
// declared and not reached fails the test, so a new type cannot be left
// out.
//
// A list envelope (a page, its paging state, a record item) keeps its
// items, not unknown envelope members: a type whose doc comment says it
// "keeps its items" is held to that; every other type keeps unknown
// members at every depth.

// sweepPackages are the packages swept: their directories (from this
// one) and their import paths.
var sweepPackages = map[string]string{
	"../..":       reflect.TypeFor[workflow.Client]().PkgPath(),
	"../../admin": reflect.TypeFor[admin.Workspace]().PkgPath(),
}

// declared is a JSON type found in the source, by its package path and
// name, with its doc comment.
type declared struct{ pkg, name, doc string }

func declaredTypes(t *testing.T) map[string]declared {
	t.Helper()
	out := map[string]declared{}
	for dir, pkg := range sweepPackages {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		fset := token.NewFileSet()
		methods := map[string]bool{} // types with JSON methods
		var specs []*ast.TypeSpec
		docs := map[*ast.TypeSpec]string{}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
			require.NoError(t, err)
			for _, d := range file.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv != nil && strings.Contains(d.Name.Name, "JSON") {
						methods[recvName(d.Recv.List[0].Type)] = true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() {
							specs = append(specs, ts)
							docs[ts] = d.Doc.Text() + ts.Doc.Text()
						}
					}
				}
			}
		}
		for _, ts := range specs {
			st, isStruct := ts.Type.(*ast.StructType)
			tagged := isStruct && slices.ContainsFunc(st.Fields.List, func(f *ast.Field) bool {
				return f.Tag != nil && strings.Contains(f.Tag.Value, `json:"`)
			})
			if tagged || methods[ts.Name.Name] {
				out[pkg+"."+ts.Name.Name] = declared{pkg, ts.Name.Name, docs[ts]}
			}
		}
	}
	return out
}

func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// reached walks the API from its entry points and returns every named
// type of the swept packages it reaches, by "pkg.Name" (without type
// arguments), with whether it is a request body.
type reached struct {
	types map[string][]reflect.Type
	body  map[reflect.Type]bool // reached as (part of) a request body
	seen  map[reflect.Type]bool // reached as (part of) a reply, or other
}

func (r *reached) ours(t reflect.Type) bool {
	return slices.Contains(slices.Collect(mapsValues(sweepPackages)), t.PkgPath())
}

func mapsValues(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

// walk visits t; body says it is (part of) a request body.
func (r *reached) walk(t reflect.Type, body bool) {
	key := t
	if body {
		if r.body[t] {
			return
		}
		r.body[t] = true
	} else {
		if r.seen[key] {
			return
		}
		r.seen[key] = true
	}
	if t.Name() != "" && t.PkgPath() != "" && !r.ours(t) && t.Kind() != reflect.Func {
		return // another package's type: context.Context, http.Header, ...
	}
	if t.Name() != "" && r.ours(t) {
		name, _, _ := strings.Cut(t.Name(), "[")
		k := t.PkgPath() + "." + name
		if !slices.Contains(r.types[k], t) {
			r.types[k] = append(r.types[k], t)
		}
	}
	if elem, ok := optElem(t); ok {
		r.walk(elem, body)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		r.walk(t.Elem(), body)
	case reflect.Struct:
		for f := range t.Fields() {
			if f.IsExported() {
				r.walk(f.Type, body)
			}
		}
	case reflect.Func:
		for in := range t.Ins() {
			r.walk(in, body)
		}
		for out := range t.Outs() {
			r.walk(out, body)
		}
	}
	if body || !r.service(t) && t != reflect.TypeFor[workflow.Client]() && t != reflect.TypeFor[admin.Workspace]() {
		return
	}
	// A service method's parameters are request bodies; what it returns
	// is a reply.
	for _, tt := range []reflect.Type{t, reflect.PointerTo(t)} {
		for m := range tt.Methods() {
			if strings.Contains(m.Name, "JSON") {
				continue
			}
			// A request body is passed by value; a pointer parameter is
			// something the method reads (options, a resource to follow).
			for i := 1; i < m.Type.NumIn(); i++ {
				in := m.Type.In(i)
				r.walk(in, in.Kind() != reflect.Pointer)
			}
			for out := range m.Type.Outs() {
				r.walk(out, false)
			}
		}
	}
}

// optElem returns T of admin.Opt[T], and whether t is one.
func optElem(t reflect.Type) (reflect.Type, bool) {
	if t.PkgPath() != reflect.TypeFor[admin.Workspace]().PkgPath() || !strings.HasPrefix(t.Name(), "Opt[") {
		return nil, false
	}
	m, _ := t.MethodByName("Value")
	return m.Type.Out(0), true
}

// service reports whether t is a service, whose methods send requests.
func (r *reached) service(t reflect.Type) bool {
	return r.ours(t) && strings.HasSuffix(t.Name(), "Service")
}

func reachedTypes() *reached {
	r := &reached{types: map[string][]reflect.Type{}, body: map[reflect.Type]bool{}, seen: map[reflect.Type]bool{}}
	r.walk(reflect.TypeFor[workflow.Client](), false)
	r.walk(reflect.TypeFor[admin.Workspace](), false)
	// The bodies a method builds from its arguments (JoinMappingsService
	// takes the entries, or the sources, and sends them in an envelope).
	for _, b := range builtBodies {
		r.walk(b, true)
	}
	return r
}

// builtBodies are the request bodies the API builds from what a method
// takes, rather than taking them whole.
var builtBodies = []reflect.Type{reflect.TypeFor[admin.JoinMappings](), reflect.TypeFor[admin.JoinMappingSources](), reflect.TypeFor[admin.GroupDomainsInput]()}

// envelopes are the list envelopes, by "pkg.Name": their doc says they
// keep their items, not unknown envelope members.
var envelopes = map[string]bool{}

// sample is a JSON value of type t with every member set: non-empty
// values (empty false) or explicit empty ones (empty true), and an
// unknown member in every object that keeps them (unknown true).
func sample(t reflect.Type, empty, unknown bool, depth int) any {
	switch {
	case t == reflect.TypeFor[jsontext.Value]():
		if empty {
			return map[string]any{}
		}
		return map[string]any{"opaque": []any{1.5, "x", nil, map[string]any{"b": true}}}
	case t == reflect.TypeFor[time.Time]():
		return "2026-01-02T03:04:05Z"
	case t == reflect.TypeFor[admin.Automation]():
		return map[string]any{"name": "a", "tasks": []any{map[string]any{"z": 1.0, "a": nil}}}
	}
	if elem, ok := optElem(t); ok {
		return sample(elem, empty, unknown, depth)
	}
	switch t.Kind() {
	case reflect.Pointer:
		return sample(t.Elem(), empty, unknown, depth)
	case reflect.String:
		if empty {
			return ""
		}
		return "s-" + t.Name()
	case reflect.Bool:
		return !empty
	case reflect.Int, reflect.Int32, reflect.Int64:
		if empty {
			return 0.0
		}
		return 7.0
	case reflect.Float64, reflect.Float32:
		if empty {
			return 0.0
		}
		return 1.5
	case reflect.Slice:
		if empty {
			return []any{}
		}
		return []any{sample(t.Elem(), false, unknown, depth+1)}
	case reflect.Map:
		if empty {
			return map[string]any{}
		}
		return map[string]any{"k": sample(t.Elem(), false, unknown, depth+1)}
	case reflect.Struct:
		obj := map[string]any{}
		if unknown && !envelopes[t.PkgPath()+"."+strings.Split(t.Name(), "[")[0]] {
			obj["zzUnknown"] = map[string]any{"deep": []any{1.0, map[string]any{"x": nil}}}
		}
		for f := range t.Fields() {
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case strings.Contains(opts, "embed"):
				continue
			case name == "-" || !f.IsExported():
				continue
			case name == "":
				name = f.Name
			}
			// Recursive models (a table's source, a field's field) stop
			// after a few levels.
			if _, opt := optElem(f.Type); depth > 3 && (opt || f.Type.Kind() == reflect.Pointer || f.Type.Kind() == reflect.Slice) {
				continue
			}
			obj[name] = sample(f.Type, empty, unknown, depth+1)
		}
		return obj
	}
	panic("no sample for " + t.String())
}

// libs are the two JSON libraries a user may read and write with.
var libs = []struct {
	name      string
	marshal   func(any) ([]byte, error)
	unmarshal func([]byte, any) error
}{
	{"encoding/json", stdjson.Marshal, stdjson.Unmarshal},
	{"go-json-experiment/json", func(v any) ([]byte, error) { return jsonv2.Marshal(v) }, func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) }},
}

// roundTrip reads in as a new t with one library and writes it with
// another, and reports whether what was written is what was read.
func roundTrip(t *testing.T, typ reflect.Type, in any) {
	t.Helper()
	data, err := stdjson.Marshal(in)
	require.NoError(t, err)
	for _, read := range libs {
		for _, write := range libs {
			v := reflect.New(typ)
			require.NoError(t, read.unmarshal(data, v.Interface()), "read with %s: %s", read.name, data)
			out, err := write.marshal(v.Elem().Interface())
			require.NoError(t, err, "written with %s", write.name)
			var back any
			require.NoError(t, stdjson.Unmarshal(out, &back))
			assert.Equal(t, in, back, "%v read with %s, written with %s:\n read  %s\n wrote %s", typ, read.name, write.name, data, out)
		}
	}
}

func TestEveryModelRoundTrips(t *testing.T) {
	decl := declaredTypes(t)
	for k, d := range decl {
		envelopes[k] = strings.Contains(d.doc, "keeps its items")
	}
	r := reachedTypes()
	require.NotEmpty(t, decl)
	n, bodies := 0, 0
	for key := range decl {
		types := r.types[key]
		if !assert.NotEmpty(t, types, "%s is declared with JSON but no method of the API reaches it: the sweep cannot test it", key) {
			continue
		}
		for _, typ := range types {
			n++
			body := r.body[typ]
			if body {
				bodies++
			}
			t.Run(typ.String(), func(t *testing.T) {
				roundTrip(t, typ, sample(typ, false, true, 0))
				if !body {
					return
				}
				// A request body writes back explicit empty values, and
				// one that is never a reply refuses null for a member
				// (a reply leaves the value as it was).
				roundTrip(t, typ, sample(typ, true, false, 0))
				if typ.Kind() != reflect.Struct || r.seen[typ] {
					return
				}
				full := sample(typ, false, true, 0).(map[string]any)
				for member := range full {
					if member == "zzUnknown" {
						continue
					}
					withNull := map[string]any{}
					for k, v := range full {
						withNull[k] = v
					}
					withNull[member] = nil
					data, _ := stdjson.Marshal(withNull)
					for _, read := range libs {
						err := read.unmarshal(data, reflect.New(typ).Interface())
						assert.ErrorContains(t, err, "must not be null", "%v with %s: %s", typ, read.name, data)
						if err != nil {
							assert.Regexp(t, `[/.]`+regexp.QuoteMeta(member)+`\b`, err.Error(), "the error names the member by its path")
						}
					}
				}
			})
		}
	}
	t.Logf("swept %d types (%d declared; %d generic instances besides), %d of them request bodies", n, len(decl), n-len(decl), bodies)
}

// TestEveryReadModelKeepsPresence: every read model of package admin (a
// struct it answers and never takes as a body) says for each member
// whether the service sent a value, null or nothing, and writes back
// exactly that: each member is an admin.Opt, or raw JSON, and the model
// round-trips with every member explicitly empty (false, 0, "", [], {} at
// every depth), and with each member in turn null, absent, or empty
// among full ones.
func TestEveryReadModelKeepsPresence(t *testing.T) {
	decl := declaredTypes(t)
	r := reachedTypes()
	adminPkg := reflect.TypeFor[admin.Workspace]().PkgPath()
	n := 0
	for key, d := range decl {
		for _, typ := range r.types[key] {
			if _, opt := optElem(typ); opt || d.pkg != adminPkg || typ.Kind() != reflect.Struct || r.body[typ] {
				continue
			}
			n++
			t.Run(typ.String(), func(t *testing.T) {
				for f := range typ.Fields() {
					if _, ok := optElem(f.Type); ok || f.Type == reflect.TypeFor[jsontext.Value]() || strings.Contains(f.Tag.Get("json"), "embed") {
						continue
					}
					t.Errorf("%v.%s is a plain %v: it cannot say whether the service sent a value, null or nothing (make it an admin.Opt)", typ, f.Name, f.Type)
				}
				roundTrip(t, typ, sample(typ, true, false, 0))
				full := sample(typ, false, true, 0).(map[string]any)
				empty := sample(typ, true, false, 0).(map[string]any)
				for member := range full {
					if member == "zzUnknown" {
						continue
					}
					for _, v := range []any{nil, "absent", empty[member]} {
						in := map[string]any{}
						for k, v := range full {
							in[k] = v
						}
						in[member] = v
						if v == "absent" {
							delete(in, member)
						}
						roundTrip(t, typ, in)
					}
				}
			})
		}
	}
	t.Logf("%d read models", n)
	assert.Positive(t, n)
}

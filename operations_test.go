package workflow_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/opcalls"
	"github.com/seed-a15e58aa/workflow-go/internal/optable"
)

// observed records what the observers are told of calls and token
// requests.
type observed struct {
	mu     sync.Mutex
	calls  []workflow.CallInfo
	tokens []workflow.TokenFetchInfo
}

func (o *observed) observer() *workflow.Observer {
	return &workflow.Observer{
		CallStart: func(ctx context.Context, c workflow.CallInfo) context.Context {
			o.mu.Lock()
			defer o.mu.Unlock()
			o.calls = append(o.calls, c)
			return nil
		},
		TokenFetchStart: func(ctx context.Context, f workflow.TokenFetchInfo) context.Context {
			o.mu.Lock()
			defer o.mu.Unlock()
			o.tokens = append(o.tokens, f)
			return nil
		},
	}
}

func (o *observed) since(n int) []workflow.CallInfo {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.calls[n:])
}

// operationsEnv is a client of a server that hands out tokens and answers
// 404 to everything else, observed by obs.
func operationsEnv(t *testing.T, obs *workflow.Observer) opcalls.Env {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth/token" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"t","token_type":"Bearer","expires_in":3600}`))
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := workflow.NewClient(workflow.WithCredentials("id", "secret"), workflow.WithEndpoint(srv.URL+"/v1", srv.URL),
		workflow.WithObserver(obs), workflow.WithMaxAttempts(1))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	file := filepath.Join(t.TempDir(), "a.txt")
	require.NoError(t, os.WriteFile(file, []byte("hello"), 0o600))
	return opcalls.Env{Client: c, Workspace: admin.New(c), File: file}
}

// Every operation of the document reports its route template and its id
// to an observer, from every method that sends it; the token operation
// from the token request. Every method of the services sends an
// operation, and the one its doc comment names ("PUT
// /apps/{alias}/views/{handle}").
func TestEveryOperationIsObserved(t *testing.T) {
	var obs observed
	env := operationsEnv(t, obs.observer())
	seen := map[op.ID]bool{}
	types := map[string]reflect.Type{}
	services("", reflect.ValueOf(env.Client).Elem(), types)
	services("admin.", reflect.ValueOf(env.Workspace).Elem(), types)
	docs := requestsNamed(t, ".", "admin")
	for _, call := range opcalls.Calls(env) {
		t.Run(call.Method, func(t *testing.T) {
			n := len(obs.since(0))
			err := call.Run(t.Context(), env)
			var ve *workflow.ValidationError
			require.NotErrorAs(t, err, &ve, "refused before sending")
			got := obs.since(n)
			require.NotEmpty(t, got, "no call observed: the method sends no operation")
			for _, c := range got {
				id := op.ID(c.Operation)
				seen[id] = true
				o := id.Op()
				if !assert.NotNil(t, o, "the method sends %s, which the operation table does not have", id) {
					continue
				}
				assert.Equal(t, o.Method, c.Method)
				assert.Equal(t, o.Path, c.Route)
				assert.Equal(t, got[0].Operation, c.Operation, "one method, one operation")
			}
			method := call.Method[strings.LastIndex(call.Method, ".")+1:]
			name, named := docOf(docs, types[call.Method], method)
			sent := got[0].Method + " " + params.ReplaceAllString(got[0].Route, "{}")
			if assert.NotEmpty(t, named, "the doc comment of %s names no request (%s): name it, as \"PUT /tables/{id}\"", name, sent) {
				assert.Contains(t, named, sent, "%s sends %s; its doc comment names %v", name, got[0].Operation, named)
			}
		})
	}
	obs.mu.Lock()
	require.NotEmpty(t, obs.tokens)
	tok := opcalls.Token.Op()
	assert.Equal(t, workflow.TokenFetchInfo{Route: tok.Path, Operation: string(tok.ID), ServerAddress: "127.0.0.1", ServerPort: obs.tokens[0].ServerPort}, obs.tokens[0])
	obs.mu.Unlock()
	seen[opcalls.Token] = true

	for _, o := range op.All() {
		assert.True(t, seen[o.ID], "no SDK method sends %s: add the method", o.ID)
	}
}

// The table of every operation that ends admin's documentation has a
// line for each operation package admin sends, and one only: the methods
// its lines name ("Views.List/Pages/All(alias)" names List, Pages and
// All) are the methods of admin's services, and the methods of a line
// send one operation, which no other line's send.
func TestAdminsTableListsItsOperations(t *testing.T) {
	var obs observed
	env := operationsEnv(t, obs.observer())
	sends := map[string]string{} // method ("Views.List") -> the operation it sends
	for _, call := range opcalls.Calls(env) {
		method, ok := strings.CutPrefix(call.Method, "admin.")
		if !ok {
			continue
		}
		n := len(obs.since(0))
		_ = call.Run(t.Context(), env)
		sends[method] = "" // none: TestEveryOperationIsObserved says so
		if got := obs.since(n); len(got) > 0 {
			sends[method] = got[0].Operation
		}
	}
	require.NotEmpty(t, sends, "no method of admin's services")

	src, err := os.ReadFile(filepath.Join("admin", optable.Name))
	require.NoError(t, err)
	rows := regexp.MustCompile(`(?m)^//\t([A-Z][\w./]*)`).FindAllSubmatch(src, -1)
	listed := map[string]string{} // method -> the line that names it
	for _, row := range rows {
		line := string(row[1])
		if line == "Method" { // the heading
			continue
		}
		i := strings.LastIndex(line, ".")
		if i < 0 {
			t.Errorf("admin/%s: in the table but not a method: %s", optable.Name, line)
			continue
		}
		for name := range strings.SplitSeq(line[i+1:], "/") {
			m := line[:i] + "." + name
			if _, ok := listed[m]; ok {
				t.Errorf("admin/%s: listed twice: %s", optable.Name, m)
			}
			listed[m] = line
		}
	}

	for _, m := range slices.Sorted(maps.Keys(listed)) {
		if _, ok := sends[m]; !ok {
			where := ""
			if listed[m] != m {
				where = " (line " + listed[m] + ")"
			}
			t.Errorf("admin/%s: in the table but not a method: %s%s", optable.Name, m, where)
		}
	}
	for _, m := range slices.Sorted(maps.Keys(sends)) {
		if _, ok := listed[m]; !ok {
			t.Errorf("admin/%s: a method the table does not list: %s", optable.Name, m)
		}
	}

	lineOf := map[string]string{} // operation -> the line whose methods send it
	opOf := map[string]string{}   // line -> the operation its methods send
	for _, m := range slices.Sorted(maps.Keys(listed)) {
		o, ok := sends[m]
		if !ok || o == "" {
			continue
		}
		line := listed[m]
		if prev, ok := opOf[line]; ok && prev != o {
			t.Errorf("admin/%s: the methods of line %s send two operations, %s and %s", optable.Name, line, prev, o)
		}
		opOf[line] = o
		if other, ok := lineOf[o]; !ok {
			lineOf[o] = line
		} else if other != line {
			t.Errorf("admin/%s: lines %s and %s both send %s: one line an operation", optable.Name, other, line, o)
		}
	}
}

// opcalls.Calls calls every method of the client's and the workspace's
// services, and only those.
func TestEverySDKMethodIsAnOperation(t *testing.T) {
	c, err := workflow.NewClient(workflow.WithCredentials("id", "secret"), workflow.WithEndpoint("http://127.0.0.1/v1", "http://127.0.0.1"))
	require.NoError(t, err)
	types := map[string]reflect.Type{}
	services("", reflect.ValueOf(c).Elem(), types)
	services("admin.", reflect.ValueOf(admin.New(c)).Elem(), types)
	methods := slices.Collect(maps.Keys(types))
	var named []string
	for _, call := range opcalls.Calls(opcalls.Env{Client: c, Workspace: admin.New(c)}) {
		named = append(named, call.Method)
	}
	assert.ElementsMatch(t, methods, named)
}

// services adds the methods of the services of the struct v, and of
// theirs, named by their path from v ("Records.Comments.Add"), to out,
// each with its service's type (CommentsService).
func services(prefix string, v reflect.Value, out map[string]reflect.Type) {
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		if !f.IsExported() || f.Type.Kind() != reflect.Pointer || fv.IsNil() || f.Type.Elem().Kind() != reflect.Struct {
			continue
		}
		for m := range f.Type.Methods() {
			out[prefix+f.Name+"."+m.Name] = f.Type.Elem()
		}
		services(prefix+f.Name+".", fv.Elem(), out)
	}
}

// requestsNamed are the requests the doc comments of the methods of the
// packages in dirs name ("PUT /apps/{alias}/views/{handle}"), by
// "Type.Method", with the names of path parameters left out ("{}").
func requestsNamed(t *testing.T, dirs ...string) map[string][]string {
	t.Helper()
	re := regexp.MustCompile(`\b(GET|POST|PUT|PATCH|DELETE) (/[^\s,.;)]*)`)
	named := map[string][]string{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ParseComments|parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || fd.Doc == nil {
					continue
				}
				star, ok := fd.Recv.List[0].Type.(*ast.StarExpr)
				if !ok {
					continue
				}
				x := star.X
				if ix, ok := x.(*ast.IndexExpr); ok { // a generic type's method
					x = ix.X
				}
				id, ok := x.(*ast.Ident)
				if !ok {
					continue
				}
				for _, m := range re.FindAllStringSubmatch(strings.Join(strings.Fields(fd.Doc.Text()), " "), -1) {
					named[id.Name+"."+fd.Name.Name] = append(named[id.Name+"."+fd.Name.Name], m[1]+" "+params.ReplaceAllString(m[2], "{}"))
				}
			}
		}
	}
	return named
}

// docOf returns the requests the doc comment of the method of the service
// type t names, by "Type.Method": the method's own, or that of the type t
// embeds it from (a generic list's).
func docOf(docs map[string][]string, t reflect.Type, method string) (string, []string) {
	name := t.Name() + "." + method
	if named := docs[name]; len(named) > 0 {
		return name, named
	}
	for f := range t.Fields() {
		if f.Anonymous {
			embedded, _, _ := strings.Cut(f.Type.Name(), "[")
			if named := docs[embedded+"."+method]; len(named) > 0 {
				return embedded + "." + method, named
			}
		}
	}
	return name, nil
}

// params are the parameters of a path template.
var params = regexp.MustCompile(`\{[^}]*\}`)

package workflow_test

import (
	"context"
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
// operation.
func TestEveryOperationIsObserved(t *testing.T) {
	var obs observed
	env := operationsEnv(t, obs.observer())
	seen := map[op.ID]bool{}
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
// line for each operation package admin sends, and one only.
func TestAdminsTableListsItsOperations(t *testing.T) {
	var obs observed
	env := operationsEnv(t, obs.observer())
	ops := map[string]bool{}
	for _, call := range opcalls.Calls(env) {
		if strings.HasPrefix(call.Method, "admin.") {
			n := len(obs.since(0))
			_ = call.Run(t.Context(), env)
			for _, c := range obs.since(n) {
				ops[c.Operation] = true
			}
		}
	}
	src, err := os.ReadFile(filepath.Join("admin", optable.Name))
	require.NoError(t, err)
	rows := regexp.MustCompile(`(?m)^//\t[A-Z]\w*\.`).FindAll(src, -1)
	assert.Len(t, rows, len(ops), "admin/%s: admin sends %d operations", optable.Name, len(ops))
}

// opcalls.Calls calls every method of the client's and the workspace's
// services, and only those.
func TestEverySDKMethodIsAnOperation(t *testing.T) {
	c, err := workflow.NewClient(workflow.WithCredentials("id", "secret"), workflow.WithEndpoint("http://127.0.0.1/v1", "http://127.0.0.1"))
	require.NoError(t, err)
	var methods []string
	services("", reflect.ValueOf(c).Elem(), &methods)
	services("admin.", reflect.ValueOf(admin.New(c)).Elem(), &methods)
	var named []string
	for _, call := range opcalls.Calls(opcalls.Env{Client: c, Workspace: admin.New(c)}) {
		named = append(named, call.Method)
	}
	assert.ElementsMatch(t, methods, named)
}

// services appends the methods of the services of the struct v, and of
// theirs, named by their path from v ("Records.Comments.Add").
func services(prefix string, v reflect.Value, out *[]string) {
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		if !f.IsExported() || f.Type.Kind() != reflect.Pointer || fv.IsNil() || f.Type.Elem().Kind() != reflect.Struct {
			continue
		}
		for m := range f.Type.Methods() {
			*out = append(*out, prefix+f.Name+"."+m.Name)
		}
		services(prefix+f.Name+".", fv.Elem(), out)
	}
}

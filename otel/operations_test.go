package workflowotel_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/opcalls"
	workflowotel "github.com/seed-a15e58aa/workflow-go/otel"
)

// Every operation of the document, sent by every SDK method that sends
// it, is a call span and an attempt span named after its method and
// route template, with url.template and workflow.operation; the token
// request's span names the token operation.
func TestEveryOperationIsASpan(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth/token" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"t","token_type":"Bearer","expires_in":3600}`))
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer func() { _ = tp.Shutdown(t.Context()) }()
	c, err := workflow.NewClient(workflow.WithCredentials("id", "secret"), workflow.WithEndpoint(srv.URL+"/v1", srv.URL),
		workflow.WithMaxAttempts(1), workflow.WithObserver(workflowotel.NewObserver(workflowotel.WithTracerProvider(tp))))
	require.NoError(t, err)
	defer c.CloseIdleConnections()
	file := filepath.Join(t.TempDir(), "a.txt")
	require.NoError(t, os.WriteFile(file, []byte("hello"), 0o600))
	env := opcalls.Env{Client: c, Workspace: admin.New(c), File: file}

	seen := map[op.ID]bool{opcalls.Token: true}
	for _, call := range opcalls.Calls(env) {
		t.Run(call.Method, func(t *testing.T) {
			n := len(spans.Ended())
			_ = call.Run(t.Context(), env)
			var kinds []trace.SpanKind
			for _, s := range spans.Ended()[n:] {
				a := attrMap(s.Attributes())
				if a["url.template"] == "/oauth/token" {
					continue
				}
				sent, _ := a["workflow.operation"].(string)
				id := op.ID(sent)
				seen[id] = true
				o := op.Lookup(id)
				if !assert.NotNil(t, o, "%s: the method sends %q, which the operation table does not have", s.Name(), id) {
					continue
				}
				kinds = append(kinds, s.SpanKind())
				name := o.Method + " " + o.Path
				if s.SpanKind() == trace.SpanKindInternal {
					name = "workflow " + name
				}
				assert.Equal(t, name, s.Name())
				assert.Equal(t, o.Path, a["url.template"], s.Name())
			}
			assert.Contains(t, kinds, trace.SpanKindInternal, "a call span")
			assert.Contains(t, kinds, trace.SpanKindClient, "an attempt span")
		})
	}
	tok := opcalls.Token.Op()
	var tokenSpans int
	for _, s := range spans.Ended() {
		if a := attrMap(s.Attributes()); a["url.template"] == tok.Path {
			tokenSpans++
			assert.Equal(t, "POST "+tok.Path, s.Name())
			assert.Equal(t, string(tok.ID), a["workflow.operation"])
		}
	}
	assert.Positive(t, tokenSpans, "the token request is a span")
	for _, o := range op.All() {
		assert.True(t, seen[o.ID], "no SDK method sends %s: add the method", o.ID)
	}
}

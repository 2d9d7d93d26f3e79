package workflowotel_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/goleak"

	workflow "github.com/seed-a15e58aa/workflow-go"
	workflowotel "github.com/seed-a15e58aa/workflow-go/otel"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// Canaries: values that must never reach a span or a metric.
const (
	canaryAlias  = "canary-alias-5d1e"
	canaryID     = "canary-id-77c2"
	canaryFilter = "canary-filter-0b9a"
	canaryField  = "canary-field-e4f0"
	canaryHeader = "canary-header-31aa"
)

// tokenSpy records the bearer tokens the client sends.
type tokenSpy struct {
	next   http.RoundTripper
	mu     sync.Mutex
	tokens []string
}

func (s *tokenSpy) RoundTrip(r *http.Request) (*http.Response, error) {
	if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") {
		s.mu.Lock()
		s.tokens = append(s.tokens, strings.TrimPrefix(a, "Bearer "))
		s.mu.Unlock()
	}
	return s.next.RoundTrip(r)
}

type setup struct {
	srv    *workflowtest.Server
	c      *workflow.Client
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	spy    *tokenSpy
}

func newSetup(t *testing.T) *setup {
	t.Helper()
	s := &setup{srv: workflowtest.Start(t), spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(s.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(s.reader))
	t.Cleanup(func() {
		_ = tp.Shutdown(t.Context())
		_ = mp.Shutdown(t.Context())
	})
	s.spy = &tokenSpy{next: s.srv.HTTPClient().Transport}
	s.c = s.srv.Client(
		workflow.WithHTTPClient(&http.Client{Transport: s.spy}),
		workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 3, Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}),
		workflow.WithObserver(workflowotel.NewObserver(workflowotel.WithTracerProvider(tp), workflowotel.WithMeterProvider(mp))),
	)
	return s
}

func attrMap(kvs []attribute.KeyValue) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.AsInterface()
	}
	return m
}

func TestSpansOfACallWithARetry(t *testing.T) {
	s := newSetup(t)
	ids := s.srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "a"})
	s.srv.Inject(workflowtest.Fault{Route: "GET /v1/{recordType}/{alias}/{id}", Count: 1, Status: http.StatusServiceUnavailable})

	_, err := s.c.Records.Get(t.Context(), workflow.Tasks, "it", ids[0])
	require.NoError(t, err)

	ended := s.spans.Ended()
	require.Len(t, ended, 4, "token, two attempts, the call")
	byName := map[string][]sdktrace.ReadOnlySpan{}
	for _, sp := range ended {
		byName[sp.Name()] = append(byName[sp.Name()], sp)
	}
	call := byName["workflow GET /{recordType}/{alias}/{id}"]
	attempts := byName["GET /{recordType}/{alias}/{id}"]
	token := byName["POST /oauth/token"]
	require.Len(t, call, 1)
	require.Len(t, attempts, 2)
	require.Len(t, token, 1)

	host := strings.TrimPrefix(s.srv.URL(), "http://")
	addr, port, _ := strings.Cut(host, ":")
	assert.Equal(t, trace.SpanKindInternal, call[0].SpanKind())
	ca := attrMap(call[0].Attributes())
	assert.Equal(t, "GET", ca["http.request.method"])
	assert.Equal(t, "/{recordType}/{alias}/{id}", ca["url.template"])
	assert.Equal(t, addr, ca["server.address"])
	assert.EqualValues(t, port, toString(ca["server.port"]))
	assert.EqualValues(t, 200, ca["http.response.status_code"])
	assert.Equal(t, codes.Unset, call[0].Status().Code)

	first, second := attempts[0], attempts[1]
	if first.StartTime().After(second.StartTime()) {
		first, second = second, first
	}
	for _, a := range attempts {
		assert.Equal(t, trace.SpanKindClient, a.SpanKind())
		assert.Equal(t, call[0].SpanContext().SpanID(), a.Parent().SpanID(), "attempts are children of the call")
	}
	fa, sa := attrMap(first.Attributes()), attrMap(second.Attributes())
	assert.EqualValues(t, 503, fa["http.response.status_code"])
	assert.Equal(t, "503", fa["error.type"])
	assert.NotContains(t, fa, "http.request.resend_count", "the first attempt is no resend")
	assert.Contains(t, fa, "workflow.retry.wait")
	assert.Equal(t, codes.Error, first.Status().Code)
	assert.EqualValues(t, 200, sa["http.response.status_code"])
	assert.EqualValues(t, 1, sa["http.request.resend_count"])
	assert.NotContains(t, sa, "error.type")

	assert.Equal(t, trace.SpanKindClient, token[0].SpanKind())
	assert.Equal(t, first.SpanContext().SpanID(), token[0].Parent().SpanID(), "the token request is a child of the attempt that needed it")
	assert.Equal(t, "/oauth/token", attrMap(token[0].Attributes())["url.template"])

	var rm metricdata.ResourceMetrics
	require.NoError(t, s.reader.Collect(t.Context(), &rm))
	points := histogramPoints(t, rm, "http.client.request.duration")
	var statuses []string
	for _, p := range points {
		a := attrMap(p.Attributes.ToSlice())
		statuses = append(statuses, toString(a["url.template"])+" "+toString(a["http.response.status_code"])+" "+toString(a["error.type"]))
		assert.EqualValues(t, 1, p.Count)
	}
	assert.ElementsMatch(t, []string{
		"/{recordType}/{alias}/{id} 503 503", "/{recordType}/{alias}/{id} 200 ", "/oauth/token  ",
	}, statuses)
	assert.Equal(t, map[string]int64{"GET /{recordType}/{alias}/{id} 503": 1}, counterSums(t, rm, "workflow.client.retries", "http.request.method", "url.template", "error.type"))
	assert.Equal(t, map[string]int64{"": 1}, counterSums(t, rm, "workflow.client.token.fetches", "error.type"))
	require.Len(t, histogramPoints(t, rm, "workflow.client.call.duration"), 1)
}

func TestRateLimitWaitMetric(t *testing.T) {
	s := newSetup(t)
	ids := s.srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "a"})
	s.srv.Inject(workflowtest.Fault{Route: "GET /v1/{recordType}/{alias}/{id}", Count: 1, Status: http.StatusTooManyRequests, RetryAfter: 2 * time.Second})
	_, err := s.c.Records.Get(t.Context(), workflow.Tasks, "it", ids[0])
	require.NoError(t, err)

	var rm metricdata.ResourceMetrics
	require.NoError(t, s.reader.Collect(t.Context(), &rm))
	assert.Equal(t, map[string]int64{"server GET /{recordType}/{alias}/{id}": 1},
		counterSums(t, rm, "workflow.client.rate_limit.waits", "workflow.rate_limit.source", "http.request.method", "url.template"))
	waits := histogramPoints(t, rm, "workflow.client.rate_limit.wait.duration")
	require.Len(t, waits, 1)
	assert.InDelta(t, 2.0, waits[0].Sum, 0.001, "the Retry-After the service asked for")
}

func TestNoSecretsInSpansOrMetrics(t *testing.T) {
	s := newSetup(t)
	s.srv.Seed(workflow.Tasks, canaryAlias, workflow.Record{"Title": canaryField})
	ctx := t.Context()
	opts := &workflow.ListOptions{Filter: rsql.Field("Title").Ne(canaryFilter)}
	for _, err := range s.c.Records.All(ctx, workflow.Tasks, canaryAlias, opts, workflow.WithHeader("X-Note", canaryHeader)) {
		require.NoError(t, err)
	}
	_, err := s.c.Records.Get(ctx, workflow.Tasks, canaryAlias, canaryID)
	require.ErrorIs(t, err, workflow.ErrNotFound)
	_, err = s.c.Records.Create(ctx, workflow.Tasks, canaryAlias, workflow.Record{"Title": canaryField})
	require.NoError(t, err)
	s.srv.Inject(workflowtest.Fault{Route: "/v1/**", Count: 1, Drop: true})
	_, _ = s.c.Records.Update(ctx, workflow.Tasks, canaryAlias, canaryID, workflow.Record{"Title": canaryField})

	_, secret := s.srv.Credentials()
	canaries := []string{canaryAlias, canaryID, canaryFilter, canaryField, canaryHeader, secret, "Bearer", "Basic"}
	s.spy.mu.Lock()
	require.NotEmpty(t, s.spy.tokens)
	canaries = append(canaries, s.spy.tokens...)
	s.spy.mu.Unlock()

	var texts []string
	for _, sp := range s.spans.Ended() {
		texts = append(texts, sp.Name(), sp.Status().Description)
		for _, kv := range sp.Attributes() {
			texts = append(texts, string(kv.Key)+"="+kv.Value.String())
		}
		for _, ev := range sp.Events() {
			texts = append(texts, ev.Name)
			for _, kv := range ev.Attributes {
				texts = append(texts, string(kv.Key)+"="+kv.Value.String())
			}
		}
	}
	var rm metricdata.ResourceMetrics
	require.NoError(t, s.reader.Collect(ctx, &rm))
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			for _, set := range pointAttributes(m) {
				for _, kv := range set {
					texts = append(texts, m.Name+" "+string(kv.Key)+"="+kv.Value.String())
				}
			}
		}
	}
	require.Greater(t, len(texts), 50)
	for _, text := range texts {
		for _, c := range canaries {
			assert.NotContains(t, text, c)
		}
	}
}

func toString(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

func findMetric(t *testing.T, rm metricdata.ResourceMetrics, name string) metricdata.Metrics {
	t.Helper()
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				return m
			}
		}
	}
	t.Fatalf("no metric %s", name)
	return metricdata.Metrics{}
}

func histogramPoints(t *testing.T, rm metricdata.ResourceMetrics, name string) []metricdata.HistogramDataPoint[float64] {
	t.Helper()
	h, ok := findMetric(t, rm, name).Data.(metricdata.Histogram[float64])
	require.True(t, ok, "%s is a float histogram", name)
	return h.DataPoints
}

// counterSums sums an int counter by the values of keys, joined by spaces.
func counterSums(t *testing.T, rm metricdata.ResourceMetrics, name string, keys ...string) map[string]int64 {
	t.Helper()
	sum, ok := findMetric(t, rm, name).Data.(metricdata.Sum[int64])
	require.True(t, ok, "%s is an int sum", name)
	out := map[string]int64{}
	for _, p := range sum.DataPoints {
		a := attrMap(p.Attributes.ToSlice())
		var parts []string
		for _, k := range keys {
			parts = append(parts, toString(a[k]))
		}
		out[strings.Join(parts, " ")] += p.Value
	}
	return out
}

func pointAttributes(m metricdata.Metrics) [][]attribute.KeyValue {
	var out [][]attribute.KeyValue
	switch d := m.Data.(type) {
	case metricdata.Histogram[float64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes.ToSlice())
		}
	case metricdata.Sum[int64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes.ToSlice())
		}
	}
	return out
}

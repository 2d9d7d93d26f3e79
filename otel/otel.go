// Package workflowotel records OpenTelemetry traces and metrics of a
// workflow.Client's requests. It lives in its own module, so that the SDK
// itself depends on no OpenTelemetry package:
//
//	obs := workflowotel.NewObserver() // the global providers, or WithTracerProvider/WithMeterProvider
//	c, err := workflow.NewClient(creds, endpoint, workflow.WithObserver(obs))
//
// # Spans
//
// Each call (one method call's request, retries included; an iterator makes
// one per page) is an INTERNAL span named "workflow GET /{recordType}/{alias}"
// (the method and the route template). Under it, each attempt actually sent
// is a CLIENT span named "GET /{recordType}/{alias}", following the
// OpenTelemetry semantic conventions for HTTP clients: http.request.method,
// url.template, server.address, server.port, http.response.status_code,
// http.request.resend_count (from the second attempt on) and error.type;
// workflow.operation names the operation by its id in the API's document
// (updateView, requestAccessToken).
// A request to the token endpoint is a CLIENT span "POST /oauth/token"
// under the attempt that needed the token. A span ends with status Error
// when its error.type is set (a transport error or a status of 400 or
// more).
//
// # Metrics
//
//   - http.client.request.duration (s): every request sent, attempts and
//     token requests, with the attributes above (no resend count);
//   - workflow.client.call.duration (s): every call, retries and waits
//     included;
//   - workflow.client.retries ({retry}): attempts that are retried, by
//     method, route and error.type of the failed attempt;
//   - workflow.client.token.fetches ({request}): token requests, with
//     error.type when they failed;
//   - workflow.client.rate_limit.waits ({wait}) and
//     workflow.client.rate_limit.wait.duration (s): waits caused by the
//     client's own limiter (workflow.rate_limit.source "client") or by a 429
//     from the service ("server").
//
// # What is never recorded
//
// The full URL (url.full) is deliberately left out: its path holds aliases
// and record ids, and its query the filter. Attributes hold route
// templates, methods, hosts, ports, status codes and error classes only:
// never a path, id, alias, filter, field value, header value, secret or
// token. Trace context is not injected into requests; wrap the client's
// transport (workflow.WithHTTPClient) if the service should receive it.
package workflowotel

import (
	"context"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/seed-a15e58aa/workflow-go/otel"

// RateLimitSourceKey is the attribute naming the source of a rate-limit
// wait: "client" or "server".
const RateLimitSourceKey = attribute.Key("workflow.rate_limit.source")

// RetryWaitKey is the attribute of an attempt span that is retried: the
// wait before the next attempt, in seconds.
const RetryWaitKey = attribute.Key("workflow.retry.wait")

// OperationKey is the attribute naming a request's operation by its id in
// the API's document, such as updateView (workflow.CallInfo.Operation).
const OperationKey = attribute.Key("workflow.operation")

// config is what the options set.
type config struct {
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// Option configures NewObserver.
type Option func(*config)

// WithTracerProvider sets the tracer provider (the global one otherwise).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider sets the meter provider (the global one otherwise).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.mp = mp }
}

// durationBuckets are the boundaries the semantic conventions advise for
// http.client.request.duration.
var durationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

// instruments are the metric instruments of an observer.
type instruments struct {
	tracer       trace.Tracer
	reqDuration  metric.Float64Histogram
	callDuration metric.Float64Histogram
	retries      metric.Int64Counter
	tokens       metric.Int64Counter
	waits        metric.Int64Counter
	waitDuration metric.Float64Histogram
}

// NewObserver returns an observer recording spans and metrics of the
// requests of a client it is given to with workflow.WithObserver. An
// instrument that cannot be created is reported to otel.Handle and left
// out.
func NewObserver(opts ...Option) *workflow.Observer {
	cfg := config{}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.tp == nil {
		cfg.tp = otel.GetTracerProvider()
	}
	if cfg.mp == nil {
		cfg.mp = otel.GetMeterProvider()
	}
	in := &instruments{tracer: cfg.tp.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL))}
	m := cfg.mp.Meter(ScopeName, metric.WithSchemaURL(semconv.SchemaURL))
	var err error
	if in.reqDuration, err = m.Float64Histogram("http.client.request.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of HTTP client requests."),
		metric.WithExplicitBucketBoundaries(durationBuckets...)); err != nil {
		otel.Handle(err)
	}
	if in.callDuration, err = m.Float64Histogram("workflow.client.call.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of API calls, retries and waits included."),
		metric.WithExplicitBucketBoundaries(durationBuckets...)); err != nil {
		otel.Handle(err)
	}
	if in.retries, err = m.Int64Counter("workflow.client.retries", metric.WithUnit("{retry}"),
		metric.WithDescription("Attempts that failed and were retried.")); err != nil {
		otel.Handle(err)
	}
	if in.tokens, err = m.Int64Counter("workflow.client.token.fetches", metric.WithUnit("{request}"),
		metric.WithDescription("Requests for an access token.")); err != nil {
		otel.Handle(err)
	}
	if in.waits, err = m.Int64Counter("workflow.client.rate_limit.waits", metric.WithUnit("{wait}"),
		metric.WithDescription("Waits caused by a rate limit.")); err != nil {
		otel.Handle(err)
	}
	if in.waitDuration, err = m.Float64Histogram("workflow.client.rate_limit.wait.duration", metric.WithUnit("s"),
		metric.WithDescription("Time spent waiting because of a rate limit.")); err != nil {
		otel.Handle(err)
	}
	return &workflow.Observer{
		CallStart:       in.callStart,
		CallEnd:         in.callEnd,
		AttemptStart:    in.attemptStart,
		AttemptEnd:      in.attemptEnd,
		TokenFetchStart: in.tokenStart,
		TokenFetchEnd:   in.tokenEnd,
		RateLimitWait:   in.rateLimitWait,
	}
}

// requestAttrs are the attributes of a request known before it is sent.
func requestAttrs(c workflow.CallInfo) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = append(attrs,
		semconv.HTTPRequestMethodKey.String(c.Method),
		semconv.ServerAddress(c.ServerAddress),
		semconv.ServerPort(c.ServerPort))
	return operationAttrs(attrs, c.Route, c.Operation)
}

// operationAttrs adds the route template and the operation id, when known.
func operationAttrs(attrs []attribute.KeyValue, route, id string) []attribute.KeyValue {
	if route != "" {
		attrs = append(attrs, semconv.URLTemplate(route))
	}
	if id != "" {
		attrs = append(attrs, OperationKey.String(id))
	}
	return attrs
}

// outcomeAttrs are the attributes of a request's outcome.
func outcomeAttrs(attrs []attribute.KeyValue, status int, errorType string) []attribute.KeyValue {
	if status != 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCode(status))
	}
	if errorType != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(errorType))
	}
	return attrs
}

func spanName(prefix string, c workflow.CallInfo) string {
	name := prefix + c.Method
	if c.Route != "" {
		name += " " + c.Route
	}
	return name
}

func endSpan(span trace.Span, attrs []attribute.KeyValue, errorType string) {
	span.SetAttributes(attrs...)
	if errorType != "" {
		// The description is the error class only: an error's text may
		// quote the request URL.
		span.SetStatus(codes.Error, errorType)
	}
	span.End()
}

func seconds(d time.Duration) float64 { return d.Seconds() }

func (in *instruments) callStart(ctx context.Context, c workflow.CallInfo) context.Context {
	ctx, _ = in.tracer.Start(ctx, spanName("workflow ", c),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(requestAttrs(c)...))
	return ctx
}

func (in *instruments) callEnd(ctx context.Context, c workflow.CallInfo, r workflow.CallResult) {
	attrs := outcomeAttrs(requestAttrs(c), r.StatusCode, r.ErrorType)
	endSpan(trace.SpanFromContext(ctx), attrs, r.ErrorType)
	if in.callDuration != nil {
		in.callDuration.Record(ctx, seconds(r.Duration), metric.WithAttributes(attrs...))
	}
}

func (in *instruments) attemptStart(ctx context.Context, a workflow.AttemptInfo) context.Context {
	attrs := requestAttrs(a.CallInfo)
	if a.Attempt > 1 {
		attrs = append(attrs, semconv.HTTPRequestResendCount(a.Attempt-1))
	}
	ctx, _ = in.tracer.Start(ctx, spanName("", a.CallInfo),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx
}

func (in *instruments) attemptEnd(ctx context.Context, a workflow.AttemptInfo, r workflow.AttemptResult) {
	span := trace.SpanFromContext(ctx)
	if r.Retry {
		span.SetAttributes(RetryWaitKey.Float64(seconds(r.Wait)))
	}
	attrs := outcomeAttrs(requestAttrs(a.CallInfo), r.StatusCode, r.ErrorType)
	endSpan(span, outcomeAttrs(nil, r.StatusCode, r.ErrorType), r.ErrorType)
	if in.reqDuration != nil {
		in.reqDuration.Record(ctx, seconds(r.Duration), metric.WithAttributes(attrs...))
	}
	if r.Retry && in.retries != nil {
		retryAttrs := requestAttrs(a.CallInfo)
		if r.ErrorType != "" {
			retryAttrs = append(retryAttrs, semconv.ErrorTypeKey.String(r.ErrorType))
		}
		in.retries.Add(ctx, 1, metric.WithAttributes(retryAttrs...))
	}
}

func tokenAttrs(t workflow.TokenFetchInfo) []attribute.KeyValue {
	return operationAttrs([]attribute.KeyValue{
		semconv.HTTPRequestMethodKey.String("POST"),
		semconv.ServerAddress(t.ServerAddress),
		semconv.ServerPort(t.ServerPort),
	}, t.Route, t.Operation)
}

func (in *instruments) tokenStart(ctx context.Context, t workflow.TokenFetchInfo) context.Context {
	ctx, _ = in.tracer.Start(ctx, "POST "+t.Route,
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(tokenAttrs(t)...))
	return ctx
}

func (in *instruments) tokenEnd(ctx context.Context, t workflow.TokenFetchInfo, r workflow.TokenFetchResult) {
	endSpan(trace.SpanFromContext(ctx), outcomeAttrs(nil, r.StatusCode, r.ErrorType), r.ErrorType)
	attrs := outcomeAttrs(tokenAttrs(t), r.StatusCode, r.ErrorType)
	if in.reqDuration != nil {
		in.reqDuration.Record(ctx, seconds(r.Duration), metric.WithAttributes(attrs...))
	}
	if in.tokens != nil {
		a := []attribute.KeyValue{semconv.ServerAddress(t.ServerAddress)}
		if r.ErrorType != "" {
			a = append(a, semconv.ErrorTypeKey.String(r.ErrorType))
		}
		in.tokens.Add(ctx, 1, metric.WithAttributes(a...))
	}
}

func (in *instruments) rateLimitWait(ctx context.Context, w workflow.RateLimitWait) {
	attrs := operationAttrs([]attribute.KeyValue{RateLimitSourceKey.String(w.Source), semconv.HTTPRequestMethodKey.String(w.Method)}, w.Route, w.Operation)
	if in.waits != nil {
		in.waits.Add(ctx, 1, metric.WithAttributes(attrs...))
	}
	if in.waitDuration != nil {
		in.waitDuration.Record(ctx, seconds(w.Wait), metric.WithAttributes(attrs...))
	}
	trace.SpanFromContext(ctx).AddEvent("rate limit wait", trace.WithAttributes(
		RateLimitSourceKey.String(w.Source), attribute.Float64("workflow.rate_limit.wait", seconds(w.Wait))))
}

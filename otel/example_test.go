package workflowotel_test

import (
	"context"
	"fmt"
	"log"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	workflow "github.com/seed-a15e58aa/workflow-go"
	workflowotel "github.com/seed-a15e58aa/workflow-go/otel"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func ExampleNewObserver() {
	srv := workflowtest.NewServer() // stands in for the service
	defer srv.Close()
	ids := srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"Title": "Printer jammed"})

	// In production: your SDK's tracer and meter providers, or none for
	// the global ones (otel.SetTracerProvider, otel.SetMeterProvider).
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer func() { _ = tp.Shutdown(context.Background()) }()

	c := srv.Client(workflow.WithObserver(workflowotel.NewObserver(workflowotel.WithTracerProvider(tp))))
	if _, err := c.Records.Get(context.Background(), workflow.Tasks, "it-requests", ids[0]); err != nil {
		log.Fatal(err)
	}
	for _, s := range spans.Ended() {
		fmt.Println(s.SpanKind(), s.Name())
	}
	// Output:
	// client POST /oauth/token
	// client GET /{recordType}/{alias}/{id}
	// internal workflow GET /{recordType}/{alias}/{id}
}

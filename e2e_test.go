package workflow_test

// End-to-end tests drive the SDK through the workflowtest fake (every
// exchange is checked against the contract), with faults injected where a
// test needs them. This file holds what several of them share.

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// retryRecorder is a retry policy's Sleep and OnRetry: it records every
// wait and every retried attempt, and never really waits.
type retryRecorder struct {
	mu     sync.Mutex
	waits  []time.Duration
	events []workflow.RetryEvent
}

func (r *retryRecorder) sleep(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	r.waits = append(r.waits, d)
	r.mu.Unlock()
	return ctx.Err()
}

func (r *retryRecorder) onRetry(ev workflow.RetryEvent) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
}

// policy returns a retry policy of maxAttempts that reports to r.
func (r *retryRecorder) policy(maxAttempts int) workflow.RetryPolicy {
	return workflow.RetryPolicy{MaxAttempts: maxAttempts, Sleep: r.sleep, OnRetry: r.onRetry}
}

func (r *retryRecorder) retries() []workflow.RetryEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]workflow.RetryEvent(nil), r.events...)
}

func (r *retryRecorder) recordedWaits() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.waits...)
}

// countRequests counts the requests the fake received with this method
// and path (the token endpoint is "POST /oauth/token").
func countRequests(srv *workflowtest.Server, method, path string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

func tokenRequests(srv *workflowtest.Server) int {
	return countRequests(srv, http.MethodPost, "/oauth/token")
}

// seedNumbered stores n records {"n": "0"} ... {"n": "n-1"} (ids "1" to "n").
func seedNumbered(srv *workflowtest.Server, t workflow.RecordType, alias string, n int) {
	recs := make([]workflow.Record, n)
	for i := range recs {
		recs[i] = workflow.Record{"n": strconv.Itoa(i)}
	}
	srv.Seed(t, alias, recs...)
}

// checkSequence asserts that got holds the records 0..n-1 exactly once,
// in order.
func checkSequence(t *testing.T, got []workflow.RecordItem, n int) {
	t.Helper()
	require.Len(t, got, n, "every record exactly once")
	cursors := make(map[string]bool, n)
	for i, it := range got {
		if it.Data["n"] != strconv.Itoa(i) || it.Data["id"] != strconv.Itoa(i+1) {
			require.Failf(t, "out of order", "item %d is record %v", i, it.Data)
		}
		require.False(t, cursors[it.Cursor], "cursor %q seen twice", it.Cursor)
		cursors[it.Cursor] = true
	}
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

package workflowtest

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// Latency is a lower bound on every request's time (only a lower bound is
// asserted: a busy machine makes requests slower, never faster).
func TestLatency(t *testing.T) {
	a := newAPI(t, WithLatency(30*time.Millisecond))
	seedTasks(a.srv, 1)
	start := time.Now()
	assert.Equal(t, 200, a.get("/tasks/it").status)
	assert.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)

	a.srv.SetLatency(0)
	a.srv.SetLatency(80 * time.Millisecond)
	start = time.Now()
	assert.Equal(t, 200, a.get("/tasks/it").status)
	assert.GreaterOrEqual(t, time.Since(start), 80*time.Millisecond)
}

func TestSetRateLimit(t *testing.T) {
	a := newAPI(t, WithClock(fixedClock()))
	seedTasks(a.srv, 1)
	assert.Equal(t, 200, a.get("/tasks/it").status, "off by default")

	a.srv.SetRateLimit(1, 2)
	assert.Equal(t, 200, a.get("/tasks/it").status)
	assert.Equal(t, 200, a.get("/tasks/it").status)
	res := a.get("/tasks/it")
	expectError(t, res, http.StatusTooManyRequests)
	assert.Equal(t, "1", res.header.Get("Retry-After"))

	a.srv.SetRateLimit(0, 0)
	for range 5 {
		assert.Equal(t, 200, a.get("/tasks/it").status, "turned off")
	}
}

func TestKeyCounts(t *testing.T) {
	srv := Start(t)
	assert.Empty(t, srv.KeyCounts(workflow.Tasks, "none", "Ref"))
	srv.Seed(workflow.Tasks, "it", workflow.Record{"Ref": "a"}, workflow.Record{"Ref": "a"},
		workflow.Record{"Ref": "b"}, workflow.Record{"Ref": ""}, workflow.Record{"Other": "c"})
	require.Equal(t, map[string]int{"a": 2, "b": 1}, srv.KeyCounts(workflow.Tasks, "it", "Ref"))
}

package workflowtest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Every operation of the contract document under /v1 has one route, and
// every route is an operation.
func TestEveryOperationHasARoute(t *testing.T) {
	t.Parallel()
	n := 0
	for _, o := range op.All() {
		if o.AuthHost {
			continue
		}
		n++
		if rt := routeOf[o.ID]; assert.NotNil(t, rt, o.ID) {
			assert.Equal(t, o.Method+" /v1"+o.Path, rt.name)
		}
	}
	assert.Len(t, routes, n)
	assert.Len(t, routeOf, n)
}

// Every GET runs under the read lock only: while another reader holds
// it, GETs are answered, those that used to take the write lock included
// (the lists of an app's agents and skills, which made the app's list on
// first use, and the reads of an attachment, which move its state on).
func TestGetsTakeTheReadLock(t *testing.T) {
	a := newAPI(t, WithAttachmentPolicy(ReadyAfterPolls(1)))
	seedTasks(a.srv, 1)
	a.srv.Define(workflow.Apps, "crm")
	res := a.upload("/tasks/it/1/attachments", "f.txt", strings.NewReader("x"), "")
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)

	a.srv.mu.RLock()
	defer a.srv.mu.RUnlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, path := range []string{"/apps/crm/agents", "/apps/crm/skills", "/tasks/it/1/attachments",
			"/tasks/it/1/attachments/a1", "/tasks/it/1/attachments/a1", "/tasks/it/1/attachments/a1/content"} {
			assert.Equal(t, http.StatusOK, a.get(path).status, path)
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // a liveness guard: a GET waits for the write lock
		t.Fatal("a GET waited for the write lock")
	}
}

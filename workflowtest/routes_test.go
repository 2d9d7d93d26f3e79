package workflowtest

import (
	"testing"

	"github.com/stretchr/testify/assert"

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

package workflowtest

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/modelgen"
)

// TestBodiesAreTheDocuments holds the fake's generated bodies and replies
// to what the generator makes of the contract document now.
func TestBodiesAreTheDocuments(t *testing.T) {
	doc, err := os.ReadFile("../internal/contract/openapi.yaml")
	require.NoError(t, err)
	stale, err := modelgen.Stale(doc, "workflowtest", ".")
	require.NoError(t, err)
	assert.Empty(t, stale, "stale: run go generate ./workflowtest")
}

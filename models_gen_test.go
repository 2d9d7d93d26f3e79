package workflow_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/modelgen"
)

// TestModelsAreTheDocuments holds the generated models to what the
// generator makes of the contract document now.
func TestModelsAreTheDocuments(t *testing.T) {
	doc, err := os.ReadFile("internal/contract/openapi.yaml")
	require.NoError(t, err)
	stale, err := modelgen.Stale(doc, "workflow", ".")
	require.NoError(t, err)
	assert.Empty(t, stale, "stale: run go generate .")
}

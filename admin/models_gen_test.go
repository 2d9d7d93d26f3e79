package admin_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/modelgen"
	"github.com/seed-a15e58aa/workflow-go/internal/optable"
)

// TestModelsAreTheDocuments holds the generated models to what the
// generator makes of the contract document now.
func TestModelsAreTheDocuments(t *testing.T) {
	doc, err := os.ReadFile("../internal/contract/openapi.yaml")
	require.NoError(t, err)
	stale, err := modelgen.Stale(doc, "admin", ".")
	require.NoError(t, err)
	assert.Empty(t, stale, "stale: run go generate ./admin")
}

// TestOperationsTableIsTheCode holds the documentation's table of every
// operation to what the services' methods are now.
func TestOperationsTableIsTheCode(t *testing.T) {
	want, err := optable.File(".", "admin", "Workspace")
	require.NoError(t, err)
	got, err := os.ReadFile(optable.Name)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "stale: run go generate ./admin")
}

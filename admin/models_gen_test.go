package admin_test

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
	doc, err := os.ReadFile("../internal/contract/openapi.yaml")
	require.NoError(t, err)
	for _, f := range modelgen.Admin {
		want, err := modelgen.Generate(doc, f, modelgen.Admin, modelgen.AdminHand)
		require.NoError(t, err)
		got, err := os.ReadFile(f.Name)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%s is stale: run go generate ./admin", f.Name)
	}
}

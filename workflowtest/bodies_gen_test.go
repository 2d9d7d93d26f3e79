package workflowtest

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/modelgen"
)

// TestBodiesAreTheDocuments holds the fake's generated bodies to what the
// generator makes of the contract document now.
func TestBodiesAreTheDocuments(t *testing.T) {
	doc, err := os.ReadFile("../internal/contract/openapi.yaml")
	require.NoError(t, err)
	set := modelgen.Sets["workflowtest"]
	require.NotEmpty(t, set.Files)
	for _, f := range set.Files {
		want, err := modelgen.Generate(doc, f, set.Files, set.Hand)
		require.NoError(t, err)
		got, err := os.ReadFile(f.Name)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%s is stale: run go generate ./workflowtest", f.Name)
	}
}

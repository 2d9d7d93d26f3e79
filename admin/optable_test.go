package admin_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/optable"
)

// TestOperationsTableIsTheCode holds the documentation's table of every
// operation to what the services' methods are now.
func TestOperationsTableIsTheCode(t *testing.T) {
	want, err := optable.File(".", "admin", "Workspace")
	require.NoError(t, err)
	got, err := os.ReadFile(optable.Name)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "stale: run go generate ./admin")
}

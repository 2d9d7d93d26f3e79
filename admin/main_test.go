package admin_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/seed-a15e58aa/workflow-go/internal/contract"
)

// TestMain checks every exchange of the tests with a workflowtest server
// against the contract document, and that no goroutine is left behind.
func TestMain(m *testing.M) {
	check := contract.CheckFakes()
	goleak.VerifyTestMain(m, goleak.Cleanup(check.Exit))
}

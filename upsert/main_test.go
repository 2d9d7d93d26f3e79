package upsert_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/seed-a15e58aa/workflow-go/internal/contract"
)

func TestMain(m *testing.M) {
	check := contract.CheckFakes()
	goleak.VerifyTestMain(m, goleak.Cleanup(check.Exit))
}

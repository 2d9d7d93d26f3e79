// Package exampletest holds what the example programs' tests share: it is
// imported by those tests only.
package exampletest

import (
	"testing"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// UseAccount points the four WORKFLOW_* variables at srv, as a real
// account would be configured, with the API and token URLs going through
// a proxy of check that checks every exchange against the contract. The
// variables are restored when the test ends.
func UseAccount(tb testing.TB, check *contract.FakeCheck, srv *workflowtest.Server) {
	tb.Helper()
	id, secret := srv.Credentials()
	tb.Setenv(workflow.EnvClientID, id)
	tb.Setenv(workflow.EnvClientSecret, secret)
	proxy := check.Proxy(tb, srv.URL())
	tb.Setenv(workflow.EnvBaseURL, proxy+"/v1")
	tb.Setenv(workflow.EnvAuthURL, proxy)
}

// Package fakehook lets this module's own tests put a check between the
// SDK and workflowtest's servers without workflowtest depending on the
// checker: internal/contract sets the hook from a test binary's TestMain,
// workflowtest applies it to the HTTP clients it hands out. Outside this
// module's tests the hook is never set and nothing changes.
package fakehook

import (
	"net/http"
	"sync/atomic"
	"testing"
)

// Wrap wraps next, the transport of a workflowtest server's HTTP client.
// tb is the test that started the server with workflowtest.Start, nil for
// a server from NewServer.
type Wrap func(tb testing.TB, next http.RoundTripper) http.RoundTripper

var hook atomic.Pointer[Wrap]

// Set installs w for the rest of the process (nil removes it).
func Set(w Wrap) {
	if w == nil {
		hook.Store(nil)
		return
	}
	hook.Store(&w)
}

// Transport returns next wrapped by the installed hook and true, or next
// itself and false when none is installed.
func Transport(tb testing.TB, next http.RoundTripper) (http.RoundTripper, bool) {
	if w := hook.Load(); w != nil {
		return (*w)(tb, next), true
	}
	return next, false
}

// FaultHeader marks a reply that a workflowtest server produced by fault
// injection rather than as the service would answer.
const FaultHeader = "X-Workflowtest-Fault"

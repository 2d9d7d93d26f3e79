package workflow

import (
	"slices"
	"testing"

	"go.uber.org/goleak"

	"github.com/seed-a15e58aa/workflow-go/internal/contract"
)

func TestMain(m *testing.M) {
	check := contract.CheckFakes()
	goleak.VerifyTestMain(m, slices.Concat(leakOptions, []goleak.Option{goleak.Cleanup(check.Exit)})...)
}

// leakOptions are the goroutines a leak check passes over: a test
// server's connection that net/http's server is closing. Having stopped
// reading a request body the client was still sending (an upload cut
// short or cancelled), the server closes its side and waits half a
// second in closeWriteAndWait before it closes the connection. Go 1.27
// does so after the uploads these tests cut short, where Go 1.26 closed
// at once (its check of the early-closed body missed them). That
// goroutine belongs to the
// test's server, not the SDK: the client's connections and every
// goroutine the SDK starts still count (TestLeakCheckCatchesTheSDKs).
var leakOptions = []goleak.Option{goleak.IgnoreAnyFunction("net/http.(*conn).closeWriteAndWait")}

// checkLeaks notes the goroutines running now and returns the check, to
// be deferred: it fails t if a goroutine started since is still running
// once goleak's retries are over.
func checkLeaks(t *testing.T) func() {
	leaks := leaksSince()
	return func() {
		t.Helper()
		if err := leaks(); err != nil {
			t.Error(err)
		}
	}
}

// leaksSince notes the goroutines running now and returns a function that
// reports those started since that are still running, leakOptions aside.
func leaksSince() func() error {
	opts := slices.Concat(leakOptions, []goleak.Option{goleak.IgnoreCurrent()})
	return func() error { return goleak.Find(opts...) }
}

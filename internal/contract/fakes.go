package contract

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/seed-a15e58aa/workflow-go/internal/fakehook"
)

// FakeCheck is the contract check of every workflowtest server in one test
// binary: CheckFakes installs it, Exit ends the binary.
type FakeCheck struct {
	v         *Validator
	collector *collector
}

// CheckFakes makes every HTTP client that a workflowtest server hands out
// (Server.HTTPClient, and so Server.Client) send through the contract
// check, for the rest of the process. Call it from TestMain before the
// tests run:
//
//	func TestMain(m *testing.M) {
//		check := contract.CheckFakes()
//		goleak.VerifyTestMain(m, goleak.Cleanup(check.Exit))
//	}
//
// A finding on a server from workflowtest.Start fails that test; one on a
// server from workflowtest.NewServer (an Example function has no test)
// is collected and makes Exit fail the binary. Requests are checked in
// the strict mode (WithStrictRequests): a body member the document does
// not declare is a finding, so the SDK's guessed member names are caught.
// Replies that carry the
// fault mark (workflowtest.FaultHeader) are skipped; their requests are
// still checked. A client built with a different HTTP client
// (workflow.WithHTTPClient after the server's options) is not checked
// unless it wraps Server.HTTPClient's transport.
func CheckFakes() *FakeCheck {
	v, err := New(WithStrictRequests(), WithIgnoredResponses(func(_ *http.Request, resp *http.Response) bool {
		return resp.Header.Get(fakehook.FaultHeader) != ""
	}))
	if err != nil {
		panic(err)
	}
	fc := &FakeCheck{v: v, collector: &collector{}}
	fakehook.Set(func(tb testing.TB, next http.RoundTripper) http.RoundTripper {
		if tb == nil {
			tb = fc.collector
		}
		return v.Transport(tb, next)
	})
	return fc
}

// Proxy starts a reverse proxy to target (a workflowtest server's URL)
// that checks every exchange passing through it, for programs that build
// their own client from an address (the examples read WORKFLOW_BASE_URL
// and WORKFLOW_AUTH_URL): point them at the returned address instead of
// target's. The proxy stops when tb's test ends.
func (fc *FakeCheck) Proxy(tb testing.TB, target string) string {
	tb.Helper()
	u, err := url.Parse(target)
	if err != nil {
		tb.Fatalf("contract: proxy target: %v", err)
	}
	next := http.DefaultTransport.(*http.Transport).Clone()
	rp := &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(u) },
		Transport: fc.v.Transport(tb, next),
	}
	ps := httptest.NewServer(rp)
	tb.Cleanup(func() {
		ps.Close()
		next.CloseIdleConnections()
	})
	return ps.URL
}

// CoverageEnv, when set to any value, makes Exit list the operations of
// the document that no checked request addressed in this test binary.
const CoverageEnv = "WORKFLOW_CONTRACT_COVERAGE"

// Exit prints the findings collected outside any test and exits with
// code, or with 1 when there are any.
func (fc *FakeCheck) Exit(code int) {
	fakehook.Set(nil)
	if os.Getenv(CoverageEnv) != "" {
		seen := fc.v.Seen()
		var unseen []string
		for _, op := range fc.v.Operations() {
			if !slices.Contains(seen, op) {
				unseen = append(unseen, op)
			}
		}
		fmt.Fprintf(os.Stderr, "contract: %d of %d operations checked; not exercised: %v\n",
			len(seen), len(fc.v.Operations()), unseen)
	}
	if msgs := fc.collector.take(); len(msgs) > 0 {
		fmt.Fprintf(os.Stderr, "contract: %d finding(s) outside a test (a server from workflowtest.NewServer):\n", len(msgs))
		for _, m := range msgs {
			fmt.Fprintln(os.Stderr, "\t"+m)
		}
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// collector is the testing.TB that findings go to when no test is at
// hand. Only the methods the transport calls are implemented; the
// embedded interface is nil.
type collector struct {
	testing.TB
	mu   sync.Mutex
	msgs []string
}

func (c *collector) Helper() {}

func (c *collector) Errorf(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, fmt.Sprintf(format, args...))
}

func (c *collector) Fatalf(format string, args ...any) { c.Errorf(format, args...) }

func (c *collector) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.msgs
	c.msgs = nil
	return out
}

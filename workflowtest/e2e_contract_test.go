package workflowtest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// findings is a testing.TB that keeps what the contract check reports
// instead of failing the test, so a test can assert on the reports.
type findings struct {
	testing.TB
	mu   sync.Mutex
	msgs []string
}

func (f *findings) Helper() {}

func (f *findings) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}

func (f *findings) Fatalf(format string, args ...any) { f.Errorf(format, args...) }

func (f *findings) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.msgs
	f.msgs = nil
	return out
}

// checkedClient returns a client of the fake, sent through h (the fake
// itself, or a handler in front of it), whose exchanges are checked
// against the contract with the findings going to rec, and skipping the
// replies the fake marks as injected faults, as the suite does.
func checkedClient(t *testing.T, srv *workflowtest.Server, h http.Handler, rec *findings, opts ...workflow.Option) *workflow.Client {
	t.Helper()
	front := httptest.NewServer(h)
	t.Cleanup(front.Close)
	v, err := contract.New(contract.WithIgnoredResponses(func(_ *http.Request, resp *http.Response) bool {
		return resp.Header.Get(workflowtest.FaultHeader) != ""
	}))
	require.NoError(t, err)
	id, secret := srv.Credentials()
	base := []workflow.Option{
		workflow.WithCredentials(id, secret),
		workflow.WithEndpoint(front.URL+"/v1", front.URL),
		workflow.WithHTTPClient(&http.Client{Transport: v.Transport(rec, front.Client().Transport)}),
	}
	c, err := workflow.NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c
}

// TestContractCheckFailsOnAWrongBody is the test of the suite's contract
// check: a reply that strays from the published contract, given by a
// handler in front of the fake, is reported, naming the operation and
// the rule, while the fake's own replies are not.
func TestContractCheckFailsOnAWrongBody(t *testing.T) {
	srv := workflowtest.Start(t)
	ctx := t.Context()
	wrong := "/v1/users/" + workflowtest.DefaultUserID
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == wrong {
			// A short id instead of a UUID, and a status outside the
			// published enum.
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"id":"u1","email":"admin@example.com","firstName":"A","lastName":"B","status":"SLEEPING"}`))
			return
		}
		srv.ServeHTTP(w, r)
	})
	rec := &findings{TB: t}
	c := checkedClient(t, srv, h, rec)

	// The fake's replies pass.
	page, err := c.Users.List(ctx, nil)
	require.NoError(t, err)
	require.NotEmpty(t, page.Items)
	assert.Empty(t, rec.take(), "the fake's own replies follow the contract")

	// The SDK keeps what it cannot check (any status is kept as sent);
	// the contract check is what catches the wrong body.
	u, err := c.Users.Get(ctx, workflowtest.DefaultUserID)
	require.NoError(t, err)
	assert.Equal(t, "SLEEPING", string(u.Status))
	got := strings.Join(rec.take(), "\n")
	assert.Contains(t, got, "getUser GET "+wrong)
	assert.Contains(t, got, `"/id"`)
	assert.Contains(t, got, "uuid")
	assert.Contains(t, got, `"/status"`)
}

// TestContractCheckSkipsInjectedFaults: a reply an injected fault produced
// (a 503 that no operation publishes) carries workflowtest.FaultHeader and
// is not reported, while an unmarked unpublished status is.
func TestContractCheckSkipsInjectedFaults(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	ctx := t.Context()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/groups" {
			// The same 503, without the mark.
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"status":503,"message":"down"}`))
			return
		}
		srv.ServeHTTP(w, r)
	})
	rec := &findings{TB: t}
	c := checkedClient(t, srv, h, rec, workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 1}))

	in := srv.Inject(workflowtest.Fault{Route: "GET /v1/users", Count: 1, Status: http.StatusServiceUnavailable})
	_, err := c.Users.List(ctx, nil)
	require.Error(t, err)
	assert.Equal(t, 1, in.Fired())
	assert.Empty(t, rec.take(), "a marked fault is skipped")

	_, err = c.Groups.List(ctx, nil)
	require.Error(t, err)
	assert.Contains(t, strings.Join(rec.take(), "\n"), "reply status 503 is not published for this operation")
}

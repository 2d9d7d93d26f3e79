package workflow_test

// End-to-end tests of the token: expiry in the middle of an export, a
// failing, blipping or refusing token endpoint, and bursts of 401s.

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/testperf"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestTokenExpiryMidExport moves the fake's clock 24 hours forward in the
// middle of an export: the token expires, the next page meets a 401, the
// SDK fetches exactly one new token and the export goes on without error.
func TestTokenExpiryMidExport(t *testing.T) {
	t.Parallel()
	const total, pageSize = 5000, 500
	srv := workflowtest.Start(t)
	seedNumbered(srv, workflow.Tasks, "expiry", total)
	rec := &retryRecorder{}
	c := srv.Client(workflow.WithRetryPolicy(rec.policy(4)))

	var got []workflow.RecordItem
	for it, err := range c.Records.All(t.Context(), workflow.Tasks, "expiry", &workflow.ListOptions{First: pageSize}) {
		require.NoError(t, err)
		got = append(got, it)
		if len(got) == total/2 {
			require.Equal(t, 1, tokenRequests(srv))
			srv.Advance(workflowtest.TokenLifetime)
		}
	}
	checkSequence(t, got, total)
	assert.Equal(t, 2, tokenRequests(srv), "exactly one extra token request")
	unauthorized := 0
	for _, r := range srv.Requests() {
		if r.Status == http.StatusUnauthorized {
			unauthorized++
		}
	}
	assert.Equal(t, 1, unauthorized, "one request met the expired token")
	assert.Empty(t, rec.retries(), "the 401 refresh is not a retry")
	t.Logf("exported %d records across a token expiry: %d token requests, %d request answered 401, %d retries",
		len(got), tokenRequests(srv), unauthorized, len(rec.retries()))
}

// TestFailingTokenEndpointBoundedRequests: 20 concurrent calls meet a
// token endpoint that answers 503, with the default retry policy and its
// real (jittered) waits. Every caller gets an *AuthError, no API request
// is sent, and the token endpoint receives a bounded number of requests:
// failures are shared, so the callers' retries do not each ask again.
func TestFailingTokenEndpointBoundedRequests(t *testing.T) {
	t.Parallel()
	const callers = 20
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "x"})
	srv.Inject(workflowtest.Fault{Route: "POST /oauth/token", Status: http.StatusServiceUnavailable})
	var retries atomic.Int64
	policy := workflow.DefaultRetryPolicy()
	// Three attempts: each waits out the one-second hold of the failure
	// before it, so the test takes about two seconds.
	policy.MaxAttempts = 3
	policy.OnRetry = func(workflow.RetryEvent) { retries.Add(1) }
	c := srv.Client(workflow.WithRetryPolicy(policy))

	start := time.Now()
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			_, errs[i] = c.Records.Get(t.Context(), workflow.Tasks, "it", "1")
		})
	}
	wg.Wait()
	for _, err := range errs {
		var ae *workflow.AuthError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, http.StatusServiceUnavailable, ae.StatusCode)
	}
	elapsed := time.Since(start)
	n := tokenRequests(srv)
	assert.Equal(t, n, len(srv.Requests()), "no API request without a token")
	// Without sharing, each caller would ask on each of its attempts (up
	// to 60 requests). With it, a failed token request is held for a
	// second: callers in that time share the next one.
	perSecond := 1 + int(elapsed/time.Second)
	assert.LessOrEqual(t, n, perSecond, "at most one token request per second of failure")
	assert.LessOrEqual(t, n, 2*policy.MaxAttempts, "token requests are bounded, whatever the number of callers")
	t.Logf("%d concurrent calls against a failing token endpoint: %d token requests (bounds: %d for %v, %d; %d without sharing), %d retries, all %d got *AuthError",
		callers, n, perSecond, elapsed.Round(time.Millisecond), 2*policy.MaxAttempts, callers*policy.MaxAttempts, retries.Load(), callers)
}

// TestTokenEndpointBlipRecovers: a token endpoint that fails once does
// not fail the call: the retry waits for the failure's one-second hold to
// pass (even with a sleeper that does not wait) and the next token
// request succeeds.
func TestTokenEndpointBlipRecovers(t *testing.T) {
	t.Parallel()
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "x"})
	srv.Inject(workflowtest.Fault{Route: "POST /oauth/token", Status: http.StatusServiceUnavailable, Count: 1})
	rec := &retryRecorder{}
	c := srv.Client(workflow.WithRetryPolicy(rec.policy(4)))
	start := time.Now()
	_, err := c.Records.Get(t.Context(), workflow.Tasks, "it", "1")
	require.NoError(t, err)
	assert.Equal(t, 2, tokenRequests(srv))
	require.Len(t, rec.retries(), 1)
	var ae *workflow.AuthError
	require.ErrorAs(t, rec.retries()[0].Err, &ae)
	assert.Equal(t, http.StatusServiceUnavailable, ae.StatusCode)
	t.Logf("token endpoint failed once: %d token requests, %d retry, the call succeeded after %v",
		tokenRequests(srv), len(rec.retries()), time.Since(start).Round(time.Millisecond))
}

// TestRefusedCredentialsFailFast: 20 concurrent calls with a wrong secret
// all get an *AuthError matching ErrUnauthorized at once (no retry, no
// wait), and the token endpoint is asked a bounded number of times.
func TestRefusedCredentialsFailFast(t *testing.T) {
	t.Parallel()
	const callers = 20
	srv := workflowtest.Start(t)
	id, _ := srv.Credentials()
	rec := &retryRecorder{}
	c := srv.Client(workflow.WithCredentials(id, "wrong-secret"), workflow.WithRetryPolicy(rec.policy(4)))
	start := time.Now()
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() { _, errs[i] = c.Records.Get(t.Context(), workflow.Tasks, "it", "1") })
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, err := range errs {
		var ae *workflow.AuthError
		require.ErrorAs(t, err, &ae)
		assert.ErrorIs(t, err, workflow.ErrUnauthorized)
	}
	assert.Empty(t, rec.retries(), "refused credentials are not retried")
	if testperf.Enabled() { // a wall-clock bound: WORKFLOW_PERF=1 only
		assert.Less(t, elapsed, time.Second, "no caller waits for the failure's hold")
	}
	n := tokenRequests(srv)
	assert.Equal(t, n, len(srv.Requests()), "no API request without a token")
	assert.LessOrEqual(t, n, 2, "callers share the refusal")
	t.Logf("%d concurrent calls with a wrong secret: %d token request(s), all refused in %v", callers, n, elapsed.Round(time.Millisecond))
}

// TestBurstOf401sRecovers: 64 calls meet a 401 at once, as many as the
// default transport's connections to one host, with the token endpoint on
// the API's host. Each 401 is read and closed before a new token is asked
// for, and token requests have their own transport, so the one new token
// arrives and every call succeeds.
func TestBurstOf401sRecovers(t *testing.T) {
	srv := workflowtest.NewServer()
	t.Cleanup(srv.Close)
	ids := srv.Seed(workflow.Tasks, "it", workflow.Record{"n": "1"})
	id, secret := srv.Credentials()
	// The default transport (64 connections per host), not the fake's.
	c, err := workflow.NewClient(workflow.WithCredentials(id, secret), workflow.WithEndpoint(srv.BaseURL(), srv.AuthURL()))
	require.NoError(t, err)
	_, err = c.Records.Get(t.Context(), workflow.Tasks, "it", ids[0])
	require.NoError(t, err)

	srv.Advance(workflowtest.TokenLifetime + time.Hour) // the service now rejects the cached token
	// A deadline that only a freeze would reach.
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	start := make(chan struct{})
	errs := make(chan error, 64)
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			<-start
			_, err := c.Records.Get(ctx, workflow.Tasks, "it", ids[0])
			errs <- err
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Equal(t, 2, tokenRequests(srv), "the first token, and one new token for all 64 callers")
}

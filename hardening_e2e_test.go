package workflow_test

// End-to-end regression tests of the hardening against an adversarial
// review, on the workflowtest fake.

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

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

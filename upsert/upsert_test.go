package upsert_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/upsert"
)

const (
	mockOrigin = "https://api.example.test"
	mockList   = mockOrigin + "/v1/apps/" + syncAlias
)

// mockClient returns a client whose requests go to an httpmock transport,
// where the test registers every route it expects.
func mockClient(t *testing.T) (*workflow.Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	c, err := workflow.NewClient(
		workflow.WithTokenSource(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "token"})),
		workflow.WithEndpoint(mockOrigin+"/v1", mockOrigin),
		workflow.WithHTTPClient(&http.Client{Transport: mt}),
		workflow.WithRetryPolicy(workflow.RetryPolicy{Sleep: noWait}),
	)
	require.NoError(t, err)
	return c, mt
}

func jsonReply(status int, body string) httpmock.Responder {
	return httpmock.NewStringResponder(status, body).HeaderSet(http.Header{"Content-Type": {"application/json"}})
}

// A nil source is bad input, refused before anything is sent.
func TestRecordsNilSource(t *testing.T) {
	c, mt := mockClient(t)
	opts := &upsert.Options{KeyField: "Email"}
	for _, tc := range []struct {
		name, field string
		run         func() (*upsert.Summary, error)
	}{
		{"Records", "records", func() (*upsert.Summary, error) {
			return upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, nil, opts)
		}},
		{"RecordsAs", "values", func() (*upsert.Summary, error) {
			return upsert.RecordsAs[struct{ Email string }](t.Context(), c.Records, workflow.Apps, syncAlias, nil, opts)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sum, err := tc.run()
			var ve *workflow.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.EqualError(t, err, "workflow: invalid "+tc.field+": must not be nil (the inputs to sync)")
			assert.Nil(t, sum)
			assert.Zero(t, mt.GetTotalCallCount(), "nothing sent")
		})
	}
}

// When the service refuses the credentials or the definition, the sync
// stops and returns that cause once: the inputs it left alone are
// reported not attempted, without an error of their own.
func TestRecordsStopReportsTheCauseOnce(t *testing.T) {
	const emptyPage = `{"items":[],"total":0,"paging":{"has_next_page":false,"end_cursor":""}}`
	for _, tc := range []struct {
		name      string
		get, post httpmock.Responder
		cause     error
	}{
		{"401 on the look-up", jsonReply(http.StatusUnauthorized, `{"message":"bad token"}`), nil, workflow.ErrUnauthorized},
		{"403 on the look-up", jsonReply(http.StatusForbidden, `{"message":"denied"}`), nil, workflow.ErrForbidden},
		{"404 on the look-up: no such definition", jsonReply(http.StatusNotFound, `{"message":"no such definition"}`), nil, workflow.ErrNotFound},
		{"403 on the creates", jsonReply(http.StatusOK, emptyPage), jsonReply(http.StatusForbidden, `{"message":"denied"}`), workflow.ErrForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := mockClient(t)
			mt.RegisterResponder(http.MethodGet, mockList, tc.get) // any query
			if tc.post != nil {
				mt.RegisterResponder(http.MethodPost, mockList, tc.post)
			}
			var in []workflow.Record
			for i := range 30 {
				in = append(in, customer(i, "pro"))
			}
			var got collect
			sum, err := upsert.Records(t.Context(), c.Records, workflow.Apps, syncAlias, slices.Values(in),
				&upsert.Options{KeyField: "Email", BatchSize: 10, MaxConcurrency: 2, OnResult: got.add})
			require.ErrorIs(t, err, tc.cause)
			var ae *workflow.APIError
			require.ErrorAs(t, err, &ae)
			require.NotNil(t, sum)
			assert.Positive(t, sum.Read)
			assert.Zero(t, sum.Failed)
			assert.Equal(t, sum.Read, sum.NotAttempted)
			require.Len(t, got.results, sum.Read, "every input read is reported")
			for i, r := range got.results {
				assert.Equal(t, upsert.NotAttempted, r.Action, "input %d", i)
				assert.NoError(t, r.Err, "input %d: the cause is returned once, not repeated per input", i)
			}
			assert.Equal(t, "not attempted", upsert.NotAttempted.String())
		})
	}
}

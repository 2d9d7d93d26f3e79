package workflow_test

// End-to-end tests of uploads: a connection dropped mid-body and a 429
// before the body is read.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// writeTestFile writes size deterministic pseudo-random bytes to a file
// and returns its path and hex SHA-256.
func writeTestFile(t *testing.T, name string, size int) (string, string) {
	t.Helper()
	data := make([]byte, size)
	r := rand.New(rand.NewPCG(uint64(size), 42))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	sum := sha256.Sum256(data)
	return path, hex.EncodeToString(sum[:])
}

// TestUploadCutByDroppedConnection: an upload whose connection drops
// returns an error and is not retried by the SDK, since the server may
// have stored the file; the fake holds at most one attachment, and the
// caller's own retry adds exactly one more, of the right size and hash.
func TestUploadCutByDroppedConnection(t *testing.T) {
	t.Parallel()
	const size = 1 << 20
	const alias = "docs"
	uploadPath := "/v1/tasks/" + alias + "/1/attachments"
	tests := []struct {
		name     string
		fault    workflowtest.Fault // injected on the upload, once
		wantHeld int                // attachments after the failed upload
	}{
		{"dropped before the server read the file", workflowtest.Fault{Drop: true}, 0},
		{"dropped after the server stored the file", workflowtest.Fault{DropAfter: true}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := workflowtest.Start(t)
			srv.Seed(workflow.Tasks, alias, workflow.Record{"Title": "Contract"})
			path, sum := writeTestFile(t, "contract.bin", size)
			f := tt.fault
			f.Route, f.Count = "POST "+uploadPath, 1
			in := srv.Inject(f)
			rec := &retryRecorder{}
			c := srv.Client(workflow.WithRetryPolicy(rec.policy(4)))

			_, cut := c.Attachments.UploadFile(t.Context(), workflow.Tasks, alias, "1", path, nil)
			require.Error(t, cut)
			var ae *workflow.APIError
			assert.False(t, errors.As(cut, &ae), "no answer arrived: %v", cut)
			held := srv.Attachments(workflow.Tasks, alias, "1")
			assert.Len(t, held, tt.wantHeld)
			assert.LessOrEqual(t, len(held), 1, "at most one attachment")
			assert.Equal(t, 1, countRequests(srv, http.MethodPost, uploadPath), "not retried automatically")
			assert.Empty(t, rec.retries())
			assert.Equal(t, 1, in.Fired())

			// The caller decides to upload again.
			att, err := c.Attachments.UploadFile(t.Context(), workflow.Tasks, alias, "1", path, nil)
			require.NoError(t, err)
			after := srv.Attachments(workflow.Tasks, alias, "1")
			require.Len(t, after, len(held)+1, "exactly one more")
			last := after[len(after)-1]
			assert.Equal(t, att.ID, last.ID)
			assert.EqualValues(t, size, last.Size)
			assert.Equal(t, sum, last.SHA256)
			t.Logf("upload of %d bytes cut (%v): fake held %d attachment(s); the caller's retry added %s (%d bytes, sha256 %.12s…)",
				size, cut, len(held), last.ID, last.Size, last.SHA256)
		})
	}
}

// TestUploadMeeting429IsRetriedFromTheStart: an upload answered 429 is
// sent again from the first byte (UploadFile reads the file again) and the
// fake holds exactly one attachment with the file's hash.
func TestUploadMeeting429IsRetriedFromTheStart(t *testing.T) {
	t.Parallel()
	const size = 3<<20 + 17
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "docs", workflow.Record{"Title": "Contract"})
	uploadPath := "/v1/tasks/docs/1/attachments"
	srv.Inject(workflowtest.Fault{Route: "POST " + uploadPath, Status: http.StatusTooManyRequests, RetryAfter: 2 * time.Second, Count: 1})
	path, sum := writeTestFile(t, "scan.bin", size)
	rec := &retryRecorder{}
	c := srv.Client(workflow.WithRetryPolicy(rec.policy(4)))

	att, err := c.Attachments.UploadFile(t.Context(), workflow.Tasks, "docs", "1", path, nil)
	require.NoError(t, err)
	held := srv.Attachments(workflow.Tasks, "docs", "1")
	require.Len(t, held, 1, "exactly one attachment")
	assert.Equal(t, att.ID, held[0].ID)
	assert.EqualValues(t, size, held[0].Size)
	assert.Equal(t, sum, held[0].SHA256)
	assert.Equal(t, 2, countRequests(srv, http.MethodPost, uploadPath))
	require.Len(t, rec.retries(), 1)
	assert.Equal(t, http.StatusTooManyRequests, rec.retries()[0].StatusCode)
	assert.Equal(t, []time.Duration{2 * time.Second}, rec.recordedWaits(), "Retry-After honoured")
	t.Logf("upload of %d bytes met a 429: %d POST requests, %d retry after %v, fake holds 1 attachment of %d bytes with the file's sha256",
		size, countRequests(srv, http.MethodPost, uploadPath), len(rec.retries()), rec.recordedWaits()[0], held[0].Size)
}

// TestUploadFileIgnoresSize: UploadFile sends the file's size whatever
// UploadOptions.Size says, as its doc has it, a negative or too large one
// included.
func TestUploadFileIgnoresSize(t *testing.T) {
	t.Parallel()
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "docs", workflow.Record{"Title": "Contract"})
	path, sum := writeTestFile(t, "scan.bin", 1000)
	c := srv.Client()
	for _, size := range []int64{-1, 10, workflow.MaxUploadSize + 1} {
		att, err := c.Attachments.UploadFile(t.Context(), workflow.Tasks, "docs", "1", path, &workflow.UploadOptions{Size: size})
		require.NoError(t, err, "Size %d", size)
		assert.EqualValues(t, 1000, att.Size, "Size %d", size)
	}
	held := srv.Attachments(workflow.Tasks, "docs", "1")
	require.Len(t, held, 3)
	for _, a := range held {
		assert.Equal(t, sum, a.SHA256)
	}
}

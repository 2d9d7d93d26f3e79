package workflowtest

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An option given nothing keeps what was set before it: a size or a
// limit of 0 or less, and WithUser's empty arguments.
func TestOptionsGivenNothingKeepTheSetting(t *testing.T) {
	a := newAPI(t, WithMaxUploadSize(10), WithMaxUploadSize(0), WithMaxUploadSize(-1),
		WithRequestLogLimit(2), WithRequestLogLimit(0), WithRequestLogLimit(-1), WithUser("", "", ""))
	id, secret := a.srv.Credentials()
	assert.Equal(t, []string{DefaultClientID, DefaultClientSecret}, []string{id, secret})
	seedTasks(a.srv, 1)
	res := a.upload("/tasks/it/1/attachments", "f.bin", bytes.NewReader(make([]byte, 11)), "")
	assert.Contains(t, expectError(t, res, http.StatusRequestEntityTooLarge), "10 bytes")
	res = a.upload("/tasks/it/1/attachments", "f.bin", bytes.NewReader(make([]byte, 10)), "")
	assert.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	for range 5 {
		assert.Equal(t, http.StatusOK, a.get("/tasks/it").status)
	}
	var ids []string
	for _, r := range a.srv.Requests() {
		ids = append(ids, r.RequestID)
	}
	require.Equal(t, []string{"req-7", "req-8"}, ids, "the two most recent requests")
}

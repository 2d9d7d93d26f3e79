package workflowtest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
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

// seeingLog is a ResponseWriter that notes, when the answer starts, the
// request log as a client that has the answer would read it.
type seeingLog struct {
	*httptest.ResponseRecorder
	srv *Server
	log []RequestRecord
}

func (w *seeingLog) WriteHeader(status int) {
	w.log = w.srv.Requests()
	w.ResponseRecorder.WriteHeader(status)
}

// A request is in the log before its answer leaves: a client that has
// the answer (the last byte can arrive before the handler returns) finds
// it in Requests, with its status.
func TestRequestIsLoggedBeforeItsAnswer(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	a.srv.Inject(Fault{Route: "GET /v1/{recordType}/{alias}/{id}", Status: http.StatusServiceUnavailable})
	for _, tc := range []struct {
		path, token string
		status      int
	}{
		{"/v1/tasks/it", a.token, http.StatusOK},
		{"/v1/tasks/it/1", a.token, http.StatusServiceUnavailable},
		{"/v1/tasks/it", "", http.StatusUnauthorized},
		{"/v1/nothing/here", a.token, http.StatusNotFound},
	} {
		t.Run(tc.path, func(t *testing.T) {
			a.srv.ResetRequests()
			r := httptest.NewRequestWithContext(t.Context(), http.MethodGet, tc.path, nil)
			if tc.token != "" {
				r.Header.Set("Authorization", "Bearer "+tc.token)
			}
			w := &seeingLog{ResponseRecorder: httptest.NewRecorder(), srv: a.srv}
			a.srv.ServeHTTP(w, r)
			require.Equal(t, tc.status, w.Code)
			require.Len(t, w.log, 1)
			assert.Equal(t, tc.status, w.log[0].Status)
			assert.Equal(t, w.Header().Get("X-Request-Id"), w.log[0].RequestID)
			assert.Equal(t, a.srv.Requests(), w.log, "logged once")
		})
	}
}

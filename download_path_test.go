package workflow

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDownloadGoesThroughTheOneRequestPath: a download's error answer is
// redacted like any other call's, and WithResponseInto sees its response.
func TestDownloadGoesThroughTheOneRequestPath(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
	}{
		{"error status echoing the token", http.StatusForbidden},
		{"204 without content", http.StatusNoContent},
		{"content", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Request-Id", "rq-7")
				w.WriteHeader(tc.status)
				if tc.status >= 400 {
					_, _ = fmt.Fprintf(w, `{"message":"token %s refused"}`, r.Header.Get("Authorization"))
				} else if tc.status == http.StatusOK {
					_, _ = w.Write([]byte("content"))
				}
			}))
			var resp Response
			d, err := c.Attachments.Download(t.Context(), RecordType("tasks"), "it", "1", "a1", WithResponseInto(&resp))
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, "rq-7", resp.RequestID)
			assert.Equal(t, 1, resp.Attempts)
			switch tc.status {
			case http.StatusOK:
				require.NoError(t, err)
				require.NoError(t, d.Close())
			case http.StatusNoContent:
				require.ErrorIs(t, err, ErrUnexpectedResponse)
				assert.Contains(t, err.Error(), "GET ")
				assert.Contains(t, err.Error(), "/attachments/a1/content")
			default:
				var ae *APIError
				require.ErrorAs(t, err, &ae)
				assert.Contains(t, ae.Message, "token Bearer "+redacted)
				assert.NotContains(t, string(ae.Body), testToken)
				assert.NotContains(t, err.Error(), testToken)
			}
		})
	}
}

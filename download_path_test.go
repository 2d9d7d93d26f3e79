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

// TestDownloadAttachmentQueryKeyOfBoth: a WithQuery key that the
// ContentURL's own query already has is refused before sending, never
// sent twice.
func TestDownloadAttachmentQueryKeyOfBoth(t *testing.T) {
	var sent []string
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent = append(sent, r.URL.RawQuery)
		_, _ = w.Write([]byte("content"))
	}))
	att := &Attachment{ID: "a1", ContentURL: "/v1/tasks/it/1/attachments/a1/content?sig=s3cr3t&v=1"}
	_, err := c.Attachments.DownloadAttachment(t.Context(), Tasks, "it", "1", att, WithQuery("v", "2"))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, `WithQuery("v")`, ve.Field)
	assert.NotContains(t, err.Error(), "s3cr3t")
	assert.Empty(t, sent)

	d, err := c.Attachments.DownloadAttachment(t.Context(), Tasks, "it", "1", att, WithQuery("w", "2"))
	require.NoError(t, err)
	require.NoError(t, d.Close())
	assert.Equal(t, []string{"sig=s3cr3t&v=1&w=2"}, sent)
}

// TestResponseIntoHeaderIsRedacted: WithResponseInto's header copy never
// holds the token, even when the service echoes it.
func TestResponseIntoHeaderIsRedacted(t *testing.T) {
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		w.Header().Set("X-Request-Id", "rq-1")
		_, _ = w.Write([]byte(`{"id":"u"}`))
	}))
	var resp Response
	_, err := c.Users.Get(t.Context(), "u", WithResponseInto(&resp))
	require.NoError(t, err)
	assert.Equal(t, "Bearer "+redacted, resp.Header.Get("X-Echo"))
	assert.Equal(t, "rq-1", resp.Header.Get("X-Request-Id"))
	assert.NotContains(t, fmt.Sprintf("%v %+v %#v", resp, resp, resp), testToken)
}

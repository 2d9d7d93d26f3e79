package workflow

import (
	"context"
	"maps"
	"slices"

	stdjson "encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	json "github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const attBase = mockBase + "/tasks/it/1/attachments"

func TestAttachmentJSONRoundTrip(t *testing.T) {
	in := `{"id":"abc-123","name":"report.pdf","description":"Q3","mediaType":"application/pdf","size":2048,` +
		`"state":"VALID","createdAt":"2026-02-03T10:30:00Z","contentUrl":"/v1/apps/ns/REC-001/attachments/abc-123/content",` +
		`"viewState":"PRIVATE","checksum":{"sha256":"00"}}`
	var a Attachment
	require.NoError(t, stdjson.Unmarshal([]byte(in), &a))
	assert.Equal(t, Attachment{ID: "abc-123", Name: "report.pdf", Description: "Q3", MediaType: "application/pdf", Size: 2048,
		State: AttachmentValid, CreatedAt: time.Date(2026, 2, 3, 10, 30, 0, 0, time.UTC),
		ContentURL: "/v1/apps/ns/REC-001/attachments/abc-123/content", ViewState: "PRIVATE", Extra: a.Extra}, a)
	assert.Equal(t, []string{"checksum"}, sortedKeys(a.Extra))
	for name, marshal := range map[string]func(any) ([]byte, error){
		"encoding/json": stdjson.Marshal, "go-json-experiment/json": func(v any) ([]byte, error) { return json.Marshal(v) },
	} {
		out, err := marshal(a)
		require.NoError(t, err)
		assert.JSONEq(t, in, string(out), name)
	}

	// Milliseconds and offsets are read too; the time is kept in UTC.
	require.NoError(t, stdjson.Unmarshal([]byte(`{"createdAt":"2026-02-03T12:30:00.250+02:00"}`), &a))
	assert.Equal(t, time.Date(2026, 2, 3, 10, 30, 0, 250e6, time.UTC), a.CreatedAt)
	assert.Equal(t, time.UTC, a.CreatedAt.Location())
	assert.Error(t, stdjson.Unmarshal([]byte(`{"createdAt":"yesterday"}`), &a))
	assert.Error(t, stdjson.Unmarshal([]byte(`{"size":"2k"}`), &a))
}

func TestAttachmentStates(t *testing.T) {
	for _, tc := range []struct {
		s                        AttachmentState
		processing, ready, faild bool
	}{
		{AttachmentProcessing, true, false, false},
		{"processing", true, false, false},
		{AttachmentValid, false, true, false},
		{"Valid", false, true, false},
		{AttachmentError, false, false, true},
		{"error", false, false, true},
		{"QUARANTINED", false, false, false},
		{"", false, false, false},
	} {
		assert.Equal(t, []bool{tc.processing, tc.ready, tc.faild},
			[]bool{tc.s.IsProcessing(), tc.s.IsReady(), tc.s.IsFailed()}, "%q", tc.s)
	}
}

func TestAttachmentsListIsABareArray(t *testing.T) {
	c, mt := newMockTransport(t)
	mt.RegisterResponder(http.MethodGet, attBase, jsonReply(200, `[{"id":"a1","state":"PROCESSING"},{"id":"a2"}]`))
	list, err := c.Attachments.List(t.Context(), Tasks, "it", "1")
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.True(t, list[0].State.IsProcessing())

	for _, body := range []string{`{"items":[]}`, ``, `[{"id":1}]`} {
		mt.RegisterResponder(http.MethodGet, attBase, jsonReply(200, body))
		_, err := c.Attachments.List(t.Context(), Tasks, "it", "1")
		assert.Error(t, err, body)
	}
	mt.RegisterResponder(http.MethodGet, attBase, jsonReply(200, `[]`))
	list, err = c.Attachments.List(t.Context(), Tasks, "it", "1")
	require.NoError(t, err)
	assert.NotNil(t, list)
	assert.Empty(t, list)
}

func TestAttachmentsDeleteAndAddLink(t *testing.T) {
	c, mt := newMockTransport(t)
	mt.RegisterResponder(http.MethodDelete, attBase+"/a1", jsonReply(200, ""))
	require.NoError(t, c.Attachments.Delete(t.Context(), Tasks, "it", "1", "a1"))

	var got seen
	mt.RegisterResponder(http.MethodPost, attBase+"/url-links",
		capture(&got, jsonReply(201, `{"url":"https://example.com/spec","description":"the spec","id":"l1"}`)))
	link, err := c.Attachments.AddLink(t.Context(), Tasks, "it", "1", Link{URL: "https://example.com/spec", Description: new("the spec")})
	require.NoError(t, err)
	assert.JSONEq(t, `{"url":"https://example.com/spec","description":"the spec"}`, got.body)
	assert.Equal(t, "the spec", *link.Description)
	assert.Equal(t, []string{"id"}, sortedKeys(link.Extra))

	mt.RegisterResponder(http.MethodPost, attBase+"/url-links", capture(&got, jsonReply(201, "")))
	link, err = c.Attachments.AddLink(t.Context(), Tasks, "it", "1", Link{URL: "https://example.com/x"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"url":"https://example.com/x"}`, got.body)
	assert.Equal(t, "https://example.com/x", link.URL, "without a body, the link sent")

	for _, bad := range []string{"ftp://example.com/x?sig=s3cr3t", "https://exa mple.com/?sig=s3cr3t", "/relative?sig=s3cr3t", "https:///?sig=s3cr3t"} {
		_, err = c.Attachments.AddLink(t.Context(), Tasks, "it", "1", Link{URL: bad})
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, bad)
		assert.Equal(t, "must be an absolute http or https URL", ve.Rule, bad)
		assert.NotContains(t, err.Error(), "s3cr3t", "the URL is request data")
	}
}

// TestWaitProcessed: the wait goes on while the state is PROCESSING (in
// any case) and ends on VALID, on ERROR with ErrAttachmentFailed, and on
// an unknown state with an error of its own.
func TestWaitProcessed(t *testing.T) {
	for _, tc := range []struct {
		name     string
		states   []string
		polls    int
		wantErr  error
		anyError bool
	}{
		{"ready at once", []string{"VALID"}, 1, nil, false},
		{"ready later", []string{"PROCESSING", "processing", "VALID"}, 3, nil, false},
		{"ready in lower case", []string{"PROCESSING", "valid"}, 2, nil, false},
		{"failed", []string{"PROCESSING", "ERROR"}, 2, ErrAttachmentFailed, true},
		{"unknown state", []string{"PROCESSING", "QUARANTINED"}, 2, nil, true},
		{"no state", []string{""}, 1, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := newMockTransport(t)
			n := 0
			mt.RegisterResponder(http.MethodGet, attBase+"/a1", func(r *http.Request) (*http.Response, error) {
				s := tc.states[min(n, len(tc.states)-1)]
				n++
				return jsonReply(200, `{"id":"a1","state":"`+s+`"}`)(r)
			})
			att, err := c.Attachments.WaitProcessed(t.Context(), Tasks, "it", "1", "a1", &WaitOptions{PollInterval: time.Nanosecond})
			require.NotNil(t, att)
			assert.Equal(t, AttachmentState(tc.states[len(tc.states)-1]), att.State)
			assert.Equal(t, tc.polls, n)
			if !tc.anyError {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			if tc.wantErr != nil {
				assert.ErrorIs(t, err, tc.wantErr)
			} else {
				assert.NotErrorIs(t, err, ErrAttachmentFailed)
			}
		})
	}
}

func TestWaitProcessedStopsWithContext(t *testing.T) {
	c, mt := newMockTransport(t)
	ctx, cancel := context.WithCancel(t.Context())
	polls := 0
	mt.RegisterResponder(http.MethodGet, attBase+"/a1", func(r *http.Request) (*http.Response, error) {
		polls++
		cancel() // the hour-long wait after this answer can only end with ctx
		return jsonReply(200, `{"id":"a1","state":"PROCESSING"}`)(r)
	})
	_, err := c.Attachments.WaitProcessed(ctx, Tasks, "it", "1", "a1", &WaitOptions{PollInterval: time.Hour})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, polls)

	mt.RegisterResponder(http.MethodGet, attBase+"/a2", jsonReply(404, `{"message":"gone"}`))
	_, err = c.Attachments.WaitProcessed(t.Context(), Tasks, "it", "1", "a2", nil)
	assert.ErrorIs(t, err, ErrNotFound)
}

func TestWaitOptionsValidation(t *testing.T) {
	c, mt := newMockTransport(t)
	for _, tc := range []struct {
		opts  *WaitOptions
		id    string
		field string
	}{
		{&WaitOptions{PollInterval: -1}, "a1", "WaitOptions.PollInterval"},
		{&WaitOptions{MaxPollInterval: -1}, "a1", "WaitOptions.MaxPollInterval"},
		{&WaitOptions{PollInterval: time.Second, MaxPollInterval: time.Millisecond}, "a1", "WaitOptions.MaxPollInterval"},
		{nil, "", "attachmentID"},
	} {
		_, err := c.Attachments.WaitProcessed(t.Context(), Tasks, "it", "1", tc.id, tc.opts)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve)
		assert.Equal(t, tc.field, ve.Field)
	}
	assert.Zero(t, mt.GetTotalCallCount())
}

// TestUploadWithoutBody: a 202 with no body is a success that says what
// was sent; the attachment has no id, and waiting on it is refused with a
// message that says what to do.
func TestUploadWithoutBody(t *testing.T) {
	c, mt := newMockTransport(t)
	var got seen // reads the body, as a server would
	mt.RegisterResponder(http.MethodPost, attBase, capture(&got, jsonReply(202, "")))
	att, err := c.Attachments.Upload(t.Context(), Tasks, "it", "1", "a.txt", plainReader{strings.NewReader("hello")}, nil)
	require.NoError(t, err)
	assert.Equal(t, Attachment{Name: "a.txt", MediaType: "text/plain; charset=utf-8", Size: 5, State: AttachmentProcessing}, *att)
	_, err = c.Attachments.WaitProcessed(t.Context(), Tasks, "it", "1", att.ID, nil)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Contains(t, ve.Rule, "List")
	_, err = c.Attachments.DownloadAttachment(t.Context(), Tasks, "it", "1", att)
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, 1, apiCalls(mt))

	mt.RegisterResponder(http.MethodPost, attBase, jsonReply(202, `{"id":"a9","state":"PROCESSING","contentUrl":"/v1/x"}`))
	att, err = c.Attachments.Upload(t.Context(), Tasks, "it", "1", "a.txt", strings.NewReader("hello"), nil)
	require.NoError(t, err)
	assert.Equal(t, "a9", att.ID)
	assert.Equal(t, "/v1/x", att.ContentURL)
}

// TestAttachmentsWire: every other Attachments method sends its exact request (see checkWire).
func TestAttachmentsWire(t *testing.T) {
	checkWire(t, []wireCase{
		{name: "Attachments.List", method: "GET", path: wireRec + "/attachments", reply: mockReply(200, `[]`),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Attachments.List(ctx, Tasks, "it-requests", odd, o...)
				return err
			}},
		{name: "Attachments.Get", method: "GET", path: wireRec + "/attachments/" + oddEsc, reply: mockReply(200, wireAtt),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Attachments.Get(ctx, Tasks, "it-requests", odd, odd, o...)
				return err
			}},
		{name: "Attachments.WaitProcessed", method: "GET", path: wireRec + "/attachments/" + oddEsc, reply: mockReply(200, wireAtt),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Attachments.WaitProcessed(ctx, Tasks, "it-requests", odd, odd, nil, o...)
				return err
			}},
		{name: "Attachments.Delete", method: "DELETE", path: wireRec + "/attachments/" + oddEsc, reply: mockReply(200, ""),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Attachments.Delete(ctx, Tasks, "it-requests", odd, odd, o...)
			}},
		{name: "Attachments.AddLink", method: "POST", path: wireRec + "/attachments/url-links",
			reply:       mockReply(201, `{"url":"https://example.com/spec?v=2","description":"Spec"}`),
			contentType: "application/json", body: `{"url":"https://example.com/spec?v=2","description":"Spec"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Attachments.AddLink(ctx, Tasks, "it-requests", odd, Link{URL: "https://example.com/spec?v=2", Description: new("Spec")}, o...)
				return err
			}},
	})
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// A createdAt is read in UTC; one whose year in UTC is outside 0000 to
// 9999, which could not be written back, is refused, with either JSON
// library.
func TestAttachmentCreatedAtYears(t *testing.T) {
	for _, tt := range []struct {
		at   string
		want string // "" for refused
	}{
		{"0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"},
		{"0000-01-01T01:00:00+01:00", "0000-01-01T00:00:00Z"},
		{"0000-01-01T00:00:00+01:00", ""},
		{"9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"},
		{"9999-12-31T23:30:00-01:00", ""},
	} {
		in := []byte(`{"id":"a","createdAt":"` + tt.at + `"}`)
		var v2, v1 Attachment
		err2, err1 := json.Unmarshal(in, &v2), stdjson.Unmarshal(in, &v1)
		if tt.want == "" {
			assert.Error(t, err2, tt.at)
			assert.Error(t, err1, tt.at)
			continue
		}
		require.NoError(t, err2, tt.at)
		require.NoError(t, err1, tt.at)
		assert.Equal(t, tt.want, v2.CreatedAt.Format(time.RFC3339), tt.at)
		assert.Equal(t, v2.CreatedAt, v1.CreatedAt, tt.at)
		out, err := json.Marshal(v2)
		require.NoError(t, err, tt.at)
		assert.Contains(t, string(out), tt.want, "written back")
	}
}

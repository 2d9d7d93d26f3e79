package workflow

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const attachmentJSON = `{"id":"att-1","name":"report.pdf","description":"Q3","mediaType":"application/pdf","size":1024,"state":"ready","createdAt":"2024-03-05T10:11:12.345Z"}`

func TestAttachmentsList(t *testing.T) {
	t.Parallel()
	c, srv := newSubClient(t, subReply(http.StatusOK, `[`+attachmentJSON+`,{"id":"att-2","name":"Docs","mediaType":"text/uri-list","size":0,"state":"ready","url":"https://example.com/docs","createdAt":"2024-03-05T10:11:13.000Z"}]`))
	got, err := c.Attachments.List(t.Context(), Tasks, "it-requests", "T-1")
	require.NoError(t, err)
	req := subOne(t, srv)
	assert.Equal(t, http.MethodGet, req.Method)
	assert.Equal(t, "/tasks/it-requests/T-1/attachments", req.Path)
	require.Len(t, got, 2)
	assert.Equal(t, Attachment{
		ID: "att-1", Name: "report.pdf", Description: "Q3", MediaType: "application/pdf", Size: 1024,
		State: "ready", CreatedAt: time.Date(2024, 3, 5, 10, 11, 12, 345e6, time.UTC),
	}, got[0])
	assert.Equal(t, "https://example.com/docs", got[1].URL)
}

func TestAttachmentsGet(t *testing.T) {
	t.Parallel()
	for _, body := range []string{attachmentJSON, `{"data":` + attachmentJSON + `}`} {
		c, srv := newSubClient(t, subReply(http.StatusOK, body))
		got, err := c.Attachments.Get(t.Context(), Apps, "crm", "A-1", "att?1")
		require.NoError(t, err)
		req := subOne(t, srv)
		assert.Equal(t, http.MethodGet, req.Method)
		assert.Equal(t, "/apps/crm/A-1/attachments/att%3F1", req.Path)
		assert.Equal(t, "att-1", got.ID)
		assert.Equal(t, int64(1024), got.Size)
	}
}

func TestAttachmentsGetNotFound(t *testing.T) {
	t.Parallel()
	c, _ := newSubClient(t, subReply(http.StatusNotFound, `{"status":404,"message":"attachment not found"}`))
	_, err := c.Attachments.Get(t.Context(), Apps, "crm", "A-1", "nope")
	assert.ErrorIs(t, err, ErrNotFound)
}

func TestAttachmentsDelete(t *testing.T) {
	t.Parallel()
	c, srv := newSubClient(t, subReply(http.StatusNoContent, ""))
	require.NoError(t, c.Attachments.Delete(t.Context(), Elements, "parts", "E-1", "att-1"))
	req := subOne(t, srv)
	assert.Equal(t, http.MethodDelete, req.Method)
	assert.Equal(t, "/elements/parts/E-1/attachments/att-1", req.Path)
	assert.Empty(t, req.Body)
}

func TestAttachmentsAddLink(t *testing.T) {
	t.Parallel()
	c, srv := newSubClient(t, subReply(http.StatusCreated,
		`{"id":"att-3","name":"Spec","description":"the spec","mediaType":"text/uri-list","size":0,"state":"ready","url":"https://example.com/spec?x=1&y=2","createdAt":"2024-03-05T10:11:12.345Z","preview":{"title":"Spec"}}`))
	got, err := c.Attachments.AddLink(t.Context(), Tasks, "it-requests", "T-1",
		Link{URL: "https://example.com/spec?x=1&y=2", Name: "Spec", Description: "the spec"})
	require.NoError(t, err)
	req := subOne(t, srv)
	assert.Equal(t, http.MethodPost, req.Method)
	assert.Equal(t, "/tasks/it-requests/T-1/attachments/url-links", req.Path)
	assert.Equal(t, "application/json", req.Header.Get("Content-Type"))
	assert.JSONEq(t, `{"url":"https://example.com/spec?x=1&y=2","name":"Spec","description":"the spec"}`, string(req.Body))
	assert.Equal(t, "att-3", got.ID)
	assert.Equal(t, "https://example.com/spec?x=1&y=2", got.URL)
	assert.Equal(t, "text/uri-list", got.MediaType)
	assert.JSONEq(t, `{"title":"Spec"}`, string(got.Extra["preview"]))
}

func TestAttachmentsAddLinkMinimalBody(t *testing.T) {
	t.Parallel()
	c, srv := newSubClient(t, subReply(http.StatusCreated, ""))
	got, err := c.Attachments.AddLink(t.Context(), Tasks, "t", "1", Link{URL: "https://example.com/team"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"url":"https://example.com/team"}`, string(subOne(t, srv).Body))
	assert.Equal(t, "https://example.com/team", got.URL)
}

func TestAttachmentsValidation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, field string
		call        func(c *Client) error
	}{
		{"list bad type", "record type", func(c *Client) error { _, err := c.Attachments.List(t.Context(), "x", "a", "1"); return err }},
		{"get empty attachment", "attachmentID", func(c *Client) error {
			_, err := c.Attachments.Get(t.Context(), Tasks, "a", "1", "")
			return err
		}},
		{"delete dot attachment", "attachmentID", func(c *Client) error { return c.Attachments.Delete(t.Context(), Tasks, "a", "1", ".") }},
		{"delete empty id", "id", func(c *Client) error { return c.Attachments.Delete(t.Context(), Tasks, "a", "", "x") }},
		{"link empty url", "Link.URL", func(c *Client) error {
			_, err := c.Attachments.AddLink(t.Context(), Tasks, "a", "1", Link{Name: "x"})
			return err
		}},
		{"link relative url", "Link.URL", func(c *Client) error {
			_, err := c.Attachments.AddLink(t.Context(), Tasks, "a", "1", Link{URL: "/docs"})
			return err
		}},
		{"link no host", "Link.URL", func(c *Client) error {
			_, err := c.Attachments.AddLink(t.Context(), Tasks, "a", "1", Link{URL: "https://"})
			return err
		}},
		{"link bad url", "Link.URL", func(c *Client) error {
			_, err := c.Attachments.AddLink(t.Context(), Tasks, "a", "1", Link{URL: "http://[::1"})
			return err
		}},
		{"wait empty attachment", "attachmentID", func(c *Client) error {
			_, err := c.Attachments.WaitProcessed(t.Context(), Tasks, "a", "1", "")
			return err
		}},
		{"wait zero interval", "PollInterval", func(c *Client) error {
			_, err := c.Attachments.WaitProcessed(t.Context(), Tasks, "a", "1", "x", PollInterval(0, time.Second))
			return err
		}},
		{"wait max below first", "PollInterval", func(c *Client) error {
			_, err := c.Attachments.WaitProcessed(t.Context(), Tasks, "a", "1", "x", PollInterval(time.Second, time.Millisecond))
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newSubClient(t, subReply(http.StatusOK, attachmentJSON))
			var ve *ValidationError
			require.ErrorAs(t, tc.call(c), &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Empty(t, srv.requests())
		})
	}
}

func TestAttachmentJSONRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []string{
		attachmentJSON,
		`{"id":"att-1","name":"a","description":"","mediaType":"text/plain","size":3,"state":"processing","createdAt":"2024-03-05T10:11:12.345Z","checksum":"sha256:abc","tags":["x"],"owner":{"id":1}}`,
		// A link, with its url.
		`{"id":"l","name":"n","description":"d","mediaType":"text/uri-list","size":0,"state":"ready","createdAt":"2024-03-05T10:11:12.345Z","url":"https://example.com"}`,
		// Values the typed fields cannot hold exactly are written back as sent.
		`{"id":7,"name":"a","description":null,"mediaType":"text/plain","size":"12","state":"ready","createdAt":"2024-03-05"}`,
	}
	for _, in := range cases {
		var a Attachment
		require.NoError(t, json.Unmarshal([]byte(in), &a))
		out, err := json.Marshal(a)
		require.NoError(t, err)
		assert.JSONEq(t, in, string(out))
	}
	var a Attachment
	require.NoError(t, json.Unmarshal([]byte(cases[1]), &a))
	assert.Equal(t, map[string]json.RawMessage{
		"checksum": json.RawMessage(`"sha256:abc"`), "tags": json.RawMessage(`["x"]`), "owner": json.RawMessage(`{"id":1}`),
	}, a.Extra)
	assert.Equal(t, AttachmentProcessing, a.State)

	// A file attachment gets no "url" on encode.
	out, err := json.Marshal(Attachment{ID: "x", Size: 5})
	require.NoError(t, err)
	assert.NotContains(t, string(out), "url")
}

// stateServer answers attachment GETs with the states in order, repeating
// the last one, and records when each request came.
type stateServer struct {
	states []string
	mu     sync.Mutex
	times  []time.Time
	onGet  func(n int)
}

func (s *stateServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.times = append(s.times, time.Now())
	n := len(s.times)
	s.mu.Unlock()
	if r.Method != http.MethodGet || r.URL.EscapedPath() != "/tasks/it-requests/T-1/attachments/att-1" {
		http.Error(w, "unexpected "+r.Method+" "+r.URL.EscapedPath(), http.StatusTeapot)
		return
	}
	if s.onGet != nil {
		s.onGet(n)
	}
	state := s.states[min(n, len(s.states))-1]
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"id": "att-1", "name": "a.pdf", "state": state, "size": 3})
}

func (s *stateServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.times)
}

func TestWaitProcessed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		states   []string
		want     AttachmentState
		requests int
	}{
		{"already ready", []string{"ready"}, "ready", 1},
		{"ready after polls", []string{"processing", "processing", "ready", "processing"}, "ready", 3},
		{"failed is returned as is", []string{"processing", "failed"}, "failed", 2},
		{"unknown state ends the wait", []string{"processing", "quarantined"}, "quarantined", 2},
		{"empty state ends the wait", []string{"processing", ""}, "", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := &stateServer{states: tc.states}
			c := newTestClient(t, srv)
			att, err := c.Attachments.WaitProcessed(t.Context(), Tasks, "it-requests", "T-1", "att-1",
				PollInterval(time.Millisecond, 2*time.Millisecond))
			require.NoError(t, err)
			assert.Equal(t, tc.want, att.State)
			assert.Equal(t, "att-1", att.ID)
			assert.Equal(t, tc.requests, srv.count(), "stops at the first state that is not processing")
		})
	}
}

func TestWaitProcessedBacksOff(t *testing.T) {
	t.Parallel()
	srv := &stateServer{states: []string{"processing", "processing", "processing", "processing", "processing", "ready"}}
	c := newTestClient(t, srv)
	_, err := c.Attachments.WaitProcessed(t.Context(), Tasks, "it-requests", "T-1", "att-1",
		PollInterval(10*time.Millisecond, 40*time.Millisecond))
	require.NoError(t, err)
	srv.mu.Lock()
	times := append([]time.Time(nil), srv.times...)
	srv.mu.Unlock()
	require.Len(t, times, 6)
	// Timers never fire early, so each gap is at least its interval.
	want := []time.Duration{10, 20, 40, 40, 40}
	for i, w := range want {
		gap := times[i+1].Sub(times[i])
		assert.GreaterOrEqual(t, gap, w*time.Millisecond, "gap %d", i)
	}
}

func TestWaitProcessedContextEnds(t *testing.T) {
	t.Parallel()
	t.Run("cancel", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		srv := &stateServer{states: []string{"processing"}, onGet: func(n int) {
			if n == 3 {
				cancel()
			}
		}}
		c := newTestClient(t, srv)
		att, err := c.Attachments.WaitProcessed(ctx, Tasks, "it-requests", "T-1", "att-1",
			PollInterval(time.Millisecond, time.Millisecond))
		require.ErrorIs(t, err, context.Canceled)
		assert.Nil(t, att)
		assert.LessOrEqual(t, srv.count(), 3, "no request after the context ended")
	})
	t.Run("deadline during a long wait", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		srv := &stateServer{states: []string{"processing"}}
		c := newTestClient(t, srv)
		start := time.Now()
		_, err := c.Attachments.WaitProcessed(ctx, Tasks, "it-requests", "T-1", "att-1",
			PollInterval(time.Hour, time.Hour))
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Less(t, time.Since(start), 10*time.Second, "the wait ends with the context")
		assert.Equal(t, 1, srv.count())
	})
}

func TestWaitProcessedGetError(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	c, _ := newSubClient(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if n.Add(1) == 1 {
			subReply(http.StatusOK, `{"id":"att-1","state":"processing"}`)(w, r, nil)
			return
		}
		subReply(http.StatusNotFound, `{"status":404,"message":"attachment removed"}`)(w, r, nil)
	})
	_, err := c.Attachments.WaitProcessed(t.Context(), Tasks, "t", "1", "att-1", PollInterval(time.Millisecond, time.Millisecond))
	assert.ErrorIs(t, err, ErrNotFound)
	assert.Equal(t, int64(2), n.Load())
}

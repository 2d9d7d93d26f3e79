package workflow

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const commentsPage = `{"items":[
	{"id":"c0f9b1e2-0000-4000-8000-000000000001","createdAt":"2026-02-03T10:30:00Z","source":"API","contents":"On it.",
	 "createdBy":{"id":"u1","email":"ann@example.com","firstName":"Ann","lastName":"Lee"}},
	{"id":"c0f9b1e2-0000-4000-8000-000000000002","createdAt":"2026-02-03T11:00:00.250Z","source":"WEB","contents":"Thanks!\nDone.","edited":true}
],"total":2,"paging":{"has_next_page":false,"has_previous_page":false,"start_cursor":"a","end_cursor":"b"}}`

func TestListComments(t *testing.T) {
	t.Parallel()
	c, m := newMockClient(t, mockReply(http.StatusOK, commentsPage))
	page, err := c.Records.Comments.List(t.Context(), Tasks, "it-requests", "42", nil)
	require.NoError(t, err)
	calls := m.requests()
	require.Len(t, calls, 1)
	assert.Equal(t, http.MethodGet, calls[0].Method)
	assert.Equal(t, "/tasks/it-requests/42/comment", calls[0].Path, "the path's last word is singular")
	assert.Empty(t, calls[0].Query)

	require.Len(t, page.Items, 2)
	first := page.Items[0]
	assert.Equal(t, "c0f9b1e2-0000-4000-8000-000000000001", first.ID)
	assert.Equal(t, time.Date(2026, 2, 3, 10, 30, 0, 0, time.UTC), first.CreatedAt.UTC())
	assert.Equal(t, CommentSourceAPI, first.Source)
	assert.Equal(t, "On it.", first.Contents)
	assert.Equal(t, "ann@example.com", first.CreatedBy.Email)
	assert.Equal(t, "u1", first.CreatedBy.ID)
	second := page.Items[1]
	assert.Equal(t, 250*time.Millisecond, time.Duration(second.CreatedAt.Nanosecond()))
	assert.Equal(t, "Thanks!\nDone.", second.Contents)
	assert.Equal(t, User{}, second.CreatedBy)
	assert.JSONEq(t, `true`, string(second.Extra["edited"]))
}

func TestListCommentsMalformed(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"createdAt not a time": `{"items":[{"id":"c1","createdAt":"yesterday"}],"paging":{}}`,
		"bare array":           `[{"id":"c1"}]`,
		"contents not text":    `{"items":[{"id":"c1","contents":{"text":"x"}}],"paging":{}}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, _ := newMockClient(t, mockReply(http.StatusOK, body))
			_, err := c.Records.Comments.List(t.Context(), Tasks, "t", "1", nil)
			require.Error(t, err)
		})
	}
}

func TestCommentsAllPages(t *testing.T) {
	t.Parallel()
	c, m := newMockClient(t, func(call mockCall) *http.Response {
		if call.Query == "" {
			return mockResponse(http.StatusOK, `{"items":[{"id":"c1","contents":"one"}],"total":2,"paging":{"has_next_page":true,"end_cursor":"k1"}}`)
		}
		return mockResponse(http.StatusOK, `{"items":[{"id":"c2","contents":"two"}],"total":2,"paging":{"has_previous_page":true,"start_cursor":"k2","end_cursor":"k2"}}`)
	})
	var got []string
	for cm, err := range c.Records.Comments.All(t.Context(), Tasks, "t", "1", &ListOptions{Prefetch: true}) {
		require.NoError(t, err)
		got = append(got, cm.Contents)
	}
	assert.Equal(t, []string{"one", "two"}, got)
	calls := m.requests()
	require.Len(t, calls, 2)
	assert.Equal(t, "after=k1", calls[1].Query)

	n := 0
	for p, err := range c.Records.Comments.Pages(t.Context(), Tasks, "t", "1", nil) {
		require.NoError(t, err)
		require.Len(t, p.Items, 1)
		n++
	}
	assert.Equal(t, 2, n)
}

func TestAddComment(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		reply  string
		want   string
	}{
		{"201 text/plain is returned as sent", http.StatusCreated, "c0f9b1e2-0000-4000-8000-000000000009", "c0f9b1e2-0000-4000-8000-000000000009"},
		{"whitespace is kept", http.StatusCreated, "Comment added\n", "Comment added\n"},
		{"no body", http.StatusCreated, "", ""},
		{"JSON-looking text is not interpreted", http.StatusCreated, `{"id":"c9"}`, `{"id":"c9"}`},
		{"204", http.StatusNoContent, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMockClient(t, mockReply(tc.status, tc.reply))
			got, err := c.Records.Comments.Add(t.Context(), Tasks, "it-requests", "42", "Ordered a new toner.\nÇa arrive mardi.")
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			calls := m.requests()
			require.Len(t, calls, 1)
			assert.Equal(t, http.MethodPost, calls[0].Method)
			assert.Equal(t, "/tasks/it-requests/42/comment", calls[0].Path)
			assert.Equal(t, "text/plain; charset=utf-8", calls[0].Header.Get("Content-Type"))
			assert.Equal(t, "Ordered a new toner.\nÇa arrive mardi.", string(calls[0].Body), "the body is the text itself")
		})
	}
}

func TestAddCommentRetriedAfter429WithSameBody(t *testing.T) {
	t.Parallel()
	n := 0
	c, m := newMockClient(t, func(mockCall) *http.Response {
		n++
		if n == 1 {
			return mockResponse(http.StatusTooManyRequests, `{"message":"slow down"}`)
		}
		return mockResponse(http.StatusCreated, "ok")
	})
	got, err := c.Records.Comments.Add(t.Context(), Tasks, "t", "1", "hello")
	require.NoError(t, err)
	assert.Equal(t, "ok", got)
	calls := m.requests()
	require.Len(t, calls, 2)
	assert.Equal(t, "hello", string(calls[1].Body), "the retry resends the whole text")
}

func TestAddCommentBadReply(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"too long":  strings.Repeat("x", maxTextReply+1),
		"not UTF-8": "\xff\xfe",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, _ := newMockClient(t, mockReply(http.StatusCreated, body))
			got, err := c.Records.Comments.Add(t.Context(), Tasks, "t", "1", "hello")
			require.ErrorIs(t, err, ErrUnexpectedResponse)
			assert.Empty(t, got)
		})
	}
}

func TestAddCommentErrors(t *testing.T) {
	t.Parallel()
	c, _ := newMockClient(t, mockReply(http.StatusForbidden, `{"message":"read only"}`))
	_, err := c.Records.Comments.Add(t.Context(), Tasks, "t", "1", "hello")
	assert.ErrorIs(t, err, ErrForbidden)
}

func TestCommentsValidation(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	tests := []struct {
		name, field string
		call        func(rs *RecordsService) error
	}{
		{"list: empty alias", "alias", func(rs *RecordsService) error { _, err := rs.Comments.List(ctx, Tasks, "", "1", nil); return err }},
		{"list: bad last", "ListOptions.Last", func(rs *RecordsService) error {
			_, err := rs.Comments.List(ctx, Tasks, "t", "1", &ListOptions{Last: -1})
			return err
		}},
		{"all: empty id", "id", func(rs *RecordsService) error {
			for _, err := range rs.Comments.All(ctx, Tasks, "t", "", nil) {
				return err
			}
			return nil
		}},
		{"add: empty text", "text", func(rs *RecordsService) error { _, err := rs.Comments.Add(ctx, Tasks, "t", "1", ""); return err }},
		{"add: blank text", "text", func(rs *RecordsService) error { _, err := rs.Comments.Add(ctx, Tasks, "t", "1", " \n\t"); return err }},
		{"add: invalid UTF-8", "text", func(rs *RecordsService) error { _, err := rs.Comments.Add(ctx, Tasks, "t", "1", "a\xffb"); return err }},
		{"add: bad record type", "record type", func(rs *RecordsService) error { _, err := rs.Comments.Add(ctx, "", "t", "1", "x"); return err }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMockClient(t, mockReply(http.StatusCreated, "ok"))
			var ve *ValidationError
			require.ErrorAs(t, tc.call(c.Records), &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Empty(t, m.requests(), "nothing is sent")
		})
	}
}

func TestCommentJSONRoundTrip(t *testing.T) {
	t.Parallel()
	in := `{"id":"c1","createdAt":"2026-02-03T10:30:00.123Z","source":"WORKFLOW","contents":"auto","createdBy":{"id":"u1","email":"a@example.com","firstName":"A","lastName":"B","active":true},"thread":{"parent":"c0"}}`
	var cm Comment
	require.NoError(t, json.Unmarshal([]byte(in), &cm))
	assert.Equal(t, CommentSourceWorkflow, cm.Source)
	assert.Len(t, cm.Extra, 1)
	out, err := json.Marshal(cm)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out), "encoding/json")

	var cm2 Comment
	require.NoError(t, jsonv2.Unmarshal([]byte(in), &cm2))
	assert.True(t, cm.CreatedAt.Equal(cm2.CreatedAt))
	out, err = jsonv2.Marshal(cm2)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out), "go-json-experiment/json")

	// A comment without time or author writes neither.
	out, err = json.Marshal(Comment{ID: "c2", Contents: "x"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"c2","source":"","contents":"x"}`, string(out))
}

// TestCommentsWire: every Records.Comments method sends its exact request (see checkWire).
func TestCommentsWire(t *testing.T) {
	checkWire(t, []wireCase{
		{name: "Records.ListComments", method: "GET", path: wireRec + "/comment", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Comments.List(ctx, Tasks, "it-requests", odd, wireListOpts, o...)
				return err
			}},
		{name: "Records.CommentsAll", method: "GET", path: wireRec + "/comment", reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.Comments.All(ctx, Tasks, "it-requests", odd, nil, o...))
			}},
		{name: "Records.AddComment", method: "POST", path: wireRec + "/comment", reply: mockReply(201, "c-1"),
			accept: "text/plain, application/json;q=0.9", contentType: "text/plain; charset=utf-8", body: "On it: {\"not JSON\"}",
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Comments.Add(ctx, Tasks, "it-requests", odd, "On it: {\"not JSON\"}", o...)
				return err
			}},

		// Attachments.
		{name: "Records.CommentsPages", method: "GET", path: wireRec + "/comment", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.Comments.Pages(ctx, Tasks, "it-requests", odd, wireListOpts, o...))
			}},
	})
}

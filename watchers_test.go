package workflow

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWatchersList(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`[{"userId":"u1","email":"a@example.com","name":"Ann"},{"userId":7,"email":"b@example.com","name":"Bo"}]`,
		`{"items":[{"userId":"u1","email":"a@example.com","name":"Ann"},{"userId":7,"email":"b@example.com","name":"Bo"}]}`,
	} {
		c, srv := newSubClient(t, subReply(http.StatusOK, body))
		got, err := c.Records.Watchers(t.Context(), Tasks, "it-requests", "T 1")
		require.NoError(t, err)
		req := subOne(t, srv)
		assert.Equal(t, http.MethodGet, req.Method)
		assert.Equal(t, "/tasks/it-requests/T%201/watchers", req.Path)
		require.Len(t, got, 2)
		assert.Equal(t, Watcher{UserID: "u1", Email: "a@example.com", Name: "Ann"}, got[0])
		assert.Equal(t, "7", got[1].UserID, "a numeric user id is read as its text")
	}
}

func TestChangeWatchers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		method string
		call   func(c *Client) error
	}{
		{"add", http.MethodPost, func(c *Client) error {
			return c.Records.AddWatchers(t.Context(), Elements, "parts", "E-1", "u1", "u2")
		}},
		{"remove", http.MethodDelete, func(c *Client) error {
			return c.Records.RemoveWatchers(t.Context(), Elements, "parts", "E-1", "u1", "u2")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newSubClient(t, subReply(http.StatusNoContent, ""))
			require.NoError(t, tc.call(c))
			req := subOne(t, srv)
			assert.Equal(t, tc.method, req.Method)
			assert.Equal(t, "/elements/parts/E-1/watchers", req.Path)
			assert.Equal(t, "application/json", req.Header.Get("Content-Type"))
			assert.JSONEq(t, `{"userIds":["u1","u2"]}`, string(req.Body), "the body reaches the server, DELETE included")
		})
	}
}

func TestChangeWatchersErrors(t *testing.T) {
	t.Parallel()
	c, _ := newSubClient(t, subReply(http.StatusForbidden, `{"status":403,"message":"not your record"}`))
	err := c.Records.AddWatchers(t.Context(), Tasks, "t", "1", "u1")
	assert.ErrorIs(t, err, ErrForbidden)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "not your record", ae.Message)
}

func TestWatchersValidation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, field string
		call        func(c *Client) error
	}{
		{"list empty id", "id", func(c *Client) error { _, err := c.Records.Watchers(t.Context(), Tasks, "t", ""); return err }},
		{"add no users", "userIDs", func(c *Client) error { return c.Records.AddWatchers(t.Context(), Tasks, "t", "1") }},
		{"add blank user", "userIDs[1]", func(c *Client) error { return c.Records.AddWatchers(t.Context(), Tasks, "t", "1", "u1", " ") }},
		{"remove no users", "userIDs", func(c *Client) error { return c.Records.RemoveWatchers(t.Context(), Tasks, "t", "1") }},
		{"remove bad alias", "alias", func(c *Client) error { return c.Records.RemoveWatchers(t.Context(), Tasks, ".", "1", "u") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newSubClient(t, subReply(http.StatusNoContent, ""))
			var ve *ValidationError
			require.ErrorAs(t, tc.call(c), &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Empty(t, srv.requests())
		})
	}
}

func TestWatcherJSONRoundTrip(t *testing.T) {
	t.Parallel()
	in := `{"userId":"u1","email":"a@example.com","name":"Ann","role":"owner","since":"2024-01-01T00:00:00.000Z"}`
	var w Watcher
	require.NoError(t, json.Unmarshal([]byte(in), &w))
	assert.Equal(t, "Ann", w.Name)
	assert.Len(t, w.Extra, 2)
	out, err := json.Marshal(w)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out))
}

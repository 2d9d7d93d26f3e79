package workflow

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommentsList(t *testing.T) {
	t.Parallel()
	c, srv := newSubClient(t, subReply(http.StatusOK,
		`[{"id":"c1","text":"first","authorId":"u1","createdAt":"2024-03-05T10:11:12.345Z"},{"id":"c2","text":"second","authorId":"u2","createdAt":"2024-03-06T00:00:00.000Z","edited":true}]`))
	got, err := c.Records.Comments(t.Context(), Apps, "crm", "A-1")
	require.NoError(t, err)
	req := subOne(t, srv)
	assert.Equal(t, http.MethodGet, req.Method)
	assert.Equal(t, "/apps/crm/A-1/comment", req.Path)
	require.Len(t, got, 2)
	assert.Equal(t, Comment{
		ID: "c1", Text: "first", AuthorID: "u1",
		CreatedAt: time.Date(2024, 3, 5, 10, 11, 12, 345e6, time.UTC),
	}, got[0])
	assert.JSONEq(t, `true`, string(got[1].Extra["edited"]))
}

func TestAddComment(t *testing.T) {
	t.Parallel()
	c, srv := newSubClient(t, subReply(http.StatusCreated,
		`{"id":"c9","text":"Looks good <b>","authorId":"u1","createdAt":"2024-03-05T10:11:12.345Z","mentions":[]}`))
	got, err := c.Records.AddComment(t.Context(), Tasks, "it-requests", "T-1", "Looks good <b>")
	require.NoError(t, err)
	req := subOne(t, srv)
	assert.Equal(t, http.MethodPost, req.Method)
	assert.Equal(t, "/tasks/it-requests/T-1/comment", req.Path)
	assert.Equal(t, "application/json", req.Header.Get("Content-Type"))
	assert.JSONEq(t, `{"text":"Looks good <b>"}`, string(req.Body))
	assert.Equal(t, "c9", got.ID)
	assert.Equal(t, "Looks good <b>", got.Text)
	assert.Equal(t, time.Date(2024, 3, 5, 10, 11, 12, 345e6, time.UTC), got.CreatedAt)
	assert.JSONEq(t, `[]`, string(got.Extra["mentions"]))
}

func TestAddCommentEmptyAnswer(t *testing.T) {
	t.Parallel()
	c, _ := newSubClient(t, subReply(http.StatusCreated, ""))
	got, err := c.Records.AddComment(t.Context(), Tasks, "t", "1", "hi")
	require.NoError(t, err)
	assert.Equal(t, Comment{Text: "hi"}, *got)
}

func TestCommentsValidation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, field string
		call        func(c *Client) error
	}{
		{"list bad type", "record type", func(c *Client) error { _, err := c.Records.Comments(t.Context(), "Tasks", "t", "1"); return err }},
		{"add empty text", "text", func(c *Client) error { _, err := c.Records.AddComment(t.Context(), Tasks, "t", "1", ""); return err }},
		{"add empty id", "id", func(c *Client) error { _, err := c.Records.AddComment(t.Context(), Tasks, "t", "", "x"); return err }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newSubClient(t, subReply(http.StatusCreated, "{}"))
			var ve *ValidationError
			require.ErrorAs(t, tc.call(c), &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Empty(t, srv.requests())
		})
	}
}

func TestCommentJSONRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []string{
		`{"id":"c1","text":"t","authorId":"u1","createdAt":"2024-03-05T10:11:12.345Z","thread":{"parent":"c0"}}`,
		// A time in another form and an id sent as a number are written back as sent.
		`{"id":12,"text":"t","authorId":"u1","createdAt":"2024-03-05T11:11:12+01:00"}`,
		// A value the typed field cannot hold at all.
		`{"id":"c1","text":"t","authorId":null,"createdAt":"yesterday"}`,
	}
	for _, in := range cases {
		var c Comment
		require.NoError(t, json.Unmarshal([]byte(in), &c))
		out, err := json.Marshal(c)
		require.NoError(t, err)
		assert.JSONEq(t, in, string(out))
	}
	var c Comment
	require.NoError(t, json.Unmarshal([]byte(cases[1]), &c))
	assert.Equal(t, "12", c.ID)
	assert.Equal(t, time.Date(2024, 3, 5, 10, 11, 12, 0, time.UTC), c.CreatedAt)
}

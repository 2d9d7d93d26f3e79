package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Comment is a comment on a record.
//
// The spec does not show the fields of a comment. The typed fields below
// are an assumption: a JSON object {"id": "...", "text": "...",
// "authorId": "...", "createdAt": "YYYY-MM-DDTHH:MM:SS.SSSZ"}. Every other
// field the service sends is kept in Extra and written back when the
// comment is encoded again. A modelled field whose value the typed field
// cannot hold exactly (a null, a number where a string is expected, a time
// in another form) is kept verbatim in Extra under its own name, as for
// User.
type Comment struct {
	// ID identifies the comment. An id sent as a JSON number is read as its
	// decimal text.
	ID string
	// Text is the comment's text.
	Text string
	// AuthorID is the id of the user who wrote the comment (as in User.ID):
	// for comments added through the API, the user whose credentials
	// obtained the token.
	AuthorID string
	// CreatedAt is when the comment was written (UTC), zero if not sent or
	// not a time.
	CreatedAt time.Time
	// Extra holds every field of the service's JSON that the typed fields
	// do not model, and modelled fields whose value they cannot hold
	// exactly, as raw JSON.
	Extra map[string]json.RawMessage
}

// commentWire is the JSON object of a comment, and (with only Text set)
// the body that adds one.
type commentWire struct {
	ID        json.RawMessage `json:"id,omitempty"`
	Text      json.RawMessage `json:"text,omitempty"`
	AuthorID  json.RawMessage `json:"authorId,omitempty"`
	CreatedAt json.RawMessage `json:"createdAt,omitempty"`
}

// UnmarshalJSON reads a comment; see Comment for how unexpected values of
// the modelled fields are kept.
func (c *Comment) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var w commentWire
	extra, err := unmarshalExtra(data, &w)
	if err != nil {
		return err
	}
	*c = Comment{}
	k := keeper{extra: extra}
	k.keep("id", readString(w.ID, &c.ID, true))
	k.keep("text", readString(w.Text, &c.Text, false))
	k.keep("authorId", readString(w.AuthorID, &c.AuthorID, true))
	k.keep("createdAt", readTime(w.CreatedAt, &c.CreatedAt))
	c.Extra = k.extra
	return nil
}

// MarshalJSON writes the comment with its Extra fields.
func (c Comment) MarshalJSON() ([]byte, error) {
	w := commentWire{
		ID:        writeString(c.ID, c.Extra["id"], true),
		Text:      writeString(c.Text, c.Extra["text"], false),
		AuthorID:  writeString(c.AuthorID, c.Extra["authorId"], true),
		CreatedAt: writeTime(c.CreatedAt, c.Extra["createdAt"]),
	}
	return marshalExtra(w, c.Extra)
}

// Comments returns the comments on a record:
// GET /{recordType}/{alias}/{id}/comment (the path's last word is singular
// in the spec).
//
// The spec does not show the response; it is assumed to be a list of
// comments (see Comment), sent as a bare JSON array or as an object whose
// "items" holds them, in the order the service keeps them. The spec shows
// no paging for this list: every comment of the response is returned.
func (s *RecordsService) Comments(ctx context.Context, t RecordType, alias, id string) ([]Comment, error) {
	path, err := recordPath(t, alias, "id", id, "", "comment")
	if err != nil {
		return nil, err
	}
	return listSubresource[Comment](ctx, s.client, path)
}

// AddComment adds a comment to a record and returns it:
// POST /{recordType}/{alias}/{id}/comment. The comment is attributed to
// the user whose credentials obtained the token. text must not be empty.
//
// The spec does not show the body or the response. The body is assumed to
// be {"text": "..."}, and the response (assumed 201) the created comment.
// When the service sends no body, the returned comment holds only Text.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have added the comment; it is retried after a 429.
func (s *RecordsService) AddComment(ctx context.Context, t RecordType, alias, id, text string) (*Comment, error) {
	path, err := recordPath(t, alias, "id", id, "", "comment")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(text) == "" {
		return nil, invalid("text", "must not be empty or only white space")
	}
	body, _ := json.Marshal(text) // a string always encodes
	req, err := s.client.newRequest(ctx, http.MethodPost, path, nil, commentWire{Text: body})
	if err != nil {
		return nil, err
	}
	out := oneBody[Comment]{v: Comment{Text: text}}
	if _, err := s.client.do(req, &out); err != nil {
		return nil, err
	}
	return &out.v, nil
}

package workflow

import (
	"context"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Comment is a comment on a record, as GET .../comment lists it:
//
//	{"id": "<uuid>", "createdAt": "2026-02-03T10:30:00Z", "source": "API", "contents": "On it.", "createdBy": {<User>}}
//
// Members the SDK does not model are kept in Extra and written back by
// MarshalJSON, with encoding/json as with go-json-experiment/json.
type Comment struct {
	// ID identifies the comment.
	ID string `json:"id"`
	// CreatedAt is when the comment was written. A createdAt that is not
	// an RFC 3339 date-time makes decoding fail.
	CreatedAt time.Time `json:"createdAt,omitzero"`
	// Source is where the comment was written, for example CommentSourceAPI.
	Source CommentSource `json:"source"`
	// Contents is the comment's text.
	Contents string `json:"contents"`
	// CreatedBy is the user who wrote the comment: for comments added
	// through the API, the user whose credentials obtained the token.
	CreatedBy User `json:"createdBy,omitzero"`
	// Extra holds the members of the service's JSON that the fields above
	// do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// commentJSON is Comment without its methods.
type commentJSON Comment

// MarshalJSON writes the comment with its Extra members.
func (c Comment) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(commentJSON(c)) }

// UnmarshalJSON reads a comment; members it does not model go to Extra.
func (c *Comment) UnmarshalJSON(data []byte) error {
	return unmarshalModel(data, (*commentJSON)(c))
}

// CommentSource is where a comment was written. The service publishes
// WEB, API and WORKFLOW and says the list goes on ("..."), so any other
// value is kept as sent.
type CommentSource string

// The comment sources the service publishes.
const (
	CommentSourceWeb      CommentSource = "WEB"
	CommentSourceAPI      CommentSource = "API"
	CommentSourceWorkflow CommentSource = "WORKFLOW"
)

// commentPath is the path of a record's comments (the last word is
// singular in the API).
func commentPath(t RecordType, alias, id string) (string, error) {
	return recordPath(t, alias, "id", id, "", "comment")
}

// ListComments returns one page of the comments on a record:
// GET /{recordType}/{alias}/{id}/comment with the paging fields of opts
// (nil for the service's first page), answered with the paged list
// envelope. A Filter is a *ValidationError: the service publishes none
// for this list.
func (s *RecordsService) ListComments(ctx context.Context, t RecordType, alias, id string, opts *ListOptions, reqOpts ...RequestOption) (*Page[Comment], error) {
	path, err := commentPath(t, alias, id)
	if err != nil {
		return nil, err
	}
	return listPage[Comment](ctx, s.client, path, pagedOnly, opts, reqOpts)
}

// CommentsPages walks the comments on a record page by page from where
// opts points. See RecordsService.Pages for laziness, errors and
// prefetching.
func (s *RecordsService) CommentsPages(ctx context.Context, t RecordType, alias, id string, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[*Page[Comment], error] {
	path, err := commentPath(t, alias, id)
	if err != nil {
		return errIter[*Page[Comment]](err)
	}
	return walkPages[Comment](ctx, s.client, path, pagedOnly, opts, reqOpts)
}

// CommentsAll iterates over every comment on a record from where opts
// points; going backward, comments come from the end of the list towards
// its start. Comments carry no cursor of their own: to resume, pass the
// page's Paging.EndCursor (from CommentsPages) as ListOptions.After.
func (s *RecordsService) CommentsAll(ctx context.Context, t RecordType, alias, id string, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[Comment, error] {
	path, err := commentPath(t, alias, id)
	if err != nil {
		return errIter[Comment](err)
	}
	return walkItems[Comment](ctx, s.client, path, pagedOnly, opts, reqOpts)
}

// maxCommentReply bounds the reply AddComment reads.
const maxCommentReply = 64 << 10

// AddComment adds a comment to a record: POST /{recordType}/{alias}/{id}/comment
// with the text itself as a text/plain body (UTF-8). The comment is
// attributed to the user whose credentials obtained the token. text must
// be valid UTF-8 and not blank.
//
// The service answers 201 with a text/plain string and does not publish
// what the string holds. AddComment returns that string exactly as sent,
// without giving it a meaning ("" when the answer has no body; the fake
// in workflowtest sends the new comment's id). The comment as stored (id,
// time, source, author) is read with ListComments or CommentsAll. A reply
// over 64 KiB or not valid UTF-8 is an error.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have added the comment; it is retried after a 429.
func (s *RecordsService) AddComment(ctx context.Context, t RecordType, alias, id, text string, reqOpts ...RequestOption) (string, error) {
	path, err := commentPath(t, alias, id)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(text) == "" {
		return "", invalid("text", "must not be empty or only white space")
	}
	if !utf8.ValidString(text) {
		return "", invalid("text", "must be valid UTF-8")
	}
	req, err := s.client.newRequest(ctx, http.MethodPost, path, nil, strings.NewReader(text), reqOpts...)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("Accept", "text/plain, application/json;q=0.9")
	var reply textReply
	if _, err := s.client.do(req, &reply); err != nil {
		return "", err
	}
	return reply.s, nil
}

// textReply reads a short text/plain answer.
type textReply struct{ s string }

// errCommentReply is the reason a comment's answer is refused; like every
// malformed answer, it matches ErrUnexpectedResponse.
var errCommentReply = fmt.Errorf("%w: malformed comment reply", ErrUnexpectedResponse)

func (r *textReply) decodeBody(body io.Reader) error {
	b, err := io.ReadAll(io.LimitReader(body, maxCommentReply+1))
	if err != nil {
		return err
	}
	if len(b) > maxCommentReply {
		return fmt.Errorf("%w: longer than %d bytes", errCommentReply, maxCommentReply)
	}
	if !utf8.Valid(b) {
		return fmt.Errorf("%w: not valid UTF-8", errCommentReply)
	}
	r.s = string(b)
	return nil
}

package workflow

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

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

// CommentsService is the part of the API about the comments on a record:
// Client.Records.Comments.
type CommentsService struct{ recordList[Comment] }

// Add adds a comment to a record: POST /{recordType}/{alias}/{id}/comment
// with the text itself as a text/plain body (UTF-8). The comment is
// attributed to the user whose credentials obtained the token. text must
// be valid UTF-8 and not blank.
//
// The service answers 201 with a text/plain string and does not publish
// what the string holds. Add returns that string exactly as sent,
// without giving it a meaning ("" when the answer has no body; the fake
// in workflowtest sends the new comment's id). The comment as stored (id,
// time, source, author) is read with List or All. A reply
// over 64 KiB or not valid UTF-8 is an error.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have added the comment; it is retried after a 429.
func (s *CommentsService) Add(ctx context.Context, t RecordType, alias, id, text string, reqOpts ...RequestOption) (string, error) {
	r := recordPath(op.CreateRecordComment, t, alias, "id", id)
	switch {
	case r.err != nil:
		return "", r.err
	case strings.TrimSpace(text) == "":
		return "", invalid("text", "must not be empty or only white space")
	case !utf8.ValidString(text):
		return "", invalid("text", "must be valid UTF-8")
	}
	req, err := s.client.newRequest(ctx, r, nil, strings.NewReader(text))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("Accept", "text/plain, application/json;q=0.9")
	var reply string
	_, err = s.client.send(req, reqOpts, textBody(&reply))
	return reply, err
}

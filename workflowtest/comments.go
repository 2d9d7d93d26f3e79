package workflowtest

import (
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// comment is a comment on a record, kept in its wire form but for its
// author, who is shown as the users routes show users, as the user is
// when the comments are listed.
type comment struct {
	seq      uint64
	authorID string
	commentJSON
}

// json returns the comment's wire form. The caller holds s.mu.
func (c *comment) json(st *state) commentJSON {
	out := c.commentJSON
	if u := st.usersByID[c.authorID]; u != nil {
		out.CreatedBy = u.json()
	}
	return out
}

// newComment stores a comment on rec. The caller holds s.mu.
func (st *state) newComment(rec *record, text, source, authorID string, at time.Time) *comment {
	c := &comment{seq: st.next.nextSeq(), authorID: authorID, commentJSON: commentJSON{
		ID: st.next.uuid(uuidComment, &st.next.comment), CreatedAt: formatTime(at), Source: source, Contents: text,
	}}
	rec.comments = append(rec.comments, c)
	return c
}

// commentRoutes are the operations on comments.
var commentRoutes = []route{
	on(op.ListRecordComments, onRecord((*Server).listComments)),
	on(op.CreateRecordComment, onRecord((*Server).addComment)).readingRecord(readComment),
}

// listComments is GET .../comment: Paged<{id, createdAt, source, contents,
// createdBy}>, oldest first.
func (s *Server) listComments(rq *request, rec *record) response {
	return listPage(rq, "comments "+rec.def.key.String()+"/"+rec.id, rec.comments, func(c *comment) uint64 { return c.seq }, nil,
		func(c *comment, _ string) any { return c.json(s.st) })
}

// addComment is POST .../comment with the text itself as a text/plain
// body: 201 with a text/plain body, the new comment's id. The comment is
// written by the token's user, with source "API".
func (s *Server) addComment(rq *request, rec *record) response {
	c := s.st.newComment(rec, string(rq.body), "API", rq.user.id, s.Now())
	return response{
		status:  http.StatusCreated,
		header:  http.Header{"Content-Type": {"text/plain; charset=utf-8"}},
		rawBody: []byte(c.ID),
	}
}

// readComment reads the body of POST .../comment, the comment's text,
// after a 404 or 403 for the record: text/plain in UTF-8 (the only
// charset accepted; a request without a Content-Type is read as text
// too), not blank, at most maxJSONBody bytes.
func readComment(_ *Server, rq *request) *httpError {
	if ct := rq.r.Header.Get("Content-Type"); ct != "" {
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil || mt != "text/plain" {
			return errf(http.StatusBadRequest, "Content-Type must be text/plain (got %q)", ct)
		}
		if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
			return errf(http.StatusBadRequest, "the charset must be utf-8 (got %q)", cs)
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, rq.r.Body, maxJSONBody))
	switch {
	case err != nil:
		return errf(http.StatusBadRequest, "reading the body: %v", err)
	case !utf8.Valid(body):
		return errf(http.StatusBadRequest, "the comment is not valid UTF-8")
	case strings.TrimSpace(string(body)) == "":
		return errf(http.StatusBadRequest, "the comment is empty")
	}
	rq.body = body
	return nil
}

// Comments returns the texts of a record's comments, oldest first.
func (s *Server) Comments(rt workflow.RecordType, alias, recordID string) []string {
	return ofRecord(s, rt, alias, recordID, func(r *record) []*comment { return r.comments }, func(c *comment) string { return c.Contents })
}

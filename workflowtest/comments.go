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

// comment is a comment on a record.
type comment struct {
	seq       uint64
	id        string
	text      string
	source    string
	authorID  string
	createdAt time.Time
}

func commentSeq(c *comment) uint64 { return c.seq }

// commentJSON is a comment on the wire.
type commentJSON struct {
	ID        string `json:"id"`
	CreatedAt string `json:"createdAt"`
	Source    string `json:"source"`
	Contents  string `json:"contents"`
	CreatedBy any    `json:"createdBy"`
}

// json returns the comment's wire form, its author as the users routes
// show users. The caller holds s.mu.
func (c *comment) json(st *state) commentJSON {
	out := commentJSON{ID: c.id, CreatedAt: formatTime(c.createdAt), Source: c.source, Contents: c.text}
	if u := st.usersByID[c.authorID]; u != nil {
		out.CreatedBy = u.json()
	}
	return out
}

// newComment stores a comment on rec. The caller holds s.mu.
func (st *state) newComment(rec *record, text, source, authorID string, at time.Time) *comment {
	c := &comment{seq: st.next.nextSeq(), text: text, source: source, authorID: authorID, createdAt: at}
	st.next.comment++
	c.id = seqUUID(uuidComment, st.next.comment)
	rec.comments = append(rec.comments, c)
	return c
}

// listComments is GET .../comment: Paged<{id, createdAt, source, contents,
// createdBy}>, oldest first.
// commentRoutes are the operations on comments.
var commentRoutes = []route{
	on(op.ListRecordComments, onRecord((*Server).listComments)),
	on(op.CreateRecordComment, onRecord((*Server).addComment)).reading(readComment),
}

func (s *Server) listComments(rq *request, rec *record) response {
	return listPage(rq, "comments "+rec.def.key.String()+"/"+rec.id, rec.comments, commentSeq, nil,
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
		rawBody: []byte(c.id),
	}
}

// readTextBody reads a text/plain request body: UTF-8 (the only charset
// accepted), not blank, at most maxJSONBody bytes. A request without a
// Content-Type is read as text too.
// readComment reads the body of POST .../comment, the comment's text,
// after a 404 or 403 for the record.
func readComment(s *Server, rq *request) *httpError {
	if e := s.precheckRecord(rq); e != nil {
		return e
	}
	text, e := readTextBody(rq.r)
	rq.body = []byte(text)
	return e
}

func readTextBody(r *http.Request) (string, *httpError) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil || mt != "text/plain" {
			return "", errf(http.StatusBadRequest, "Content-Type must be text/plain (got %q)", ct)
		}
		if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
			return "", errf(http.StatusBadRequest, "the charset must be utf-8 (got %q)", cs)
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxJSONBody))
	if err != nil {
		return "", errf(http.StatusBadRequest, "reading the body: %v", err)
	}
	if !utf8.Valid(body) {
		return "", errf(http.StatusBadRequest, "the comment is not valid UTF-8")
	}
	if strings.TrimSpace(string(body)) == "" {
		return "", errf(http.StatusBadRequest, "the comment is empty")
	}
	return string(body), nil
}

// Comments returns the texts of a record's comments, oldest first.
func (s *Server) Comments(rt workflow.RecordType, alias, recordID string) []string {
	return ofRecord(s, rt, alias, recordID, func(r *record) []*comment { return r.comments }, func(c *comment) string { return c.text })
}

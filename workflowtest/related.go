package workflowtest

import (
	"net/http"
	"slices"
	"strings"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// relation links a record to another record.
type relation struct {
	id     string
	target defKey
	recID  string
}

// relationJSON is a related item on the wire.
type relationJSON struct {
	ID         string `json:"id"`
	RecordType string `json:"recordType"`
	Alias      string `json:"alias"`
	RecordID   string `json:"recordId"`
}

func (r *relation) json() relationJSON {
	return relationJSON{ID: r.id, RecordType: string(r.target.rt), Alias: r.target.alias, RecordID: r.recID}
}

// relatedBody is the body of POST .../related-items: exactly one item.
type relatedBody struct {
	RecordType string `json:"recordType"`
	Alias      string `json:"alias"`
	RecordID   string `json:"recordId"`
}

// listRelated is GET .../related-items: a bare array.
func (s *Server) listRelated(rq *request, segs []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec, e := s.lookupRecord(rq, segs)
	if e != nil {
		return fail(e)
	}
	out := make([]relationJSON, len(rec.related))
	for i, rel := range rec.related {
		out[i] = rel.json()
	}
	return reply(http.StatusOK, out)
}

// addRelated is POST .../related-items: one related item per call (the
// spec's rule), 201 with the relation.
func (s *Server) addRelated(rq *request, segs []string) response {
	if e := s.precheckRecord(rq, segs); e != nil {
		return fail(e)
	}
	raw, e := readJSONBody(rq.r)
	if e != nil {
		return fail(e)
	}
	if t := strings.TrimSpace(string(raw)); strings.HasPrefix(t, "[") {
		return failf(http.StatusBadRequest, "related items are added one per call: send one object, not an array")
	}
	var body relatedBody
	if e := unmarshalStrict(raw, &body); e != nil {
		return fail(e)
	}
	if body.RecordType == "" || body.Alias == "" || body.RecordID == "" {
		return failf(http.StatusBadRequest, "recordType, alias and recordId are required")
	}
	if !isRecordType(body.RecordType) {
		return failf(http.StatusBadRequest, "unknown recordType %q (one of apps, elements, tasks, transactions)", body.RecordType)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, e := s.lookupRecord(rq, segs)
	if e != nil {
		return fail(e)
	}
	target := defKey{workflow.RecordType(body.RecordType), body.Alias}
	if s.st.denied[rq.user.id][target] {
		return failf(http.StatusForbidden, "user %s has no permission for %s", rq.user.id, target)
	}
	if s.st.record(target.rt, target.alias, body.RecordID) == nil {
		return failf(http.StatusBadRequest, "the related record %s/%s does not exist", target, body.RecordID)
	}
	if target == rec.def.key && body.RecordID == rec.id {
		return failf(http.StatusBadRequest, "a record cannot be related to itself")
	}
	for _, rel := range rec.related {
		if rel.target == target && rel.recID == body.RecordID {
			return failf(http.StatusBadRequest, "%s/%s is already related (relation %s)", target, body.RecordID, rel.id)
		}
	}
	rel := &relation{id: s.st.next.id("r", &s.st.next.relation), target: target, recID: body.RecordID}
	rec.related = append(rec.related, rel)
	return reply(http.StatusCreated, rel.json())
}

// removeRelated is DELETE .../related-items/{relationId}: 204.
func (s *Server) removeRelated(rq *request, segs []string) response {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, e := s.lookupRecord(rq, segs)
	if e != nil {
		return fail(e)
	}
	i := slices.IndexFunc(rec.related, func(r *relation) bool { return r.id == segs[4] })
	if i < 0 {
		return failf(http.StatusNotFound, "no related item %q on record %q", segs[4], rec.id)
	}
	rec.related = slices.Delete(rec.related, i, i+1)
	return response{status: http.StatusNoContent}
}

// Related returns the related items of a record as
// "<recordType>/<alias>/<recordId>" strings, in the order they were added.
func (s *Server) Related(rt workflow.RecordType, alias, recordID string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec := s.st.record(rt, alias, recordID)
	if rec == nil {
		return nil
	}
	out := make([]string, len(rec.related))
	for i, rel := range rec.related {
		out[i] = rel.target.String() + "/" + rel.recID
	}
	return out
}

// watcherJSON is a watcher on the wire.
type watcherJSON struct {
	UserID string `json:"userId"`
	Email  string `json:"email"`
	Name   string `json:"name"`
}

// userIDsBody is the body of the watcher and group-membership changes.
type userIDsBody struct {
	UserIDs []string `json:"userIds"`
}

// checkUserIDs checks that userIds names at least one user and that
// every user exists. The caller holds s.mu.
func (s *Server) checkUserIDs(ids []string) *httpError {
	if len(ids) == 0 {
		return errf(http.StatusBadRequest, "userIds must name at least one user")
	}
	var unknown []string
	for _, id := range ids {
		if s.st.usersByID[id] == nil {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		return errf(http.StatusBadRequest, "unknown user ids: %s", strings.Join(unknown, ", "))
	}
	return nil
}

// listWatchers is GET .../watchers: a bare array.
func (s *Server) listWatchers(rq *request, segs []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec, e := s.lookupRecord(rq, segs)
	if e != nil {
		return fail(e)
	}
	out := make([]watcherJSON, 0, len(rec.watchers))
	for _, id := range rec.watchers {
		u := s.st.usersByID[id]
		out = append(out, watcherJSON{UserID: u.id, Email: u.email, Name: strings.TrimSpace(u.firstName + " " + u.lastName)})
	}
	return reply(http.StatusOK, out)
}

// addWatchers is POST .../watchers: 204; users already watching are left
// as they are.
func (s *Server) addWatchers(rq *request, segs []string) response {
	return s.changeWatchers(rq, segs, func(rec *record, ids []string) {
		for _, id := range ids {
			if !slices.Contains(rec.watchers, id) {
				rec.watchers = append(rec.watchers, id)
			}
		}
	})
}

// removeWatchers is DELETE .../watchers (with a body): 204; users who are
// not watching are ignored.
func (s *Server) removeWatchers(rq *request, segs []string) response {
	return s.changeWatchers(rq, segs, func(rec *record, ids []string) {
		rec.watchers = slices.DeleteFunc(rec.watchers, func(w string) bool { return slices.Contains(ids, w) })
	})
}

func (s *Server) changeWatchers(rq *request, segs []string, change func(*record, []string)) response {
	if e := s.precheckRecord(rq, segs); e != nil {
		return fail(e)
	}
	var body userIDsBody
	if e := decodeStrict(rq.r, &body); e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, e := s.lookupRecord(rq, segs)
	if e != nil {
		return fail(e)
	}
	if e := s.checkUserIDs(body.UserIDs); e != nil {
		return fail(e)
	}
	change(rec, body.UserIDs)
	return response{status: http.StatusNoContent}
}

// Watchers returns the user ids watching a record, in the order they were
// added.
func (s *Server) Watchers(rt workflow.RecordType, alias, recordID string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if rec := s.st.record(rt, alias, recordID); rec != nil {
		return slices.Clone(rec.watchers)
	}
	return nil
}

// comment is a comment on a record.
type comment struct {
	id        string
	text      string
	authorID  string
	createdAt time.Time
}

// commentJSON is a comment on the wire.
type commentJSON struct {
	ID        string `json:"id"`
	Text      string `json:"text"`
	AuthorID  string `json:"authorId"`
	CreatedAt string `json:"createdAt"`
}

func (c *comment) json() commentJSON {
	return commentJSON{ID: c.id, Text: c.text, AuthorID: c.authorID, CreatedAt: formatTime(c.createdAt)}
}

// listComments is GET .../comment: a bare array, oldest first.
func (s *Server) listComments(rq *request, segs []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec, e := s.lookupRecord(rq, segs)
	if e != nil {
		return fail(e)
	}
	out := make([]commentJSON, len(rec.comments))
	for i, c := range rec.comments {
		out[i] = c.json()
	}
	return reply(http.StatusOK, out)
}

// addComment is POST .../comment with {"text": "..."}: 201 with the
// comment, written by the token's user.
func (s *Server) addComment(rq *request, segs []string) response {
	if e := s.precheckRecord(rq, segs); e != nil {
		return fail(e)
	}
	var body struct {
		Text string `json:"text"`
	}
	if e := decodeStrict(rq.r, &body); e != nil {
		return fail(e)
	}
	if strings.TrimSpace(body.Text) == "" {
		return failf(http.StatusBadRequest, "text must not be empty")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, e := s.lookupRecord(rq, segs)
	if e != nil {
		return fail(e)
	}
	c := &comment{id: s.st.next.id("c", &s.st.next.comment), text: body.Text, authorID: rq.user.id, createdAt: s.Now()}
	rec.comments = append(rec.comments, c)
	return reply(http.StatusCreated, c.json())
}

// Comments returns the texts of a record's comments, oldest first.
func (s *Server) Comments(rt workflow.RecordType, alias, recordID string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec := s.st.record(rt, alias, recordID)
	if rec == nil {
		return nil
	}
	out := make([]string, len(rec.comments))
	for i, c := range rec.comments {
		out[i] = c.text
	}
	return out
}

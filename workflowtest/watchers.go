package workflowtest

import (
	"net/http"
	"slices"
	"strings"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// watch is a user or a group watching a record; exactly one of userID and
// groupID is set. Its id is the watch's own.
type watch struct {
	seq     uint64
	id      string
	userID  string
	groupID string
}

// json returns the watcher's wire form, {"id", "target"}, its target a
// user ({"type": "User", "id", "email", "firstName", "lastName"}) or a
// group ({"type": "Group", "id", "name"}), as they are when listed. The
// caller holds s.mu.
func (w *watch) json(st *state) any {
	if g := st.groupsByID[w.groupID]; g != nil {
		return map[string]any{"id": w.id, "target": map[string]string{"type": "Group", "id": g.id, "name": g.name}}
	}
	u := st.usersByID[w.userID]
	return map[string]any{"id": w.id, "target": map[string]string{
		"type": "User", "id": u.id, "email": u.email, "firstName": u.firstName, "lastName": u.lastName,
	}}
}

// watch makes a user or a group watch rec, unless it does already. The
// caller holds s.mu.
func (st *state) watch(rec *record, userID, groupID string) {
	if !slices.ContainsFunc(rec.watchers, func(w *watch) bool { return w.userID == userID && w.groupID == groupID }) {
		seq := st.next.nextSeq()
		rec.watchers = append(rec.watchers, &watch{seq: seq, id: st.next.seqUUID(uuidWatch, seq), userID: userID, groupID: groupID})
	}
}

// watcherRoutes are the operations on watchers.
var watcherRoutes = []route{
	on(op.ListRecordWatchers, onRecord((*Server).listWatchers)),
	onJSON[watcherListInput](op.CreateRecordWatchers, onRecord((*Server).changeWatchers)),
	onJSON[watcherListInput](op.DeleteRecordWatchers, onRecord((*Server).changeWatchers)),
}

// listWatchers is GET .../watchers: Paged<{id, target}>, in the order the
// watchers were added.
func (s *Server) listWatchers(rq *request, rec *record) response {
	return listPage(rq, "watchers "+rec.def.key.String()+"/"+rec.id, rec.watchers, func(w *watch) uint64 { return w.seq }, nil,
		func(w *watch, _ string) any { return w.json(s.st) })
}

// changeWatchers is POST .../watchers with {"users": [e-mail, ...]}
// (201 without a body; users already watching are left as they are) and
// DELETE .../watchers with the same body (200 without a body; users who
// are not watching are ignored). The users are found by e-mail address
// (compared ignoring case), 422 naming the addresses of no user.
func (s *Server) changeWatchers(rq *request, rec *record) response {
	var ids, unknown []string
	for _, addr := range in[*watcherListInput](rq).Users {
		if i := slices.IndexFunc(s.st.users, func(u *user) bool { return strings.EqualFold(u.email, addr) }); i >= 0 {
			ids = append(ids, s.st.users[i].id)
		} else {
			unknown = append(unknown, addr)
		}
	}
	if len(unknown) > 0 {
		return failf(http.StatusUnprocessableEntity, "no user with e-mail address %s", strings.Join(unknown, ", "))
	}
	if rq.op == op.DeleteRecordWatchers {
		rec.watchers = slices.DeleteFunc(rec.watchers, func(w *watch) bool { return slices.Contains(ids, w.userID) })
		return response{status: http.StatusOK}
	}
	for _, id := range ids {
		s.st.watch(rec, id, "")
	}
	return response{status: http.StatusCreated}
}

// Watchers returns the ids of the users and groups watching a record, in
// the order they were added.
func (s *Server) Watchers(rt workflow.RecordType, alias, recordID string) []string {
	return ofRecord(s, rt, alias, recordID, func(r *record) []*watch { return r.watchers }, func(w *watch) string { return w.userID + w.groupID })
}

// WatchGroup makes a group watch a record, as the service's web
// application can (the API adds users only). A group already watching is
// left as it is. It panics if the record or the group does not exist.
func (s *Server) WatchGroup(rt workflow.RecordType, alias, recordID, groupID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.st.record(rt, alias, recordID)
	if rec == nil {
		panic("workflowtest: WatchGroup: no record " + string(rt) + "/" + alias + "/" + recordID)
	}
	if s.st.groupsByID[groupID] == nil {
		panic("workflowtest: WatchGroup: no group " + groupID)
	}
	s.st.watch(rec, "", groupID)
}

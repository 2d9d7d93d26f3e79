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

func watchSeq(w *watch) uint64 { return w.seq }

// watcherJSON is a watcher on the wire: {"id", "target"}.
type watcherJSON struct {
	ID     string            `json:"id"`
	Target watcherTargetJSON `json:"target"`
}

// watcherTargetJSON is a watcher's target: a user ({"type": "User", "id",
// "email", "firstName", "lastName"}) or a group ({"type": "Group", "id",
// "name"}).
type watcherTargetJSON struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Email     string `json:"email,omitempty"`
	FirstName string `json:"firstName,omitempty"`
	LastName  string `json:"lastName,omitempty"`
	Name      string `json:"name,omitempty"`
}

// json returns the watcher's wire form. The caller holds s.mu.
func (w *watch) json(st *state) watcherJSON {
	out := watcherJSON{ID: w.id}
	if w.groupID != "" {
		g := st.groupsByID[w.groupID]
		out.Target = watcherTargetJSON{Type: "Group", ID: g.id, Name: g.name}
		return out
	}
	u := st.usersByID[w.userID]
	out.Target = watcherTargetJSON{Type: "User", ID: u.id, Email: u.email, FirstName: u.firstName, LastName: u.lastName}
	return out
}

// watchersBody is the body of POST and DELETE .../watchers.
type watchersBody struct {
	Users []string `json:"users"`
}

// listWatchers is GET .../watchers: Paged<{id, target}>, in the order the
// watchers were added.
// watcherRoutes are the operations on watchers.
var watcherRoutes = []route{
	on(op.ListRecordWatchers, onRecord((*Server).listWatchers)),
	onJSON[watchersBody](op.CreateRecordWatchers, onRecord((*Server).addWatchers)),
	onJSON[watchersBody](op.DeleteRecordWatchers, onRecord((*Server).removeWatchers)),
}

func (s *Server) listWatchers(rq *request, rec *record) response {
	return listPage(rq, "watchers "+rec.def.key.String()+"/"+rec.id, rec.watchers, watchSeq, nil,
		func(w *watch, _ string) any { return w.json(s.st) })
}

// addWatchers is POST .../watchers with {"users": [e-mail, ...]}: 201
// without a body; users already watching are left as they are.
func (s *Server) addWatchers(rq *request, rec *record) response {
	return s.changeWatchers(rec, in[*watchersBody](rq), http.StatusCreated, func(rec *record, users []*user) {
		for _, u := range users {
			if !slices.ContainsFunc(rec.watchers, func(w *watch) bool { return w.userID == u.id }) {
				seq := s.st.next.nextSeq()
				rec.watchers = append(rec.watchers, &watch{seq: seq, id: seqUUID(uuidWatch, seq), userID: u.id})
			}
		}
	})
}

// removeWatchers is DELETE .../watchers (with a body): 200 without a
// body; users who are not watching are ignored.
func (s *Server) removeWatchers(rq *request, rec *record) response {
	return s.changeWatchers(rec, in[*watchersBody](rq), http.StatusOK, func(rec *record, users []*user) {
		rec.watchers = slices.DeleteFunc(rec.watchers, func(w *watch) bool {
			return slices.ContainsFunc(users, func(u *user) bool { return u.id == w.userID })
		})
	})
}

func (s *Server) changeWatchers(rec *record, body *watchersBody, status int, change func(*record, []*user)) response {
	users := make([]*user, 0, len(body.Users))
	var unknown []string
	for _, addr := range body.Users {
		i := slices.IndexFunc(s.st.users, func(u *user) bool { return strings.EqualFold(u.email, addr) })
		if i < 0 {
			unknown = append(unknown, addr)
			continue
		}
		users = append(users, s.st.users[i])
	}
	if len(unknown) > 0 {
		return failf(http.StatusUnprocessableEntity, "no user with e-mail address %s", strings.Join(unknown, ", "))
	}
	change(rec, users)
	return response{status: status}
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
	if slices.ContainsFunc(rec.watchers, func(w *watch) bool { return w.groupID == groupID }) {
		return
	}
	seq := s.st.next.nextSeq()
	rec.watchers = append(rec.watchers, &watch{seq: seq, id: seqUUID(uuidWatch, seq), groupID: groupID})
}

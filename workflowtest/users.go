package workflowtest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// userJSON is a user on the wire.
type userJSON struct {
	ID        string `json:"id"`
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Active    bool   `json:"active"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
}

func (u *user) json() userJSON {
	return userJSON{
		ID: u.id, Email: u.email, FirstName: u.firstName, LastName: u.lastName, Active: u.active,
		CreatedAt: formatTime(u.createdAt), UpdatedAt: formatTime(u.updatedAt),
	}
}

// fields is the user as a field map, for filters.
func (u *user) fields() map[string]string {
	return map[string]string{
		"id": u.id, "email": u.email, "firstName": u.firstName, "lastName": u.lastName,
		"active":    strconv.FormatBool(u.active),
		"createdAt": formatTime(u.createdAt), "updatedAt": formatTime(u.updatedAt),
	}
}

func userSeq(u *user) uint64               { return u.seq }
func userFields(u *user) map[string]string { return u.fields() }
func userData(u *user) any                 { return u.json() }

// User is a user of the fake, for assertions.
type User struct {
	ID        string
	Email     string
	FirstName string
	LastName  string
	Active    bool
}

// Users returns every user in creation order.
func (s *Server) Users() []User {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]User, len(s.st.users))
	for i, u := range s.st.users {
		out[i] = User{ID: u.id, Email: u.email, FirstName: u.firstName, LastName: u.lastName, Active: u.active}
	}
	return out
}

// checkAdmin answers 403 to a user denied the users and groups routes.
// The caller holds s.mu.
func (s *Server) checkAdmin(rq *request) *httpError {
	if s.st.deniedAdmin[rq.user.id] {
		return errf(http.StatusForbidden, "user %s has no permission for users and groups", rq.user.id)
	}
	return nil
}

// listUsers is GET /users, paged like the record list.
func (s *Server) listUsers(rq *request, _ []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if e := s.checkAdmin(rq); e != nil {
		return fail(e)
	}
	p, e := parsePaging(rq, "users")
	if e != nil {
		return fail(e)
	}
	res := selectPage(s.st.users, userSeq, userFields, p)
	return reply(http.StatusOK, buildList(res, p, userSeq, userData))
}

// createUserBody is the body of POST /users.
type createUserBody struct {
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

// createUser is POST /users: 201 with the new, active user.
func (s *Server) createUser(rq *request, _ []string) response {
	if e := s.precheck(func() *httpError { return s.checkAdmin(rq) }); e != nil {
		return fail(e)
	}
	var body createUserBody
	if e := decodeStrict(rq.r, &body); e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.checkAdmin(rq); e != nil {
		return fail(e)
	}
	email := strings.TrimSpace(body.Email)
	if at := strings.Index(email, "@"); at <= 0 || at == len(email)-1 {
		return failf(http.StatusBadRequest, "email must be an email address (got %q)", body.Email)
	}
	for _, u := range s.st.users {
		if strings.EqualFold(u.email, email) {
			return failf(http.StatusBadRequest, "a user with email %q already exists (%s)", email, u.id)
		}
	}
	u := s.st.addUser(email, body.FirstName, body.LastName, s.Now())
	return reply(http.StatusCreated, u.json())
}

// findUser finds segs[1] among the users. The caller holds s.mu.
func (s *Server) findUser(rq *request, segs []string) (*user, *httpError) {
	if e := s.checkAdmin(rq); e != nil {
		return nil, e
	}
	u := s.st.usersByID[segs[1]]
	if u == nil {
		return nil, errf(http.StatusNotFound, "no user with id %q", segs[1])
	}
	return u, nil
}

// getUser is GET /users/{userId}.
func (s *Server) getUser(rq *request, segs []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, e := s.findUser(rq, segs)
	if e != nil {
		return fail(e)
	}
	return reply(http.StatusOK, u.json())
}

// deactivateUser is POST /users/{userId}/deactivate: 200 with the user,
// now inactive (also when it already was). The user's tokens stop working
// and its credentials are refused from then on.
func (s *Server) deactivateUser(rq *request, segs []string) response {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, e := s.findUser(rq, segs)
	if e != nil {
		return fail(e)
	}
	if u.active {
		u.active, u.updatedAt = false, s.Now()
	}
	return reply(http.StatusOK, u.json())
}

// group is a group of users.
type group struct {
	seq         uint64
	id          string
	name        string
	description string
	members     []member // in the order they were added
}

// member is a user's membership of a group; seq orders the member list.
type member struct {
	seq    uint64
	userID string
}

type groupJSON struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

func (g *group) json() groupJSON {
	return groupJSON{ID: g.id, Name: g.name, Description: g.description}
}

func groupSeq(g *group) uint64 { return g.seq }
func groupFields(g *group) map[string]string {
	return map[string]string{"id": g.id, "name": g.name, "description": g.description}
}
func groupData(g *group) any { return g.json() }

// AddGroup creates a group with the given members and returns its id
// ("g1", "g2", ... in creation order). It panics if a member does not
// exist.
func (s *Server) AddGroup(name, description string, userIDs ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := &group{seq: s.st.next.nextSeq(), id: s.st.next.id("g", &s.st.next.group), name: name, description: description}
	for _, id := range userIDs {
		if s.st.usersByID[id] == nil {
			panic("workflowtest: AddGroup: no user " + strconv.Quote(id))
		}
		g.addMember(&s.st.next, id)
	}
	s.st.groups = append(s.st.groups, g)
	s.st.groupsByID[g.id] = g
	return g.id
}

func (g *group) addMember(c *counters, userID string) {
	if !slices.ContainsFunc(g.members, func(m member) bool { return m.userID == userID }) {
		g.members = append(g.members, member{seq: c.nextSeq(), userID: userID})
	}
}

// Members returns the user ids of a group's members, in the order they
// were added (nil for an unknown group).
func (s *Server) Members(groupID string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	g := s.st.groupsByID[groupID]
	if g == nil {
		return nil
	}
	out := make([]string, len(g.members))
	for i, m := range g.members {
		out[i] = m.userID
	}
	return out
}

// listGroups is GET /groups, paged like the record list.
func (s *Server) listGroups(rq *request, _ []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if e := s.checkAdmin(rq); e != nil {
		return fail(e)
	}
	p, e := parsePaging(rq, "groups")
	if e != nil {
		return fail(e)
	}
	res := selectPage(s.st.groups, groupSeq, groupFields, p)
	return reply(http.StatusOK, buildList(res, p, groupSeq, groupData))
}

// findGroup finds segs[1] among the groups. The caller holds s.mu.
func (s *Server) findGroup(rq *request, segs []string) (*group, *httpError) {
	if e := s.checkAdmin(rq); e != nil {
		return nil, e
	}
	g := s.st.groupsByID[segs[1]]
	if g == nil {
		return nil, errf(http.StatusNotFound, "no group with id %q", segs[1])
	}
	return g, nil
}

// getGroup is GET /groups/{groupId}.
func (s *Server) getGroup(rq *request, segs []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	g, e := s.findGroup(rq, segs)
	if e != nil {
		return fail(e)
	}
	return reply(http.StatusOK, g.json())
}

// listGroupUsers is GET /groups/{groupId}/users: the members, paged like
// the record list, in the order they were added.
func (s *Server) listGroupUsers(rq *request, segs []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	g, e := s.findGroup(rq, segs)
	if e != nil {
		return fail(e)
	}
	p, e := parsePaging(rq, "groups/"+g.id+"/users")
	if e != nil {
		return fail(e)
	}
	seq := func(m member) uint64 { return m.seq }
	res := selectPage(g.members, seq,
		func(m member) map[string]string { return s.st.usersByID[m.userID].fields() }, p)
	return reply(http.StatusOK, buildList(res, p, seq,
		func(m member) any { return s.st.usersByID[m.userID].json() }))
}

// addGroupUsers is POST /groups/{groupId}/users: 204; members already in
// the group are left as they are.
func (s *Server) addGroupUsers(rq *request, segs []string) response {
	return s.changeMembers(rq, segs, func(g *group, ids []string) {
		for _, id := range ids {
			g.addMember(&s.st.next, id)
		}
	})
}

// removeGroupUsers is DELETE /groups/{groupId}/users (with a body): 204;
// users who are not members are ignored.
func (s *Server) removeGroupUsers(rq *request, segs []string) response {
	return s.changeMembers(rq, segs, func(g *group, ids []string) {
		g.members = slices.DeleteFunc(g.members, func(m member) bool { return slices.Contains(ids, m.userID) })
	})
}

func (s *Server) changeMembers(rq *request, segs []string, change func(*group, []string)) response {
	if e := s.precheck(func() *httpError { _, e := s.findGroup(rq, segs); return e }); e != nil {
		return fail(e)
	}
	var body userIDsBody
	if e := decodeStrict(rq.r, &body); e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g, e := s.findGroup(rq, segs)
	if e != nil {
		return fail(e)
	}
	if e := s.checkUserIDs(body.UserIDs); e != nil {
		return fail(e)
	}
	change(g, body.UserIDs)
	return response{status: http.StatusNoContent}
}

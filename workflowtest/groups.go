package workflowtest

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// group is a group of users.
type group struct {
	seq     uint64
	id      string
	name    string
	flags   GroupFlags
	managed bool
	tags    []string
	domains []domain
	members []member // in the order they were added
}

// GroupFlags are the settable flags of a group (GroupRequest's booleans).
type GroupFlags struct {
	Assignable, Watchable, Mentionable, Approver, Dynamic, DataAccess, Hidden bool
}

// domain is an e-mail domain of a dynamic group.
type domain struct {
	id     string
	domain string
}

// member is a user's membership of a group; seq orders the member list.
type member struct {
	seq    uint64
	userID string
}

type domainJSON struct {
	ID     string `json:"id"`
	Domain string `json:"domain"`
}

// groupJSON is the service's Group.
type groupJSON struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Assignable  bool         `json:"assignable"`
	Watchable   bool         `json:"watchable"`
	Mentionable bool         `json:"mentionable"`
	Managed     bool         `json:"managed"`
	Dynamic     bool         `json:"dynamic"`
	Domains     []domainJSON `json:"domains"`
}

func (g *group) json() groupJSON {
	out := groupJSON{
		ID: g.id, Name: g.name, Assignable: g.flags.Assignable, Watchable: g.flags.Watchable,
		Mentionable: g.flags.Mentionable, Managed: g.managed, Dynamic: g.flags.Dynamic,
		Domains: make([]domainJSON, len(g.domains)),
	}
	for i, d := range g.domains {
		out.Domains[i] = domainJSON{ID: d.id, Domain: d.domain}
	}
	return out
}

func groupSeq(g *group) uint64 { return g.seq }
func groupData(g *group) any   { return g.json() }

// GroupInfo describes a group of the fake, for assertions.
type GroupInfo struct {
	ID      string
	Name    string
	Flags   GroupFlags
	Tags    []string
	Domains []string
	Members []string // user ids, in the order they were added
}

// Group returns a group by id, and whether it exists.
func (s *Server) Group(id string) (GroupInfo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	g := s.st.groupsByID[id]
	if g == nil {
		return GroupInfo{}, false
	}
	info := GroupInfo{ID: g.id, Name: g.name, Flags: g.flags, Tags: slices.Clone(g.tags)}
	for _, d := range g.domains {
		info.Domains = append(info.Domains, d.domain)
	}
	for _, m := range g.members {
		info.Members = append(info.Members, m.userID)
	}
	return info, true
}

// AddGroup creates a group that is not dynamic, assignable, watchable and
// mentionable, with the given members, and returns its id (a UUID
// counting up in creation order from
// "10000000-0000-4000-8000-000000000001"). It panics if a member does not exist.
func (s *Server) AddGroup(name string, userIDs ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range userIDs {
		if s.st.usersByID[id] == nil {
			panic("workflowtest: AddGroup: no user " + strconv.Quote(id))
		}
	}
	g := s.st.newGroup(name)
	g.flags = GroupFlags{Assignable: true, Watchable: true, Mentionable: true}
	for _, id := range userIDs {
		g.addMember(&s.st.next, id)
	}
	return g.id
}

// AddDynamicGroup creates a dynamic group over the given e-mail domains,
// managed outside the API, and returns its id.
func (s *Server) AddDynamicGroup(name string, domains ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.st.newGroup(name)
	g.flags.Dynamic, g.managed = true, true
	g.setDomains(&s.st.next, domains)
	return g.id
}

func (st *state) newGroup(name string) *group {
	g := &group{seq: st.next.nextSeq(), id: st.next.uuid(uuidGroup, &st.next.group), name: name}
	st.groups = append(st.groups, g)
	st.groupsByID[g.id] = g
	return g
}

func (g *group) setDomains(c *counters, domains []string) {
	g.domains = g.domains[:0]
	for _, d := range domains {
		g.domains = append(g.domains, domain{id: c.uuid(uuidDomain, &c.domain), domain: d})
	}
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

// groupRoutes are the operations on groups.
var groupRoutes = []route{
	on(op.ListGroups, admin((*Server).listGroups)),
	onJSON[groupRequestBody](op.CreateGroup, admin((*Server).createGroup)),
	on(op.GetGroup, onGroup((*Server).getGroup)),
	onJSON[groupRequestBody](op.UpdateGroup, onGroup((*Server).updateGroup)),
	on(op.ListGroupUsers, onGroup((*Server).listGroupUsers)),
	onJSON[userIDsBody](op.AddUsersToGroup, onGroup((*Server).addGroupUsers)),
	onJSON[userIDsBody](op.RemoveUsersFromGroup, onGroup((*Server).removeGroupUsers)),
}

// listGroups is GET /groups, paged like the record list, without filter.
func (s *Server) listGroups(rq *request) response {
	return listPage(rq, "groups", s.st.groups, groupSeq, nil, plain(groupData))
}

// onGroup is a handler of the group {groupId}, found.
func onGroup(h func(s *Server, rq *request, g *group) response) func(*Server, *request) response {
	return admin(func(s *Server, rq *request) response {
		g := s.st.groupsByID[rq.params["groupId"]]
		if g == nil {
			return failf(http.StatusNotFound, "no group with id %q", rq.params["groupId"])
		}
		return h(s, rq, g)
	})
}

// getGroup is GET /groups/{groupId}.
func (s *Server) getGroup(_ *request, g *group) response { return reply(http.StatusOK, g.json()) }

// groupRequestBody is the service's GroupRequest; nil members were not
// sent.
type groupRequestBody struct {
	Name        *string   `json:"name"`
	Assignable  *bool     `json:"assignable"`
	Watchable   *bool     `json:"watchable"`
	Mentionable *bool     `json:"mentionable"`
	Approver    *bool     `json:"approver"`
	Dynamic     *bool     `json:"dynamic"`
	DataAccess  *bool     `json:"dataAccess"`
	Hidden      *bool     `json:"hidden"`
	Tags        *[]string `json:"tags"`
	UserIDs     *[]string `json:"userIds"`
	Domains     *[]string `json:"domains"`
}

// apply checks b against g (a new group when create) and changes g. What
// b leaves out stays as it is. The caller holds s.mu.
func (s *Server) applyGroupRequest(g *group, b *groupRequestBody, create bool) *httpError {
	if create && b.Name == nil {
		return errf(http.StatusUnprocessableEntity, "invalid /name: a new group needs a name (the fake's rule)")
	}
	dynamic := g.flags.Dynamic
	if b.Dynamic != nil {
		dynamic = *b.Dynamic
	}
	switch {
	case b.UserIDs != nil && dynamic:
		return errf(http.StatusUnprocessableEntity, "invalid /userIds: userIds are for groups that are not dynamic")
	case b.Domains != nil && !dynamic:
		return errf(http.StatusUnprocessableEntity, "invalid /domains: domains are for dynamic groups")
	}
	if b.UserIDs != nil {
		for _, id := range *b.UserIDs {
			if s.st.usersByID[id] == nil {
				return errf(http.StatusUnprocessableEntity, "unknown user id %q", id)
			}
		}
	}
	setIf(&g.flags.Assignable, b.Assignable)
	setIf(&g.flags.Watchable, b.Watchable)
	setIf(&g.flags.Mentionable, b.Mentionable)
	setIf(&g.flags.Approver, b.Approver)
	setIf(&g.flags.Dynamic, b.Dynamic)
	setIf(&g.flags.DataAccess, b.DataAccess)
	setIf(&g.flags.Hidden, b.Hidden)
	setIf(&g.name, b.Name)
	if b.Tags != nil {
		g.tags = slices.Clone(*b.Tags)
	}
	if g.flags.Dynamic {
		g.members = nil
	} else {
		g.domains = nil
	}
	if b.UserIDs != nil {
		g.members = nil
		for _, id := range *b.UserIDs {
			g.addMember(&s.st.next, id)
		}
	}
	if b.Domains != nil {
		g.setDomains(&s.st.next, *b.Domains)
	}
	return nil
}

// createGroup is POST /groups: 201 with the new group.
func (s *Server) createGroup(rq *request) response {
	g := &group{}
	if e := s.applyGroupRequest(g, in[*groupRequestBody](rq), true); e != nil {
		return fail(e)
	}
	ng := s.st.newGroup(g.name)
	ng.flags, ng.tags, ng.domains, ng.members = g.flags, g.tags, g.domains, g.members
	return reply(http.StatusCreated, ng.json())
}

// updateGroup is PUT /groups/{groupId}: 200 with the group; what the body
// leaves out is kept.
func (s *Server) updateGroup(rq *request, g *group) response {
	work := *g
	work.members, work.domains, work.tags = slices.Clone(g.members), slices.Clone(g.domains), slices.Clone(g.tags)
	if e := s.applyGroupRequest(&work, in[*groupRequestBody](rq), false); e != nil {
		return fail(e)
	}
	*g = work
	return reply(http.StatusOK, g.json())
}

// listGroupUsers is GET /groups/{groupId}/users: the members, paged like
// the record list (no filter), in the order they were added.
func (s *Server) listGroupUsers(rq *request, g *group) response {
	return listPage(rq, "groups/"+g.id+"/users", g.members, func(m member) uint64 { return m.seq }, nil,
		func(m member, _ string) any { return s.st.usersByID[m.userID].json() })
}

// addGroupUsers is POST /groups/{groupId}/users: 201, no body; members
// already in the group are left as they are. A dynamic group takes no
// users (400).
func (s *Server) addGroupUsers(rq *request, g *group) response {
	return s.changeMembers(rq, g, http.StatusCreated, func(g *group, ids []string) {
		for _, id := range ids {
			g.addMember(&s.st.next, id)
		}
	})
}

// removeGroupUsers is DELETE /groups/{groupId}/users (with a body): 200,
// no body; users who are not members are ignored.
func (s *Server) removeGroupUsers(rq *request, g *group) response {
	return s.changeMembers(rq, g, http.StatusOK, func(g *group, ids []string) {
		g.members = slices.DeleteFunc(g.members, func(m member) bool { return slices.Contains(ids, m.userID) })
	})
}

func (s *Server) changeMembers(rq *request, g *group, status int, change func(*group, []string)) response {
	body := in[*userIDsBody](rq)
	if g.flags.Dynamic {
		return failf(http.StatusUnprocessableEntity, "group %s is dynamic: its members follow its domains", g.id)
	}
	if e := s.checkUserIDs(body.UserIDs); e != nil {
		return fail(e)
	}
	change(g, body.UserIDs)
	return response{status: status}
}

package workflowtest

import (
	"net/http"
	"slices"
	"strings"

	workflow "github.com/seed-a15e58aa/workflow-go"
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

func (g *group) json() groupJSON {
	return groupJSON{
		ID: g.id, Name: g.name, Assignable: g.flags.Assignable, Watchable: g.flags.Watchable,
		Mentionable: g.flags.Mentionable, Managed: g.managed, Dynamic: g.flags.Dynamic,
		Domains: mapped(g.domains, func(d domain) domainJSON { return domainJSON{ID: d.id, Domain: d.domain} }),
	}
}

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

// Members returns the user ids of a group's members, in the order they
// were added (nil for a group without members or an unknown group).
func (s *Server) Members(groupID string) []string {
	info, _ := s.Group(groupID)
	return info.Members
}

// AddGroup creates a group that is not dynamic, assignable, watchable and
// mentionable, with the given members, and returns its id (a UUID
// counting up in creation order from
// "10000000-0000-4000-8000-000000000001"). It panics if a member does not exist.
func (s *Server) AddGroup(name string, userIDs ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.checkUserIDs(userIDs); e != nil {
		panic("workflowtest: AddGroup: " + e.msg)
	}
	g := s.st.addGroup(&group{name: name, flags: GroupFlags{Assignable: true, Watchable: true, Mentionable: true}})
	g.addMembers(&s.st.next, userIDs)
	return g.id
}

// AddDynamicGroup creates a dynamic group over the given e-mail domains,
// managed outside the API, and returns its id.
func (s *Server) AddDynamicGroup(name string, domains ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.st.addGroup(&group{name: name, flags: GroupFlags{Dynamic: true}, managed: true})
	g.addDomains(&s.st.next, domains)
	return g.id
}

// addGroup stores g, a new group, giving it its id and place.
func (st *state) addGroup(g *group) *group {
	g.seq, g.id = st.next.nextSeq(), st.next.uuid(uuidGroup, &st.next.group)
	st.groups = append(st.groups, g)
	st.groupsByID[g.id] = g
	return g
}

// addDomains adds the e-mail domains to the group's, in order.
func (g *group) addDomains(c *counters, domains []string) {
	g.domains = append(g.domains, mapped(domains, func(d string) domain { return domain{id: c.uuid(uuidDomain, &c.domain), domain: d} })...)
}

// addMembers adds the users ids to the members, in order; a user who is
// a member already is left as it is.
func (g *group) addMembers(c *counters, ids []string) {
	for _, id := range ids {
		if !slices.ContainsFunc(g.members, func(m member) bool { return m.userID == id }) {
			g.members = append(g.members, member{seq: c.nextSeq(), userID: id})
		}
	}
}

// groupRoutes are the operations on groups.
var groupRoutes = []route{
	on(op.ListGroups, adminOnly((*Server).listGroups)),
	onJSON[workflow.GroupRequest](op.CreateGroup, onGroup((*Server).putGroup)),
	on(op.GetGroup, onGroup((*Server).getGroup)),
	onJSON[workflow.GroupRequest](op.UpdateGroup, onGroup((*Server).putGroup)),
	on(op.ListGroupUsers, onGroup((*Server).listGroupUsers)),
	onJSON[groupUserIDsInput](op.AddUsersToGroup, onGroup((*Server).changeMembers)),
	onJSON[groupUserIDsInput](op.RemoveUsersFromGroup, onGroup((*Server).changeMembers)),
}

// checkUserIDs answers 422 naming the ids of userIds that name no user.
// The caller holds s.mu.
func (s *Server) checkUserIDs(ids []string) *httpError {
	if unknown := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return s.st.usersByID[id] != nil }); len(unknown) > 0 {
		return errf(http.StatusUnprocessableEntity, "unknown user ids: %s", strings.Join(unknown, ", "))
	}
	return nil
}

// listGroups is GET /groups, paged like the record list, without filter.
func (s *Server) listGroups(rq *request) response {
	return listPage(rq, "groups", s.st.groups, func(g *group) uint64 { return g.seq }, nil, plain(func(g *group) any { return g.json() }))
}

// onGroup is a handler of the group {groupId}, found, when the route
// names one (nil otherwise).
func onGroup(h func(s *Server, rq *request, g *group) response) func(*Server, *request) response {
	return adminOnly(found(func(s *Server, rq *request) (*group, *httpError) {
		if id, one := rq.params["groupId"]; one && s.st.groupsByID[id] == nil {
			return nil, errf(http.StatusNotFound, "no group with id %q", id)
		}
		return s.st.groupsByID[rq.params["groupId"]], nil
	}, h))
}

// getGroup is GET /groups/{groupId}.
func (s *Server) getGroup(_ *request, g *group) response { return reply(http.StatusOK, g.json()) }

// putGroup is POST /groups (no g: 201 with the new group) and PUT
// /groups/{groupId} (200 with the group), the body checked against g;
// what the body leaves out stays as it is, and nothing changes on a
// refusal.
func (s *Server) putGroup(rq *request, g *group) response {
	create := g == nil
	if create {
		g = &group{}
	}
	b := in[*workflow.GroupRequest](rq) // what it leaves out keeps its value; userIds and domains are nil when not sent
	flags, tags := g.flags, g.tags
	for _, f := range []struct{ to, sent *bool }{{&flags.Assignable, b.Assignable}, {&flags.Watchable, b.Watchable},
		{&flags.Mentionable, b.Mentionable}, {&flags.Approver, b.Approver}, {&flags.Dynamic, b.Dynamic},
		{&flags.DataAccess, b.DataAccess}, {&flags.Hidden, b.Hidden}} {
		setIf(f.to, f.sent)
	}
	if b.Tags != nil {
		tags = b.Tags
	}
	switch {
	case create && b.Name == nil:
		return failf(http.StatusUnprocessableEntity, "invalid /name: a new group needs a name (the fake's rule)")
	case b.UserIDs != nil && flags.Dynamic:
		return failf(http.StatusUnprocessableEntity, "invalid /userIds: userIds are for groups that are not dynamic")
	case b.Domains != nil && !flags.Dynamic:
		return failf(http.StatusUnprocessableEntity, "invalid /domains: domains are for dynamic groups")
	}
	if e := s.checkUserIDs(b.UserIDs); e != nil {
		return fail(e)
	}
	setIf(&g.name, b.Name)
	g.flags, g.tags = flags, tags
	if g.flags.Dynamic || b.UserIDs != nil {
		g.members = nil
	}
	if !g.flags.Dynamic || b.Domains != nil {
		g.domains = nil
	}
	g.addMembers(&s.st.next, b.UserIDs)
	g.addDomains(&s.st.next, b.Domains)
	if create {
		return reply(http.StatusCreated, s.st.addGroup(g).json())
	}
	return reply(http.StatusOK, g.json())
}

// listGroupUsers is GET /groups/{groupId}/users: the members, paged like
// the record list (no filter), in the order they were added.
func (s *Server) listGroupUsers(rq *request, g *group) response {
	return listPage(rq, "groups/"+g.id+"/users", g.members, func(m member) uint64 { return m.seq }, nil,
		func(m member, _ string) any { return s.st.usersByID[m.userID].json() })
}

// changeMembers is POST /groups/{groupId}/users (201, no body; members
// already in the group are left as they are) and DELETE
// /groups/{groupId}/users with a body (200, no body; users who are not
// members are ignored). A dynamic group takes no users (422).
func (s *Server) changeMembers(rq *request, g *group) response {
	ids := in[*groupUserIDsInput](rq).UserIDs
	if g.flags.Dynamic {
		return failf(http.StatusUnprocessableEntity, "group %s is dynamic: its members follow its domains", g.id)
	}
	if e := s.checkUserIDs(ids); e != nil {
		return fail(e)
	}
	if rq.op == op.RemoveUsersFromGroup {
		g.members = slices.DeleteFunc(g.members, func(m member) bool { return slices.Contains(ids, m.userID) })
		return response{status: http.StatusOK}
	}
	g.addMembers(&s.st.next, ids)
	return response{status: http.StatusCreated}
}

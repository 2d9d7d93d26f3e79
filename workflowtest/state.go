package workflowtest

import (
	"strconv"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// state is all the data of a server; Reset replaces it.
type state struct {
	defs map[defKey]*definition

	users     []*user // in creation order
	usersByID map[string]*user
	creds     map[string]*credential // by client id
	tokens    map[string]*token      // by access token

	groups     []*group
	groupsByID map[string]*group

	attachments map[string]*attachment // by id, all records

	orgDomains  domainsState     // admin_domains.go
	automations automationsState // admin_automations.go
	views       viewsState       // admin_views.go

	denied      map[string]map[defKey]bool // user id -> denied definitions
	deniedAdmin map[string]bool            // user id -> denied users/groups routes

	next counters

	catalog      *catalog           // elements, apps, flows, agents, skills (admin_elements.go)
	tables       *tablesState       // admin_tables.go
	searchTables *searchTablesState // admin_search_tables.go
}

// counters hand out ids and sequence numbers; they restart with Reset so
// that ids are deterministic.
type counters struct {
	seq        uint64 // positions in lists (records, members, related items, watchers, comments)
	record     uint64
	user       uint64
	group      uint64
	domain     uint64
	attachment uint64
	comment    uint64
	token      uint64
}

func (c *counters) nextSeq() uint64 { c.seq++; return c.seq }

func (c *counters) id(prefix string, n *uint64) string {
	*n++
	return prefix + strconv.FormatUint(*n, 10)
}

// uuid counts n up and returns the UUID of that count for kind (see
// seqUUID): users, groups and domains have UUIDs, as the service
// publishes.
func (c *counters) uuid(kind byte, n *uint64) string {
	*n++
	return seqUUID(kind, *n)
}

func (s *Server) newState() *state {
	st := &state{
		defs:        map[defKey]*definition{},
		usersByID:   map[string]*user{},
		creds:       map[string]*credential{},
		tokens:      map[string]*token{},
		groupsByID:  map[string]*group{},
		attachments: map[string]*attachment{},
		denied:      map[string]map[defKey]bool{},
		deniedAdmin: map[string]bool{},
	}
	u := st.addUser(s.cfg.email, "Default", "User", s.Now())
	st.creds[s.cfg.clientID] = &credential{clientID: s.cfg.clientID, secret: s.cfg.secret, userID: u.id}
	return st
}

// route is one entry of the routing table: an operation of the
// contract document (its method and path template) and its handler.
type route struct {
	method  string
	pattern []string
	name    string
	op      op.ID
	h       func(s *Server, rq *request, segs []string) response
}

// Route names as recorded in RequestRecord.Route.
const (
	routeToken = "POST /oauth/token"
)

func r(id op.ID, h func(*Server, *request, []string) response) route {
	o := id.Op()
	return route{method: o.Method, pattern: splitPattern(o.Path), name: o.Method + " /v1" + o.Path, op: id, h: h}
}

func splitPattern(p string) []string {
	var out []string
	start := 1
	for i := 1; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return out
}

// routes holds the handler of every operation of the API under /v1.
var routes = []route{
	r(op.ListUsers, (*Server).listUsers),
	r(op.CreateUser, (*Server).createUser),
	r(op.GetUser, (*Server).getUser),
	r(op.DeactivateUser, (*Server).deactivateUser),
	r(op.ListGroups, (*Server).listGroups),
	r(op.CreateGroup, (*Server).createGroup),
	r(op.GetGroup, (*Server).getGroup),
	r(op.UpdateGroup, (*Server).updateGroup),
	r(op.ListGroupUsers, (*Server).listGroupUsers),
	r(op.AddUsersToGroup, (*Server).addGroupUsers),
	r(op.RemoveUsersFromGroup, (*Server).removeGroupUsers),

	// The routes of the workspace configuration come before the record
	// routes, whose shapes some of them share (see each family's file).

	// workspace configuration: domains
	r(op.AddDomainsToGroup, (*Server).addGroupDomains),
	r(op.RemoveDomainsFromGroup, (*Server).removeGroupDomains),
	r(op.CreateOrganizationDomain, (*Server).createOrgDomain),
	r(op.UpdateOrganizationDomain, (*Server).updateOrgDomain),

	// workspace configuration: automations
	r(op.ListAutomations, (*Server).listAutomations),
	r(op.CreateAutomation, (*Server).createAutomation),
	r(op.ValidateAutomation, (*Server).validateAutomation),
	r(op.GetAutomation, (*Server).getAutomation),
	r(op.UpdateAutomation, (*Server).updateAutomation),
	r(op.DeleteAutomation, (*Server).deleteAutomation),

	// workspace configuration: views
	r(op.ListViews, (*Server).listViews),
	r(op.CreateView, (*Server).createView),
	r(op.GetView, (*Server).getView),
	r(op.UpdateView, (*Server).updateView),

	// workspace configuration: elements
	r(op.CreateElement, (*Server).createElement),
	r(op.GetElement, (*Server).getElementOrRecords),
	r(op.UpdateElement, (*Server).updateElement),

	// workspace configuration: apps
	r(op.ComposeApp, (*Server).composeApp),
	r(op.UpdateApp, (*Server).updateApp),

	// workspace configuration: flows
	r(op.CreateFlow, (*Server).createFlow),
	r(op.UpdateFlow, (*Server).updateFlow),

	// workspace configuration: agents
	r(op.ListAgents, (*Server).listAgents),
	r(op.CreateAgent, (*Server).changeAgent),
	r(op.UpdateAgent, (*Server).changeAgent),

	// workspace configuration: skills
	r(op.ListSkills, (*Server).listSkills),
	r(op.CreateSkill, (*Server).changeSkill),
	r(op.UpdateSkill, (*Server).changeSkill),

	// workspace configuration: tables
	r(op.ListTables, (*Server).listTables),
	r(op.CreateTable, (*Server).createTable),
	r(op.GetTable, (*Server).getTable),
	r(op.UpdateTable, (*Server).updateTable),
	r(op.DeleteTable, (*Server).deleteTable),
	r(op.CreateTableJoin, (*Server).createJoin),
	r(op.UpdateTableJoin, (*Server).updateJoin),
	r(op.DeleteTableJoin, (*Server).deleteJoin),
	r(op.CreateTableJoinMapping, (*Server).changeMappings),
	r(op.UpdateTableJoinMapping, (*Server).changeMappings),
	r(op.DeleteTableJoinMapping, (*Server).changeMappings),

	// workspace configuration: search tables
	r(op.CreateSnowflakeSearchTable, (*Server).createSearchTable),
	r(op.CreateLinkedSearchTable, (*Server).createLinkedSearchTable),
	r(op.GetSearchTable, (*Server).getSearchTable),
	r(op.UpdateSearchTable, (*Server).updateSearchTable),

	r(op.RecordList, (*Server).listRecords),
	r(op.CreateRecord, (*Server).createRecord),
	r(op.GetRecord, (*Server).getRecord),
	r(op.UpdateRecord, (*Server).updateRecord),
	r(op.GetRecordRelations, (*Server).listRelated),
	r(op.CreateRecordRelatedItem, (*Server).addRelated),
	r(op.DeleteRecordRelatedItem, (*Server).removeRelated),
	r(op.CreateRecordLink, (*Server).addLink),
	r(op.ListRecordAttachments, (*Server).listAttachments),
	r(op.CreateRecordAttachment, (*Server).uploadAttachment),
	r(op.GetRecordAttachment, (*Server).getAttachment),
	r(op.DeleteRecordAttachment, (*Server).deleteAttachment),
	r(op.DownloadRecordAttachment, (*Server).downloadAttachment),
	r(op.ListRecordWatchers, (*Server).listWatchers),
	r(op.CreateRecordWatchers, (*Server).addWatchers),
	r(op.DeleteRecordWatchers, (*Server).removeWatchers),
	r(op.ListRecordComments, (*Server).listComments),
	r(op.CreateRecordComment, (*Server).addComment),
}

// match finds the route of a request (see op.Match). When the path
// matches routes of other methods only, it returns their methods.
func match(method string, segs []string) (*route, []string) {
	o, allow := op.Match(method, segs)
	if o == nil {
		return nil, allow
	}
	return routeOf[o.ID], nil
}

// routeOf is routes by operation.
var routeOf = func() map[op.ID]*route {
	m := map[op.ID]*route{}
	for i := range routes {
		m[routes[i].op] = &routes[i]
	}
	return m
}()

func isRecordType(s string) bool { return workflow.RecordType(s).Valid() }

// user is a user of the service.
type user struct {
	seq       uint64
	id        string
	email     string
	firstName string
	lastName  string
	active    bool
	jobTitle  string
	// neverNotify is what the create asked for (no welcome e-mail).
	neverNotify bool
	createdAt   time.Time
	updatedAt   time.Time
}

// credential is an API access token's client id and secret.
type credential struct {
	clientID, secret, userID string
}

// token is an issued access token.
type token struct {
	userID   string
	clientID string
	expires  time.Time
}

func (st *state) addUser(email, first, last string, now time.Time) *user {
	u := &user{
		seq:       st.next.nextSeq(),
		id:        st.next.uuid(uuidUser, &st.next.user),
		email:     email,
		firstName: first,
		lastName:  last,
		active:    true,
		createdAt: now,
		updatedAt: now,
	}
	st.users = append(st.users, u)
	st.usersByID[u.id] = u
	return u
}

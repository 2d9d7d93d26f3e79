package workflowtest

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
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

// route is one entry of the routing table. Pattern segments in braces
// match any segment, except {recordType}, which matches only the four
// record types.
type route struct {
	method  string
	pattern []string
	name    string
	op      string // the operationId of the contract document
	h       func(s *Server, rq *request, segs []string) response
}

// Route names as recorded in RequestRecord.Route.
const (
	routeToken = "POST /oauth/token"
)

func r(method, pattern, op string, h func(*Server, *request, []string) response) route {
	return route{method: method, pattern: splitPattern(pattern), name: method + " /v1" + pattern, op: op, h: h}
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

const recordBase = "/{recordType}/{alias}/{id}"

// routes lists every endpoint of the API, literal routes before the
// record routes. Paths are relative to /v1.
var routes = []route{
	r(http.MethodGet, "/users", "listUsers", (*Server).listUsers),
	r(http.MethodPost, "/users", "createUser", (*Server).createUser),
	r(http.MethodGet, "/users/{userId}", "getUser", (*Server).getUser),
	r(http.MethodPost, "/users/{userId}/deactivate", "deactivateUser", (*Server).deactivateUser),
	r(http.MethodGet, "/groups", "listGroups", (*Server).listGroups),
	r(http.MethodPost, "/groups", "createGroup", (*Server).createGroup),
	r(http.MethodGet, "/groups/{groupId}", "getGroup", (*Server).getGroup),
	r(http.MethodPut, "/groups/{groupId}", "updateGroup", (*Server).updateGroup),
	r(http.MethodGet, "/groups/{groupId}/users", "listGroupUsers", (*Server).listGroupUsers),
	r(http.MethodPost, "/groups/{groupId}/users", "addUsersToGroup", (*Server).addGroupUsers),
	r(http.MethodDelete, "/groups/{groupId}/users", "removeUsersFromGroup", (*Server).removeGroupUsers),

	// The routes of the workspace configuration come before the record
	// routes, whose shapes some of them share (see each family's file).

	// workspace configuration: domains
	r(http.MethodPost, "/groups/{groupId}/domains", "addDomainsToGroup", (*Server).addGroupDomains),
	r(http.MethodDelete, "/groups/{groupId}/domains", "removeDomainsFromGroup", (*Server).removeGroupDomains),
	r(http.MethodPost, "/domains", "createOrganizationDomain", (*Server).createOrgDomain),
	r(http.MethodPut, "/domains/{domainId}", "updateOrganizationDomain", (*Server).updateOrgDomain),

	// workspace configuration: automations
	r(http.MethodGet, "/{recordType}/{alias}/automations", "listAutomations", (*Server).listAutomations),
	r(http.MethodPost, "/{recordType}/{alias}/automations", "createAutomation", (*Server).createAutomation),
	r(http.MethodPost, "/{recordType}/{alias}/automations/validate", "validateAutomation", (*Server).validateAutomation),
	r(http.MethodGet, "/{recordType}/{alias}/automations/{id}", "getAutomation", (*Server).getAutomation),
	r(http.MethodPut, "/{recordType}/{alias}/automations/{id}", "updateAutomation", (*Server).updateAutomation),
	r(http.MethodDelete, "/{recordType}/{alias}/automations/{id}", "deleteAutomation", (*Server).deleteAutomation),

	// workspace configuration: views
	r(http.MethodGet, "/apps/{alias}/views", "listViews", (*Server).listViews),
	r(http.MethodPost, "/apps/{alias}/views", "createView", (*Server).createView),
	r(http.MethodGet, "/apps/{alias}/views/{id}", "getView", (*Server).getView),
	r(http.MethodPut, "/apps/{alias}/views/{id}", "updateView", (*Server).updateView),

	// workspace configuration: elements
	r(http.MethodPost, "/elements", "createElement", (*Server).createElement),
	r(http.MethodGet, "/elements/{alias}", "getElement", (*Server).getElementOrRecords),
	r(http.MethodPut, "/elements/{alias}", "updateElement", (*Server).updateElement),

	// workspace configuration: apps
	r(http.MethodPost, "/aspects/compose", "composeApp", (*Server).composeApp),
	r(http.MethodPut, "/aspects/compose/{id}", "updateApp", (*Server).updateApp),

	// workspace configuration: flows
	r(http.MethodPost, "/flows/create", "createFlow", (*Server).createFlow),
	r(http.MethodPut, "/flows/{id}", "updateFlow", (*Server).updateFlow),

	// workspace configuration: agents
	r(http.MethodGet, "/apps/{alias}/agents", "listAgents", (*Server).listAgents),
	r(http.MethodPost, "/apps/{alias}/agents", "createAgent", (*Server).changeAgent),
	r(http.MethodPut, "/apps/{alias}/agents/{id}", "updateAgent", (*Server).changeAgent),

	// workspace configuration: skills
	r(http.MethodGet, "/apps/{alias}/skills", "listSkills", (*Server).listSkills),
	r(http.MethodPost, "/apps/{alias}/skills", "createSkill", (*Server).changeSkill),
	r(http.MethodPut, "/apps/{alias}/skills/{id}", "updateSkill", (*Server).changeSkill),

	// workspace configuration: tables
	r(http.MethodGet, "/tables", "listTables", (*Server).listTables),
	r(http.MethodPost, "/tables", "createTable", (*Server).createTable),
	r(http.MethodGet, "/tables/{id}", "getTable", (*Server).getTable),
	r(http.MethodPut, "/tables/{id}", "updateTable", (*Server).updateTable),
	r(http.MethodDelete, "/tables/{id}", "deleteTable", (*Server).deleteTable),
	r(http.MethodPost, "/tables/{id}/joins", "createTableJoin", (*Server).createJoin),
	r(http.MethodPut, "/tables/{id}/joins/{joinId}", "updateTableJoin", (*Server).updateJoin),
	r(http.MethodDelete, "/tables/{id}/joins/{joinId}", "deleteTableJoin", (*Server).deleteJoin),
	r(http.MethodPost, "/tables/{id}/join-fields/{joinFieldsId}/mappings", "createTableJoinMapping", (*Server).changeMappings),
	r(http.MethodPut, "/tables/{id}/join-fields/{joinFieldsId}/mappings", "updateTableJoinMapping", (*Server).changeMappings),
	r(http.MethodDelete, "/tables/{id}/join-fields/{joinFieldsId}/mappings", "deleteTableJoinMapping", (*Server).changeMappings),

	// workspace configuration: search tables
	r(http.MethodPost, "/aspects/{aspectId}/search-tables", "createSnowflakeSearchTable", (*Server).createSearchTable),
	r(http.MethodPost, "/aspects/{aspectId}/linked-search-tables", "createLinkedSearchTable", (*Server).createLinkedSearchTable),
	r(http.MethodGet, "/aspects/{aspectId}/search-tables/{id}", "getSearchTable", (*Server).getSearchTable),
	r(http.MethodPut, "/aspects/{aspectId}/search-tables/{id}", "updateSearchTable", (*Server).updateSearchTable),

	r(http.MethodGet, "/{recordType}/{alias}", "recordList", (*Server).listRecords),
	r(http.MethodPost, "/{recordType}/{alias}", "createRecord", (*Server).createRecord),
	r(http.MethodGet, recordBase, "getRecord", (*Server).getRecord),
	r(http.MethodPut, recordBase, "updateRecord", (*Server).updateRecord),
	r(http.MethodGet, recordBase+"/related-items", "getRecordRelations", (*Server).listRelated),
	r(http.MethodPost, recordBase+"/related-items", "createRecordRelatedItem", (*Server).addRelated),
	r(http.MethodDelete, recordBase+"/related-items/{relationId}", "deleteRecordRelatedItem", (*Server).removeRelated),
	r(http.MethodPost, recordBase+"/attachments/url-links", "createRecordLink", (*Server).addLink),
	r(http.MethodGet, recordBase+"/attachments", "listRecordAttachments", (*Server).listAttachments),
	r(http.MethodPost, recordBase+"/attachments", "createRecordAttachment", (*Server).uploadAttachment),
	r(http.MethodGet, recordBase+"/attachments/{attachmentId}", "getRecordAttachment", (*Server).getAttachment),
	r(http.MethodDelete, recordBase+"/attachments/{attachmentId}", "deleteRecordAttachment", (*Server).deleteAttachment),
	r(http.MethodGet, recordBase+"/attachments/{attachmentId}/content", "downloadRecordAttachment", (*Server).downloadAttachment),
	r(http.MethodGet, recordBase+"/watchers", "listRecordWatchers", (*Server).listWatchers),
	r(http.MethodPost, recordBase+"/watchers", "createRecordWatchers", (*Server).addWatchers),
	r(http.MethodDelete, recordBase+"/watchers", "deleteRecordWatchers", (*Server).removeWatchers),
	r(http.MethodGet, recordBase+"/comment", "listRecordComments", (*Server).listComments),
	r(http.MethodPost, recordBase+"/comment", "createRecordComment", (*Server).addComment),
}

// match finds the route of a request. When the path matches routes of
// other methods only, it returns their methods.
func match(method string, segs []string) (*route, []string) {
	var allow []string
	for i := range routes {
		rt := &routes[i]
		if !pathMatches(rt.pattern, segs) {
			continue
		}
		if rt.method == method {
			return rt, nil
		}
		if !slices.Contains(allow, rt.method) {
			allow = append(allow, rt.method)
		}
	}
	return nil, allow
}

func pathMatches(pattern, segs []string) bool {
	if len(pattern) != len(segs) {
		return false
	}
	for i, p := range pattern {
		switch {
		case p == "{recordType}":
			if !isRecordType(segs[i]) {
				return false
			}
		case len(p) > 0 && p[0] == '{':
		case p != segs[i]:
			return false
		}
	}
	return true
}

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

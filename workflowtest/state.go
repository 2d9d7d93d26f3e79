package workflowtest

import (
	"time"
)

// state is all the data of a server; Reset replaces it.
type state struct {
	defs map[defKey]*definition

	users     []*user // in creation order
	usersByID map[string]*user
	creds     map[string]Account // by client id
	tokens    map[string]*token  // by access token

	groups     []*group
	groupsByID map[string]*group

	attachments map[string]*attachment // by id, all records

	orgDomains  domainsState     // admin_domains.go
	automations automationsState // admin_automations.go
	views       viewsState       // admin_views.go

	denied      map[string]map[defKey]bool // user id -> denied definitions
	deniedAdmin map[string]bool            // user id -> denied users/groups routes

	next counters

	elements   []*element // admin_elements.go
	elementIDs uint64
	apps       passStore            // admin_apps.go
	flows      passStore            // admin_flows.go
	agents     map[string]*[]*agent // by app key (admin_agents.go)
	agentIDs   uint64
	skills     map[string]*[]*skill // by app key (admin_skills.go)
	skillIDs   uint64

	tables       *tablesState       // admin_tables.go
	searchTables *searchTablesState // admin_search_tables.go
}

func (s *Server) newState() *state {
	st := &state{
		defs:        map[defKey]*definition{},
		usersByID:   map[string]*user{},
		creds:       map[string]Account{},
		tokens:      map[string]*token{},
		groupsByID:  map[string]*group{},
		attachments: map[string]*attachment{},
		denied:      map[string]map[defKey]bool{},
		deniedAdmin: map[string]bool{},
	}
	u := st.addUser(s.cfg.email, "Default", "User")
	st.creds[s.cfg.clientID] = Account{UserID: u.id, ClientID: s.cfg.clientID, ClientSecret: s.cfg.secret}
	st.next.space = s.cfg.idSpace // the default user keeps DefaultUserID
	return st
}

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
}

// token is an issued access token.
type token struct {
	userID   string
	clientID string
	expires  time.Time
}

// addUser stores a new, active user.
func (st *state) addUser(email, first, last string) *user {
	u := &user{
		seq:       st.next.nextSeq(),
		id:        st.next.uuid(uuidUser, &st.next.user),
		email:     email,
		firstName: first,
		lastName:  last,
		active:    true,
	}
	st.users = append(st.users, u)
	st.usersByID[u.id] = u
	return u
}

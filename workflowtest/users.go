package workflowtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

func (u *user) json() userJSON {
	status := "INACTIVE"
	if u.active {
		status = "ACTIVE"
	}
	return userJSON{
		ID: u.id, Email: u.email, FirstName: u.firstName, LastName: u.lastName,
		Status: status, JobTitle: u.jobTitle,
	}
}

// userFields is the user as a field map, for filters: the members of the
// user object.
func userFields(u *user) map[string]string {
	var m map[string]string
	_ = json.Unmarshal(encodeJSON(u.json()), &m) // every member is a string
	return m
}

// User is a user of the fake, for assertions.
type User struct {
	ID        string
	Email     string
	FirstName string
	LastName  string
	Active    bool
	JobTitle  string
	// NeverNotify is what POST /users asked for: no welcome e-mail.
	NeverNotify bool
}

// Users returns every user in creation order.
func (s *Server) Users() []User {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return mapped(s.st.users, func(u *user) User {
		return User{
			ID: u.id, Email: u.email, FirstName: u.firstName, LastName: u.lastName, Active: u.active,
			JobTitle: u.jobTitle, NeverNotify: u.neverNotify,
		}
	})
}

// userRoutes are the operations on users.
var userRoutes = []route{
	on(op.ListUsers, adminOnly((*Server).listUsers)),
	onJSON[workflow.NewUser](op.CreateUser, adminOnly((*Server).createUser)),
	on(op.GetUser, adminOnly(found((*Server).lookupUser, (*Server).getUser))),
	on(op.DeactivateUser, adminOnly(found((*Server).lookupUser, (*Server).deactivateUser))),
}

// adminOnly is a handler of the users and groups routes, run once the user
// may use them: 403 to a user denied them (DenyAdmin).
func adminOnly(h func(s *Server, rq *request) response) func(*Server, *request) response {
	return func(s *Server, rq *request) response {
		if s.st.deniedAdmin[rq.user.id] {
			return failf(http.StatusForbidden, "user %s has no permission for users and groups", rq.user.id)
		}
		return h(s, rq)
	}
}

// listUsers is GET /users, paged like the record list.
func (s *Server) listUsers(rq *request) response {
	return listPage(rq, "users", s.st.users, func(u *user) uint64 { return u.seq }, userFields, plain(func(u *user) any { return u.json() }))
}

// createUser is POST /users: 201 with the new, active user. email,
// firstName and lastName are required (400 naming the missing one); email
// must be a bare address as net/mail parses it and not taken yet.
func (s *Server) createUser(rq *request) response {
	body := in[*workflow.NewUser](rq)
	if i := slices.IndexFunc(s.st.users, func(u *user) bool { return strings.EqualFold(u.email, body.Email) }); i >= 0 {
		return failf(http.StatusBadRequest, "a user with email %q already exists (%s)", body.Email, s.st.users[i].id)
	}
	u := s.st.addUser(body.Email, body.FirstName, body.LastName)
	u.jobTitle, u.neverNotify = valueOf(body.JobTitle), valueOf(body.NeverNotify)
	return reply(http.StatusCreated, u.json())
}

// lookupUser finds the user {userId}.
func (s *Server) lookupUser(rq *request) (*user, *httpError) {
	if u := s.st.usersByID[rq.params["userId"]]; u != nil {
		return u, nil
	}
	return nil, errf(http.StatusNotFound, "no user with id %q", rq.params["userId"])
}

// getUser is GET /users/{userId}.
func (s *Server) getUser(_ *request, u *user) response { return reply(http.StatusOK, u.json()) }

// deactivateUser is POST /users/{userId}/deactivate: 200 with the user,
// now inactive (also when it already was). The user's tokens stop working
// and its credentials are refused from then on.
func (s *Server) deactivateUser(_ *request, u *user) response {
	u.active = false
	return reply(http.StatusOK, u.json())
}

// Account is a user of the fake with the credentials of an API access
// token.
type Account struct {
	UserID       string
	ClientID     string
	ClientSecret string
}

// AddUser creates an active user with credentials of its own and returns
// them. User ids are UUIDs counting up in creation order: DefaultUserID
// ("00000000-0000-4000-8000-000000000001") is the default user's, the
// first AddUser gets "00000000-0000-4000-8000-000000000002". The client id
// of the n-th user is "client-n" and its secret "secret-n". It panics if
// email is not an e-mail address (POST /users would refuse it).
func (s *Server) AddUser(email, firstName, lastName string) Account {
	mustConform("AddUser", op.CreateUser, map[string]string{"email": email, "firstName": firstName, "lastName": lastName})
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.st.addUser(email, firstName, lastName)
	n := strconv.FormatUint(s.st.next.user, 10)
	a := Account{UserID: u.id, ClientID: "client-" + n, ClientSecret: "secret-" + n}
	s.st.creds[a.ClientID] = a
	return a
}

// DeactivateUser deactivates a user as POST /users/{userId}/deactivate
// does: its tokens stop working and its credentials are refused. It
// reports whether the user exists.
func (s *Server) DeactivateUser(userID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.st.usersByID[userID]
	if u != nil {
		u.active = false
	}
	return u != nil
}

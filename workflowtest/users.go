package workflowtest

import (
	"net/http"
	"strings"
)

// userJSON is a user on the wire: the service's User.
type userJSON struct {
	ID        string `json:"id"`
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Status    string `json:"status"`
	JobTitle  string `json:"jobTitle"`
}

// User statuses as the fake sends them.
const (
	statusActive   = "ACTIVE"
	statusInactive = "INACTIVE"
)

func (u *user) status() string {
	if u.active {
		return statusActive
	}
	return statusInactive
}

func (u *user) json() userJSON {
	return userJSON{
		ID: u.id, Email: u.email, FirstName: u.firstName, LastName: u.lastName,
		Status: u.status(), JobTitle: u.jobTitle,
	}
}

// fields is the user as a field map, for filters: the members of the
// user object.
func (u *user) fields() map[string]string {
	return map[string]string{
		"id": u.id, "email": u.email, "firstName": u.firstName, "lastName": u.lastName,
		"status": u.status(), "jobTitle": u.jobTitle,
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
	JobTitle  string
	// NeverNotify is what POST /users asked for: no welcome e-mail.
	NeverNotify bool
}

// Users returns every user in creation order.
func (s *Server) Users() []User {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]User, len(s.st.users))
	for i, u := range s.st.users {
		out[i] = User{
			ID: u.id, Email: u.email, FirstName: u.firstName, LastName: u.lastName, Active: u.active,
			JobTitle: u.jobTitle, NeverNotify: u.neverNotify,
		}
	}
	return out
}

// plainList is the service's Paged<X>: {"items": [X], "total", "paging"},
// the items themselves without a per-item cursor.
type plainList struct {
	Items  []any        `json:"items"`
	Total  int          `json:"total"`
	Paging pagingStatus `json:"paging"`
}

// buildPlainList turns a selected page into a Paged<X> body; the paging
// cursors are those of the first and last item. data is called with the
// lock still held.
func buildPlainList[T any](res pageResult[T], p *paging, seq func(T) uint64, data func(T) any) plainList {
	out := plainList{Items: make([]any, len(res.items)), Total: res.total}
	for i, it := range res.items {
		out.Items[i] = data(it)
	}
	out.Paging.HasNextPage, out.Paging.HasPreviousPage = res.hasNext, res.hasPrev
	if n := len(res.items); n > 0 {
		out.Paging.StartCursor = encodeCursor(seq(res.items[0]), p.key)
		out.Paging.EndCursor = encodeCursor(seq(res.items[n-1]), p.key)
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
// userRoutes are the operations on users.
var userRoutes = []route{
	on(http.MethodGet, "/users", "listUsers", admin((*Server).listUsers)),
	onJSON[createUserBody](http.MethodPost, "/users", "createUser", admin((*Server).createUser)),
	on(http.MethodGet, "/users/{userId}", "getUser", onUser((*Server).getUser)),
	on(http.MethodPost, "/users/{userId}/deactivate", "deactivateUser", onUser((*Server).deactivateUser)),
}

// admin is a handler of the users and groups routes, run once the user
// may use them (403 otherwise).
func admin(h func(s *Server, rq *request) response) func(*Server, *request) response {
	return func(s *Server, rq *request) response {
		if e := s.checkAdmin(rq); e != nil {
			return fail(e)
		}
		return h(s, rq)
	}
}

func (s *Server) listUsers(rq *request) response {
	p, e := parsePaging(rq, "users")
	if e != nil {
		return fail(e)
	}
	res := selectPage(s.st.users, userSeq, userFields, p)
	return reply(http.StatusOK, buildPlainList(res, p, userSeq, userData))
}

// createUserBody is the body of POST /users.
type createUserBody struct {
	Email       string `json:"email"`
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	JobTitle    string `json:"jobTitle"`
	NeverNotify bool   `json:"neverNotify"`
}

// createUser is POST /users: 201 with the new, active user. email,
// firstName and lastName are required (400 naming the missing one); email
// must be a bare address as net/mail parses it and not taken yet.
func (s *Server) createUser(rq *request) response {
	body := in[*createUserBody](rq)
	for _, u := range s.st.users {
		if strings.EqualFold(u.email, body.Email) {
			return failf(http.StatusBadRequest, "a user with email %q already exists (%s)", body.Email, u.id)
		}
	}
	u := s.st.addUser(body.Email, body.FirstName, body.LastName, s.Now())
	u.jobTitle, u.neverNotify = body.JobTitle, body.NeverNotify
	return reply(http.StatusCreated, u.json())
}

// onUser is a handler of the user {userId}, found.
func onUser(h func(s *Server, u *user) response) func(*Server, *request) response {
	return admin(func(s *Server, rq *request) response {
		u := s.st.usersByID[rq.params["userId"]]
		if u == nil {
			return failf(http.StatusNotFound, "no user with id %q", rq.params["userId"])
		}
		return h(s, u)
	})
}

// getUser is GET /users/{userId}.
func (s *Server) getUser(u *user) response { return reply(http.StatusOK, u.json()) }

// deactivateUser is POST /users/{userId}/deactivate: 200 with the user,
// now inactive (also when it already was). The user's tokens stop working
// and its credentials are refused from then on.
func (s *Server) deactivateUser(u *user) response {
	if u.active {
		u.active, u.updatedAt = false, s.Now()
	}
	return reply(http.StatusOK, u.json())
}

package workflow

import (
	"context"

	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// UserStatus is the status of a user: UserActive or UserInactive as the
// service publishes them. Compare with Active or EqualFold: the SDK keeps
// whatever the service sends, in its case, including statuses it does not
// know.
type UserStatus string

// The user statuses the service publishes.
const (
	UserActive   UserStatus = "ACTIVE"
	UserInactive UserStatus = "INACTIVE"
)

// User is a user of the workspace: the service's User object
// {"id", "email", "firstName", "lastName", "status", "jobTitle"}.
//
// Members the SDK does not model are kept in Extra and written back when
// the user is encoded again, with encoding/json as with
// github.com/go-json-experiment/json. A modelled member of the wrong JSON
// type (a number for "email", say) is a decoding error, not a silent zero.
// Encoding leaves out empty strings.
type User struct {
	// ID identifies the user (a UUID) in paths (/users/{userId}) and in
	// member lists.
	ID string `json:"id,omitzero"`
	// Email is the user's e-mail address.
	Email string `json:"email,omitzero"`
	// FirstName is the user's given name.
	FirstName string `json:"firstName,omitzero"`
	// LastName is the user's family name.
	LastName string `json:"lastName,omitzero"`
	// Status is UserActive or UserInactive, as sent (see Active).
	Status UserStatus `json:"status,omitzero"`
	// JobTitle is the user's job title, empty when not set.
	JobTitle string `json:"jobTitle,omitzero"`
	// Extra holds every member of the service's object that the fields
	// above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// Active reports whether the user's status is ACTIVE, compared without
// regard to case. Any other status, INACTIVE, an empty one or one the
// service may add later, is not active.
func (u User) Active() bool { return strings.EqualFold(string(u.Status), string(UserActive)) }

// UnmarshalJSON reads a user object; unknown members go to Extra.
func (u *User) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, u)
}

// MarshalJSON writes the user object with its Extra members.
func (u User) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(u)
}

// resourceID is the user's id: an answer without one holds no user.
func (u *User) resourceID() string { return u.ID }

// NewUser is the user to create with UsersService.Create: the body
// {"email", "firstName", "lastName", "jobTitle", "neverNotify"} of
// POST /users.
type NewUser struct {
	// Email is the new user's e-mail address. Required: a bare address
	// as net/mail parses it ("ada@example.com", no display name).
	Email string `json:"email"`
	// FirstName is the new user's given name. Always sent (the member is
	// required); the service judges an empty one.
	FirstName string `json:"firstName"`
	// LastName is the new user's family name. Always sent, as FirstName.
	LastName string `json:"lastName"`
	// JobTitle is the new user's job title; nil sends none, and a pointer
	// to "" sends it empty (as every optional member of a request body:
	// nil leaves it out).
	JobTitle *string `json:"jobTitle,omitzero"`
	// NeverNotify, when true, asks the service not to send the new user a
	// welcome e-mail. Nil sends nothing, and the service's default (a
	// welcome e-mail) applies.
	NeverNotify *bool `json:"neverNotify,omitzero"`
	// Extra holds further members of the request body, for members the
	// service may add later. A key that names a field above (in the same
	// case) is a duplicate member: the call fails with a *ValidationError
	// for the body, and nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the create body.
func (n NewUser) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(n) }

// UnmarshalJSON reads a create body; unknown members go to Extra, and a
// null member is an error, as on the wire.
func (n *NewUser) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, n) }

// UsersService is the part of the API about users: Client.Users.
type UsersService struct{ topList[User] }

// Create creates a user and returns it as the service sent it back
// (201): POST /users. nu.Email must be an e-mail address: one that is not
// is a *ValidationError naming it, and nothing is sent. The first and last
// names are sent as given, empty or not: the service judges them.
//
// A create is not retried after a 5xx or a dropped connection, since the
// service may have created the user; it is retried after a 429. A success
// answer without a body is an error (the user may have been created).
func (s *UsersService) Create(ctx context.Context, nu NewUser, reqOpts ...RequestOption) (*User, error) {
	return fetchOne[User](ctx, s.client, pathTo(op.CreateUser), nu, "user", false, reqOpts)
}

// Get returns one user: GET /users/{userId}.
func (s *UsersService) Get(ctx context.Context, userID string, reqOpts ...RequestOption) (*User, error) {
	return fetchOne[User](ctx, s.client, pathTo(op.GetUser, "userID", userID), nil, "user", false, reqOpts)
}

// Deactivate deactivates a user and returns it, now INACTIVE:
// POST /users/{userId}/deactivate, with no request body. Should the
// service answer a success without a body, Deactivate returns a nil
// *User and a nil error: the user is deactivated, and Get reads it.
func (s *UsersService) Deactivate(ctx context.Context, userID string, reqOpts ...RequestOption) (*User, error) {
	return fetchOne[User](ctx, s.client, pathTo(op.DeactivateUser, "userID", userID), nil, "user", true, reqOpts)
}

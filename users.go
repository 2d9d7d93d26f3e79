package workflow

import (
	"context"

	"strings"

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

// Active reports whether the user's status is ACTIVE, compared without
// regard to case. Any other status, INACTIVE, an empty one or one the
// service may add later, is not active.
func (u User) Active() bool { return strings.EqualFold(string(u.Status), string(UserActive)) }

// resourceID is the user's id: an answer without one holds no user.
func (u *User) resourceID() string { return u.ID }

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

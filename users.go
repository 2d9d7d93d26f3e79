package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"strings"
	"time"
)

// User is a user of the workspace.
//
// The spec does not show the fields of a user. The typed fields below are
// an assumption: a JSON object with "id", "email", "firstName", "lastName",
// "active" (a boolean) and "createdAt"/"updatedAt" (strings in the API's
// time form, YYYY-MM-DDTHH:MM:SS.SSSZ, UTC). Every other field the service
// sends is kept in Extra and written back when the user is encoded again.
//
// Decoding never fails because a modelled field has an unexpected value: a
// value the typed field cannot hold exactly (a null, a number where a string
// is expected, a time in another form) is kept verbatim in Extra under its
// own name. The typed field then holds what could be read from it (an id
// sent as a number becomes its decimal text, a time in another form that
// ParseTime reads is parsed) or its zero value. When encoding, such a kept
// value is written instead of the typed field as long as the typed field is
// zero or still holds what was read from it; delete the key from Extra to
// drop it.
//
// Encoding always writes the modelled string fields and Active (empty and
// false when the service did not send them) and leaves out a zero time.
// Field names are matched as encoding/json matches them, ignoring case, and
// written back in the spelling above.
type User struct {
	// ID identifies the user in paths (/users/{userId}) and in member lists.
	// An id sent as a JSON number is read as its decimal text.
	ID string
	// Email is the user's e-mail address.
	Email string
	// FirstName is the user's given name.
	FirstName string
	// LastName is the user's family name.
	LastName string
	// Active is false once the user is deactivated. It is also false when
	// the service does not send the field; encoding always writes it.
	Active bool
	// CreatedAt is when the user was created (UTC), zero if not sent or
	// not a time.
	CreatedAt time.Time
	// UpdatedAt is when the user was last changed (UTC), zero if not sent
	// or not a time.
	UpdatedAt time.Time
	// Extra holds every field of the service's JSON that the typed fields
	// do not model, and modelled fields whose value they cannot hold
	// exactly (see the type's documentation), as raw JSON.
	Extra map[string]json.RawMessage
}

// userWire is a user's JSON object: each modelled field as the raw value
// the service sent (or the SDK will send).
type userWire struct {
	ID        json.RawMessage `json:"id,omitempty"`
	Email     json.RawMessage `json:"email,omitempty"`
	FirstName json.RawMessage `json:"firstName,omitempty"`
	LastName  json.RawMessage `json:"lastName,omitempty"`
	Active    json.RawMessage `json:"active,omitempty"`
	CreatedAt json.RawMessage `json:"createdAt,omitempty"`
	UpdatedAt json.RawMessage `json:"updatedAt,omitempty"`
}

// UnmarshalJSON reads a user object; see User for how unexpected values of
// the modelled fields are kept.
func (u *User) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var w userWire
	extra, err := unmarshalExtra(data, &w)
	if err != nil {
		return err
	}
	*u = User{}
	k := keeper{extra: extra}
	k.keep("id", readString(w.ID, &u.ID, true))
	k.keep("email", readString(w.Email, &u.Email, false))
	k.keep("firstName", readString(w.FirstName, &u.FirstName, false))
	k.keep("lastName", readString(w.LastName, &u.LastName, false))
	k.keep("active", readBool(w.Active, &u.Active))
	k.keep("createdAt", readTime(w.CreatedAt, &u.CreatedAt))
	k.keep("updatedAt", readTime(w.UpdatedAt, &u.UpdatedAt))
	u.Extra = k.extra
	return nil
}

// MarshalJSON writes the user object with its Extra fields.
func (u User) MarshalJSON() ([]byte, error) {
	w := userWire{
		ID:        writeString(u.ID, u.Extra["id"], true),
		Email:     writeString(u.Email, u.Extra["email"], false),
		FirstName: writeString(u.FirstName, u.Extra["firstName"], false),
		LastName:  writeString(u.LastName, u.Extra["lastName"], false),
		Active:    writeBool(u.Active, u.Extra["active"]),
		CreatedAt: writeTime(u.CreatedAt, u.Extra["createdAt"]),
		UpdatedAt: writeTime(u.UpdatedAt, u.Extra["updatedAt"]),
	}
	return marshalExtra(w, u.Extra)
}

// NewUser is the user to create with UsersService.Create.
//
// The spec does not show the create body; it is assumed to be
// {"email", "firstName", "lastName"}. Fields in Extra are added to the body
// as they are, for anything else the service may need.
type NewUser struct {
	// Email is the new user's e-mail address (required).
	Email string
	// FirstName is the new user's given name (sent when not empty).
	FirstName string
	// LastName is the new user's family name (sent when not empty).
	LastName string
	// Extra holds further fields of the request body, as raw JSON. It
	// never replaces a field above that is sent.
	Extra map[string]json.RawMessage
}

type newUserWire struct {
	Email     string `json:"email"`
	FirstName string `json:"firstName,omitempty"`
	LastName  string `json:"lastName,omitempty"`
}

// MarshalJSON writes the create body.
func (n NewUser) MarshalJSON() ([]byte, error) {
	return marshalExtra(newUserWire{Email: n.Email, FirstName: n.FirstName, LastName: n.LastName}, n.Extra)
}

// validate checks what Create needs before any request.
func (n *NewUser) validate() error {
	email := strings.TrimSpace(n.Email)
	if email == "" {
		return invalid("NewUser.Email", "must not be empty")
	}
	if at := strings.LastIndexByte(email, '@'); at <= 0 || at == len(email)-1 {
		return invalid("NewUser.Email", `must be an e-mail address with "@" between a name and a domain`)
	}
	return nil
}

// List returns one page of users: GET /users, with the paging options of
// opts (nil for the first page at the server's default size).
//
// The spec does not show the query parameters or the response. The record
// list's paging parameters (first, after, last, before, filter) are sent
// as opts sets them; whether the service honours a filter on users is not
// shown. Three response shapes are accepted: a bare JSON array of users,
// {"items": [users...]}, and the record list's paged shape
// {"items": [{"data": {user}, "cursor": "..."}], "total": n, "paging": {...}}.
// Items of the paged shape are unwrapped, so their cursors are not kept;
// resume from the page's Paging.EndCursor (or StartCursor going backward).
func (s *UsersService) List(ctx context.Context, opts *ListOptions) (*Page[User], error) {
	return listUsers(ctx, s.client, "users", opts)
}

// All iterates over every user from where opts points: GET /users, page
// after page. When the response carries paging, the cursors are followed
// (forward by default, backward when opts.Last or opts.Before is set, in
// which case users come from the end of the list towards its start); a
// response without paging (a bare array, or items only) is the whole list
// and the walk stops after it. The iteration is lazy, copies opts, stops
// when the loop breaks, yields an error once and stops, and with
// opts.Prefetch fetches the next page while the loop body runs.
func (s *UsersService) All(ctx context.Context, opts *ListOptions) iter.Seq2[User, error] {
	return items(ctx, pages(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[User], error) {
		return s.List(ctx, o)
	}), opts.backward())
}

// Create creates a user and returns it as the service sent it back:
// POST /users. nu.Email is required and must look like an e-mail address
// (a name, "@", a domain). The response is assumed to be the created user
// (201), either as the user object itself or wrapped as {"data": {...}}.
//
// A create is not retried after a 5xx or a dropped connection, since the
// service may have created the user; it is retried after a 429.
func (s *UsersService) Create(ctx context.Context, nu NewUser) (*User, error) {
	if err := nu.validate(); err != nil {
		return nil, err
	}
	return s.send(ctx, http.MethodPost, "users", nu)
}

// Get returns one user: GET /users/{userId}. The response is assumed to be
// the user object, or the same wrapped as {"data": {...}}.
func (s *UsersService) Get(ctx context.Context, userID string) (*User, error) {
	id, err := segment("userID", userID)
	if err != nil {
		return nil, err
	}
	req, err := s.client.newRequest(ctx, http.MethodGet, buildPath("users", id), nil, nil)
	if err != nil {
		return nil, err
	}
	var out userResource
	if _, err := s.client.do(req, &out); err != nil {
		return nil, err
	}
	return out.user, nil
}

// Deactivate deactivates a user: POST /users/{userId}/deactivate, with no
// request body.
//
// The spec does not show the response. When the service sends the user
// back (assumed: 200 with the user, Active false), Deactivate returns it;
// when it sends no body (200 with an empty body, or 204), Deactivate
// returns a nil *User and a nil error, and the caller can fetch the user
// with Get if it needs it.
func (s *UsersService) Deactivate(ctx context.Context, userID string) (*User, error) {
	id, err := segment("userID", userID)
	if err != nil {
		return nil, err
	}
	return s.send(ctx, http.MethodPost, buildPath("users", id, "deactivate"), nil)
}

// send sends a request whose response is one user (or no body, which gives
// a nil user).
func (s *UsersService) send(ctx context.Context, method, path string, body any) (*User, error) {
	req, err := s.client.newRequest(ctx, method, path, nil, body)
	if err != nil {
		return nil, err
	}
	var out userBody
	if _, err := s.client.do(req, &out); err != nil {
		return nil, err
	}
	return out.user, nil
}

// userBody is a single user in a response: the user object, or the same
// wrapped as {"data": {...}}. A null body leaves user nil.
type userBody struct{ user *User }

func (b *userBody) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	b.user = new(User)
	return json.Unmarshal(unwrapData(data), b.user)
}

// listUsers fetches one page of a user list at path.
func listUsers(ctx context.Context, c *Client, path string, opts *ListOptions) (*Page[User], error) {
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	req, err := c.newRequest(ctx, http.MethodGet, path, q, nil)
	if err != nil {
		return nil, err
	}
	var lb listBody[User]
	if _, err := c.do(req, &lb); err != nil {
		return nil, err
	}
	return &lb.page, nil
}

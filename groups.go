package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"strconv"
	"strings"
)

// Group is a group of users.
//
// The spec does not show the fields of a group. The typed fields below are
// an assumption: a JSON object with "id", "name" and "description". Every
// other field the service sends is kept in Extra and written back when the
// group is encoded again. As for User, a modelled field whose value the
// typed field cannot hold exactly (a null, a number where a string is
// expected) is kept verbatim in Extra under its own name and written back
// while the typed field is zero or unchanged. Encoding always writes the
// three modelled fields (empty when the service did not send them).
type Group struct {
	// ID identifies the group in paths (/groups/{groupId}). An id sent as a
	// JSON number is read as its decimal text.
	ID string
	// Name is the group's name.
	Name string
	// Description is the group's description.
	Description string
	// Extra holds every field of the service's JSON that the typed fields
	// do not model, and modelled fields whose value they cannot hold
	// exactly, as raw JSON.
	Extra map[string]json.RawMessage
}

// groupWire is a group's JSON object with each modelled field raw.
type groupWire struct {
	ID          json.RawMessage `json:"id,omitempty"`
	Name        json.RawMessage `json:"name,omitempty"`
	Description json.RawMessage `json:"description,omitempty"`
}

// UnmarshalJSON reads a group object; see Group for how unexpected values
// of the modelled fields are kept.
func (g *Group) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var w groupWire
	extra, err := unmarshalExtra(data, &w)
	if err != nil {
		return err
	}
	*g = Group{}
	k := keeper{extra: extra}
	k.keep("id", readString(w.ID, &g.ID, true))
	k.keep("name", readString(w.Name, &g.Name, false))
	k.keep("description", readString(w.Description, &g.Description, false))
	g.Extra = k.extra
	return nil
}

// MarshalJSON writes the group object with its Extra fields.
func (g Group) MarshalJSON() ([]byte, error) {
	w := groupWire{
		ID:          writeString(g.ID, g.Extra["id"], true),
		Name:        writeString(g.Name, g.Extra["name"], false),
		Description: writeString(g.Description, g.Extra["description"], false),
	}
	return marshalExtra(w, g.Extra)
}

// List returns one page of groups: GET /groups, with the paging options of
// opts (nil for the first page at the server's default size). Query
// parameters and response are not shown by the spec; they are handled as
// for UsersService.List (record list paging parameters; a bare array,
// {"items": [...]}, or the paged {"items": [{"data", "cursor"}], "total",
// "paging"} shape).
func (s *GroupsService) List(ctx context.Context, opts *ListOptions) (*Page[Group], error) {
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	req, err := s.client.newRequest(ctx, http.MethodGet, "groups", q, nil)
	if err != nil {
		return nil, err
	}
	var lb listBody[Group]
	if _, err := s.client.do(req, &lb); err != nil {
		return nil, err
	}
	return &lb.page, nil
}

// All iterates over every group from where opts points: GET /groups, page
// after page, following the cursors when the response carries paging and
// stopping after one page when it does not. See UsersService.All for
// direction, laziness, errors and prefetching.
func (s *GroupsService) All(ctx context.Context, opts *ListOptions) iter.Seq2[Group, error] {
	return items(ctx, pages(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[Group], error) {
		return s.List(ctx, o)
	}), opts.backward())
}

// Get returns one group: GET /groups/{groupId}. The response is assumed
// to be the group object, or the same wrapped as {"data": {...}}.
func (s *GroupsService) Get(ctx context.Context, groupID string) (*Group, error) {
	id, err := segment("groupID", groupID)
	if err != nil {
		return nil, err
	}
	req, err := s.client.newRequest(ctx, http.MethodGet, buildPath("groups", id), nil, nil)
	if err != nil {
		return nil, err
	}
	var out groupBody
	if _, err := s.client.do(req, &out); err != nil {
		return nil, err
	}
	return out.group, nil
}

// groupBody is a single group in a response: the group object, or the same
// wrapped as {"data": {...}}.
type groupBody struct{ group *Group }

func (b *groupBody) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	b.group = new(Group)
	return json.Unmarshal(unwrapData(data), b.group)
}

// Users returns one page of the members of a group:
// GET /groups/{groupId}/users, with the paging options of opts. Query
// parameters and response are handled as for UsersService.List.
func (s *GroupsService) Users(ctx context.Context, groupID string, opts *ListOptions) (*Page[User], error) {
	id, err := segment("groupID", groupID)
	if err != nil {
		return nil, err
	}
	return listUsers(ctx, s.client, buildPath("groups", id, "users"), opts)
}

// AllUsers iterates over every member of a group:
// GET /groups/{groupId}/users, page after page, following the cursors when
// the response carries paging and stopping after one page when it does
// not. See UsersService.All for direction, laziness, errors and
// prefetching. An empty groupID is yielded as a *ValidationError.
func (s *GroupsService) AllUsers(ctx context.Context, groupID string, opts *ListOptions) iter.Seq2[User, error] {
	id, err := segment("groupID", groupID)
	if err != nil {
		return func(yield func(User, error) bool) { yield(User{}, err) }
	}
	path := buildPath("groups", id, "users")
	return items(ctx, pages(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[User], error) {
		return listUsers(ctx, s.client, path, o)
	}), opts.backward())
}

// memberChange is the body of AddUsers and RemoveUsers.
type memberChange struct {
	UserIDs []string `json:"userIds"`
}

// AddUsers adds users to a group: POST /groups/{groupId}/users. The spec
// does not show the body or the response; the body is assumed to be
// {"userIds": ["u1", "u2"]}, and any success status (assumed 204) is
// accepted, its body ignored. At least one user id is needed and none may
// be blank. The ids are sent as given, in order.
func (s *GroupsService) AddUsers(ctx context.Context, groupID string, userIDs ...string) error {
	return s.changeMembers(ctx, http.MethodPost, groupID, userIDs)
}

// RemoveUsers removes users from a group: DELETE /groups/{groupId}/users,
// with a JSON body. The spec does not show the body or the response; the
// body is assumed to be {"userIds": ["u1", "u2"]}, as for AddUsers, and any
// success status (assumed 204) is accepted. At least one user id is needed
// and none may be blank.
func (s *GroupsService) RemoveUsers(ctx context.Context, groupID string, userIDs ...string) error {
	return s.changeMembers(ctx, http.MethodDelete, groupID, userIDs)
}

func (s *GroupsService) changeMembers(ctx context.Context, method, groupID string, userIDs []string) error {
	id, err := segment("groupID", groupID)
	if err != nil {
		return err
	}
	if err := checkUserIDs(userIDs); err != nil {
		return err
	}
	req, err := s.client.newRequest(ctx, method, buildPath("groups", id, "users"), nil,
		memberChange{UserIDs: append([]string(nil), userIDs...)})
	if err != nil {
		return err
	}
	_, err = s.client.do(req, nil)
	return err
}

// checkUserIDs rejects an empty list and blank ids.
func checkUserIDs(ids []string) error {
	if len(ids) == 0 {
		return invalid("userIDs", "must name at least one user")
	}
	for i, id := range ids {
		if strings.TrimSpace(id) == "" {
			return invalid("userIDs["+strconv.Itoa(i)+"]", "must not be blank")
		}
	}
	return nil
}

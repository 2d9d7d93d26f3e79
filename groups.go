package workflow

import (
	"context"
	"iter"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Group is a group of users: the service's Group object {"id", "name",
// "assignable", "watchable", "mentionable", "managed", "dynamic",
// "domains"}.
//
// Members the SDK does not model are kept in Extra and written back when
// the group is encoded again (with encoding/json as with
// github.com/go-json-experiment/json). A modelled member of the wrong JSON
// type is a decoding error. Encoding always writes the five flags and
// leaves out an empty id, name or domain list.
type Group struct {
	// ID identifies the group (a UUID) in paths (/groups/{groupId}).
	ID string `json:"id,omitzero"`
	// Name is the group's name.
	Name string `json:"name,omitzero"`
	// Assignable reports whether records can be assigned to the group.
	Assignable bool `json:"assignable"`
	// Watchable reports whether the group can watch records.
	Watchable bool `json:"watchable"`
	// Mentionable reports whether the group can be mentioned.
	Mentionable bool `json:"mentionable"`
	// Managed reports whether the group is managed outside the API (for
	// example by an identity provider).
	Managed bool `json:"managed"`
	// Dynamic reports whether membership follows e-mail domains
	// (Domains) rather than a list of users.
	Dynamic bool `json:"dynamic"`
	// Domains are the e-mail domains of a dynamic group.
	Domains []GroupDomain `json:"domains,omitzero"`
	// Extra holds every member of the service's object that the fields
	// above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a group object; unknown members go to Extra.
func (g *Group) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, g)
}

// MarshalJSON writes the group object with its Extra members.
func (g Group) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(g)
}

// resourceID is the group's id: an answer without one holds no group.
func (g *Group) resourceID() string { return g.ID }

// GroupDomain is an e-mail domain of a dynamic group: {"id", "domain"}.
type GroupDomain struct {
	// ID identifies the domain entry (a UUID).
	ID string `json:"id,omitzero"`
	// Domain is the e-mail domain, e.g. "example.com".
	Domain string `json:"domain,omitzero"`
	// Extra holds unmodelled members, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a domain object; unknown members go to Extra.
func (d *GroupDomain) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, d)
}

// MarshalJSON writes the domain object with its Extra members.
func (d GroupDomain) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(d)
}

// GroupRequest is the body of GroupsService.Create (POST /groups) and
// GroupsService.Update (PUT /groups/{groupId}): the service's
// GroupRequest.
//
// Only what is set is sent: a nil pointer and a nil slice are left out of
// the body, so that an Update can send just what changes; a pointer to an
// empty value (new(false), new("")) is sent as it is, and an empty non-nil
// slice as [] (to clear it). The service does not publish whether PUT
// resets what a body leaves out or keeps it; to be sure of a value, send
// it.
type GroupRequest struct {
	// Name is the group's name. The document requires none; the
	// service may want one on Create.
	Name *string `json:"name,omitzero"`
	// Assignable: records can be assigned to the group.
	Assignable *bool `json:"assignable,omitzero"`
	// Watchable: the group can watch records.
	Watchable *bool `json:"watchable,omitzero"`
	// Mentionable: the group can be mentioned.
	Mentionable *bool `json:"mentionable,omitzero"`
	// Approver: the group can approve.
	Approver *bool `json:"approver,omitzero"`
	// Dynamic: membership follows Domains instead of UserIDs. Create
	// treats nil as false.
	Dynamic *bool `json:"dynamic,omitzero"`
	// DataAccess: the group grants data access.
	DataAccess *bool `json:"dataAccess,omitzero"`
	// Hidden: the group is hidden.
	Hidden *bool `json:"hidden,omitzero"`
	// Tags are the group's tags.
	Tags []string `json:"tags,omitzero"`
	// UserIDs are the members of a group that is not dynamic (user ids,
	// UUIDs: one that is not is a *ValidationError naming it, and nothing
	// is sent).
	UserIDs []string `json:"userIds,omitzero"`
	// Domains are the e-mail domains of a dynamic group
	// ("example.com").
	Domains []string `json:"domains,omitzero"`
	// Extra holds further members of the request body, for members the
	// service may add later. A key that names a field above (in the same
	// case) is a duplicate member: the call fails with a *ValidationError
	// for the body, and nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the request body.
func (r GroupRequest) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(r) }

// UnmarshalJSON reads a request body; unknown members go to Extra, and a
// null member is an error, as on the wire.
func (r *GroupRequest) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, r) }

// validate checks the rules of a GroupRequest that the document states
// in the descriptions of userIds and domains only, before sending; create
// says whether it is for Create (which knows Dynamic nil means false).
// The rest (a user id is a UUID) is the document's, checked with every
// body (see Client.newRequest).
func (r *GroupRequest) validate(create bool) error {
	dynamic := r.Dynamic != nil && *r.Dynamic
	switch {
	case r.UserIDs != nil && r.Domains != nil:
		return invalid("GroupRequest.UserIDs", "must not be set with Domains: a group has members (not dynamic) or domains (dynamic)")
	case dynamic && r.UserIDs != nil:
		return invalid("GroupRequest.UserIDs", "must not be set for a dynamic group (set Domains)")
	case r.Domains != nil && r.Dynamic != nil && !*r.Dynamic:
		return invalid("GroupRequest.Domains", "must not be set for a group that is not dynamic (set UserIDs)")
	case create && r.Domains != nil && !dynamic:
		return invalid("GroupRequest.Domains", "needs Dynamic set to true")
	}
	return nil
}

// GroupsService is the part of the API about groups: Client.Groups.
type GroupsService struct {
	topList[Group]
	// Members lists, adds and removes the members of a group.
	Members *MembersService
}

// MembersService is the part of the API about the members of a group:
// Client.Groups.Members.
type MembersService struct{ client *Client }

// Get returns one group: GET /groups/{groupId}.
func (s *GroupsService) Get(ctx context.Context, groupID string, reqOpts ...RequestOption) (*Group, error) {
	return fetchOne[Group](ctx, s.client, pathTo(op.GetGroup, "groupID", groupID), nil, "group", false, reqOpts)
}

// Create creates a group: POST /groups with r as the body (201). UserIDs
// (members) and Domains (dynamic groups) exclude each other, and Domains
// needs Dynamic true; a conflict is a *ValidationError and nothing is
// sent. The document requires no member, not even r.Name: the service
// judges a group without one.
//
// The service does not publish the answer's body. When it sends a group
// (as the fake does), Create returns it; when it sends none, Create
// returns a nil *Group and a nil error: the group exists, and List finds
// it. Like every POST, it is not retried after a 5xx or a dropped
// connection, since the service may have created the group.
func (s *GroupsService) Create(ctx context.Context, r GroupRequest, reqOpts ...RequestOption) (*Group, error) {
	if err := r.validate(true); err != nil {
		return nil, err
	}
	return fetchOne[Group](ctx, s.client, pathTo(op.CreateGroup), r, "group", true, reqOpts)
}

// Update changes a group: PUT /groups/{groupId} with r as the body (200).
// Only what r sets is sent (see GroupRequest). UserIDs and Domains exclude
// each other; UserIDs with Dynamic true, or Domains with Dynamic false, is
// a *ValidationError and nothing is sent.
//
// As for Create, the answer's body is not published: Update returns the
// group the service sends, or nil and a nil error when it sends none (Get
// reads the group).
func (s *GroupsService) Update(ctx context.Context, groupID string, r GroupRequest, reqOpts ...RequestOption) (*Group, error) {
	if err := r.validate(false); err != nil {
		return nil, err
	}
	return fetchOne[Group](ctx, s.client, pathTo(op.UpdateGroup, "groupID", groupID), r, "group", true, reqOpts)
}

// List returns one page of the members of a group:
// GET /groups/{groupId}/users, with the paging options of opts. The
// service publishes no filter for this list: opts.Filter must be nil.
func (s *MembersService) List(ctx context.Context, groupID string, opts *ListOptions, reqOpts ...RequestOption) (*Page[User], error) {
	return requestPage[User](ctx, s.client, pathTo(op.ListGroupUsers, "groupID", groupID), opts, reqOpts, nil)
}

// Pages walks the members of a group page by page:
// GET /groups/{groupId}/users. See RecordsService.Pages. A bad groupID is
// yielded as a *ValidationError.
func (s *MembersService) Pages(ctx context.Context, groupID string, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[*Page[User], error] {
	return walkPages[User](ctx, s.client, pathTo(op.ListGroupUsers, "groupID", groupID), opts, reqOpts)
}

// All iterates over every member of a group:
// GET /groups/{groupId}/users, page after page. See RecordsService.All. A
// bad groupID is yielded as a *ValidationError.
func (s *MembersService) All(ctx context.Context, groupID string, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[User, error] {
	return walkItems[User](ctx, s.client, pathTo(op.ListGroupUsers, "groupID", groupID), opts, reqOpts)
}

// memberChange is the body of MembersService.Add and Remove. A broken
// rule of the document (a user id that is not a UUID) names the argument:
// "userIDs[1]".
type memberChange struct {
	UserIDs []string `json:"userIds" arg:"userIDs"`
}

// Add adds users to a group: POST /groups/{groupId}/users with
// {"userIds": [...]} (201, no body). Each user id must be a UUID, as
// the document says: one that is not is a *ValidationError naming it, and
// nothing is sent. The ids are sent as given, in order (an empty list
// as []). Users already in the group are the service's concern.
func (s *MembersService) Add(ctx context.Context, groupID string, userIDs []string, reqOpts ...RequestOption) error {
	return s.change(ctx, op.AddUsersToGroup, groupID, userIDs, reqOpts)
}

// Remove removes users from a group: DELETE /groups/{groupId}/users
// with the JSON body {"userIds": [...]} (200, no body). Each user id
// must be a UUID, as for Add.
func (s *MembersService) Remove(ctx context.Context, groupID string, userIDs []string, reqOpts ...RequestOption) error {
	return s.change(ctx, op.RemoveUsersFromGroup, groupID, userIDs, reqOpts)
}

func (s *MembersService) change(ctx context.Context, id op.ID, groupID string, userIDs []string, reqOpts []RequestOption) error {
	return s.client.call(ctx, pathTo(id, "groupID", groupID), nil, memberChange{UserIDs: append([]string{}, userIDs...)}, reqOpts, reply{})
}

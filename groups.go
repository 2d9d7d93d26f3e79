package workflow

import (
	"context"
	"iter"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// resourceID is the group's id: an answer without one holds no group.
func (g *Group) resourceID() string { return g.ID }

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

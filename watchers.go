package workflow

import (
	"cmp"
	"context"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// WatcherTargetType is the kind of a watcher's target, as the service
// spells it: WatcherUser or WatcherGroup. Compare with IsUser and IsGroup,
// which ignore case.
type WatcherTargetType string

// The kinds of watcher target the service publishes.
const (
	WatcherUser  WatcherTargetType = "User"
	WatcherGroup WatcherTargetType = "Group"
)

// IsUser reports whether the target is a user (Type "User", in any case).
func (t WatcherTarget) IsUser() bool { return strings.EqualFold(string(t.Type), string(WatcherUser)) }

// IsGroup reports whether the target is a group (Type "Group", in any case).
func (t WatcherTarget) IsGroup() bool { return strings.EqualFold(string(t.Type), string(WatcherGroup)) }

// DisplayName returns a group's Name, or a user's first and last name
// (its e-mail address when both are empty).
func (t WatcherTarget) DisplayName() string {
	if t.IsGroup() {
		return t.Name
	}
	return cmp.Or(strings.TrimSpace(t.FirstName+" "+t.LastName), t.Email)
}

// WatchersService is the part of the API about the watchers of a record:
// Client.Records.Watchers.
type WatchersService struct{ recordList[Watcher] }

// Add makes users watch a record, named by their e-mail addresses:
// POST /{recordType}/{alias}/{id}/watchers with {"users": [...]}, in one
// request, in the order given. The service answers 201 with no body; any
// 2xx is success.
//
// Each address must be a bare e-mail address as net/mail parses it
// ("ann@example.com", without a display name, angle brackets or spaces);
// one that is not is a *ValidationError naming its index, and nothing is
// sent. Groups cannot be added this way: the service takes users only.
func (s *WatchersService) Add(ctx context.Context, t RecordType, alias, id string, emails []string, reqOpts ...RequestOption) error {
	return s.change(ctx, recordPath(op.CreateRecordWatchers, t, alias, "id", id), emails, reqOpts)
}

// Remove makes users stop watching a record, named by their e-mail
// addresses: DELETE /{recordType}/{alias}/{id}/watchers with the same body
// and checks as Add. The service answers 200 with no body; any 2xx
// is success.
func (s *WatchersService) Remove(ctx context.Context, t RecordType, alias, id string, emails []string, reqOpts ...RequestOption) error {
	return s.change(ctx, recordPath(op.DeleteRecordWatchers, t, alias, "id", id), emails, reqOpts)
}

func (s *WatchersService) change(ctx context.Context, r target, emails []string, reqOpts []RequestOption) error {
	return s.client.call(ctx, r, nil, watchersChange{Users: append([]string{}, emails...)}, reqOpts, reply{})
}

package workflow

import (
	"context"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Watcher is one watch on a record, as GET .../watchers lists it:
//
//	{"id": "<uuid of the watch>", "target": {"type": "User", "id": "...", "email": "...", "firstName": "...", "lastName": "..."}}
//
// The target is a user or a group. Members the SDK does not model are kept
// in Extra (of the watcher and of its target) and written back by
// MarshalJSON, with encoding/json as with go-json-experiment/json.
type Watcher struct {
	// ID identifies the watch itself (not the user or group).
	ID string `json:"id"`
	// Target is who watches: a user or a group.
	Target WatcherTarget `json:"target"`
	// Extra holds the members of the service's JSON that the fields above
	// do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the watcher with its Extra members.
func (w Watcher) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(w) }

// UnmarshalJSON reads a watcher; members it does not model go to Extra.
func (w *Watcher) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, w)
}

// WatcherTargetType is the kind of a watcher's target, as the service
// spells it: WatcherUser or WatcherGroup. Compare with IsUser and IsGroup,
// which ignore case.
type WatcherTargetType string

// The kinds of watcher target the service publishes.
const (
	WatcherUser  WatcherTargetType = "User"
	WatcherGroup WatcherTargetType = "Group"
)

// is reports whether k is kind, in any case.
func (k WatcherTargetType) is(kind WatcherTargetType) bool {
	return strings.EqualFold(string(k), string(kind))
}

// WatcherTarget is the user or group that watches a record. A user carries
// Email, FirstName and LastName; a group carries Name. The fields that do
// not apply to the target's kind are empty and left out when encoding.
type WatcherTarget struct {
	// Type is the target's kind: WatcherUser or WatcherGroup.
	Type WatcherTargetType `json:"type"`
	// ID identifies the user (as in User.ID) or the group (as in Group.ID).
	ID string `json:"id"`
	// Email is a user's e-mail address, the one WatchersService.Add and
	// WatchersService.Remove take.
	Email string `json:"email,omitempty"`
	// FirstName is a user's given name.
	FirstName string `json:"firstName,omitempty"`
	// LastName is a user's family name.
	LastName string `json:"lastName,omitempty"`
	// Name is a group's name.
	Name string `json:"name,omitempty"`
	// Extra holds the members of the service's JSON that the fields above
	// do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the target with its Extra members.
func (t WatcherTarget) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(t)
}

// UnmarshalJSON reads a target; members it does not model go to Extra.
func (t *WatcherTarget) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, t)
}

// IsUser reports whether the target is a user (Type "User", in any case).
func (t WatcherTarget) IsUser() bool { return t.Type.is(WatcherUser) }

// IsGroup reports whether the target is a group (Type "Group", in any case).
func (t WatcherTarget) IsGroup() bool { return t.Type.is(WatcherGroup) }

// DisplayName returns a group's Name, or a user's first and last name
// (its e-mail address when both are empty).
func (t WatcherTarget) DisplayName() string {
	if t.IsGroup() {
		return t.Name
	}
	if n := strings.TrimSpace(t.FirstName + " " + t.LastName); n != "" {
		return n
	}
	return t.Email
}

// watchersChange is the body that adds and removes watchers:
// {"users": ["ann@example.com", ...]}. A broken rule of the document (an
// address that is not one) names the argument: "emails[1]".
type watchersChange struct {
	Users []string `json:"users" arg:"emails"`
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

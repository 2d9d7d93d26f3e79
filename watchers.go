package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
)

// Watcher is a user who watches a record.
//
// The spec does not show the fields of a watcher. The typed fields below
// are an assumption: a JSON object {"userId": "...", "email": "...",
// "name": "..."}. Every other field the service sends is kept in Extra and
// written back when the watcher is encoded again. A modelled field whose
// value the typed field cannot hold exactly (a null, a number where a
// string is expected) is kept verbatim in Extra under its own name, as for
// User; a user id sent as a JSON number is read as its decimal text.
type Watcher struct {
	// UserID identifies the watching user (as in User.ID).
	UserID string
	// Email is the user's e-mail address.
	Email string
	// Name is the user's display name.
	Name string
	// Extra holds every field of the service's JSON that the typed fields
	// do not model, and modelled fields whose value they cannot hold
	// exactly, as raw JSON.
	Extra map[string]json.RawMessage
}

// watcherWire is the JSON object of a watcher.
type watcherWire struct {
	UserID json.RawMessage `json:"userId,omitempty"`
	Email  json.RawMessage `json:"email,omitempty"`
	Name   json.RawMessage `json:"name,omitempty"`
}

// UnmarshalJSON reads a watcher; see Watcher for how unexpected values of
// the modelled fields are kept.
func (w *Watcher) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var raw watcherWire
	extra, err := unmarshalExtra(data, &raw)
	if err != nil {
		return err
	}
	*w = Watcher{}
	k := keeper{extra: extra}
	k.keep("userId", readString(raw.UserID, &w.UserID, true))
	k.keep("email", readString(raw.Email, &w.Email, false))
	k.keep("name", readString(raw.Name, &w.Name, false))
	w.Extra = k.extra
	return nil
}

// MarshalJSON writes the watcher with its Extra fields.
func (w Watcher) MarshalJSON() ([]byte, error) {
	raw := watcherWire{
		UserID: writeString(w.UserID, w.Extra["userId"], true),
		Email:  writeString(w.Email, w.Extra["email"], false),
		Name:   writeString(w.Name, w.Extra["name"], false),
	}
	return marshalExtra(raw, w.Extra)
}

// watchersChange is the body of adding and removing watchers (assumed,
// not shown by the spec): {"userIds": ["u1", "u2"]}.
type watchersChange struct {
	UserIDs []string `json:"userIds"`
}

// Watchers returns the users who watch a record:
// GET /{recordType}/{alias}/{id}/watchers.
//
// The spec does not show the response; it is assumed to be a list of
// watchers (see Watcher), sent as a bare JSON array or as an object whose
// "items" holds them. The spec shows no paging for this list: every
// watcher of the response is returned.
func (s *RecordsService) Watchers(ctx context.Context, t RecordType, alias, id string) ([]Watcher, error) {
	path, err := recordPath(t, alias, "id", id, "", "watchers")
	if err != nil {
		return nil, err
	}
	return listSubresource[Watcher](ctx, s.client, path)
}

// AddWatchers makes users watch a record:
// POST /{recordType}/{alias}/{id}/watchers. The spec does not show the
// body or the response; the body is assumed to be {"userIds": ["u1",
// "u2"]}, and any success status (assumed 204) is accepted, its body
// ignored. At least one user id is needed and none may be blank. The ids
// are sent as given, in order, in one request.
func (s *RecordsService) AddWatchers(ctx context.Context, t RecordType, alias, id string, userIDs ...string) error {
	return s.changeWatchers(ctx, http.MethodPost, t, alias, id, userIDs)
}

// RemoveWatchers makes users stop watching a record:
// DELETE /{recordType}/{alias}/{id}/watchers, with a JSON body. The spec
// does not show the body or the response; the body is assumed to be
// {"userIds": ["u1", "u2"]}, as for AddWatchers, and any success status
// (assumed 204) is accepted. At least one user id is needed and none may
// be blank.
func (s *RecordsService) RemoveWatchers(ctx context.Context, t RecordType, alias, id string, userIDs ...string) error {
	return s.changeWatchers(ctx, http.MethodDelete, t, alias, id, userIDs)
}

func (s *RecordsService) changeWatchers(ctx context.Context, method string, t RecordType, alias, id string, userIDs []string) error {
	path, err := recordPath(t, alias, "id", id, "", "watchers")
	if err != nil {
		return err
	}
	if err := checkUserIDs(userIDs); err != nil {
		return err
	}
	req, err := s.client.newRequest(ctx, method, path, nil,
		watchersChange{UserIDs: append([]string(nil), userIDs...)})
	if err != nil {
		return err
	}
	_, err = s.client.do(req, nil)
	return err
}

package workflow

import (
	"context"
	stdjson "encoding/json"
	"net/http"
	"net/url"
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

const adaJSON = `{"id":"3f0c9a52-8f1e-4b8e-9a47-0c0e6c1d2b11","email":"ada@example.com","firstName":"Ada",` +
	`"lastName":"Lovelace","status":"ACTIVE","jobTitle":"Analyst"}`

// TestUserJSONRoundTrip: every published member lands in its field,
// unknown members in Extra, and both encoders write the object back
// unchanged.
func TestUserJSONRoundTrip(t *testing.T) {
	in := `{"id":"u-1","email":"ada@example.com","firstName":"Ada","lastName":"Lovelace","status":"INACTIVE",` +
		`"jobTitle":"Analyst","locale":"en_GB","manager":{"id":"u-9","tags":[1,2]}}`
	var u User
	require.NoError(t, stdjson.Unmarshal([]byte(in), &u))
	assert.Equal(t, User{ID: "u-1", Email: "ada@example.com", FirstName: "Ada", LastName: "Lovelace",
		Status: UserInactive, JobTitle: "Analyst"}, User{ID: u.ID, Email: u.Email, FirstName: u.FirstName,
		LastName: u.LastName, Status: u.Status, JobTitle: u.JobTitle})
	assert.Equal(t, []string{"locale", "manager"}, sortedKeys(u.Extra))

	out, err := stdjson.Marshal(u)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out), "encoding/json")
	out, err = json.Marshal(u)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out), "go-json-experiment/json")

	var again User
	require.NoError(t, json.Unmarshal(out, &again))
	assert.Equal(t, u, again)

	// Decoding replaces what the value held; null leaves it.
	require.NoError(t, stdjson.Unmarshal([]byte(`{"id":"u-2"}`), &again))
	assert.Equal(t, User{ID: "u-2"}, again)
	require.NoError(t, stdjson.Unmarshal([]byte(`null`), &again))
	assert.Equal(t, User{ID: "u-2"}, again)
}

// TestUserMalformedIsAnError: a published member of the wrong type is an
// error, not a zero value.
func TestUserMalformedIsAnError(t *testing.T) {
	for _, in := range []string{`{"email":5}`, `{"status":true}`, `{"id":"a","id":"b"}`, `[]`} {
		var u User
		assert.Error(t, stdjson.Unmarshal([]byte(in), &u), in)
	}
}

func TestUserActive(t *testing.T) {
	for _, tc := range []struct {
		status UserStatus
		want   bool
	}{
		{"ACTIVE", true}, {"active", true}, {"Active", true},
		{"INACTIVE", false}, {"", false}, {"SUSPENDED", false}, {"ACTIVE ", false},
	} {
		assert.Equal(t, tc.want, User{Status: tc.status}.Active(), "%q", tc.status)
	}
}

func TestUsersCreate(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   NewUser
		body string
	}{
		{"required only", NewUser{Email: "ada@example.com", FirstName: "Ada", LastName: "Lovelace"},
			`{"email":"ada@example.com","firstName":"Ada","lastName":"Lovelace"}`},
		{"all fields", NewUser{Email: "ada@example.com", FirstName: "Ada", LastName: "Lovelace", JobTitle: new("Analyst"), NeverNotify: new(true)},
			`{"email":"ada@example.com","firstName":"Ada","lastName":"Lovelace","jobTitle":"Analyst","neverNotify":true}`},
		// The document requires the members, and "" is a string: empty
		// and blank names are sent, for the service to judge.
		{"empty names", NewUser{Email: "ada@example.com"}, `{"email":"ada@example.com","firstName":"","lastName":""}`},
		{"blank name", NewUser{Email: "ada@example.com", FirstName: " ", LastName: "L"}, `{"email":"ada@example.com","firstName":" ","lastName":"L"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := newMockTransport(t)
			var got seen
			mt.RegisterResponder(http.MethodPost, mockBase+"/users", capture(&got, jsonReply(201, adaJSON)))
			u, err := c.Users.Create(t.Context(), tc.in)
			require.NoError(t, err)
			assert.Equal(t, "application/json", got.contentType)
			assert.Equal(t, "Bearer "+testToken, got.auth)
			assert.JSONEq(t, tc.body, got.body)
			assert.Equal(t, "3f0c9a52-8f1e-4b8e-9a47-0c0e6c1d2b11", u.ID)
			assert.True(t, u.Active())
			assert.Equal(t, "Analyst", u.JobTitle)
		})
	}
}

func TestUsersCreateValidation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    NewUser
		field string
	}{
		{"no email", NewUser{FirstName: "A", LastName: "L"}, "NewUser.Email"},
		{"not an address", NewUser{Email: "ada@", FirstName: "A", LastName: "L"}, "NewUser.Email"},
		{"display name", NewUser{Email: "Ada <ada@example.com>", FirstName: "A", LastName: "L"}, "NewUser.Email"},
		{"spaces", NewUser{Email: " ada@example.com", FirstName: "A", LastName: "L"}, "NewUser.Email"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := newMockTransport(t)
			_, err := c.Users.Create(t.Context(), tc.in)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Zero(t, mt.GetTotalCallCount(), "nothing is sent")
		})
	}
}

func TestUsersGetAndDeactivate(t *testing.T) {
	c, mt := newMockTransport(t)
	var got seen
	mt.RegisterResponder(http.MethodGet, mockBase+"/users/u%3F1", capture(&got, jsonReply(200, adaJSON)))
	u, err := c.Users.Get(t.Context(), "u?1")
	require.NoError(t, err)
	assert.Equal(t, "ada@example.com", u.Email)

	inactive := `{"id":"u1","status":"INACTIVE"}`
	mt.RegisterResponder(http.MethodPost, mockBase+"/users/u1/deactivate", capture(&got, jsonReply(200, inactive)))
	u, err = c.Users.Deactivate(t.Context(), "u1")
	require.NoError(t, err)
	assert.Equal(t, "", got.body, "no request body")
	assert.False(t, u.Active())

	// A success without a body: deactivated, nothing to show.
	mt.RegisterResponder(http.MethodPost, mockBase+"/users/u2/deactivate", jsonReply(200, ""))
	u, err = c.Users.Deactivate(t.Context(), "u2")
	require.NoError(t, err)
	assert.Nil(t, u)
	// Get and Create need the user in the answer.
	mt.RegisterResponder(http.MethodGet, mockBase+"/users/u3", jsonReply(200, ""))
	_, err = c.Users.Get(t.Context(), "u3")
	assert.ErrorIs(t, err, errMalformed)
	mt.RegisterResponder(http.MethodGet, mockBase+"/users/u3n", jsonReply(200, "null"))
	_, err = c.Users.Get(t.Context(), "u3n")
	assert.ErrorIs(t, err, errMalformed, "null is no user")
	mt.RegisterResponder(http.MethodGet, mockBase+"/users/u4", jsonReply(200, `{"id":`))
	_, err = c.Users.Get(t.Context(), "u4")
	assert.Error(t, err)
	mt.RegisterResponder(http.MethodGet, mockBase+"/users/u5", jsonReply(404, `{"message":"no such user"}`))
	_, err = c.Users.Get(t.Context(), "u5")
	assert.ErrorIs(t, err, ErrNotFound)
}

func TestUsersListAndAll(t *testing.T) {
	c, mt := newMockTransport(t)
	var queries []string
	mt.RegisterResponder(http.MethodGet, mockBase+"/users", func(r *http.Request) (*http.Response, error) {
		queries = append(queries, r.URL.RawQuery)
		if r.URL.Query().Get("after") == "" {
			return jsonReply(200, `{"items":[{"id":"u1","status":"ACTIVE"},{"id":"u2"}],"total":3,`+
				`"paging":{"has_next_page":true,"has_previous_page":false,"start_cursor":"c1","end_cursor":"c2"}}`)(r)
		}
		return jsonReply(200, `{"items":[{"id":"u3"}],"total":3,`+
			`"paging":{"has_next_page":false,"has_previous_page":true,"start_cursor":"c3","end_cursor":"c3"}}`)(r)
	})
	opts := &ListOptions{First: 2, Filter: rsql.Field("status").Eq("ACTIVE")}
	page, err := c.Users.List(t.Context(), opts)
	require.NoError(t, err)
	assert.Equal(t, []string{"u1", "u2"}, userIDs(page.Items))
	assert.Equal(t, 3, page.Total)
	assert.Equal(t, "c2", page.Paging.EndCursor)
	assert.Equal(t, "filter=status%3D%3DACTIVE&first=2", queries[0], "the filter is published for users")

	var all []User
	for u, err := range c.Users.All(t.Context(), opts) {
		require.NoError(t, err)
		all = append(all, u)
	}
	assert.Equal(t, []string{"u1", "u2", "u3"}, userIDs(all))
	assert.Equal(t, "after=c2&filter=status%3D%3DACTIVE&first=2", queries[2])
	assert.Equal(t, 2, opts.First, "the caller's options are not written")
}

// TestUsersListMalformed: a list answer that is not the paged envelope is
// an error, never an empty page.
func TestUsersListMalformed(t *testing.T) {
	for _, body := range []string{`[{"id":"u1"}]`, `{"items":[]}`, `{"paging":{}}`, ``, `{"items":[{"id":5}],"paging":{}}`} {
		c, mt := newMockTransport(t)
		mt.RegisterResponder(http.MethodGet, mockBase+"/users", jsonReply(200, body))
		_, err := c.Users.List(t.Context(), nil)
		assert.Error(t, err, body)
	}
}

// TestNewUserExtraCannotDuplicate: an Extra member that repeats a field's
// name is refused before sending, not sent twice.
func TestNewUserExtraCannotDuplicate(t *testing.T) {
	c, mt := newMockTransport(t)
	_, err := c.Users.Create(t.Context(), NewUser{Email: "ada@example.com", FirstName: "A", LastName: "L",
		Extra: map[string]jsontext.Value{"email": jsontext.Value(`"eve@example.com"`)}})
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "body", ve.Field)
	assert.Zero(t, mt.GetTotalCallCount())

	var got seen
	mt.RegisterResponder(http.MethodPost, mockBase+"/users", capture(&got, jsonReply(201, adaJSON)))
	_, err = c.Users.Create(t.Context(), NewUser{Email: "ada@example.com", FirstName: "A", LastName: "L",
		Extra: map[string]jsontext.Value{"locale": jsontext.Value(`"en_GB"`)}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"email":"ada@example.com","firstName":"A","lastName":"L","locale":"en_GB"}`, got.body)
}

// TestUsersAllErrorOnSecondPageAndBreak: an error of page 2 is yielded
// once after page 1's users and ends the walk; a break sends nothing more.
func TestUsersAllErrorOnSecondPageAndBreak(t *testing.T) {
	c, mt := newMockTransport(t)
	mt.RegisterResponder(http.MethodGet, mockBase+"/users", func(r *http.Request) (*http.Response, error) {
		if r.URL.Query().Get("after") == "" {
			return jsonReply(200, `{"items":[{"id":"u1"},{"id":"u2"}],"total":4,`+
				`"paging":{"has_next_page":true,"end_cursor":"c2"}}`)(r)
		}
		return jsonReply(500, `{"message":"boom"}`)(r)
	})
	var ids []string
	var errs []error
	for u, err := range c.Users.All(t.Context(), nil) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ids = append(ids, u.ID)
	}
	assert.Equal(t, []string{"u1", "u2"}, ids)
	require.Len(t, errs, 1)
	var apiErr *APIError
	require.ErrorAs(t, errs[0], &apiErr)
	assert.Equal(t, 500, apiErr.StatusCode)

	mt.ZeroCallCounters()
	for range c.Users.All(t.Context(), nil) {
		break
	}
	assert.Equal(t, 1, apiCalls(mt), "no second page after a break")
	_ = c.Users.All(t.Context(), nil) // lazy: nothing until ranged
	assert.Equal(t, 1, apiCalls(mt))
}

// TestEmailRulesAreOne: Users.Create and AddWatchers check an e-mail
// address by the same rules, with the same words, before sending.
func TestEmailRulesAreOne(t *testing.T) {
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("nothing may be sent: %s %s", r.Method, r.URL)
	}))
	for _, tc := range []struct{ email, rule string }{
		// The document's format email, checked with every body.
		{"", "must be an e-mail address"},
		{"not an address", "must be an e-mail address"},
		{"Ann <ann@example.com>", "must be an e-mail address"},
		{"<ann@example.com>", "must be an e-mail address"},
	} {
		t.Run(tc.email, func(t *testing.T) {
			_, err := c.Users.Create(t.Context(), NewUser{Email: tc.email, FirstName: "A", LastName: "B"})
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "NewUser.Email", ve.Field)
			assert.Equal(t, tc.rule, ve.Rule)

			err = c.Records.Watchers.Add(t.Context(), Tasks, "it", "1", []string{"ok@example.com", tc.email})
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "emails[1]", ve.Field)
			assert.Equal(t, tc.rule, ve.Rule)
		})
	}
}

// TestUsersWire: every Users method sends its exact request (see checkWire).
func TestUsersWire(t *testing.T) {
	checkWire(t, []wireCase{
		{name: "Users.List", method: "GET", path: "/users", query: url.Values{"first": {"2"}, "after": {"c 1"}, "filter": {"status==ACTIVE"}}, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Users.List(ctx, &ListOptions{First: 2, After: "c 1", Filter: rsql.Field("status").Eq("ACTIVE")}, o...)
				return err
			}},
		{name: "Users.All", method: "GET", path: "/users", query: url.Values{"last": {"3"}}, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Users.All(ctx, &ListOptions{Last: 3}, o...))
			}},
		{name: "Users.Get", method: "GET", path: "/users/" + oddEsc, reply: mockReply(200, wireUser),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Users.Get(ctx, odd, o...)
				return err
			}},
		{name: "Users.Create", method: "POST", path: "/users", reply: mockReply(201, wireUser),
			contentType: "application/json", body: `{"email":"ann@example.com","firstName":"Ann","lastName":"Lee","jobTitle":"Clerk","neverNotify":true}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Users.Create(ctx, NewUser{Email: "ann@example.com", FirstName: "Ann", LastName: "Lee", JobTitle: new("Clerk"), NeverNotify: new(true)}, o...)
				return err
			}},
		{name: "Users.Deactivate", method: "POST", path: "/users/" + oddEsc + "/deactivate", reply: mockReply(200, wireUser),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Users.Deactivate(ctx, odd, o...)
				return err
			}},

		// Groups.
		{name: "Users.Pages", method: "GET", path: "/users", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Users.Pages(ctx, wireListOpts, o...))
			}},
	})
}

// userIDs returns the ids of us.
func userIDs(us []User) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}

package workflow

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ugRequest is what the test server saw of one API request.
type ugRequest struct {
	Method      string
	Path        string // escaped, without the /v1 prefix
	Query       string
	ContentType string
	Body        string
}

// ugServer answers API requests with reply and records them. A nil reply
// fails the test on any request (for checks that nothing is sent).
type ugServer struct {
	t     *testing.T
	reply func(w http.ResponseWriter, r *http.Request)

	mu   sync.Mutex
	reqs []ugRequest
}

func (s *ugServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("reading request body: %v", err)
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, ugRequest{
		Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery,
		ContentType: r.Header.Get("Content-Type"), Body: string(body),
	})
	s.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+testToken {
		s.t.Errorf("%s %s: Authorization = %q", r.Method, r.URL, r.Header.Get("Authorization"))
	}
	if s.reply == nil {
		s.t.Errorf("unexpected request %s %s", r.Method, r.URL)
		http.Error(w, "unexpected", http.StatusTeapot)
		return
	}
	s.reply(w, r)
}

func (s *ugServer) requests() []ugRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ugRequest(nil), s.reqs...)
}

// newUGClient returns a client whose API answers with reply, and the
// recorder of the requests it sends.
func newUGClient(t *testing.T, reply func(w http.ResponseWriter, r *http.Request)) (*Client, *ugServer) {
	t.Helper()
	s := &ugServer{t: t, reply: reply}
	return newTestClient(t, s), s
}

// replyJSON answers every request with status and body (a JSON text, or
// "" for no body).
func replyJSON(status int, body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		if body != "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// pagedUsersReply serves a user list in three pages of the paged shape,
// chosen by the "after" parameter: u1 u2 | u3 u4 | u5.
func pagedUsersReply(t *testing.T) func(http.ResponseWriter, *http.Request) {
	pagesByCursor := map[string]string{
		"": `{"items":[{"data":{"id":"u1","email":"a@x"},"cursor":"c1"},{"data":{"id":"u2","email":"b@x"},"cursor":"c2"}],
			"total":5,"paging":{"has_next_page":true,"has_previous_page":false,"start_cursor":"c1","end_cursor":"c2"}}`,
		"c2": `{"items":[{"data":{"id":"u3","email":"c@x"},"cursor":"c3"},{"data":{"id":"u4","email":"d@x"},"cursor":"c4"}],
			"total":5,"paging":{"has_next_page":true,"has_previous_page":true,"start_cursor":"c3","end_cursor":"c4"}}`,
		"c4": `{"items":[{"data":{"id":"u5","email":"e@x"},"cursor":"c5"}],
			"total":5,"paging":{"has_next_page":false,"has_previous_page":true,"start_cursor":"c5","end_cursor":"c5"}}`,
	}
	return func(w http.ResponseWriter, r *http.Request) {
		body, ok := pagesByCursor[r.URL.Query().Get("after")]
		if !ok {
			t.Errorf("unexpected cursor in %s", r.URL)
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}
}

// The three list shapes a user list may have, each with users u1 and u2.
var userListShapes = []struct {
	name      string
	body      string
	wantTotal int
}{
	{"bare array", `[{"id":"u1","email":"a@x","active":true},{"id":"u2","email":"b@x","active":false}]`, 2},
	{"items object", `{"items":[{"id":"u1","email":"a@x","active":true},{"id":"u2","email":"b@x","active":false}],"total":7}`, 7},
	{"paged data and cursor", `{"items":[{"data":{"id":"u1","email":"a@x","active":true},"cursor":"c1"},
		{"data":{"id":"u2","email":"b@x","active":false},"cursor":"c2"}],
		"total":2,"paging":{"has_next_page":false,"has_previous_page":false,"start_cursor":"c1","end_cursor":"c2"}}`, 2},
}

func userIDs(us []User) []string {
	ids := make([]string, len(us))
	for i, u := range us {
		ids[i] = u.ID
	}
	return ids
}

func TestUsersRequests(t *testing.T) {
	const userJSON = `{"id":"u1","email":"ann@example.com","firstName":"Ann","lastName":"Lee","active":true}`
	tests := []struct {
		name      string
		call      func(c *Client) error
		status    int
		reply     string
		want      ugRequest // Body "" means no body
		wantUser  *User
		wantEmpty bool // the call returns a nil user
	}{
		{
			name:   "List without options",
			call:   func(c *Client) error { _, err := c.Users.List(t.Context(), nil); return err },
			status: 200, reply: `[]`,
			want: ugRequest{Method: "GET", Path: "/users"},
		},
		{
			name: "List with paging",
			call: func(c *Client) error {
				_, err := c.Users.List(t.Context(), &ListOptions{First: 2, After: "c 1"})
				return err
			},
			status: 200, reply: `[]`,
			want: ugRequest{Method: "GET", Path: "/users", Query: "after=c+1&first=2"},
		},
		{
			name: "List backward",
			call: func(c *Client) error {
				_, err := c.Users.List(t.Context(), &ListOptions{Last: 10, Before: "z"})
				return err
			},
			status: 200, reply: `[]`,
			want: ugRequest{Method: "GET", Path: "/users", Query: "before=z&last=10"},
		},
		{
			name: "Create",
			call: func(c *Client) error {
				u, err := c.Users.Create(t.Context(), NewUser{Email: "ann@example.com", FirstName: "Ann", LastName: "Lee"})
				if err == nil {
					assert.Equal(t, &User{ID: "u1", Email: "ann@example.com", FirstName: "Ann", LastName: "Lee", Active: true}, u)
				}
				return err
			},
			status: 201, reply: userJSON,
			want: ugRequest{Method: "POST", Path: "/users", ContentType: "application/json",
				Body: `{"email":"ann@example.com","firstName":"Ann","lastName":"Lee"}`},
		},
		{
			name: "Create with only an email and extra fields",
			call: func(c *Client) error {
				_, err := c.Users.Create(t.Context(), NewUser{Email: "bo@example.com",
					Extra: map[string]json.RawMessage{"role": json.RawMessage(`"admin"`), "email": json.RawMessage(`"x@y"`)}})
				return err
			},
			status: 201, reply: userJSON,
			want: ugRequest{Method: "POST", Path: "/users", ContentType: "application/json",
				Body: `{"email":"bo@example.com","role":"admin"}`},
		},
		{
			name: "Get escapes the id",
			call: func(c *Client) error {
				u, err := c.Users.Get(t.Context(), "u 1%?#")
				if err == nil {
					assert.Equal(t, "u1", u.ID)
				}
				return err
			},
			status: 200, reply: userJSON,
			want: ugRequest{Method: "GET", Path: "/users/u%201%25%3F%23"},
		},
		{
			name: "Get accepts a data wrapper",
			call: func(c *Client) error {
				u, err := c.Users.Get(t.Context(), "u1")
				if err == nil {
					assert.Equal(t, "ann@example.com", u.Email)
				}
				return err
			},
			status: 200, reply: `{"data":` + userJSON + `}`,
			want: ugRequest{Method: "GET", Path: "/users/u1"},
		},
		{
			name: "Deactivate",
			call: func(c *Client) error {
				_, err := c.Users.Deactivate(t.Context(), "u1")
				return err
			},
			status: 200, reply: `{"id":"u1","active":false}`,
			want: ugRequest{Method: "POST", Path: "/users/u1/deactivate"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newUGClient(t, replyJSON(tt.status, tt.reply))
			require.NoError(t, tt.call(c))
			reqs := srv.requests()
			require.Len(t, reqs, 1)
			got := reqs[0]
			assert.Equal(t, tt.want.Method, got.Method)
			assert.Equal(t, tt.want.Path, got.Path)
			assert.Equal(t, tt.want.Query, got.Query)
			if tt.want.Body == "" {
				assert.Empty(t, got.Body)
			} else {
				assert.Equal(t, tt.want.ContentType, got.ContentType)
				assert.JSONEq(t, tt.want.Body, got.Body)
			}
		})
	}
}

func TestUsersDeactivateResponses(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   *User
	}{
		{"200 with the user", 200, `{"id":"u1","email":"a@x","active":false}`, &User{ID: "u1", Email: "a@x"}},
		{"200 with a wrapped user", 200, `{"data":{"id":"u1","active":false}}`, &User{ID: "u1"}},
		{"200 empty", 200, ``, nil},
		{"200 null", 200, `null`, nil},
		{"204", 204, ``, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newUGClient(t, replyJSON(tt.status, tt.body))
			u, err := c.Users.Deactivate(t.Context(), "u1")
			require.NoError(t, err)
			assert.Equal(t, tt.want, u)
			require.Len(t, srv.requests(), 1)
		})
	}
}

func TestUsersListShapes(t *testing.T) {
	for _, shape := range userListShapes {
		t.Run(shape.name, func(t *testing.T) {
			c, srv := newUGClient(t, replyJSON(200, shape.body))
			page, err := c.Users.List(t.Context(), nil)
			require.NoError(t, err)
			assert.Equal(t, []User{{ID: "u1", Email: "a@x", Active: true}, {ID: "u2", Email: "b@x"}}, page.Items)
			assert.Equal(t, shape.wantTotal, page.Total)
			assert.False(t, page.Paging.HasNextPage)

			// All stops after the one page: a list without paging is whole.
			var got []User
			for u, err := range c.Users.All(t.Context(), nil) {
				require.NoError(t, err)
				got = append(got, u)
			}
			assert.Equal(t, page.Items, got)
			assert.Len(t, srv.requests(), 2)
		})
	}
}

func TestUsersAllFollowsCursors(t *testing.T) {
	for _, prefetch := range []bool{false, true} {
		t.Run(map[bool]string{false: "sequential", true: "prefetch"}[prefetch], func(t *testing.T) {
			c, srv := newUGClient(t, pagedUsersReply(t))
			var got []User
			for u, err := range c.Users.All(t.Context(), &ListOptions{First: 2, Prefetch: prefetch}) {
				require.NoError(t, err)
				got = append(got, u)
			}
			assert.Equal(t, []string{"u1", "u2", "u3", "u4", "u5"}, userIDs(got))
			assert.Equal(t, "c@x", got[2].Email)
			reqs := srv.requests()
			require.Len(t, reqs, 3)
			assert.Equal(t, "first=2", reqs[0].Query)
			assert.Equal(t, "after=c2&first=2", reqs[1].Query)
			assert.Equal(t, "after=c4&first=2", reqs[2].Query)
		})
	}
}

func TestUsersAllBackward(t *testing.T) {
	pagesByCursor := map[string]string{
		"": `{"items":[{"data":{"id":"u4"},"cursor":"c4"},{"data":{"id":"u5"},"cursor":"c5"}],
			"total":5,"paging":{"has_previous_page":true,"start_cursor":"c4","end_cursor":"c5"}}`,
		"c4": `{"items":[{"data":{"id":"u2"},"cursor":"c2"},{"data":{"id":"u3"},"cursor":"c3"}],
			"total":5,"paging":{"has_previous_page":true,"start_cursor":"c2","end_cursor":"c3"}}`,
		"c2": `{"items":[{"data":{"id":"u1"},"cursor":"c1"}],
			"total":5,"paging":{"has_previous_page":false,"start_cursor":"c1","end_cursor":"c1"}}`,
	}
	c, srv := newUGClient(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, pagesByCursor[r.URL.Query().Get("before")])
	})
	var got []User
	for u, err := range c.Users.All(t.Context(), &ListOptions{Last: 2}) {
		require.NoError(t, err)
		got = append(got, u)
	}
	assert.Equal(t, []string{"u5", "u4", "u3", "u2", "u1"}, userIDs(got))
	reqs := srv.requests()
	require.Len(t, reqs, 3)
	assert.Equal(t, []string{"last=2", "before=c4&last=2", "before=c2&last=2"},
		[]string{reqs[0].Query, reqs[1].Query, reqs[2].Query})
}

func TestUsersAllBreakAndError(t *testing.T) {
	t.Run("break stops requesting", func(t *testing.T) {
		c, srv := newUGClient(t, pagedUsersReply(t))
		var got []string
		for u, err := range c.Users.All(t.Context(), nil) {
			require.NoError(t, err)
			got = append(got, u.ID)
			if u.ID == "u3" {
				break
			}
		}
		assert.Equal(t, []string{"u1", "u2", "u3"}, got)
		assert.Len(t, srv.requests(), 2)
	})
	t.Run("error on page 2 is yielded once", func(t *testing.T) {
		paged := pagedUsersReply(t)
		c, _ := newUGClient(t, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("after") == "c2" {
				replyJSON(404, `{"status":404,"message":"gone"}`)(w, r)
				return
			}
			paged(w, r)
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
		assert.ErrorIs(t, errs[0], ErrNotFound)
	})
}

func TestUserRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want User // typed fields only; Extra is checked by the round trip
	}{
		{
			name: "known and unknown fields",
			in: `{"id":"u1","email":"ann@example.com","firstName":"Ann","lastName":"Lee","active":true,
				"createdAt":"2024-03-01T10:20:30.123Z","updatedAt":"2024-03-02T00:00:00.000Z",
				"role":"admin","groups":["g1","g2"],"profile":{"tz":"Europe/Oslo","n":1.50},"manager":null,
				"tags":[],"title":"<b>&</b> \u00e9"}`,
			want: User{ID: "u1", Email: "ann@example.com", FirstName: "Ann", LastName: "Lee", Active: true,
				CreatedAt: time.Date(2024, 3, 1, 10, 20, 30, 123e6, time.UTC),
				UpdatedAt: time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC)},
		},
		{
			name: "values the typed fields cannot hold exactly",
			in: `{"id":12345678901234567890,"email":null,"firstName":{"given":"Ann"},"active":"yes",
				"createdAt":"2024-03-01T12:20:30+02:00","updatedAt":"last tuesday"}`,
			want: User{ID: "12345678901234567890",
				CreatedAt: time.Date(2024, 3, 1, 10, 20, 30, 0, time.UTC)},
		},
		{
			name: "times with more precision, a number, and null",
			in:   `{"id":"u2","createdAt":"2024-03-01T10:20:30.123456789Z","updatedAt":1700000000,"lastLogin":null}`,
			want: User{ID: "u2", CreatedAt: time.Date(2024, 3, 1, 10, 20, 30, 123456789, time.UTC)},
		},
		{
			name: "only unknown fields",
			in:   `{"uuid":"x","status":"ACTIVE"}`,
			want: User{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u User
			require.NoError(t, json.Unmarshal([]byte(tt.in), &u))
			got := u
			got.Extra = nil
			assert.Equal(t, tt.want, got)

			out, err := json.Marshal(u)
			require.NoError(t, err)
			// Modelled string fields and active are always written; add
			// the ones the input left out before comparing.
			var inObj, outObj map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(tt.in), &inObj))
			require.NoError(t, json.Unmarshal(out, &outObj))
			for _, k := range []string{"id", "email", "firstName", "lastName", "active"} {
				if _, ok := inObj[k]; !ok {
					want := `""`
					if k == "active" {
						want = "false"
					}
					assert.JSONEq(t, want, string(outObj[k]), k)
					delete(outObj, k)
				}
			}
			back, err := json.Marshal(outObj)
			require.NoError(t, err)
			assert.JSONEq(t, tt.in, string(back))
		})
	}
}

func TestUserRoundTripExactForFullObject(t *testing.T) {
	in := `{"id":"u1","email":"a@x","firstName":"A","lastName":"B","active":false,
		"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-02T00:00:00.000Z",
		"x-custom":{"deep":[1,2,{"k":"v"}]},"n":12345678901234567890}`
	var u User
	require.NoError(t, json.Unmarshal([]byte(in), &u))
	assert.Equal(t, map[string]json.RawMessage{
		"x-custom": json.RawMessage(`{"deep":[1,2,{"k":"v"}]}`),
		"n":        json.RawMessage(`12345678901234567890`),
	}, u.Extra, "only unknown fields are in Extra")
	out, err := json.Marshal(u)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out))

	// In a page, as the SDK returns it, the same holds.
	page := Page[User]{Items: []User{u}}
	out, err = json.Marshal(page)
	require.NoError(t, err)
	var back Page[User]
	require.NoError(t, json.Unmarshal(out, &back))
	assert.Equal(t, page, back)
}

func TestUserEncodeAfterChange(t *testing.T) {
	var u User
	require.NoError(t, json.Unmarshal([]byte(
		`{"id":7,"email":null,"createdAt":"2024-03-01T12:20:30+02:00","updatedAt":"soon","active":"yes","other":1}`), &u))
	assert.Equal(t, "7", u.ID)
	require.Contains(t, u.Extra, "id")

	// Changed typed fields win over the kept raw values.
	u.ID = "u7"
	u.Email = "new@x"
	u.CreatedAt = time.Date(2025, 1, 2, 3, 4, 5, 6e6, time.FixedZone("x", 3600))
	u.UpdatedAt = time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)
	u.Active = true
	out, err := json.Marshal(u)
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"u7","email":"new@x","firstName":"","lastName":"","active":true,
		"createdAt":"2025-01-02T02:04:05.006Z","updatedAt":"2025-01-02T00:00:00.000Z","other":1}`, string(out))
}

func TestUserEncodeNew(t *testing.T) {
	out, err := json.Marshal(User{ID: "u1", Email: "a@x"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"u1","email":"a@x","firstName":"","lastName":"","active":false}`, string(out))
}

func TestUsersValidation(t *testing.T) {
	tests := []struct {
		name  string
		call  func(c *Client) error
		field string
	}{
		{"Get empty id", func(c *Client) error { _, err := c.Users.Get(t.Context(), ""); return err }, "userID"},
		{"Get dot-dot id", func(c *Client) error { _, err := c.Users.Get(t.Context(), ".."); return err }, "userID"},
		{"Deactivate empty id", func(c *Client) error { _, err := c.Users.Deactivate(t.Context(), ""); return err }, "userID"},
		{"Create without email", func(c *Client) error {
			_, err := c.Users.Create(t.Context(), NewUser{FirstName: "Ann"})
			return err
		}, "NewUser.Email"},
		{"Create blank email", func(c *Client) error {
			_, err := c.Users.Create(t.Context(), NewUser{Email: "   "})
			return err
		}, "NewUser.Email"},
		{"Create email without @", func(c *Client) error {
			_, err := c.Users.Create(t.Context(), NewUser{Email: "ann.example.com"})
			return err
		}, "NewUser.Email"},
		{"Create email without name", func(c *Client) error {
			_, err := c.Users.Create(t.Context(), NewUser{Email: "@example.com"})
			return err
		}, "NewUser.Email"},
		{"Create email without domain", func(c *Client) error {
			_, err := c.Users.Create(t.Context(), NewUser{Email: "ann@"})
			return err
		}, "NewUser.Email"},
		{"List page size", func(c *Client) error {
			_, err := c.Users.List(t.Context(), &ListOptions{First: 1001})
			return err
		}, "ListOptions.First"},
		{"All mixed directions", func(c *Client) error {
			for _, err := range c.Users.All(t.Context(), &ListOptions{First: 1, Before: "x"}) {
				return err
			}
			return nil
		}, "ListOptions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newUGClient(t, nil)
			err := tt.call(c)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tt.field, ve.Field)
			assert.Empty(t, srv.requests(), "no request may be sent")
		})
	}
}

func TestUsersErrorStatuses(t *testing.T) {
	calls := map[string]func(c *Client) error{
		"List":       func(c *Client) error { _, err := c.Users.List(t.Context(), nil); return err },
		"Get":        func(c *Client) error { _, err := c.Users.Get(t.Context(), "u1"); return err },
		"Create":     func(c *Client) error { _, err := c.Users.Create(t.Context(), NewUser{Email: "a@x"}); return err },
		"Deactivate": func(c *Client) error { _, err := c.Users.Deactivate(t.Context(), "u1"); return err },
		"All": func(c *Client) error {
			for _, err := range c.Users.All(t.Context(), nil) {
				return err
			}
			return errors.New("no error yielded")
		},
	}
	statuses := []struct {
		status   int
		sentinel error
	}{
		{http.StatusForbidden, ErrForbidden},
		{http.StatusNotFound, ErrNotFound},
	}
	for name, call := range calls {
		for _, st := range statuses {
			t.Run(name+"/"+http.StatusText(st.status), func(t *testing.T) {
				c, _ := newUGClient(t, replyJSON(st.status, `{"status":0,"message":"nope"}`))
				err := call(c)
				require.ErrorIs(t, err, st.sentinel)
				var ae *APIError
				require.ErrorAs(t, err, &ae)
				assert.Equal(t, st.status, ae.StatusCode)
				assert.Equal(t, "nope", ae.Message)
			})
		}
	}
}

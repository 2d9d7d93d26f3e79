package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// wirePart is a part of a multipart/form-data body.
type wirePart struct {
	name, filename, contentType, content string
}

// wireCase is one service method and the exact request it must send.
type wireCase struct {
	name  string
	call  func(ctx context.Context, c *Client, o ...RequestOption) error
	reply func(mockCall) *http.Response

	method string
	path   string     // escaped, after /v1
	query  url.Values // the method's own parameters (the per-call x=1 is added)
	accept string     // "" means application/json

	contentType string     // "" means no body and no Content-Type
	body        string     // JSON compared as JSON, anything else byte for byte
	parts       []wirePart // for multipart/form-data, in order
}

// odd is an id that needs escaping in a path segment.
const (
	odd    = "a b#c?d"
	oddEsc = "a%20b%23c%3Fd"
)

func emptyPage(mockCall) *http.Response {
	return mockResponse(http.StatusOK, `{"items":[],"total":0,"paging":{"has_next_page":false,"has_previous_page":false}}`)
}

// first runs an iterator for its first request only.
func first[T any](seq func(yield func(T, error) bool)) error {
	var err error
	for _, e := range seq {
		err = e
		break
	}
	return err
}

// TestWireRequestOfEveryMethod sends every service method once through an
// httpmock transport and checks the exact request on the wire: method,
// escaped path, query, headers, body and content type, and that the
// per-call WithHeader and WithQuery reached it.
func TestWireRequestOfEveryMethod(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(file, []byte("hello notes"), 0o600))

	rec := "/tasks/it-requests/" + oddEsc
	user := `{"id":"u 1","email":"ann@example.com","firstName":"Ann","lastName":"Lee","status":"ACTIVE"}`
	group := `{"id":"g 1","name":"Ops","assignable":true,"watchable":false,"mentionable":false,"managed":false,"dynamic":false,"domains":[]}`
	att := `{"id":"att 1","name":"notes.txt","mediaType":"text/plain","size":11,"state":"VALID"}`
	listOpts := &ListOptions{First: 2, After: "c 1"}
	paged := url.Values{"first": {"2"}, "after": {"c 1"}}

	tests := []wireCase{
		// Records.
		{name: "Records.List", method: "GET", path: "/tasks/it-requests", query: url.Values{"first": {"2"}, "after": {"c 1"}, "filter": {"Status==Open"}}, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.List(ctx, Tasks, "it-requests", &ListOptions{First: 2, After: "c 1", Filter: rsql.Field("Status").Eq("Open")}, o...)
				return err
			}},
		{name: "Records.All", method: "GET", path: "/tasks/it-requests", query: paged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.All(ctx, Tasks, "it-requests", listOpts, o...))
			}},
		{name: "Records.Get", method: "GET", path: rec, reply: mockReply(200, `{"id":"x"}`),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Get(ctx, Tasks, "it-requests", odd, o...)
				return err
			}},
		{name: "Records.Create", method: "POST", path: "/tasks/it-requests", reply: mockReply(201, `{"id":"x"}`),
			contentType: "application/json", body: `{"Title":"Printer jams"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Create(ctx, Tasks, "it-requests", Record{"Title": "Printer jams"}, o...)
				return err
			}},
		{name: "Records.Update", method: "PUT", path: rec, reply: mockReply(200, `{"id":"x"}`),
			contentType: "application/json", body: `{"Status":"Done"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Update(ctx, Tasks, "it-requests", odd, Record{"Status": "Done"}, o...)
				return err
			}},
		{name: "AllAs", method: "GET", path: "/tasks/it-requests", query: paged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(AllAs[wireTask](ctx, c.Records, Tasks, "it-requests", listOpts, o...))
			}},
		{name: "AllItemsAs", method: "GET", path: "/tasks/it-requests", query: paged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(AllItemsAs[wireTask](ctx, c.Records, Tasks, "it-requests", listOpts, o...))
			}},
		{name: "GetAs", method: "GET", path: rec, reply: mockReply(200, `{"id":"x","Title":"t"}`),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := GetAs[wireTask](ctx, c.Records, Tasks, "it-requests", odd, o...)
				return err
			}},
		{name: "CreateAs", method: "POST", path: "/tasks/it-requests", reply: mockReply(201, `{"id":"x","Title":"t"}`),
			contentType: "application/json", body: `{"Title":"Printer jams"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := CreateAs(ctx, c.Records, Tasks, "it-requests", wireTask{Title: "Printer jams"}, o...)
				return err
			}},
		{name: "UpdateAs", method: "PUT", path: rec, reply: mockReply(200, `{"id":"x","Title":"t"}`),
			contentType: "application/json", body: `{"Title":"Done"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := UpdateAs(ctx, c.Records, Tasks, "it-requests", odd, wireTask{Title: "Done"}, o...)
				return err
			}},

		// Related items.
		{name: "Records.ListRelatedItems", method: "GET", path: rec + "/related-items", query: paged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Related.List(ctx, Tasks, "it-requests", odd, listOpts, o...)
				return err
			}},
		{name: "Records.RelatedItemsAll", method: "GET", path: rec + "/related-items", reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.Related.All(ctx, Tasks, "it-requests", odd, nil, o...))
			}},
		{name: "Records.AddRelatedItem", method: "POST", path: rec + "/related-items", reply: mockReply(201, ""),
			contentType: "application/json", body: `{"id":"P 1","alias":"parts"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Records.Related.Add(ctx, Tasks, "it-requests", odd, RelatedRef{ID: "P 1", Alias: "parts"}, o...)
			}},
		{name: "Records.AddRelatedItems", method: "POST", path: rec + "/related-items", reply: mockReply(201, ""),
			contentType: "application/json", body: `{"id":"P 2"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Records.Related.AddMany(ctx, Tasks, "it-requests", odd, []RelatedRef{{ID: "P 2"}}, o...)
			}},
		{name: "Records.RemoveRelatedItem", method: "DELETE", path: rec + "/related-items/" + oddEsc, reply: mockReply(200, ""),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Records.Related.Remove(ctx, Tasks, "it-requests", odd, odd, o...)
			}},

		// Watchers.
		{name: "Records.ListWatchers", method: "GET", path: rec + "/watchers", query: paged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Watchers.List(ctx, Tasks, "it-requests", odd, listOpts, o...)
				return err
			}},
		{name: "Records.WatchersAll", method: "GET", path: rec + "/watchers", reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.Watchers.All(ctx, Tasks, "it-requests", odd, nil, o...))
			}},
		{name: "Records.AddWatchers", method: "POST", path: rec + "/watchers", reply: mockReply(201, ""),
			contentType: "application/json", body: `{"users":["ann@example.com","bo@example.com"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Records.Watchers.Add(ctx, Tasks, "it-requests", odd, []string{"ann@example.com", "bo@example.com"}, o...)
			}},
		{name: "Records.RemoveWatchers", method: "DELETE", path: rec + "/watchers", reply: mockReply(200, ""),
			contentType: "application/json", body: `{"users":["ann@example.com"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Records.Watchers.Remove(ctx, Tasks, "it-requests", odd, []string{"ann@example.com"}, o...)
			}},

		// Comments.
		{name: "Records.ListComments", method: "GET", path: rec + "/comment", query: paged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Comments.List(ctx, Tasks, "it-requests", odd, listOpts, o...)
				return err
			}},
		{name: "Records.CommentsAll", method: "GET", path: rec + "/comment", reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.Comments.All(ctx, Tasks, "it-requests", odd, nil, o...))
			}},
		{name: "Records.AddComment", method: "POST", path: rec + "/comment", reply: mockReply(201, "c-1"),
			accept: "text/plain, application/json;q=0.9", contentType: "text/plain; charset=utf-8", body: "On it: {\"not JSON\"}",
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Comments.Add(ctx, Tasks, "it-requests", odd, "On it: {\"not JSON\"}", o...)
				return err
			}},

		// Attachments.
		{name: "Attachments.List", method: "GET", path: rec + "/attachments", reply: mockReply(200, `[]`),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Attachments.List(ctx, Tasks, "it-requests", odd, o...)
				return err
			}},
		{name: "Attachments.Get", method: "GET", path: rec + "/attachments/" + oddEsc, reply: mockReply(200, att),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Attachments.Get(ctx, Tasks, "it-requests", odd, odd, o...)
				return err
			}},
		{name: "Attachments.WaitProcessed", method: "GET", path: rec + "/attachments/" + oddEsc, reply: mockReply(200, att),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Attachments.WaitProcessed(ctx, Tasks, "it-requests", odd, odd, nil, o...)
				return err
			}},
		{name: "Attachments.Delete", method: "DELETE", path: rec + "/attachments/" + oddEsc, reply: mockReply(200, ""),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Attachments.Delete(ctx, Tasks, "it-requests", odd, odd, o...)
			}},
		{name: "Attachments.AddLink", method: "POST", path: rec + "/attachments/url-links",
			reply:       mockReply(201, `{"url":"https://example.com/spec?v=2","description":"Spec"}`),
			contentType: "application/json", body: `{"url":"https://example.com/spec?v=2","description":"Spec"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Attachments.AddLink(ctx, Tasks, "it-requests", odd, Link{URL: "https://example.com/spec?v=2", Description: "Spec"}, o...)
				return err
			}},
		{name: "Attachments.Upload", method: "POST", path: rec + "/attachments", reply: mockReply(202, att),
			contentType: "multipart/form-data",
			parts: []wirePart{ // the description first, so that it arrives before the file's bytes
				{name: "description", content: "Q3"},
				{name: "file", filename: "q3 report.csv", contentType: "text/csv", content: "a,b\n1,2\n"},
			},
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Attachments.Upload(ctx, Tasks, "it-requests", odd, "q3 report.csv", strings.NewReader("a,b\n1,2\n"),
					&UploadOptions{Description: "Q3", MediaType: "text/csv"}, o...)
				return err
			}},
		{name: "Attachments.UploadFile", method: "POST", path: rec + "/attachments", reply: mockReply(202, ""),
			contentType: "multipart/form-data",
			parts:       []wirePart{{name: "file", filename: "notes.txt", contentType: "text/plain; charset=utf-8", content: "hello notes"}},
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Attachments.UploadFile(ctx, Tasks, "it-requests", odd, file, nil, o...)
				return err
			}},
		{name: "Attachments.Download", method: "GET", path: rec + "/attachments/" + oddEsc + "/content", accept: "*/*",
			reply: func(mockCall) *http.Response {
				r := mockResponse(200, "file bytes")
				r.Header.Set("Content-Type", "application/octet-stream")
				return r
			},
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				dl, err := c.Attachments.Download(ctx, Tasks, "it-requests", odd, odd, o...)
				if err != nil {
					return err
				}
				_, err = io.Copy(io.Discard, dl)
				return errors.Join(err, dl.Close())
			}},
		{name: "Attachments.DownloadAttachment", method: "GET", path: "/tasks/it-requests/R%201/attachments/a%2F1/content", accept: "*/*",
			query: url.Values{"sig": {"s 1"}},
			reply: func(mockCall) *http.Response {
				r := mockResponse(200, "file bytes")
				r.Header.Set("Content-Type", "application/octet-stream")
				return r
			},
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				dl, err := c.Attachments.DownloadAttachment(ctx, Tasks, "it-requests", "R 1",
					&Attachment{ID: "a/1", ContentURL: "/v1/tasks/it-requests/R%201/attachments/a%2F1/content?sig=s+1"}, o...)
				if err != nil {
					return err
				}
				_, err = io.Copy(io.Discard, dl)
				return errors.Join(err, dl.Close())
			}},

		// Users.
		{name: "Users.List", method: "GET", path: "/users", query: url.Values{"first": {"2"}, "after": {"c 1"}, "filter": {"status==ACTIVE"}}, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Users.List(ctx, &ListOptions{First: 2, After: "c 1", Filter: rsql.Field("status").Eq("ACTIVE")}, o...)
				return err
			}},
		{name: "Users.All", method: "GET", path: "/users", query: url.Values{"last": {"3"}}, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Users.All(ctx, &ListOptions{Last: 3}, o...))
			}},
		{name: "Users.Get", method: "GET", path: "/users/" + oddEsc, reply: mockReply(200, user),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Users.Get(ctx, odd, o...)
				return err
			}},
		{name: "Users.Create", method: "POST", path: "/users", reply: mockReply(201, user),
			contentType: "application/json", body: `{"email":"ann@example.com","firstName":"Ann","lastName":"Lee","jobTitle":"Clerk","neverNotify":true}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Users.Create(ctx, NewUser{Email: "ann@example.com", FirstName: "Ann", LastName: "Lee", JobTitle: "Clerk", NeverNotify: true}, o...)
				return err
			}},
		{name: "Users.Deactivate", method: "POST", path: "/users/" + oddEsc + "/deactivate", reply: mockReply(200, user),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Users.Deactivate(ctx, odd, o...)
				return err
			}},

		// Groups.
		{name: "Groups.List", method: "GET", path: "/groups", query: paged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Groups.List(ctx, listOpts, o...)
				return err
			}},
		{name: "Groups.All", method: "GET", path: "/groups", reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Groups.All(ctx, nil, o...))
			}},
		{name: "Groups.Get", method: "GET", path: "/groups/" + oddEsc, reply: mockReply(200, group),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Groups.Get(ctx, odd, o...)
				return err
			}},
		{name: "Groups.Create", method: "POST", path: "/groups", reply: mockReply(201, group),
			contentType: "application/json", body: `{"name":"Ops","assignable":true,"hidden":false,"tags":["it"],"userIds":["u 1"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Groups.Create(ctx, GroupRequest{Name: "Ops", Assignable: new(true), Hidden: new(false), Tags: []string{"it"}, UserIDs: []string{"u 1"}}, o...)
				return err
			}},
		{name: "Groups.Update", method: "PUT", path: "/groups/" + oddEsc, reply: mockReply(200, group),
			contentType: "application/json", body: `{"watchable":true,"dynamic":true,"domains":["example.com"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Groups.Update(ctx, odd, GroupRequest{Watchable: new(true), Dynamic: new(true), Domains: []string{"example.com"}}, o...)
				return err
			}},
		{name: "Groups.ListUsers", method: "GET", path: "/groups/" + oddEsc + "/users", query: paged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Groups.Members.List(ctx, odd, listOpts, o...)
				return err
			}},
		{name: "Groups.AllUsers", method: "GET", path: "/groups/" + oddEsc + "/users", reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Groups.Members.All(ctx, odd, nil, o...))
			}},
		{name: "Groups.AddUsers", method: "POST", path: "/groups/" + oddEsc + "/users", reply: mockReply(201, ""),
			contentType: "application/json", body: `{"userIds":["u 1","u 2"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Groups.Members.Add(ctx, odd, []string{"u 1", "u 2"}, o...)
			}},
		{name: "Groups.RemoveUsers", method: "DELETE", path: "/groups/" + oddEsc + "/users", reply: mockReply(200, ""),
			contentType: "application/json", body: `{"userIds":["u 1"]}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return c.Groups.Members.Remove(ctx, odd, []string{"u 1"}, o...)
			}},
	}

	// The page iterators send what their list method sends.
	for _, p := range []struct {
		name, path string
		pages      func(ctx context.Context, c *Client, o ...RequestOption) error
	}{
		{"Records.Pages", "/tasks/it-requests", func(ctx context.Context, c *Client, o ...RequestOption) error {
			return first(c.Records.Pages(ctx, Tasks, "it-requests", listOpts, o...))
		}},
		{"Records.RelatedItemsPages", rec + "/related-items", func(ctx context.Context, c *Client, o ...RequestOption) error {
			return first(c.Records.Related.Pages(ctx, Tasks, "it-requests", odd, listOpts, o...))
		}},
		{"Records.WatchersPages", rec + "/watchers", func(ctx context.Context, c *Client, o ...RequestOption) error {
			return first(c.Records.Watchers.Pages(ctx, Tasks, "it-requests", odd, listOpts, o...))
		}},
		{"Records.CommentsPages", rec + "/comment", func(ctx context.Context, c *Client, o ...RequestOption) error {
			return first(c.Records.Comments.Pages(ctx, Tasks, "it-requests", odd, listOpts, o...))
		}},
		{"Users.Pages", "/users", func(ctx context.Context, c *Client, o ...RequestOption) error {
			return first(c.Users.Pages(ctx, listOpts, o...))
		}},
		{"Groups.Pages", "/groups", func(ctx context.Context, c *Client, o ...RequestOption) error {
			return first(c.Groups.Pages(ctx, listOpts, o...))
		}},
		{"Groups.UserPages", "/groups/" + oddEsc + "/users", func(ctx context.Context, c *Client, o ...RequestOption) error {
			return first(c.Groups.Members.Pages(ctx, odd, listOpts, o...))
		}},
	} {
		tests = append(tests, wireCase{name: p.name, method: "GET", path: p.path, query: paged, reply: emptyPage, call: p.pages})
	}

	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, m := newMockClient(t, tc.reply)
			require.NoError(t, tc.call(t.Context(), c, WithHeader("X-Trace", "t1"), WithQuery("x", "1")))
			calls := m.requests()
			require.Len(t, calls, 1, "one request")
			got := calls[0]

			assert.Equal(t, tc.method, got.Method)
			assert.Equal(t, tc.path, got.Path, "escaped path")
			wantQuery := url.Values{"x": {"1"}}
			for k, vs := range tc.query {
				wantQuery[k] = vs
			}
			gotQuery, err := url.ParseQuery(got.Query)
			require.NoError(t, err)
			assert.Equal(t, wantQuery, gotQuery, "query %q", got.Query)

			accept := tc.accept
			if accept == "" {
				accept = "application/json"
			}
			assert.Equal(t, accept, got.Header.Get("Accept"))
			assert.Equal(t, "Bearer mock-token", got.Header.Get("Authorization"))
			assert.Equal(t, defaultUserAgent, got.Header.Get("User-Agent"))
			assert.Equal(t, []string{"t1"}, got.Header.Values("X-Trace"), "per-call header")

			mediaType, params, _ := mime.ParseMediaType(got.Header.Get("Content-Type"))
			switch {
			case tc.contentType == "":
				assert.Empty(t, got.Header.Get("Content-Type"))
				assert.Empty(t, got.Body)
			case tc.parts != nil:
				assert.Equal(t, tc.contentType, mediaType)
				assert.Equal(t, tc.parts, readParts(t, got.Body, params["boundary"]))
			case mediaType == "application/json":
				assert.Equal(t, tc.contentType, got.Header.Get("Content-Type"))
				assert.True(t, json.Valid(got.Body), "%s", got.Body)
				assert.JSONEq(t, tc.body, string(got.Body))
			default:
				assert.Equal(t, tc.contentType, got.Header.Get("Content-Type"))
				assert.Equal(t, tc.body, string(got.Body))
			}
		})
	}
}

// wireTask is a typed record for the typed functions' rows.
type wireTask struct {
	ID    string `workflow:"id,omitempty"`
	Title string
}

// readParts returns the parts of a multipart/form-data body in order.
func readParts(t *testing.T, body []byte, boundary string) []wirePart {
	t.Helper()
	require.NotEmpty(t, boundary, "multipart boundary")
	r := multipart.NewReader(strings.NewReader(string(body)), boundary)
	var out []wirePart
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		b, err := io.ReadAll(p)
		require.NoError(t, err)
		out = append(out, wirePart{name: p.FormName(), filename: p.FileName(), contentType: p.Header.Get("Content-Type"), content: string(b)})
	}
}

package workflow

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMalformedAnswersReadAlike: every kind of answer the SDK cannot use
// (a missing resource, a list without its envelope, a body of the wrong
// shape) is an error matching ErrUnexpectedResponse that names the request
// once.
func TestMalformedAnswersReadAlike(t *testing.T) {
	for _, tc := range []struct {
		name, body, wantPath string
		call                 func(c *Client) error
	}{
		{"record without fields", `{}`, "/v1/tasks/it/1", func(c *Client) error {
			_, err := c.Records.Get(t.Context(), Tasks, "it", "1")
			return err
		}},
		{"user without id", `{"email":"a@b.c"}`, "/v1/users/u", func(c *Client) error {
			_, err := c.Users.Get(t.Context(), "u")
			return err
		}},
		{"attachment list empty", ``, "/v1/tasks/it/1/attachments", func(c *Client) error {
			_, err := c.Attachments.List(t.Context(), Tasks, "it", "1")
			return err
		}},
		{"attachment list not an array", `{}`, "/v1/tasks/it/1/attachments", func(c *Client) error {
			_, err := c.Attachments.List(t.Context(), Tasks, "it", "1")
			return err
		}},
		{"record list without items", `{"paging":{}}`, "/v1/tasks/it", func(c *Client) error {
			_, err := c.Records.List(t.Context(), Tasks, "it", nil)
			return err
		}},
		{"paged list without items", `{"paging":{}}`, "/v1/users", func(c *Client) error {
			_, err := c.Users.List(t.Context(), nil)
			return err
		}},
		{"comment reply not UTF-8", "\xff\xfe", "/v1/tasks/it/1/comment", func(c *Client) error {
			_, err := c.Records.Comments.Add(t.Context(), Tasks, "it", "1", "hello")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(tc.body))
			}))
			err := tc.call(c)
			require.ErrorIs(t, err, ErrUnexpectedResponse)
			msg := err.Error()
			assert.Regexp(t, `^workflow: (GET|POST) http://\S+`+tc.wantPath+`(\?\S*)?: `, msg)
			assert.Equal(t, 1, strings.Count(msg, "http://"), "the request is named once: %s", msg)
		})
	}
}

// TestPageSayingMoreWithoutACursor: a page that says more items follow but
// gives no cursor to them is a malformed list, for every iterator.
func TestPageSayingMoreWithoutACursor(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		walk       func(c *Client) error
	}{
		{"records forward", `{"items":[{"data":{"a":"1"}}],"total":2,"paging":{"has_next_page":true}}`, func(c *Client) error {
			for _, err := range c.Records.All(t.Context(), Tasks, "it", nil) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"users backward", `{"items":[{"id":"x"}],"total":2,"paging":{"has_previous_page":true}}`, func(c *Client) error {
			for _, err := range c.Users.All(t.Context(), &ListOptions{Last: 1}) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(tc.body))
			}))
			require.ErrorIs(t, tc.walk(c), ErrUnexpectedResponse)
		})
	}
}

// TestObserversSeeAMissingResource: the check that a success answer holds
// its resource is made on the one request path, so the call's observers
// see the error the caller gets, for records and models alike.
func TestObserversSeeAMissingResource(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(c *Client) error
	}{
		{"Records.Get", func(c *Client) error { _, err := c.Records.Get(t.Context(), Tasks, "it", "1"); return err }},
		{"Users.Get", func(c *Client) error { _, err := c.Users.Get(t.Context(), "u"); return err }},
		{"Attachments.List", func(c *Client) error {
			_, err := c.Attachments.List(t.Context(), Tasks, "it", "1")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []CallResult
			obs := &Observer{CallEnd: func(_ context.Context, _ CallInfo, res CallResult) { got = append(got, res) }}
			c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusOK) // and no body
			}), WithObserver(obs))
			err := tc.call(c)
			require.ErrorIs(t, err, ErrUnexpectedResponse)
			require.Len(t, got, 1)
			assert.ErrorIs(t, got[0].Err, ErrUnexpectedResponse)
			assert.Equal(t, "response_decode", got[0].ErrorType)
		})
	}
}

package workflow

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResourceMissingFromA2xxIsAnError(t *testing.T) {
	calls := map[string]func(c *Client) (any, error){
		"Records.Get":     func(c *Client) (any, error) { return c.Records.Get(t.Context(), Tasks, "it", "1") },
		"Records.Create":  func(c *Client) (any, error) { return c.Records.Create(t.Context(), Tasks, "it", Record{"a": "1"}) },
		"Records.Update":  func(c *Client) (any, error) { return c.Records.Update(t.Context(), Tasks, "it", "1", Record{"a": "1"}) },
		"Users.Get":       func(c *Client) (any, error) { return c.Users.Get(t.Context(), "u1") },
		"Groups.Get":      func(c *Client) (any, error) { return c.Groups.Get(t.Context(), "g1") },
		"Attachments.Get": func(c *Client) (any, error) { return c.Attachments.Get(t.Context(), Tasks, "it", "1", "a1") },
	}
	for _, body := range []string{"", "null", "{}", `{"data":{}}`} {
		for name, call := range calls {
			t.Run(name+" "+body, func(t *testing.T) {
				c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(body))
				}))
				_, err := call(c)
				require.ErrorIs(t, err, ErrUnexpectedResponse)
				assert.Regexp(t, `workflow: (GET|POST|PUT) http://\S+/v1/`, err.Error(), "the error names the operation")
			})
		}
	}
	t.Run("204", func(t *testing.T) {
		c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNoContent)
		}))
		_, err := c.Records.Get(t.Context(), Tasks, "it", "1")
		require.ErrorIs(t, err, ErrUnexpectedResponse)
	})
}

func TestRecordListWithoutItemsOrPaging(t *testing.T) {
	for _, body := range []string{
		`null`, `{}`, `{"total":3}`,
		`{"items":[{"data":{"a":"1"}}],"total":3}`,                  // no paging
		`{"items":null,"paging":{"has_next_page":false},"total":3}`, // null items
		`{"paging":{"has_next_page":false},"total":3}`,              // no items
		`{"items":[{"data":{"a":"1"}}],"paging":null,"total":3}`,    // null paging
	} {
		t.Run(body, func(t *testing.T) {
			c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(body))
			}))
			_, err := c.Records.List(t.Context(), Tasks, "it", nil)
			require.ErrorIs(t, err, ErrUnexpectedResponse)
			assert.Contains(t, err.Error(), "GET ")
			var n int
			for _, err := range c.Records.All(t.Context(), Tasks, "it", nil) {
				if err != nil {
					assert.ErrorIs(t, err, ErrUnexpectedResponse)
					break
				}
				n++
			}
			assert.Zero(t, n)
		})
	}
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"items":[],"paging":{"has_next_page":false},"total":0}`))
	}))
	p, err := c.Records.List(t.Context(), Tasks, "it", nil)
	require.NoError(t, err, "an empty list is a list")
	assert.Empty(t, p.Items)
}

package workflow

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEndlessEmptyPagesStop(t *testing.T) {
	for _, prefetch := range []bool{false, true} {
		t.Run(fmt.Sprint("prefetch=", prefetch), func(t *testing.T) {
			var requests atomic.Int64
			c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := requests.Add(1)
				fmt.Fprintf(w, `{"items":[],"total":5,"paging":{"has_next_page":true,"end_cursor":"c%d"}}`, n)
			}))
			var err error
			for _, e := range c.Records.All(t.Context(), Tasks, "it", &ListOptions{Prefetch: prefetch}) {
				if e != nil {
					err = e
					break
				}
			}
			require.ErrorIs(t, err, ErrUnexpectedResponse)
			assert.LessOrEqual(t, requests.Load(), int64(maxEmptyPages+1), "a small bounded run of requests")
		})
	}
	t.Run("a few empty pages between full ones are fine", func(t *testing.T) {
		var requests atomic.Int64
		c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := requests.Add(1)
			switch {
			case n%3 == 0 && n < 9:
				fmt.Fprintf(w, `{"items":[{"data":{"n":"%d"},"cursor":"c%d"}],"total":9,"paging":{"has_next_page":true,"end_cursor":"c%d"}}`, n, n, n)
			case n < 9:
				fmt.Fprintf(w, `{"items":[],"total":9,"paging":{"has_next_page":true,"end_cursor":"c%d"}}`, n)
			default:
				fmt.Fprint(w, `{"items":[],"total":9,"paging":{"has_next_page":false}}`)
			}
		}))
		var got int
		for _, err := range c.Records.All(t.Context(), Tasks, "it", nil) {
			require.NoError(t, err)
			got++
		}
		assert.Equal(t, 2, got)
	})
}

func TestCancelMidPageStopsAtOnce(t *testing.T) {
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"items":[{"data":{"n":"1"}},{"data":{"n":"2"}},{"data":{"n":"3"}},{"data":{"n":"4"}}],"total":9,"paging":{"has_next_page":false}}`)
	}))
	for _, backward := range []bool{false, true} {
		ctx, cancel := context.WithCancel(t.Context())
		opts := &ListOptions{}
		if backward {
			opts.Last = 4
		}
		var seen int
		var last error
		for _, err := range c.Records.All(ctx, Tasks, "it", opts) {
			if err != nil {
				last = err
				break
			}
			seen++
			cancel()
		}
		assert.Equal(t, 1, seen, "no item after the context ended")
		assert.ErrorIs(t, last, context.Canceled)
		cancel()
	}
}

func TestBeforeAloneSendsTheDefaultPageSize(t *testing.T) {
	var queries []string
	var mu sync.Mutex
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.RawQuery)
		n := len(queries)
		mu.Unlock()
		if n == 1 {
			fmt.Fprint(w, `{"items":[{"data":{"n":"2"},"cursor":"c2"}],"total":9,"paging":{"has_previous_page":true,"start_cursor":"c2"}}`)
			return
		}
		fmt.Fprint(w, `{"items":[{"data":{"n":"1"},"cursor":"c1"}],"total":9,"paging":{"has_previous_page":false,"start_cursor":"c1"}}`)
	}))
	var got int
	for _, err := range c.Records.All(t.Context(), Tasks, "it", &ListOptions{Before: "c9"}) {
		require.NoError(t, err)
		got++
	}
	assert.Equal(t, 2, got)
	assert.Equal(t, []string{"before=c9&last=100", "before=c2&last=100"}, queries)

	queries = nil
	_, err := c.Records.List(t.Context(), Tasks, "it", &ListOptions{Before: "c9", Last: 7})
	require.NoError(t, err)
	assert.Equal(t, []string{"before=c9&last=7"}, queries, "an explicit Last is kept")
}

package workflow

import (
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPathSegmentsAndTextsAreChecked(t *testing.T) {
	var requests atomic.Int64
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		_, _ = w.Write([]byte(`{"id":"1","a":"1"}`))
	}))
	c := ts.client(t)
	bad := []struct{ name, field, value string }{
		{"traversal", "id", "../../users/u1"},
		{"slash", "id", "a/b"},
		{"dot", "id", "."},
		{"dot dot", "id", ".."},
		{"newline", "id", "a\nb"},
		{"carriage return", "id", "a\rb"},
		{"NUL", "id", "a\x00b"},
		{"DEL", "id", "a\x7fb"},
		{"spaces", "id", "   "},
		{"tab", "id", "\t"},
		{"alias slash", "alias", "a/.."},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			alias, id := "it", "1"
			if tc.field == "alias" {
				alias = tc.value
			} else {
				id = tc.value
			}
			_, err := c.Records.Get(t.Context(), Tasks, alias, id)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
		})
	}
	_, err := c.Users.Get(t.Context(), "../groups")
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)

	_, err = c.Records.Comments.Add(t.Context(), Tasks, "it", "1", " \n\t ")
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "text", ve.Field)

	for _, u := range []string{"mailto:team@example.com", "javascript:alert(1)", "ftp://example.com/x", "file:///etc/passwd", "//example.com/x", "https:///nohost"} {
		_, err = c.Attachments.AddLink(t.Context(), Tasks, "it", "1", Link{URL: u})
		require.ErrorAs(t, err, &ve, u)
		assert.Equal(t, "Link.URL", ve.Field)
	}
	assert.Zero(t, requests.Load(), "nothing was sent")
	assert.Zero(t, ts.tokenRequests.Load(), "not even a token request")

	// "?", "#" and "%" stay allowed, escaped.
	var got string
	ts2 := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.EscapedPath()
		_, _ = w.Write([]byte(`{"a":"1"}`))
	}))
	_, err = ts2.client(t).Records.Get(t.Context(), Tasks, "it", "a?b#c%d e")
	require.NoError(t, err)
	assert.Equal(t, "/tasks/it/"+url.PathEscape("a?b#c%d e"), got)
}

func TestCodecFloatsAreBase10Only(t *testing.T) {
	type row struct {
		F float64 `workflow:"f"`
	}
	for _, in := range []string{"0x1p4", "1_000.5", "Inf", "-Inf", "NaN", "infinity", "0X10", "1e", ".", "+"} {
		var r row
		err := Decode(Record{"f": in}, &r)
		assert.Error(t, err, in)
	}
	for in, want := range map[string]float64{"16": 16, "-1.5": -1.5, "+2": 2, "1e3": 1000, ".5": 0.5, "5.": 5, "1.25E-2": 0.0125} {
		var r row
		require.NoError(t, Decode(Record{"f": in}, &r), in)
		assert.Equal(t, want, r.F, in)
	}
}

package workflow

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCut: a text is cut to its length, and a "[REDACTED]" the cut
// splits goes whole; a text within its length is kept as it is.
func TestCut(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"within its length", "abc [REDAC", "abc [REDAC"},
		{"cut where no marker starts", "abcdefghij-more", "abcdefghij…"},
		{"cut inside the marker", "abcdef [REDACTED]", "abcdef …"},
		{"cut after one byte of it", "abcdefghi[REDACTED]", "abcdefghi…"},
		{"cut after the whole marker", "[REDACTED]-more", "[REDACTED]…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, cut(tc.in, 10))
		})
	}
	assert.Equal(t, strings.Repeat("é", 5)+"…", cut(strings.Repeat("é", 8), 11), "on a rune boundary")
}

// TestShortestSecret: a secret of minSecretLen bytes is removed; a shorter
// one, which would blank out ordinary words, is not looked for.
func TestShortestSecret(t *testing.T) {
	at := strings.Repeat("s", minSecretLen)
	assert.Equal(t, "a "+redacted+" b", newRedactor("id", at).redact("a "+at+" b"))
	assert.Equal(t, "a "+at[1:]+" b", newRedactor("id", at[1:]).redact("a "+at[1:]+" b"))
}

// TestSecretNotUTF8: a secret that is not valid UTF-8 is removed as
// written; its JSON forms are made all the same.
func TestSecretNotUTF8(t *testing.T) {
	const secret = "ab\xffcd"
	assert.Equal(t, "a "+redacted+" b", newRedactor("id", secret).redact("a "+secret+" b"))
}

// TestTrimPartial: the end of a text cut where it was read loses what is
// left of a secret or token there, the longest start first; other ends,
// and a nil redactor, leave the text alone.
func TestTrimPartial(t *testing.T) {
	r := newRedactor("id", "s3cr3t-value")
	r.addToken("tok-abcdef")
	for _, tc := range []struct{ name, in, want string }{
		{"the start of the secret", "abc s3cr3t-val", "abc "},
		{"the start of a token", "abc tok-a", "abc "},
		{"one byte of it", "abc t", "abc "},
		{"the start of the secret's base64", "abc czNjcjN0", "abc "},
		{"no start of one", "abc value", "abc value"},
		{"a whole token is no start", "abc tok-abcdef", "abc tok-abcdef"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, r.trimPartial(tc.in))
		})
	}
	var none *redactor
	assert.Equal(t, "abc s3cr", none.trimPartial("abc s3cr"))
}

// TestSentValues: each value a request sent is looked for as sent and in
// lower case (its escaped echoes are found by unescaping the text), once,
// longest first; a value shorter than minSentLen is not looked for.
func TestSentValues(t *testing.T) {
	req := httptest.NewRequest(http.MethodGet, "/v1/users?q="+"%C3%9Cber+%22Alice%22+%26+co&op=%3C&c=%C3%A9&filter=Name%3D%3DAl%2Cx%3D%3D%22Alice+Smith%22", nil)
	assert.ElementsMatch(t, []string{`Über "Alice" & co`, `Name==Al,x=="Alice Smith"`, "Alice Smith",
		`über "alice" & co`, `name==al,x=="alice smith"`, "alice smith"}, sentValues(req))
	got := sentValues(req)
	for i := 1; i < len(got); i++ {
		assert.GreaterOrEqual(t, len(got[i-1]), len(got[i]), "longest first")
	}
	assert.Empty(t, sentValues(httptest.NewRequest(http.MethodGet, "/v1/users?first=10", nil)))
}

// TestScrubSent: every occurrence of every sent value goes, the longest
// first, so that a shorter one inside it leaves nothing of it.
func TestScrubSent(t *testing.T) {
	sent := []string{"alice@example.com", "alice", "zzzz"}
	assert.Equal(t, "[REDACTED] and [REDACTED] and [REDACTED]!", scrubSent("alice@example.com and alice and alice@example.com!", sent))
	assert.Equal(t, "nothing sent here", scrubSent("nothing sent here", sent))
	assert.Equal(t, "abc", scrubSent("abc", sent), "a text shorter than a value")
	assert.Equal(t, "x [REDACTED]", scrubSent("x zzzz", sent), "a value at the very end")
}

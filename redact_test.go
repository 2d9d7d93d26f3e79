package workflow

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestClip: a text is cut to its length, and the cut keeps no start of a
// secret, a token, a sent value or the redaction marker; a text within
// its length, or cut where no value starts, is kept as it is.
func TestClip(t *testing.T) {
	r := newRedactor("id", "s3cr3t-value")
	r.addToken("tok-abcdef")
	sent := []string{"alice@example.com"}
	for _, tc := range []struct{ name, in, want string }{
		{"within its length", "abc s3cr", "abc s3cr"},
		{"cut where no value starts", "abcdefghij-more", "abcdefghij…"},
		{"cut inside the secret", "abcdef s3cr3t-value", "abcdef …"},
		{"cut inside a token", "abcdefgh tok-abcdef", "abcdefgh …"},
		{"cut inside a sent value", "abcdef alice@example", "abcdef …"},
		{"cut inside the marker", "abcdef [REDACTED]", "abcdef …"},
		{"the longest start goes", "abcdef a" + "lice", "abcdef …"},
		{"one byte of a value", "abcdefghialice", "abcdefghi…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, r.clip(tc.in, 10, sent))
		})
	}
	var none *redactor
	assert.Equal(t, "abcdef …", none.clip("abcdef alice@example", 10, sent), "a nil redactor still trims the sent values")
	assert.Equal(t, strings.Repeat("é", 5)+"…", r.clip(strings.Repeat("é", 8), 11, nil), "on a rune boundary")
}

package workflow

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// redacted replaces a known secret or token in anything the SDK produces.
const redacted = "[REDACTED]"

// minSecretLen is the shortest value the redactor looks for: shorter
// values would blank out ordinary words of every message.
const minSecretLen = 4

// keptTokens is how many of the most recent access tokens the redactor
// remembers.
const keptTokens = 8

// redactor removes the client secret and the access tokens the client has
// used from error messages, header copies, body excerpts and log lines,
// in plain form, base64 (standard and URL alphabets, padded or not, alone
// and in the "id:secret" pair of the Basic header) and URL-escaped. A nil
// redactor changes nothing.
type redactor struct {
	mu     sync.RWMutex
	fixed  []string // forms of the client secret
	tokens []string // forms of recent access tokens, newest last
	seen   []string // the recent tokens themselves, newest last
}

func newRedactor(id, secret string) *redactor {
	r := &redactor{}
	if len(secret) >= minSecretLen {
		r.fixed = forms(secret)
		for _, pair := range []string{id + ":" + secret, url.QueryEscape(id) + ":" + url.QueryEscape(secret)} {
			r.fixed = append(r.fixed, base64Forms(pair)...)
		}
		r.fixed = dedupe(r.fixed)
	}
	return r
}

// forms returns v as it may appear in text: plain, URL-escaped, base64.
func forms(v string) []string {
	return dedupe(append([]string{v, url.QueryEscape(v), url.PathEscape(v)}, base64Forms(v)...))
}

func base64Forms(v string) []string {
	b := []byte(v)
	return []string{
		base64.StdEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b),
		base64.URLEncoding.EncodeToString(b),
		base64.RawURLEncoding.EncodeToString(b),
	}
}

func dedupe(list []string) []string {
	out := list[:0]
	for _, s := range list {
		dup := false
		for _, o := range out {
			dup = dup || o == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

// addToken remembers an access token the client uses.
func (r *redactor) addToken(tok string) {
	if r == nil || len(tok) < minSecretLen {
		return
	}
	r.mu.RLock()
	known := len(r.seen) > 0 && r.seen[len(r.seen)-1] == tok
	r.mu.RUnlock()
	if known {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.seen {
		if s == tok {
			return
		}
	}
	r.seen = append(r.seen, tok)
	if len(r.seen) > keptTokens {
		r.seen = r.seen[len(r.seen)-keptTokens:]
	}
	r.tokens = r.tokens[:0]
	for _, s := range r.seen {
		r.tokens = append(r.tokens, forms(s)...)
	}
}

// redact returns s with every known secret and token replaced.
func (r *redactor) redact(s string) string {
	if r == nil || s == "" {
		return s
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, list := range [][]string{r.fixed, r.tokens} {
		for _, v := range list {
			if strings.Contains(s, v) {
				s = strings.ReplaceAll(s, v, redacted)
			}
		}
	}
	return s
}

// redactBytes is redact for a body excerpt.
func (r *redactor) redactBytes(b []byte) []byte {
	if r == nil || len(b) == 0 {
		return b
	}
	s := r.redact(string(b))
	if s == string(b) {
		return b
	}
	return []byte(s)
}

// sensitiveHeaders are replaced whole in a header copy, whatever they hold.
var sensitiveHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"}

// redactHeader returns a copy of h with sensitive headers blanked and
// known secrets removed from every value.
func (r *redactor) redactHeader(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		cp := make([]string, len(vs))
		for i, v := range vs {
			cp[i] = r.redact(v)
		}
		out[k] = cp
	}
	for _, k := range sensitiveHeaders {
		if vs, ok := out[k]; ok {
			for i := range vs {
				vs[i] = redacted
			}
		}
	}
	return out
}

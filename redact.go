package workflow

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// This file is redaction, the one place that decides what the SDK's
// errors, logs and events may show: the client's secret and access tokens
// are replaced wherever they appear, a URL is shown with its query values
// replaced, and a server's message loses the values the request sent.

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
// in each form that forms returns, and in base64 in the "id:secret" pair
// of the Basic header. A nil redactor changes nothing.
type redactor struct {
	mu     sync.RWMutex
	fixed  []string // forms of the client secret
	tokens []string // forms of recent access tokens, newest last
	seen   []string // the recent tokens themselves, newest last
}

func newRedactor(id, secret string) *redactor {
	if len(secret) < minSecretLen {
		return &redactor{}
	}
	pairs := base64Forms(id+":"+secret, url.QueryEscape(id)+":"+url.QueryEscape(secret))
	return &redactor{fixed: dedupe(append(forms(secret), pairs...))}
}

// forms returns v as it may appear in text: plain, URL-escaped,
// HTML-escaped, inside a JSON string (with "<", ">" and "&" escaped as
// encoding/json does or not, and "/" as "\/" as some servers write it or
// not), base64.
func forms(v string) []string {
	out := []string{v, url.QueryEscape(v), url.PathEscape(v), html.EscapeString(v)}
	plain, _ := jsontext.AppendQuote(nil, v) // quoted even when v is not UTF-8 (its error says so)
	htmlSafe, _ := json.Marshal(v)
	for _, q := range [][]byte{plain, htmlSafe} {
		inner := string(q[1 : len(q)-1])
		out = append(out, inner, strings.ReplaceAll(inner, "/", `\/`))
	}
	return dedupe(append(out, base64Forms(v)...))
}

// base64Forms returns each of vs in base64: standard and URL alphabets,
// padded or not.
func base64Forms(vs ...string) (out []string) {
	for _, v := range vs {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			out = append(out, enc.EncodeToString([]byte(v)))
		}
	}
	return out
}

func dedupe(list []string) []string {
	out := list[:0]
	for _, s := range list {
		if !slices.Contains(out, s) {
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
	if slices.Contains(r.seen, tok) {
		return
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
	if s == "" {
		return s
	}
	return r.each(s, func(s, v string) string {
		return strings.ReplaceAll(s, v, redacted) // s itself when v is absent
	})
}

// each passes s through f with each form of the known secret and tokens
// in turn, under the read lock; a nil redactor returns s.
func (r *redactor) each(s string, f func(s, v string) string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, list := range [][]string{r.fixed, r.tokens} {
		for _, v := range list {
			s = f(s, v)
		}
	}
	return s
}

// cut is truncate for a text whose secrets and sent values were
// replaced: a "[REDACTED]" that the cut splits goes whole.
func cut(s string, n int) string {
	t := truncate(s, n)
	if t == s {
		return s
	}
	return trimStart(strings.TrimSuffix(t, "…"), redacted) + "…"
}

// trimStart drops the longest tail of s that is the start of v (not the
// whole of it).
func trimStart(s, v string) string {
	for i := max(0, len(s)-len(v)+1); i < len(s); i++ {
		if s[i] == v[0] && strings.HasPrefix(v, s[i:]) {
			return s[:i]
		}
	}
	return s
}

// trimPartial drops from the end of s, a text cut where it was read,
// what the cut left of a known secret or token: the start of one, which
// redact cannot recognise.
func (r *redactor) trimPartial(s string) string { return r.each(s, trimStart) }

// sensitiveHeaders are replaced whole in a header copy, whatever they hold.
var sensitiveHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"}

// redactHeader returns a copy of h with sensitive headers blanked and
// every other value cleaned by clean.
func redactHeader(h http.Header, clean func(string) string) http.Header {
	out := h.Clone()
	for k, vs := range out {
		for i, v := range vs {
			if slices.Contains(sensitiveHeaders, k) {
				vs[i] = redacted
			} else {
				vs[i] = clean(v)
			}
		}
	}
	return out
}

// redactedValue replaces each query value in a URL that an error, a log
// line or an event shows.
const redactedValue = "REDACTED"

// redactURL prints u without user information and with each query value
// replaced by redactedValue, the names kept: the query holds the filter,
// whose values are users' data.
func redactURL(u *url.URL) string {
	v := *u
	v.User = nil
	if v.RawQuery != "" {
		pairs := strings.Split(v.RawQuery, "&")
		for i, p := range pairs {
			if name, _, ok := strings.Cut(p, "="); ok {
				pairs[i] = name + "=" + redactedValue
			}
		}
		v.RawQuery = strings.Join(pairs, "&")
	}
	v.Fragment, v.RawFragment = "", ""
	return v.String()
}

// withoutUser prints u without user information, its query kept.
func withoutUser(u *url.URL) string {
	v := *u
	v.User = nil
	return v.String()
}

// minSentLen is the shortest value the request sent that is removed from
// a server's message: shorter ones (a page size, "true") would blank out
// ordinary words.
const minSentLen = 4

// maxScannedBody bounds the JSON request body whose values are removed
// from a server's message.
const maxScannedBody = 1 << 20

// sentValues returns the values req sent, each also in lower case, longest
// first (scrubber finds their escaped echoes by unescaping the text): each
// value of its query, of a form body and of each header the SDK does not
// own (the caller's, see WithHeader), and the values of each comparison
// of a filter among them, as written and as read (unescaped); a text
// body; each string and number of a JSON body, or of one whose type is
// not given (of its first maxScannedBody bytes, read as far as they go),
// not its member names; and what a body that says what it carries holds
// (an upload's file name and description). Media types are compared
// without regard to case.
func sentValues(req *http.Request) []string {
	var out []string
	seen := map[string]bool{}
	add := func(v string) {
		for _, v := range []string{v, strings.ToLower(v)} { // e-mail addresses come back lowered
			if len(v) >= minSentLen && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	// values adds the values of a query, a form body or the caller's
	// headers (not those in owned), and those of a filter among them.
	values := func(m map[string][]string, owned map[string]string) {
		for k, vs := range m {
			if _, skip := owned[k]; !skip {
				for _, v := range vs {
					add(v)
					filterValues(v, add)
				}
			}
		}
	}
	if req.URL != nil {
		values(req.URL.Query(), nil)
	}
	values(req.Header, reservedHeaders) // the SDK's own headers are not the caller's
	if b, ok := req.Body.(interface{ carries() []string }); ok {
		for _, v := range b.carries() {
			add(v)
		}
	}
	mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	text, form := strings.HasPrefix(mt, "text/"), mt == "application/x-www-form-urlencoded"
	if req.GetBody != nil && (text || form || mt == "" || mt == "application/json" || strings.HasSuffix(mt, "+json")) {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(io.LimitReader(body, maxScannedBody))
			_ = body.Close()
			switch {
			case text:
				add(string(data))
				add(strings.TrimSpace(string(data)))
			case form:
				q, _ := url.ParseQuery(string(data))
				values(q, nil)
			default: // JSON, or a body that does not say (nothing found if it is no JSON)
				jsonValues(data, add)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// filterValues calls add with the values of each comparison in v, a
// filter or any other query value: as read, when v parses as a filter,
// and as written between the separators, when it does not.
func filterValues(v string, add func(string)) {
	if e, err := rsql.Parse(v); err == nil {
		rsql.Walk(e, func(e rsql.Expr) bool {
			if c, ok := e.(*rsql.Comparison); ok {
				for _, val := range c.Values {
					add(val.Text)
				}
			}
			return true
		})
	}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == ',' }) {
		part = part[strings.LastIndexByte(part, '=')+1:] // after the last '=', if any
		add(strings.Trim(part, `"'() `))
		for _, item := range strings.Split(part, ":") {
			add(strings.Trim(item, `"'() `))
		}
	}
}

// jsonValues calls add with each string and number of the JSON text
// data, member names left out, as far as data reads: a body cut at
// maxScannedBody still gives the values before the cut.
func jsonValues(data []byte, add func(string)) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return
		}
		kind, n := dec.StackIndex(dec.StackDepth())
		if kind == '{' && n%2 == 1 {
			continue // a member name
		}
		if k := tok.Kind(); k == '"' || k == '0' {
			add(tok.String()) // a number's text as sent
		}
	}
}

// scrubSent returns s with each of the values a request sent replaced,
// longest first. Only the values whose first bytes occur in s are
// looked for, so that a body of many values costs little.
func scrubSent(s string, sent []string) string {
	starts := make(map[string]bool, len(s))
	for i := 0; i+minSentLen <= len(s); i++ {
		starts[s[i:i+minSentLen]] = true
	}
	for _, v := range sent {
		if starts[v[:minSentLen]] {
			s = strings.ReplaceAll(s, v, redacted)
		}
	}
	return s
}

// scrubber returns the function that removes from a text what req
// carries that a text must not show: its query, the values it sent, the
// client's secret and tokens. A value the service echoed escaped (URL,
// HTML, or quoted with backslashes as in a multipart header) is found in
// the text unescaped, which is then what the text shows. The values req
// sent are gathered once, for every text the function is given.
func (r *redactor) scrubber(req *http.Request) func(string) string {
	sent := sentValues(req)
	return func(text string) string {
		text = r.redact(scrubSent(text, sent))
		for _, unescape := range unescapes {
			if plain := unescape(text); plain != text {
				if clean := r.redact(scrubSent(plain, sent)); clean != plain {
					text = clean
				}
			}
		}
		return text
	}
}

// unescapes are the escapings of a value that scrubber undoes: URL escapes
// (in a query, where "+" is a space, and in a path), HTML and backslashes.
var unescapes = []func(string) string{
	func(s string) string { return percentDecode(strings.ReplaceAll(s, "+", " ")) },
	percentDecode,
	html.UnescapeString,
	unbackslash.Replace,
}

// percentEscapes are runs of valid %XX escapes.
var percentEscapes = regexp.MustCompile(`(%[0-9A-Fa-f]{2})+`)

// percentDecode undoes the valid %XX escapes of s and keeps any other
// "%" as it is, so that a text holding both ("q=a%40b, 100% used") is
// still read.
func percentDecode(s string) string {
	return percentEscapes.ReplaceAllStringFunc(s, func(run string) string {
		plain, _ := url.PathUnescape(run) // valid by construction
		return plain
	})
}

// unbackslash undoes the quoting of a multipart header or a JSON string
// (its "\/" too, which some servers write for "/").
var unbackslash = strings.NewReplacer(`\\`, `\`, `\"`, `"`, `\/`, `/`)

// authError removes known secrets from ae's texts, then cuts them to
// their lengths. A body whose JSON holds a secret behind an escape, which
// redact cannot see, is not kept.
func (r *redactor) authError(ae *AuthError) *AuthError {
	hides := false
	if jsonValues([]byte(ae.Body), func(v string) { hides = hides || r.redact(v) != v }); hides {
		ae.Body = ""
	}
	ae.Body = cut(r.redact(ae.Body), 512)
	ae.Description = cut(oneLine(r.redact(ae.Description)), 300)
	ae.ErrorCode = cut(oneLine(r.redact(ae.ErrorCode)), 100)
	if ae.Err != nil {
		ae.errText = r.redact(ae.Err.Error())
	}
	return ae
}

package workflowtest

import (
	"net/url"
	"strings"
)

// nearestRoute returns the route the request probably meant, as
// "METHOD /v1/path" with the request's own values in the route's
// placeholders, or "" when no route is near. A route is near when it has
// as many segments as the request and its fixed segments are each a few
// edits away from the request's (a typo, a plural: /comments is
// /comment), at most 3 edits in all; an unknown record type counts its
// edits to the nearest one. Routes of the request's method win a tie.
func nearestRoute(method string, segs []string) string {
	// A route costs 2 an edit, and 1 more when of another method; a
	// route near enough costs less than 8.
	best, bestCost := "", 8
	for i := range routes {
		rt := &routes[i]
		if len(rt.pattern) != len(segs) {
			continue
		}
		cost, parts := 0, make([]string, len(segs))
		if rt.method != method {
			cost = 1
		}
		for j, p := range rt.pattern {
			seg := segs[j]
			if words := []string{p}; p == "{recordType}" || !strings.HasPrefix(p, "{") {
				if p == "{recordType}" {
					words = recordTypeNames
				}
				word, d := nearestWord(seg, words)
				if word == "" {
					d = bestCost // nothing near
				}
				seg, cost = word, cost+2*d
			}
			if cost >= bestCost {
				break
			}
			parts[j] = url.PathEscape(seg)
		}
		if cost < bestCost {
			best, bestCost = rt.method+" /v1/"+strings.Join(parts, "/"), cost
		}
	}
	return best
}

var recordTypeNames = []string{"apps", "elements", "tasks", "transactions"}

// nearestWord returns the word of words fewest edits from s, and the
// edits, if it is a few edits away (a third of the word's length, one at
// least), or "".
func nearestWord(s string, words []string) (string, int) {
	best, bestCost := "", 0
	for _, w := range words {
		if d := editDistance(s, w); d <= max(1, len(w)/3) && (best == "" || d < bestCost) {
			best, bestCost = w, d
		}
	}
	return best, bestCost
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	row := make([]int, len(b)+1) // the distances from a[:i] to each b[:j]
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			sub := diag
			if a[i-1] != b[j-1] {
				sub++
			}
			diag, row[j] = row[j], min(sub, row[j]+1, row[j-1]+1)
		}
	}
	return row[len(b)]
}

// withSuggestion adds the nearest route to a 404's message, if any.
func withSuggestion(msg, method string, segs []string) string {
	if near := nearestRoute(method, segs); near != "" {
		return msg + "; did you mean " + near + "?"
	}
	return msg
}

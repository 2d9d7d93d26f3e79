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
	best, bestCost := "", 4
	for _, sameMethod := range []bool{true, false} {
		for i := range routes {
			rt := &routes[i]
			if (rt.method == method) != sameMethod || len(rt.pattern) != len(segs) {
				continue
			}
			cost, parts := 0, make([]string, len(segs))
			for j, p := range rt.pattern {
				seg := segs[j]
				switch {
				case p == "{recordType}":
					if !isRecordType(seg) {
						seg = nearestWord(seg, recordTypeNames)
						if seg == "" {
							cost = bestCost
						} else {
							cost += editDistance(segs[j], seg)
						}
					}
				case strings.HasPrefix(p, "{"):
				default:
					if d := editDistance(p, seg); d > max(1, len(p)/3) {
						cost = bestCost
					} else {
						cost += d
					}
					seg = p
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
	}
	return best
}

var recordTypeNames = []string{"apps", "elements", "tasks", "transactions"}

// nearestWord returns the word of words fewest edits from s, if it is a
// few edits away, or "".
func nearestWord(s string, words []string) string {
	best, bestCost := "", 0
	for _, w := range words {
		if d := editDistance(s, w); d <= max(1, len(w)/3) && (best == "" || d < bestCost) {
			best, bestCost = w, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// withSuggestion adds the nearest route to a 404's message, if any.
func withSuggestion(msg, method string, segs []string) string {
	if near := nearestRoute(method, segs); near != "" {
		return msg + "; did you mean " + near + "?"
	}
	return msg
}

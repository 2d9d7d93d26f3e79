package workflowtest

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// The query of a request, read strictly: the fake answers 400 to a query
// it could not read as sent, rather than answer as if it had. Go's own
// parser drops a parameter holding a ';' and one with a broken
// percent-escape, so a list would come back unfiltered; and of a
// parameter given twice only one value would count. API.md says that
// special characters of a filter are URL-encoded (';' as %3B, ',' as
// %2C); refusing these queries is a rule of the fake, drawn from that.

// readQuery parses a raw query string: pairs joined by '&', each name
// and value percent-decoded (a '+' is a space). A ';' that is not
// percent-encoded, a broken escape, or a name given twice is 400 naming
// the parameter and how to write it.
func readQuery(raw string) (url.Values, *httpError) {
	q := url.Values{}
	for pair := range strings.SplitSeq(raw, "&") {
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, nameErr := url.QueryUnescape(rawName)
		value, valueErr := url.QueryUnescape(rawValue)
		switch {
		case pair == "":
			continue
		case nameErr != nil:
			return nil, errf(http.StatusBadRequest, "a query parameter name has a broken percent-escape: write %% as %%25")
		case strings.Contains(pair, ";"):
			return nil, errf(http.StatusBadRequest, "query parameter %q holds a ';' that is not percent-encoded: "+
				"encode it as %%3B (an RSQL AND in a filter is %%3B, an OR %%2C)", name)
		case valueErr != nil:
			return nil, errf(http.StatusBadRequest, "query parameter %q has a broken percent-escape: write %% as %%25", name)
		case q.Has(name):
			return nil, errf(http.StatusBadRequest, "query parameter %q is given more than once: give it once "+
				"(filters are combined inside one filter, with ; encoded as %%3B)", name)
		}
		q[name] = []string{value}
	}
	return q, nil
}

// pagingParams are the query parameters of a paged list: the filter is
// taken only by the lists that have one.
var pagingParams = []string{"first", "after", "last", "before", "filter"}

// knownParams answers 400 to a query parameter that is not among names.
func knownParams(q url.Values, names []string) *httpError {
	for name := range q {
		if !slices.Contains(names, name) {
			what := "this list takes"
			if name == "filter" {
				what = "this list takes no filter, only"
			}
			return errf(http.StatusBadRequest, "unknown query parameter %q: %s %s", name, what, strings.Join(names, ", "))
		}
	}
	return nil
}

package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"

	"github.com/google/go-querystring/query"

	"github.com/seed-a15e58aa/workflow-go/internal/check"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// This file builds a request from an operation: its target (the
// operation's id, method and path filled from a method's arguments, each
// checked), its query and its body; call and fetchOne then send it through
// the attempt loop (request.go).

// Segment checks one path segment (an alias, an id) and escapes it with
// url.PathEscape, for the operations the package does not model (see
// Client.Call). Escaping turns "?", "#" and "%" into data, which stay
// allowed. Refused with a *ValidationError naming field, because servers
// and proxies that normalise paths would still read them as path steps or
// cut the request there: "/" (even escaped, a proxy may decode it and
// send "../../users/u1" elsewhere with the caller's token), a whole "." or
// "..", control characters (newline, CR, NUL, ...), and a value that is
// empty or only white space.
func Segment(field, v string) (string, error) {
	switch {
	case v == "":
		return "", invalid(field, "must not be empty")
	case v == "." || v == "..":
		return "", invalid(field, `must not be "." or ".."`)
	case strings.TrimSpace(v) == "":
		return "", invalid(field, "must not be only white space")
	case strings.Contains(v, "/"):
		return "", invalid(field, `must not contain "/"`)
	case strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }):
		return "", invalid(field, "must not contain control characters")
	}
	return url.PathEscape(v), nil
}

// target is one request's operation and its path, built from a method's
// arguments and checked: err is the first bad argument, returned before
// anything is sent.
type target struct {
	op     op.ID  // "" for a request built by the caller (Client.Call, PagedList)
	method string // the operation's method
	path   string // relative to the base URL
	filter bool   // the service publishes an RSQL filter for the list
	err    error
}

// pathTo builds the target of operation id from args: pairs of a field
// name (what an error calls the argument) and a value, one pair for each
// parameter of the operation's path template, in order. Each value is
// checked and escaped by Segment; the record type must be one of the
// four.
func pathTo(id op.ID, args ...string) target {
	o := id.Op()
	p, err := o.Fill(segment, args...)
	return target{op: id, method: o.Method, path: p, filter: slices.Contains(o.Query, "filter"), err: err}
}

// recordPath is the target of operation id under a record type's
// definition alias, with the further pairs of pathTo after them.
func recordPath(id op.ID, t RecordType, alias string, rest ...string) target {
	var args [8]string // the longest template of the API has 4 parameters
	return pathTo(id, append(append(args[:0], fieldRecordType, string(t), "alias", alias), rest...)...)
}

// fieldRecordType names a record type argument.
const fieldRecordType = "record type"

// segment checks and escapes one argument of a path (see Segment); a
// record type must be one of the four.
func segment(field, v string) (string, error) {
	if field != fieldRecordType {
		return Segment(field, v)
	}
	return v, RecordType(v).Validate()
}

// newRequest builds the request of r; q, if not nil, is a struct encoded
// with go-querystring "url" tags, or url.Values. A body the SDK encodes
// for one of the API's operations is checked against the contract
// document before anything is sent (check.Body): the one check of every
// JSON request body. The request's context names r's operation (for the
// observers; see operationOf).
func (c *Client) newRequest(ctx context.Context, r target, q, body any) (*http.Request, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if r.op != "" {
		ctx = op.NewContext(ctx, r.op)
	}
	rel, err := url.Parse(strings.TrimLeft(r.path, "/"))
	if err != nil {
		return nil, invalid("path", "must be a relative URL path, and does not parse as one") // url.Parse's error quotes it
	}
	if rel.IsAbs() || rel.Host != "" {
		return nil, invalid("path", "must be relative to the base URL")
	}
	u := c.baseURL.ResolveReference(rel)
	if q != nil {
		vals, ok := q.(url.Values)
		if !ok {
			if vals, err = queryValues(q); err != nil {
				return nil, err
			}
		}
		if enc := vals.Encode(); enc != "" {
			if u.RawQuery != "" {
				u.RawQuery += "&"
			}
			u.RawQuery += enc
		}
	}
	var (
		rdr         io.Reader
		contentType string
	)
	switch b := body.(type) {
	case nil:
	case io.Reader:
		rdr = b
	case json.RawMessage: // sent as it is: the bytes a caller checked are the bytes sent
		rdr, contentType = bytes.NewReader(b), "application/json"
	default:
		enc, ok := b.(op.Body) // encoded by the package that made it (admin): checked, then sent as it is
		if !ok {
			buf, err := json.Marshal(b)
			if err != nil {
				return nil, &ValidationError{Field: "body", Rule: "must encode as JSON", Err: err}
			}
			enc = op.Body{Value: b, JSON: buf}
		}
		if ve := check.Body[ValidationError](r.op, enc.Value, enc.JSON); ve != nil {
			return nil, ve
		}
		rdr, contentType = bytes.NewReader(enc.JSON), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), rdr)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req, nil
}

// queryValues encodes q, a struct with go-querystring "url" tags or a
// pointer to one, as a query; anything else is a *ValidationError of the
// query argument that points to url.Values.
func queryValues(q any) (url.Values, error) {
	t := reflect.TypeOf(q)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, invalid("query", fmt.Sprintf(`must be url.Values or a struct with go-querystring "url" tags, not %T (a map[string][]string converts with url.Values(m))`, q))
	}
	vals, err := query.Values(q)
	if err != nil {
		return nil, &ValidationError{Field: "query", Rule: "must encode as a query", Err: err}
	}
	return vals, nil
}

// checkCtx is the one check of a caller's context: newRequest makes it for
// every call, and the entry points that use the context before building a
// request (uploads, iterators, waits, batches) make it first.
func checkCtx(ctx context.Context) error {
	if ctx == nil {
		return invalid("ctx", "must not be nil")
	}
	return nil
}

// call sends a request built from its parts (the target's first bad
// argument, if any, is returned before anything is sent) and reads the
// reply with rd: what every service method comes down to. The zero reply
// drops the body.
func (c *Client) call(ctx context.Context, r target, q, body any, reqOpts []RequestOption, rd reply) error {
	if r.err != nil {
		return r.err
	}
	req, err := c.newRequest(ctx, r, q, body)
	if err != nil {
		return err
	}
	_, err = c.send(req, reqOpts, rd)
	return err
}

// fetchOne sends a call whose answer is one resource of type T (what names
// it in errors). With optional, an answer without a body gives nil, nil.
func fetchOne[T any](ctx context.Context, c *Client, r target, body any, what string, optionalBody bool, reqOpts []RequestOption) (*T, error) {
	var v *T
	rd := optional(&v, what)
	if !optionalBody {
		v = new(T)
		rd = resource(v, what)
	}
	if err := c.call(ctx, r, nil, body, reqOpts, rd); err != nil {
		return nil, err
	}
	return v, nil
}

package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"reflect"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// This file is the request path's exported face, for the operations this
// package does not model and for the packages built on it (package admin,
// the workspace configuration): the same build, attempt loop, reply rules
// and reports as every method of this package, never a second path.

// Call sends one operation of the API: method, path (relative to the base
// URL, its segments escaped with Segment), query (url.Values or a struct
// with go-querystring "url" tags; nil for none) and body (sent as JSON;
// a json.RawMessage is sent byte for byte; nil for none), with the per-call options reqOpts. A status of 400 or
// more is an *APIError. A success answer is read into out: nil drops the
// body; a *string takes a text answer verbatim; a *jsontext.Value takes the
// JSON value as it is; any other pointer is decoded with
// go-json-experiment/json, members the type does not model kept where it
// has a fallback field. Where out wants a value, an empty body, null, or a
// value of the wrong JSON type is an error matching ErrUnexpectedResponse
// that names the request.
func (c *Client) Call(ctx context.Context, method, path string, query, body, out any, reqOpts ...RequestOption) error {
	return c.callInto(ctx, target{method: method, path: path}, query, body, out, reqOpts)
}

// Operation is Call for an operation of the table (package internal/op),
// sent by its id, its path filled with args (each parameter's name, then
// its value, in the template's order; each value checked as Segment
// does) and carried with the request, so that reports name it; a body of
// type op.Body is checked against the document before it is sent. It is
// the one request path of this module's packages beside this one
// (package admin): id's type is internal, so no other module can call it.
// For requests of your own, use Call.
func (c *Client) Operation(ctx context.Context, id op.ID, args []string, query, body, out any, reqOpts ...RequestOption) error {
	return c.callInto(ctx, pathTo(id, args...), query, body, out, reqOpts)
}

// callInto is a call whose success answer is read into out, as Call says.
func (c *Client) callInto(ctx context.Context, r target, query, body, out any, reqOpts []RequestOption) error {
	var rd reply
	switch out := out.(type) {
	case nil:
	case *string:
		rd = textBody(out)
	default:
		if rv := reflect.ValueOf(out); rv.Kind() != reflect.Pointer || rv.IsNil() {
			return invalid("out", fmt.Sprintf("must be nil or a non-nil pointer (got %T)", out))
		}
		rd = whole(func(data []byte) error { return decodeResource(data, out, "JSON value") })
	}
	return c.call(ctx, r, query, body, reqOpts, rd)
}

// PagedList is one paged list of the service, at Path: the pager of every
// list of this package (forward and backward, prefetch, resume, loop
// guards), for the packages built on it.
type PagedList[T any] struct {
	Client *Client
	// Path is relative to the base URL, its segments escaped with Segment.
	Path string
	// Filtered says that the service publishes an RSQL filter for the
	// list; otherwise ListOptions.Filter is a *ValidationError.
	Filtered bool

	op   op.ID // the list operation, where OperationList made it: Path and Filtered are its
	args []string
}

// OperationList is the PagedList of the list operation id of the table
// (package internal/op), its path filled with args as Operation fills it,
// the operation carried with each page's request and its filter taken
// where the document publishes one. Like Operation, it is for this
// module's packages beside this one.
func OperationList[T any](c *Client, id op.ID, args ...string) PagedList[T] {
	return PagedList[T]{Client: c, op: id, args: args}
}

// List returns one page: GET Path with the paging options and filter of
// opts, answered with the paged envelope {"items", "total", "paging"}.
func (l PagedList[T]) List(ctx context.Context, opts *ListOptions, reqOpts ...RequestOption) (*Page[T], error) {
	return requestPage[T](ctx, l.Client, l.target(), opts, reqOpts, nil)
}

// Pages walks the list page by page from where opts points. See
// RecordsService.Pages.
func (l PagedList[T]) Pages(ctx context.Context, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[*Page[T], error] {
	return walkPages[T](ctx, l.Client, l.target(), opts, reqOpts)
}

// All iterates over every item from where opts points. See
// RecordsService.All.
func (l PagedList[T]) All(ctx context.Context, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[T, error] {
	return walkItems[T](ctx, l.Client, l.target(), opts, reqOpts)
}

func (l PagedList[T]) target() target {
	if l.op != "" {
		return pathTo(l.op, l.args...)
	}
	return target{method: http.MethodGet, path: l.Path, filter: l.Filtered}
}

// NewRequest builds a request for the API, for an operation the SDK does
// not model. path is relative to the base URL (for example
// "tasks/it-requests"), with each segment already escaped with
// url.PathEscape; a leading "/" is ignored so the "/v1" prefix is kept.
// body, if not nil, is sent as JSON (a json.RawMessage byte for byte; an
// io.Reader is sent as it is, with the Content-Type left to the caller).
// The request carries the SDK's
// Accept and User-Agent headers; authentication, retries and the per-call
// options are added when it is sent with Do.
func (c *Client) NewRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	return c.newRequest(ctx, target{method: method, path: path}, nil, body)
}

// Do sends req (built with NewRequest, or any request to the API's host)
// through the SDK's one request path: the per-call options reqOpts,
// authentication, retries, observers and error decoding. The bearer token
// is attached only to requests for the API's own scheme, host and port
// (those of the base URL): a request for any other is refused before
// anything is sent, with a *ValidationError. A status of 400 or more is
// returned as an *APIError. Otherwise, when v is an io.Writer the body is
// copied into it, and when v is any other non-nil value the JSON body is
// decoded into it (an empty body leaves v as it was). The response body is
// always read to the end and closed; the returned response is for its
// status and header.
func (c *Client) Do(req *http.Request, v any, reqOpts ...RequestOption) (*http.Response, error) {
	var rd reply
	switch v := v.(type) {
	case nil:
	case io.Writer:
		rd.read = func(r io.Reader) error { _, err := io.Copy(v, r); return err }
	default:
		rd.read = func(r io.Reader) error {
			err := json.NewDecoder(r).Decode(v)
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
	return c.send(req, reqOpts, rd)
}

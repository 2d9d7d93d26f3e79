package contract

import (
	"errors"
	"io"
	"net/http"
	"testing"
)

// NewTransport returns a RoundTripper that sends every request through
// next (http.DefaultTransport when nil) and checks it, and its reply,
// against the contract: each problem is reported with tb.Errorf, naming
// the operation, the method, the path and what is wrong. The round trip
// itself goes on unchanged, so the test sees what it would have seen
// without the check.
//
// Bodies are buffered for the check and handed on intact: the request's
// body is read before sending and sent from the buffer (of a multipart
// body only the first WithMaxMultipart bytes are held, the rest streams
// on); a reply's body is read before the caller gets it, except a body
// the document gives no schema (a download), which is never read.
//
// Requests that fail before a reply arrives are checked, replies whose
// body cannot be read are not (an injected fault is not the contract's
// business). NewTransport fails tb at once if the document cannot be
// loaded.
func NewTransport(tb testing.TB, next http.RoundTripper, opts ...Option) http.RoundTripper {
	tb.Helper()
	v, err := New(opts...)
	if err != nil {
		tb.Fatalf("contract: %v", err)
	}
	return v.Transport(tb, next)
}

// Transport is NewTransport with this validator's document and options.
func (v *Validator) Transport(tb testing.TB, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &transport{v: v, tb: tb, next: next}
}

type transport struct {
	v    *Validator
	tb   testing.TB
	next http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	body := req.Body
	ex, err := t.v.checkRequest(req, &body)
	if err != nil {
		// The request body cannot be read: the request could not be
		// sent either. Say so the way the real transport would.
		if body != nil {
			_ = body.Close()
		}
		return nil, err
	}
	out := req
	if body != req.Body {
		// A RoundTripper must not change the caller's request: send a
		// shallow copy holding the buffered body.
		out = new(http.Request)
		*out = *req
		out.Body = body
	}
	resp, err := t.next.RoundTrip(out)
	if err != nil {
		t.report(ex)
		return resp, err
	}
	t.v.checkResponse(ex, resp)
	t.report(ex)
	return resp, nil
}

func (t *transport) report(ex *exchange) {
	err := ex.violation()
	var v *Violation
	if errors.As(err, &v) {
		for _, m := range v.Messages() {
			t.tb.Errorf("%s", m)
		}
	}
}

// compile-time check that the body wrappers close what they wrap.
var (
	_ io.ReadCloser = (*joinedBody)(nil)
	_ io.ReadCloser = (*failingBody)(nil)
)

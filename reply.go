package workflow

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// reply says how the request path reads the body of a success answer.
// There is one constructor per shape the service answers with: resource
// (one JSON object, or a bare array), page (the paged list envelope), text
// (a short text/plain body) and none (the zero reply: the body is read and
// dropped). Every answer of the wrong shape (an empty body, null, {} or a
// value of the wrong JSON type where a resource is due, a list without its
// items, total or paging) is an error matching ErrUnexpectedResponse, which
// the request path wraps with the request's method and URL.
type reply struct {
	// read decodes the body; nil drops it.
	read func(io.Reader) error
	// stream, if set, takes the response over: the body stays open for
	// the caller (downloads).
	stream func(*http.Response) error
}

// readBody reads resp's body with r.read, and closes it, or hands the
// response to r.stream (which closes the body only when it fails). A
// failure to read the body is reported as such; a body that does not
// decode is a malformed answer.
func (r reply) readBody(resp *http.Response) error {
	if r.stream != nil {
		err := r.stream(resp)
		if err != nil {
			closeBody(resp.Body)
		}
		return err
	}
	defer closeBody(resp.Body)
	if r.read == nil {
		return nil
	}
	body := &readErrs{r: resp.Body}
	err := r.read(body)
	switch {
	case err == nil:
		return nil
	case errors.Is(body.err, io.ErrUnexpectedEOF),
		body.err == nil && body.n > 0 && errors.Is(err, io.ErrUnexpectedEOF):
		// The connection ended before the length it announced, or the
		// body before the JSON value it began.
		return &cutOffError{n: body.n}
	case body.err != nil:
		return fmt.Errorf("reading response: %w", body.err)
	case errors.Is(err, ErrUnexpectedResponse):
		return err
	}
	return fmt.Errorf("%w: status %d: %w", errMalformed, resp.StatusCode, err)
}

// readErrs counts the bytes of the body and remembers the error of
// reading it, other than its end.
type readErrs struct {
	r   io.Reader
	n   int64
	err error
}

func (b *readErrs) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
}

// cutOffError is a success answer whose body ended too soon: the
// connection was lost before the length the answer announced, or the body
// ended inside its JSON value. It is the failure of a lost connection,
// not a malformed answer (Temporary is true), and matches
// io.ErrUnexpectedEOF.
type cutOffError struct{ n int64 }

func (e *cutOffError) Error() string {
	return fmt.Sprintf("the response body was cut off after %d bytes", e.n)
}
func (e *cutOffError) Unwrap() error { return io.ErrUnexpectedEOF }

// missing is the error of a success answer without the resource it must
// hold.
func missing(what string) error {
	return fmt.Errorf("%w: no %s (an empty or null body, or an object without its id)", errMalformed, what)
}

// resource reads one JSON value into *v, with the members a model does not
// know kept in its Extra. The answer must hold it: an empty body, null, an
// empty object or array-less answer, or an object without its id (see
// identified) is an error; what names the resource in it.
func resource[T any](v *T, what string) reply {
	return whole(func(data []byte) error { return decodeResource(data, v, what) })
}

// whole is the reply that reads the whole body and hands it to read,
// which must not keep data: the buffer is reused for other answers.
func whole(read func(data []byte) error) reply {
	return reply{read: func(r io.Reader) error {
		buf := spareBody.Swap(nil)
		if buf == nil {
			buf = bodyBuffers.Get().(*bytes.Buffer)
		}
		defer func() {
			if buf.Cap() <= 1<<20 && !spareBody.CompareAndSwap(nil, buf) { // a larger one is left to the collector
				bodyBuffers.Put(buf)
			}
		}()
		buf.Reset()
		if _, err := buf.ReadFrom(r); err != nil {
			return err
		}
		return read(buf.Bytes())
	}}
}

var (
	bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	// spareBody keeps one buffer through the garbage collections that
	// empty bodyBuffers: a list's pages would otherwise grow a new one
	// about every third walk.
	spareBody atomic.Pointer[bytes.Buffer]
)

// decodeResource is resource's rule for the body data and a value v
// points at. When the answer does not hold the resource, *v is left zero.
func decodeResource(data []byte, v any, what string) (err error) {
	if t := bytes.TrimSpace(data); len(t) == 0 || string(t) == "null" {
		err = missing(what)
	} else if err = json.Unmarshal(data, v); err == nil && !present(v) {
		err = missing(what)
	}
	if err != nil {
		reflect.ValueOf(v).Elem().SetZero()
	}
	return err
}

// optional is resource for an answer that may have no body at all (an
// upload's 202): then *v stays nil. A body that is there must hold the
// resource.
func optional[T any](v **T, what string) reply {
	return whole(func(data []byte) error {
		if len(bytes.TrimSpace(data)) == 0 {
			return nil
		}
		*v = new(T)
		return decodeResource(data, *v, what)
	})
}

// identified is a model that names itself by an id: an answer of such a
// model without one holds no resource.
type identified interface{ resourceID() string }

// present reports whether a decoded answer holds its resource: a model
// with its id, a record with fields, an array (even empty).
func present(v any) bool {
	switch v := v.(type) {
	case identified:
		return v.resourceID() != ""
	case *Record:
		return len(*v) > 0
	}
	return true
}

// record reads a record: the flat field map the service publishes, or the
// same wrapped as {"data": {...}} like the items of a list.
func record(out *Record) reply {
	return whole(func(data []byte) error {
		err := decodeResource(data, out, "record")
		if err != nil {
			var w struct {
				Data jsontext.Value `json:"data"`
			}
			if json.Unmarshal(data, &w) == nil && w.Data.Kind() == '{' {
				return decodeResource(w.Data, out, "record")
			}
		}
		return err
	})
}

// page reads the paged list envelope {"items": [...], "total": n,
// "paging": {...}}. The three members must be there and not null: a list
// without them would end a walk silently short. A page of records (or of
// typed items) is read by scanPage where it can, into p.Items's room if it
// has size items (the page size asked for), or else a slice made for them; other pages, and the answers
// scanPage leaves, by the JSON library (the records then read themselves:
// see Record.UnmarshalJSONFrom). A page of less than half its slice's room
// is copied to a slice of its own size.
func page[T any](p *Page[T], size int) reply {
	return whole(func(data []byte) error {
		var w envelope[T]
		if !scanPage(data, size, p.Items[:0], &w) {
			w = envelope[T]{}
			if err := json.Unmarshal(data, &w); err != nil {
				if len(bytes.TrimSpace(data)) == 0 {
					return pageMissing("an empty body")
				}
				return err // one cut off: see reply.readBody
			}
		}
		switch {
		case w.Items == nil:
			return pageMissing(`no "items"`)
		case w.Total == nil:
			return pageMissing(`no "total"`)
		case w.Paging == nil:
			return pageMissing(`no "paging"`)
		}
		items := *w.Items
		if len(items) < cap(items)/2 {
			items = slices.Clone(items)
		}
		*p = Page[T]{Items: items, Total: *w.Total, Paging: *w.Paging}
		return nil
	})
}

// envelope is the paged list envelope as read, before page checks it.
type envelope[T any] struct {
	Items  *[]T         `json:"items"`
	Total  *int         `json:"total"`
	Paging *PagingState `json:"paging"`
}

func pageMissing(what string) error {
	return fmt.Errorf("%w: malformed paged list: %s", ErrUnexpectedResponse, what)
}

// maxTextReply bounds a text/plain answer.
const maxTextReply = 64 << 10

// textBody reads a short text/plain answer, verbatim; it must be valid UTF-8.
func textBody(s *string) reply {
	return reply{read: func(r io.Reader) error {
		b, err := io.ReadAll(io.LimitReader(r, maxTextReply+1))
		switch {
		case err != nil:
			return err
		case len(b) > maxTextReply:
			return fmt.Errorf("%w: a text answer longer than %d bytes", errMalformed, maxTextReply)
		case !utf8.Valid(b):
			return fmt.Errorf("%w: a text answer that is not valid UTF-8", errMalformed)
		}
		*s = string(b)
		return nil
	}}
}

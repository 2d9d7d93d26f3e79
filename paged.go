package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"

	json "github.com/go-json-experiment/json"
)

// listKind says what a paged list of the service accepts besides paging.
type listKind uint8

const (
	// pagedOnly is a list with paging parameters and no published filter.
	pagedOnly listKind = iota
	// pagedFiltered is a list with paging parameters and an RSQL filter.
	pagedFiltered
)

// listPage fetches one page of a paged list of the service at path: the
// envelope {"items": [T], "total": n, "paging": {...}} that every list
// but the attachments' uses. A filter on a list for which the service
// publishes none is refused before sending.
func listPage[T any](ctx context.Context, c *Client, path string, kind listKind, opts *ListOptions, reqOpts []RequestOption) (*Page[T], error) {
	if kind == pagedOnly && opts != nil && opts.Filter != nil {
		return nil, invalid("ListOptions.Filter", "must be nil: the service publishes no filter for "+path)
	}
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	req, err := c.newRequest(ctx, http.MethodGet, path, q, nil, reqOpts...)
	if err != nil {
		return nil, err
	}
	var body pagedBody[T]
	if _, err := c.do(req, &body); err != nil {
		return nil, err
	}
	return &body.page, nil
}

// walkPages returns the lazy page iterator of a paged list at path, through
// the one generic pager.
func walkPages[T any](ctx context.Context, c *Client, path string, kind listKind, opts *ListOptions, reqOpts []RequestOption) iter.Seq2[*Page[T], error] {
	return pages(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[T], error) {
		return listPage[T](ctx, c, path, kind, o, reqOpts)
	})
}

// walkItems returns the lazy item iterator of a paged list at path: forward,
// or from the end towards the start when opts page backward.
func walkItems[T any](ctx context.Context, c *Client, path string, kind listKind, opts *ListOptions, reqOpts []RequestOption) iter.Seq2[T, error] {
	return items(ctx, walkPages[T](ctx, c, path, kind, opts, reqOpts), opts.backward())
}

// errIter is an iterator that yields err once.
func errIter[T any](err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		yield(zero, err)
	}
}

// pagedBody decodes the paged list envelope. "items" and "paging" must be
// present: a list answer without them is malformed, and taking it for an
// empty last page would end a walk silently short.
type pagedBody[T any] struct{ page Page[T] }

func (b *pagedBody[T]) decodeBody(r io.Reader) error {
	var w struct {
		Items  *[]T         `json:"items"`
		Total  *int         `json:"total"`
		Paging *PagingState `json:"paging"`
	}
	if err := json.UnmarshalRead(r, &w); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%w: an empty body where a paged list was expected", errMalformedList)
		}
		return err
	}
	switch {
	case w.Items == nil:
		return fmt.Errorf("%w: no \"items\"", errMalformedList)
	case w.Paging == nil:
		return fmt.Errorf("%w: no \"paging\"", errMalformedList)
	}
	b.page.Items = *w.Items
	b.page.Paging = *w.Paging
	b.page.Total = len(b.page.Items)
	if w.Total != nil {
		b.page.Total = *w.Total
	}
	return nil
}

// errMalformedList is the reason a paged list answer is refused.
var errMalformedList = fmt.Errorf("%w: malformed paged list", ErrUnexpectedResponse)

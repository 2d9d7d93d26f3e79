package workflow

import (
	"bytes"
	"context"
	"fmt"
	"io"

	json "github.com/go-json-experiment/json"
)

// errMalformedReply is the reason a single-object answer is refused.
var errMalformedReply = fmt.Errorf("%w: malformed reply", ErrUnexpectedResponse)

// unmarshalModel decodes data into *p with github.com/go-json-experiment/json,
// replacing what *p held. T is a method-less copy of a model type whose
// fallback member (tagged `json:",embed"`) keeps unknown members. A JSON
// null leaves *p as it was, as encoding/json does.
func unmarshalModel[T any](data []byte, p *T) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*p = v
	return nil
}

// replyBody decodes an answer that is one JSON object of type T. An empty
// body, or a JSON null, leaves v nil. With required set, Client.do refuses
// such an answer, or an object without its id (see identifies).
type replyBody[T any] struct {
	v        *T
	required bool   // the answer must hold the object
	what     string // names T in errors, e.g. "user"
}

func (b *replyBody[T]) resourcePresent() bool {
	return !b.required || (b.v != nil && identifies(b.v))
}
func (b *replyBody[T]) resourceName() string { return b.what }

func (b *replyBody[T]) decodeBody(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if t := bytes.TrimSpace(data); len(t) == 0 || string(t) == "null" {
		return nil
	}
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	b.v = v
	return nil
}

// sendFor sends a request whose answer is one object of type T (what
// names it in errors). An answer without a body (204, or an empty 2xx)
// gives nil, nil when optional; otherwise it, or an object without its id,
// is refused by Client.do (see resourceResult).
func sendFor[T any](ctx context.Context, c *Client, method, path string, body any, what string, optional bool, reqOpts []RequestOption) (*T, error) {
	req, err := c.newRequest(ctx, method, path, nil, body, reqOpts...)
	if err != nil {
		return nil, err
	}
	out := replyBody[T]{required: !optional, what: what}
	if _, err := c.do(req, &out); err != nil {
		return nil, err
	}
	return out.v, nil
}

// sendNoBody sends a request whose success answer has no body (any body
// the service sends anyway is read and ignored).
func sendNoBody(ctx context.Context, c *Client, method, path string, body any, reqOpts []RequestOption) error {
	req, err := c.newRequest(ctx, method, path, nil, body, reqOpts...)
	if err != nil {
		return err
	}
	_, err = c.do(req, nil)
	return err
}

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
// body, or a JSON null, leaves v nil.
type replyBody[T any] struct{ v *T }

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
// gives nil, nil when optional, and an error otherwise.
func sendFor[T any](ctx context.Context, c *Client, method, path string, body any, what string, optional bool, reqOpts []RequestOption) (*T, error) {
	req, err := c.newRequest(ctx, method, path, nil, body, reqOpts...)
	if err != nil {
		return nil, err
	}
	var out replyBody[T]
	resp, err := c.do(req, &out)
	if err != nil {
		return nil, err
	}
	if !optional && (out.v == nil || !identifies(out.v)) {
		return nil, c.wrap(req, missingResource(resp.StatusCode, what))
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

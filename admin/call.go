package admin

import (
	"context"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// call sends one operation and decodes its answer into a new T.
func call[T any](ctx context.Context, c *workflow.Client, method, path string, body any, reqOpts []workflow.RequestOption) (*T, error) {
	out := new(T)
	if err := c.Call(ctx, method, path, nil, body, out, reqOpts...); err != nil {
		return nil, err
	}
	return out, nil
}

package workflow

import (
	"context"
)

// RequestOption changes one call: every service method and iterator takes
// a trailing list of them. Options are applied in order when the request
// is built, and checked before anything is sent: a bad option is a
// *ValidationError and no request is made. Iterators apply them to every
// page request.
type RequestOption func(*requestConfig) error

// requestConfig is what the options of one call set. It travels with the
// request in its context, so the transports of the one request path (retry,
// bearer) read it there; no service method looks at it.
type requestConfig struct{}

type requestConfigKey struct{}

// newRequestConfig applies opts in order. It returns nil, nil when there
// are none, so calls without options cost nothing.
func newRequestConfig(opts []RequestOption) (*requestConfig, error) {
	if len(opts) == 0 {
		return nil, nil
	}
	cfg := &requestConfig{}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(cfg); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// withRequestConfig returns ctx carrying cfg.
func withRequestConfig(ctx context.Context, cfg *requestConfig) context.Context {
	if cfg == nil {
		return ctx
	}
	return context.WithValue(ctx, requestConfigKey{}, cfg)
}

// requestConfigFrom returns the options of the call ctx belongs to, or nil.
func requestConfigFrom(ctx context.Context) *requestConfig {
	cfg, _ := ctx.Value(requestConfigKey{}).(*requestConfig)
	return cfg
}

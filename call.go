package workflow

import (
	"net/http"
)

// noFinish is startCall's finish when there is nothing to do.
func noFinish(*http.Response, error) {}

// startCall prepares a call for its request options and the observers. It
// returns the request to send and the function to call with the call's
// outcome: it fills WithResponseInto's Response and reports the end of
// the call. A call without options and without observers costs nothing.
func (c *Client) startCall(req *http.Request) (*http.Request, func(*http.Response, error)) {
	ctx := req.Context()
	cfg := requestConfigFrom(ctx)
	observed := c.hooks.observed()
	if cfg == nil && !observed {
		return req, noFinish
	}
	if cfg == nil {
		// Per-request state, for the attempt count.
		cfg = &requestConfig{}
		ctx = withRequestConfig(ctx, cfg)
	}
	cfg.attempts = 0
	ct := c.hooks.startCall(ctx, req)
	if ct != nil {
		ctx = ct.ctx
	}
	if ctx != req.Context() {
		req = req.WithContext(ctx)
	}
	return req, func(resp *http.Response, err error) {
		cfg.capture(resp, c.red)
		decodeErr := err != nil && resp != nil && resp.StatusCode < 400
		ct.end(resp, cfg.attempts, err, decodeErr)
	}
}

// CloseIdleConnections closes the connections the client keeps open for
// reuse that no request is using now. Requests in flight are not
// disturbed, and the client stays usable: later requests open new
// connections. It is safe to call at any time, more than once, and from
// several goroutines. Call it when a client is no longer needed, so its
// connections do not linger until the server or the idle timeout (90s)
// closes them.
//
// It acts on the transport the SDK made for the client. A client given
// its own *http.Client with WithHTTPClient is left alone: that transport
// is yours and may be shared; call its CloseIdleConnections yourself.
func (c *Client) CloseIdleConnections() {
	if c.ownsTransport {
		c.httpClient.CloseIdleConnections()
	}
}

// closeIdle closes the idle connections of rt, if it has any.
func closeIdle(rt http.RoundTripper) {
	if ci, ok := rt.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

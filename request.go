package workflow

import (
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"
)

// This file is the attempt loop of the one request path. Every call of
// every service goes:
//
//  1. build: the operation's target (its path), query and body, and
//     the call's options, checked before anything is sent (build.go, and
//     callConfig in request_options.go);
//  2. send: the attempt loop of Client.send here (send, classify, wait,
//     send again), each attempt through the client's http.Client, whose
//     transport adds the bearer token and waits for the rate limiter
//     (auth.go); whether and when an attempt is retried is retry.go's;
//  3. read: the final response becomes an *APIError (errors.go), or is
//     read by the call's reply reader (reply.go);
//  4. report: observers, the debug log and WithResponseInto are fed from
//     the loop (observe.go holds their types), and what any of them or an
//     error shows is redacted (redact.go).

// send is the attempt loop: it sends req by the call's retry policy,
// reads the final response with rd, and reports the call.
func (c *Client) send(req *http.Request, reqOpts []RequestOption, rd reply) (resp *http.Response, err error) {
	if req == nil || req.URL == nil {
		return nil, invalid("request", "must not be nil and must have a URL")
	}
	cfg, err := c.callConfig(reqOpts)
	if err == nil {
		err = cfg.applyToRequest(req)
	}
	if err == nil && !sameOrigin(req.URL, c.baseURL) {
		err = foreignOrigin(req.URL)
	}
	if err != nil {
		closeRequestBody(req)
		return nil, err
	}
	ct := c.hooks.startCall(req.Context(), req)
	if ct != nil {
		req = ct.request(req)
	}
	ctx := req.Context()
	attempts, start := 0, time.Now()
	defer func() {
		cfg.capture(resp, attempts, c.red)
		ct.end(resp, attempts, err)
	}()

	rewindable := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
	read := false // whether the last attempt had a success answer whose body it read (or failed to)
	for {
		attempts++
		r := req
		if attempts > 1 && req.GetBody != nil {
			body, gerr := req.GetBody()
			if gerr != nil {
				return nil, c.wrap(req, gerr)
			}
			r = req.Clone(ctx)
			r.Body = body
		}
		var after func(AttemptResult)
		if cfg.attemptHook != nil {
			if after, err = cfg.attemptHook(ctx); err != nil {
				attempts-- // this attempt is not sent
				return nil, c.transportError(req, err)
			}
		}
		at := c.hooks.startAttempt(r, attempts)
		resp, err = c.attempt(at.request(r), cfg.policy.AttemptTimeout)
		if read = err == nil && resp.StatusCode < 400 && rd.stream == nil; read {
			// The body is read within the attempt: one cut off is
			// retried like a lost connection.
			err = rd.readBody(resp)
		}
		wait, again := retryWait(cfg.policy, req, attempts, start, rewindable, resp, err)
		var shown error // err as the observers, the log and OnRetry see it
		if err != nil {
			shown = c.transportError(req, err)
		}
		at.end(resp, err, shown, again, wait, after)
		if !again {
			break
		}
		ev := RetryEvent{Attempt: attempts, Err: shown, Wait: wait}
		if resp != nil {
			if err == nil {
				ev.StatusCode = resp.StatusCode
			}
			closeBody(resp.Body)
		}
		if perr := c.pause(req, cfg.policy, ev, &start); perr != nil {
			return nil, perr
		}
	}
	switch {
	case err != nil && !read:
		return nil, c.transportError(req, err)
	case resp.StatusCode >= 400:
		defer closeBody(resp.Body)
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+1))
		return resp, c.apiError(req, resp, body)
	case rd.stream != nil:
		err = rd.readBody(resp)
	}
	if err != nil { // the success answer's body could not be read
		return resp, c.wrap(req, cmp.Or(ctx.Err(), err))
	}
	return resp, nil
}

// attempt sends one attempt through the client's http.Client, bounding
// the wait for its response headers by d (RetryPolicy.AttemptTimeout; 0 or
// less: no bound). The clock starts when the request has been written, and
// stops when the headers arrive; the body is then read under the caller's
// context only.
func (c *Client) attempt(r *http.Request, d time.Duration) (*http.Response, error) {
	if d <= 0 {
		return c.httpClient.Do(r)
	}
	parent := r.Context()
	ctx, cancel := context.WithCancelCause(parent)
	t := &attemptTimer{d: d, cancel: cancel}
	resp, err := c.httpClient.Do(r.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: t.wrote})))
	t.mu.Lock()
	t.finished = true
	fired := t.timer != nil && !t.timer.Stop()
	t.mu.Unlock()
	timedOut := fired && parent.Err() == nil && errors.Is(context.Cause(ctx), errAttemptTimedOut)
	if err != nil || timedOut {
		if resp != nil {
			closeBody(resp.Body)
		}
		cancel(nil)
		if timedOut {
			return nil, &timeoutError{what: "no response headers within RetryPolicy.AttemptTimeout (" + d.String() + ")"}
		}
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// attemptTimer starts an attempt's clock when its request has been
// written, and starts it again when it is written again (a replay after a
// 401), until the attempt has finished.
type attemptTimer struct {
	mu       sync.Mutex
	timer    *time.Timer
	finished bool
	d        time.Duration
	cancel   context.CancelCauseFunc
}

func (t *attemptTimer) wrote(httptrace.WroteRequestInfo) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.finished:
	case t.timer == nil:
		t.timer = time.AfterFunc(t.d, func() { t.cancel(errAttemptTimedOut) })
	case t.timer.Stop():
		t.timer.Reset(t.d)
	}
}

// errAttemptTimedOut is the cause of an attempt's context cancelled by
// RetryPolicy.AttemptTimeout.
var errAttemptTimedOut = errors.New("attempt timed out")

// cancelOnClose releases an attempt's context when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelCauseFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
}

// closeBody drains a bounded amount of the body so the connection can be
// reused, then closes it.
func closeBody(b io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, b, 256<<10)
	_ = b.Close()
}

func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

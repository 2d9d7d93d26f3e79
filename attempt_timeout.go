package workflow

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"
)

// errAttemptTimeout is the cause of an attempt abandoned by
// RetryPolicy.AttemptTimeout.
var errAttemptTimeout = errors.New("workflow: attempt timed out")

// attemptTimeoutError is an attempt whose response headers did not arrive
// in time. It is retried like a dropped connection, and reports Timeout()
// true, as a net.Error does.
type attemptTimeoutError struct{ d time.Duration }

func (e *attemptTimeoutError) Error() string {
	return "workflow: no response headers within the attempt timeout of " + e.d.String()
}

// Timeout reports true.
func (e *attemptTimeoutError) Timeout() bool { return true }

// Temporary reports true: another attempt may succeed.
func (e *attemptTimeoutError) Temporary() bool { return true }

// Unwrap returns errAttemptTimeout.
func (e *attemptTimeoutError) Unwrap() error { return errAttemptTimeout }

// sendAttempt sends r through next. When d > 0 the wait for the response
// headers is bounded by d; the body, once the headers are in, is bounded
// only by r's own context.
func sendAttempt(next http.RoundTripper, r *http.Request, d time.Duration) (*http.Response, error) {
	if d <= 0 {
		return next.RoundTrip(r)
	}
	parent := r.Context()
	ctx, cancel := context.WithCancelCause(parent)
	timer := time.AfterFunc(d, func() { cancel(errAttemptTimeout) })
	resp, err := next.RoundTrip(r.WithContext(ctx))
	stopped := timer.Stop()
	timedOut := !stopped && parent.Err() == nil && errors.Is(context.Cause(ctx), errAttemptTimeout)
	if err != nil || timedOut {
		if resp != nil {
			closeBody(resp.Body)
		}
		cancel(nil)
		if timedOut {
			return nil, &attemptTimeoutError{d}
		}
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: func() { cancel(nil) }}
	return resp, nil
}

// cancelOnClose releases an attempt's context when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel func()
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

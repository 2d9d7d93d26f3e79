package workflowtest

import (
	"net/http"
	"time"
)

// WithLatency makes every request (token requests included) wait d
// before the server looks at it, like the round trip and processing time
// of a real service: a sequential client then does at most 1/d requests
// a second, whatever the machine. The wait comes before injected faults,
// authentication and the rate limit, and ends early when the client goes
// away or the server closes. Zero (the default) adds nothing. SetLatency
// changes it while the server runs.
func WithLatency(d time.Duration) Option {
	return func(c *config) { c.latency = max(d, 0) }
}

// SetLatency changes the latency of every request from now on (see
// WithLatency); requests already waiting keep their wait.
func (s *Server) SetLatency(d time.Duration) {
	s.latency.Store(int64(max(d, 0)))
}

// applyLatency waits the configured latency. It reports false when the
// request should not be served: the client went away (nothing is
// answered) or the server is closing (503).
func (s *Server) applyLatency(rq *request, w http.ResponseWriter) bool {
	d := time.Duration(s.latency.Load())
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-rq.r.Context().Done():
		return false
	case <-s.closing:
		s.write(w, failf(http.StatusServiceUnavailable, "the server is shutting down"))
		return false
	}
}

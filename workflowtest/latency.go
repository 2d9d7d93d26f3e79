package workflowtest

import (
	"net/http"
	"time"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
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

// SetOperationLatency gives the requests of one operation (named by its
// id, as RequestRecord.Operation gives it) a latency of their own from now
// on, instead of the server's (see WithLatency); a negative d takes it
// back.
func (s *Server) SetOperationLatency(operation string, d time.Duration) {
	if d < 0 {
		s.opLatency.Delete(op.ID(operation))
	} else {
		s.opLatency.Store(op.ID(operation), d)
	}
}

// latencyOf is the latency of a request to operation id.
func (s *Server) latencyOf(id op.ID) time.Duration {
	if d, ok := s.opLatency.Load(id); ok {
		return d.(time.Duration)
	}
	return time.Duration(s.latency.Load())
}

// pause waits d: the latency, or a fault's delay. It reports false when
// the request should not be served: the client went away (nothing is
// answered) or the server is closing (503, marked as a fault's answer
// when fault says so).
func (s *Server) pause(rq *request, w http.ResponseWriter, d time.Duration, fault bool) bool {
	if d <= 0 {
		return true
	}
	select {
	case <-time.After(d):
		return true
	case <-rq.r.Context().Done():
		return false
	case <-s.closing:
		if fault {
			w.Header().Set(FaultHeader, "1")
		}
		s.write(w, rq, failf(http.StatusServiceUnavailable, "the server is shutting down"), &Fault{})
		return false
	}
}

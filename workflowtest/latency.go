package workflowtest

import (
	"net/http"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
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

// SetRateLimit changes the rate limit from now on, as WithRateLimit sets
// it: a token bucket per credential refilled at perSecond tokens a second,
// holding at most burst (at least 1); a refused request gets 429 with a
// Retry-After in whole seconds (at least 1). perSecond <= 0 turns it off.
// Every bucket starts full again.
func (s *Server) SetRateLimit(perSecond float64, burst int) {
	s.rateMu.Lock()
	defer s.rateMu.Unlock()
	s.cfg.rate, s.cfg.burst = perSecond, burst
	s.buckets = map[string]*bucket{}
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

// KeyCounts returns how many records of (rt, alias) hold each value of
// field (records without the field, or with it empty, are not counted):
// a test of a sync by that key finds duplicates as counts above 1, and
// lost records as keys missing.
func (s *Server) KeyCounts(rt workflow.RecordType, alias, field string) map[string]int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[string]int{}
	if d := s.st.defs[defKey{rt, alias}]; d != nil {
		for _, r := range d.records {
			if v, _ := r.fields.get(field); v != "" {
				out[v]++
			}
		}
	}
	return out
}

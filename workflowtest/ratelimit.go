package workflowtest

import (
	"net/http"
	"time"

	"golang.org/x/time/rate"
)

// The rate limit of the fake: a token bucket per credential, on the
// server's clock, off by default.

// WithRateLimit turns on the rate limit: a token bucket per credential
// (client id) refilled at perSecond tokens per second on the server's
// clock, holding at most burst tokens (at least 1), full at first. A request that finds the bucket
// empty gets 429 with a Retry-After header (whole seconds, at least 1).
// Off by default.
func WithRateLimit(perSecond float64, burst int) Option {
	return func(c *config) { c.rate, c.burst = perSecond, burst }
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

// bucket is a token bucket of the rate limit, on the server's clock.
type bucket = rate.Limiter

// limit takes a token from the credential's bucket, or answers 429.
func (s *Server) limit(clientID string) (response, bool) {
	now := s.Now()
	s.rateMu.Lock() // SetRateLimit changes the rate under it
	defer s.rateMu.Unlock()
	if s.cfg.rate <= 0 {
		return response{}, false
	}
	burst := max(s.cfg.burst, 1)
	b := s.buckets[clientID]
	if b == nil {
		b = rate.NewLimiter(rate.Limit(s.cfg.rate), burst)
		s.buckets[clientID] = b
	}
	if b.AllowN(now, 1) {
		return response{}, false
	}
	resp := failf(http.StatusTooManyRequests, "rate limit exceeded (%g requests per second, burst %d)", s.cfg.rate, burst)
	resp.retryAfter = time.Duration((1 - b.TokensAt(now)) / s.cfg.rate * float64(time.Second))
	return resp, true
}

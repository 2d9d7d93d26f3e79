package upsert

import (
	"context"
	"sync"
	"time"
)

// The adaptive limiter of Sync. It combines two limits, each adapted to
// what the service answers:
//
//   - a concurrency limit (requests in flight), grown by one per round of
//     successes (+1/limit per success) and halved on an overload answer
//     (502, 503, 504): additive increase, multiplicative decrease;
//   - a rate (requests started per second), unlimited until the first 429.
//     A 429 cuts it to rateCut times the rate it was sent at (the first
//     time: the rate of successes measured so far, over at most the last
//     second and at least 250ms). Until a second 429 shows where the
//     service's limit is, the rate grows by rateStartGrowth per success
//     (50% a second at full pace); after that by rateFastGrowth (10% a
//     second) until it is back near the rate of the last cut, and by
//     rateSlowGrowth (1% a second) above it, so that it probes the limit
//     slowly and meets few 429s.
//
// A Retry-After (on a 429 or 503) pauses every request until it has
// passed: one pause shared by all workers, never one per worker. Only the
// first throttle answer of an epoch cuts a limit: answers to requests that
// were started before the last cut say nothing new, so a burst of 429s in
// flight cuts the rate once.
//
// The state machine (release) reads the time only through now, so tests
// drive it with a fake clock.
type adaptiveLimiter struct {
	mu      sync.Mutex
	now     func() time.Time
	maxConc int

	conc     float64 // the concurrency limit, 1..maxConc
	inflight int

	rate     float64   // requests per second; 0 means not limited
	lastMax  float64   // the rate at the last cut from a paced rate; 0 until then
	first    time.Time // the first success
	next     time.Time // when the next request may start, pacing the rate
	paused   time.Time // no request starts before then (Retry-After)
	rateEp   uint64    // epoch of the rate: bumped by each cut
	concEp   uint64    // epoch of the concurrency limit
	changed  chan struct{}
	success  []time.Time // ring of the last successes' times
	succNext int

	throttles int // 429 answers seen
	overloads int // 502/503/504 answers seen
}

const (
	rateCut         = 0.7  // a 429 cuts the rate to 70% of the rate sent at
	rateStartGrowth = 0.5  // per success, while the limit is unknown
	rateFastGrowth  = 0.1  // per success, below rateNear of the last cut
	rateSlowGrowth  = 0.01 // per success, at or above it
	rateNear        = 0.95
	minRate         = 0.5 // requests per second, the rate's floor
	successRing     = 2048
)

// ticket is a request that has started.
type ticket struct {
	rateEp, concEp uint64
}

// outcome is what a request's answer says about the service's load.
type outcome int

const (
	outcomeOK         outcome = iota // any answer that is not a load signal
	outcomeThrottled                 // 429
	outcomeOverloaded                // 502, 503, 504
)

func newAdaptiveLimiter(maxConc, initial int, now func() time.Time) *adaptiveLimiter {
	if now == nil {
		now = time.Now
	}
	return &adaptiveLimiter{
		now:     now,
		maxConc: maxConc,
		conc:    float64(min(max(initial, 1), maxConc)),
		changed: make(chan struct{}),
		success: make([]time.Time, 0, successRing),
	}
}

// tryAcquire starts a request if the limits allow it now. Otherwise it
// returns how long to wait (-1: until a request ends) and the channel
// closed at the next change of state.
func (l *adaptiveLimiter) tryAcquire() (ticket, time.Duration, <-chan struct{}, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	switch {
	case now.Before(l.paused):
		return ticket{}, l.paused.Sub(now), l.changed, false
	case l.inflight >= int(l.conc):
		return ticket{}, -1, l.changed, false
	case l.rate > 0 && now.Before(l.next):
		return ticket{}, l.next.Sub(now), l.changed, false
	}
	l.inflight++
	if l.rate > 0 {
		// No credit for idle time: requests are spaced by 1/rate from now.
		l.next = later(l.next, now).Add(time.Duration(float64(time.Second) / l.rate))
	}
	return ticket{rateEp: l.rateEp, concEp: l.concEp}, 0, nil, true
}

// acquire waits until a request may start, or ctx ends.
func (l *adaptiveLimiter) acquire(ctx context.Context) (ticket, error) {
	for {
		if err := ctx.Err(); err != nil {
			return ticket{}, err
		}
		t, wait, changed, ok := l.tryAcquire()
		if ok {
			return t, nil
		}
		var (
			timer <-chan time.Time
			tm    *time.Timer
		)
		if wait >= 0 {
			tm = time.NewTimer(wait)
			timer = tm.C
		}
		select {
		case <-ctx.Done():
		case <-changed:
		case <-timer:
		}
		if tm != nil {
			tm.Stop()
		}
	}
}

// release ends the request of t with the outcome o; retryAfter is the
// wait the service asked for, if any.
func (l *adaptiveLimiter) release(t ticket, o outcome, retryAfter time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.inflight--
	if retryAfter > 0 {
		l.paused = later(l.paused, now.Add(retryAfter))
	}
	switch o {
	case outcomeOK:
		l.conc = min(float64(l.maxConc), l.conc+1/l.conc)
		switch {
		case l.rate == 0:
		case l.lastMax == 0:
			l.rate += rateStartGrowth
		case l.rate < rateNear*l.lastMax:
			l.rate += rateFastGrowth
		default:
			l.rate += rateSlowGrowth
		}
		if l.first.IsZero() {
			l.first = now
		}
		if len(l.success) < successRing {
			l.success = append(l.success, now)
		} else {
			l.success[l.succNext] = now
			l.succNext = (l.succNext + 1) % successRing
		}
	case outcomeThrottled:
		l.throttles++
		if t.rateEp == l.rateEp {
			sent := l.rate
			if sent == 0 {
				sent = l.successRate(now)
			} else {
				l.lastMax = sent
			}
			l.rate = max(rateCut*sent, minRate)
			l.next = now.Add(time.Duration(float64(time.Second) / l.rate))
			l.rateEp++
		}
	case outcomeOverloaded:
		l.overloads++
		if t.concEp == l.concEp {
			l.conc = max(1, l.conc/2)
			l.concEp++
		}
	}
	close(l.changed)
	l.changed = make(chan struct{})
}

// successRate is the rate of successes over the time since the first one,
// counting at most the last second and at least 250ms.
func (l *adaptiveLimiter) successRate(now time.Time) float64 {
	window := min(max(now.Sub(l.first), 250*time.Millisecond), time.Second)
	if l.first.IsZero() {
		window = time.Second
	}
	from := now.Add(-window)
	n := 0
	for _, t := range l.success {
		if t.After(from) {
			n++
		}
	}
	return float64(n) / window.Seconds()
}

// limits returns the current concurrency limit and rate (0: unlimited).
func (l *adaptiveLimiter) limits() (conc int, rate float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int(l.conc), l.rate
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

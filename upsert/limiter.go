package upsert

import (
	"context"
	"math"
	"sync"
	"time"
)

// The adaptive limiter of Records. It combines two limits, each adapted
// to what the service answers:
//
//   - a concurrency limit (requests in flight), grown by one per round of
//     successes (+1/limit per success) and halved on an overload answer
//     (502, 503, 504): additive increase, multiplicative decrease;
//   - a rate (requests started per second), unlimited until the first 429.
//     A 429 cuts it to rateCut times the rate the service accepted since
//     the cut before (or since the start): a 429 comes when the service's
//     allowance is spent, so between two of them it accepted just its
//     limit. After a cut the rate doubles every slowStart while below that
//     estimate (and, while no second 429 has confirmed it, above it too,
//     so that one lone 429 costs little); once at the estimate it probes
//     upward, slowly at first (probeGrowth a second), then faster, the
//     growth doubling every probeDouble, so that it meets a raised limit
//     within seconds and few 429s at a steady one.
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

	rate      float64   // requests per second; 0 means not limited
	estimate  float64   // the service's limit as measured at the last cut
	confirmed bool      // whether the last two cuts measured about the same limit
	grown     time.Time // when rate was last grown
	probing   time.Time // when the rate reached the estimate; zero before
	next      time.Time // when the next request may start, pacing the rate
	paused    time.Time // no request starts before then (Retry-After)
	rateEp    uint64    // epoch of the rate: bumped by each cut
	concEp    uint64    // epoch of the concurrency limit
	changed   chan struct{}

	since     time.Time // the start of the measurement: the last cut, or the first request
	successes int       // successes since then

	throttles int // 429 answers seen
	overloads int // 502/503/504 answers seen
}

const (
	rateCut     = 0.8                    // a 429 cuts the rate to 80% of the rate measured
	slowStart   = 50 * time.Millisecond  // the rate doubles in this time up to the estimate
	probeGrowth = 0.05                   // above it, it first grows by 5% a second
	probeDouble = 700 * time.Millisecond // and that growth doubles in this time
	minRate     = 0.5                    // requests per second, the rate's floor
	confirmed   = 0.25                   // a cut confirms the estimate when within 25% of it
	noLimit     = 16                     // a rate of 16 times the estimate is no limit
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
	if l.since.IsZero() {
		l.since = now
	}
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
		l.successes++
		l.grow(now)
	case outcomeThrottled:
		l.throttles++
		if t.rateEp == l.rateEp {
			elapsed := max(now.Sub(l.since), time.Millisecond)
			m := max(float64(l.successes)/elapsed.Seconds(), minRate)
			l.confirmed = math.Abs(m-l.estimate) <= confirmed*l.estimate
			l.estimate = m
			l.rate = max(rateCut*l.estimate, minRate)
			l.next = now.Add(time.Duration(float64(time.Second) / l.rate))
			l.since, l.successes, l.grown, l.probing = now, 0, now, time.Time{}
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

// grow raises the rate for the time since it was last grown: doubling
// every slowStart below the estimate (and above it until a second cut
// confirms it), then probing above it. A rate of noLimit times the
// estimate is no limit any more.
func (l *adaptiveLimiter) grow(now time.Time) {
	if l.rate == 0 {
		return
	}
	dt := now.Sub(l.grown).Seconds()
	l.grown = now
	gap := time.Duration(float64(time.Second) / l.rate)
	switch {
	case l.rate < l.estimate || !l.confirmed:
		l.rate *= math.Exp2(dt / slowStart.Seconds())
		if l.confirmed && l.rate >= l.estimate {
			l.rate, l.probing = l.estimate, now
		}
	case l.probing.IsZero():
		l.probing = now
	default:
		l.rate *= 1 + dt*probeGrowth*math.Exp2(now.Sub(l.probing).Seconds()/probeDouble.Seconds())
	}
	if l.rate > noLimit*l.estimate {
		l.rate = 0
		return
	}
	// The next start moves closer with the higher rate.
	l.next = l.next.Add(time.Duration(float64(time.Second)/l.rate) - gap)
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

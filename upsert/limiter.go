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
//     A 429 sets the estimate of the service's limit to the rate it
//     accepted over the last second (window), and not above the rate sent
//     then, and the rate to aim times that estimate: a 429 comes when the
//     service's allowance is spent, so over the last second it accepted
//     about its limit. When the last cut was more than a second ago, the
//     estimate is not above the rate accepted since then either: the
//     allowance was spent at both 429s, so between them the service
//     accepted its limit exactly, while the last second may also hold an
//     allowance saved up while the rate ran under the limit (an estimate
//     too low at first, when part of the allowance was spent before the
//     first request, fills it). The rate then probes upward, slowly at first
//     (probeGrowth a second), then faster, the growth doubling every
//     probeDouble, so that it meets a raised limit within seconds, and a
//     steady one every second or so, with the service's allowance near
//     empty and none of it lost. Until a 429 confirms the estimate (one
//     that measures no more than a quarter above it), the rate doubles
//     every slowStart instead, past the estimate too, so that one lone 429
//     costs little; but at most once per success, so that at a low rate it
//     does not outrun the answers (at 5 requests a second, four doublings
//     would make it no limit before the next answer came).
//
// A 429 with no successes yet, or only a few, is no estimate of a limit:
// the rate over a few milliseconds says nothing of the service's second.
// So in the first second, a 429 measures a limit only when the window
// holds minSample successes (the 1/sqrt(n) error of a count of 16 is the
// quarter within which a cut confirms the estimate). The first 429 with
// fewer is a probe: the rate stays, and the concurrency limit drops to
// one, so that the next answer, to one request, tells a lone 429 (it
// succeeds, and the limit grows back within a few rounds) from a real
// limit. A 429 to a request started after the probe confirms a limit: the
// service accepted those few successes in its first second and refuses
// more, so its limit is about that many a second, and the estimate is the
// successes counted over a whole second, confirmed (the rate probes from
// there, it does not double).
//
// A 429's Retry-After holds back only the request it answered (the client
// waits it before sending that request again): the others go on at the
// rate after the cut, which spaces them by more than the service's own
// refill. Pausing every request for a whole second would let the
// service's allowance fill up unused. A Retry-After on a 503 (overload)
// pauses every request until it has passed: one pause shared by all
// workers, never one per worker. Only the first throttle answer of an
// epoch cuts a limit: answers to requests that were started before the
// last cut say nothing new, so a burst of 429s in flight cuts once.
//
// The state machine (release) reads the time only through now, so tests
// drive it with a fake clock. With sleep set (Options.Clock), acquire
// waits on that clock too: requests take no time on it, so a wait first
// lets the requests in flight end, then one waiter sleeps while the others
// wait for it, and the limiter decides as it would on the real clock, in
// the time the caller's clock keeps.
type adaptiveLimiter struct {
	mu       sync.Mutex
	now      func() time.Time
	sleep    func(context.Context, time.Duration) error // nil: timers of the real clock
	sleeping bool                                       // whether a caller of acquire sleeps on it
	maxConc  int

	conc     float64 // the concurrency limit, 1..maxConc
	inflight int

	rate      float64   // requests per second; 0 means not limited
	estimate  float64   // the service's limit as measured at the last cut
	confirmed bool      // whether the last cut measured no more than a quarter above the estimate before
	probed    bool      // whether a 429 came with too few successes to measure a limit
	cut       time.Time // when the rate was last cut
	grown     time.Time // when rate was last grown
	next      time.Time // when the next request may start, pacing the rate
	paused    time.Time // no request starts before then (Retry-After of a 503)
	rateEp    uint64    // epoch of the rate: bumped by each cut
	concEp    uint64    // epoch of the concurrency limit
	changed   chan struct{}

	start time.Time     // the first request
	slot  int64         // the newest slot of window: the time since start over slotLen
	win   [slots]uint32 // successes in each slotLen of the last second, a ring

	throttles int    // 429 answers seen
	sinceCut  uint32 // successes since the last cut
	cuts      int    // rate cuts made
	probes    int    // 429s taken as a probe (at most one)
}

const (
	aim         = 0.9                    // a 429 cuts the rate to 90% of the rate measured
	slowStart   = 50 * time.Millisecond  // unconfirmed, the rate doubles in this time
	probeGrowth = 0.05                   // confirmed, it first grows by 5% a second
	probeDouble = 475 * time.Millisecond // and that growth doubles in this time
	minRate     = 0.5                    // requests per second, the rate's floor
	confirmed   = 0.25                   // a cut confirms the estimate when at most 25% above it
	noLimit     = 16                     // a rate of 16 times the estimate is no limit
	slotLen     = 100 * time.Millisecond // the accepted rate is counted by slots of this length
	slots       = 10                     // over the last second
	minSample   = 16                     // successes a 429 needs to measure a limit in the first second
	initialConc = 4                      // the concurrency limit at first (at most the maximum)
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
	if now.Before(l.paused) {
		return ticket{}, l.paused.Sub(now), l.changed, false
	}
	if l.inflight >= int(l.conc) {
		return ticket{}, -1, l.changed, false
	}
	if l.rate > 0 && now.Before(l.next) {
		return ticket{}, l.next.Sub(now), l.changed, false
	}
	l.inflight++
	if l.start.IsZero() {
		l.start = now
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
		if l.sleep != nil {
			if wait >= 0 && l.takeSleep() {
				err := l.sleep(ctx, wait)
				l.endSleep()
				if err != nil {
					return ticket{}, err
				}
				continue
			}
			wait = -1 // until a request in flight ends, or the sleep
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

// takeSleep reports whether the caller may sleep on the clock: when no
// request is in flight and no one else sleeps.
func (l *adaptiveLimiter) takeSleep() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inflight > 0 || l.sleeping {
		return false
	}
	l.sleeping = true
	return true
}

// endSleep ends a sleep of takeSleep and wakes the waiters.
func (l *adaptiveLimiter) endSleep() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sleeping = false
	l.wake()
}

// release ends the request of t with the outcome o; retryAfter is the
// wait the service asked for, if any.
func (l *adaptiveLimiter) release(t ticket, o outcome, retryAfter time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.inflight--
	switch o {
	case outcomeOK:
		l.conc = min(float64(l.maxConc), l.conc+1/l.conc)
		l.count(now, 1)
		l.sinceCut++
		l.grow(now)
	case outcomeThrottled:
		l.throttles++
		if t.rateEp == l.rateEp {
			l.throttle(now)
		}
	case outcomeOverloaded:
		l.paused = later(l.paused, now.Add(retryAfter)) // none: until now
		if t.concEp == l.concEp {
			l.conc = max(1, l.conc/2)
			l.concEp++
		}
	}
	l.wake()
}

// wake closes the channel of the waiters and makes a new one. The caller
// holds l.mu.
func (l *adaptiveLimiter) wake() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// count adds n successes at now to the window, first emptying the slots
// that passed since the last count.
func (l *adaptiveLimiter) count(now time.Time, n uint32) {
	s := max(int64(now.Sub(l.start)/slotLen), 0)
	for i := l.slot + 1; i <= s && i <= l.slot+slots; i++ {
		l.win[i%slots] = 0
	}
	l.slot = max(l.slot, s)
	l.win[s%slots] += n
}

// throttle is the first 429 of an epoch, at now. A 429 measures the
// service's limit when the window holds minSample successes, or the first
// second has passed: the estimate is then the rate accepted over the
// window, or since the last cut if that is less and more than a second
// ago. With fewer, in the first second, the first such 429 is a probe:
// the rate stays, and the concurrency limit drops to one, so that one
// request is in flight when the next answer says whether the limit is
// real. A 429 to a request started after the probe confirms it: the
// estimate is then the successes of the first second, counted over a
// whole second.
func (l *adaptiveLimiter) throttle(now time.Time) {
	l.rateEp++
	n, span := l.accepted(now)
	m := float64(n) / max(span, time.Millisecond).Seconds()
	if since := now.Sub(l.cut); !l.cut.IsZero() && since > time.Second {
		m = min(m, float64(l.sinceCut)/since.Seconds())
	}
	sure := false
	if n < minSample && now.Sub(l.start) < slots*slotLen {
		if !l.probed {
			l.probed = true
			l.probes++
			l.conc = 1
			return
		}
		m, sure = float64(n), true
	}
	m = max(m, minRate)
	if l.rate > 0 {
		m = min(m, l.rate)
	}
	l.confirmed = sure || m <= (1+confirmed)*l.estimate
	l.estimate = m
	l.rate = max(aim*m, minRate)
	l.next = now.Add(time.Duration(float64(time.Second) / l.rate))
	l.cut, l.grown, l.sinceCut = now, now, 0
	l.cuts++
}

// accepted returns the successes of the last second (or since the first
// request, if that is less) and that span: the full slots of the window
// and the part of the current one.
func (l *adaptiveLimiter) accepted(now time.Time) (uint32, time.Duration) {
	l.count(now, 0)
	var n uint32
	for _, c := range l.win {
		n += c
	}
	return n, min(now.Sub(l.start), (slots-1)*slotLen+now.Sub(l.start)%slotLen)
}

// grow raises the rate for the time since it was last grown: doubling
// every slowStart (at most once per success) until a cut confirms the
// estimate, then probing, the growth doubling every probeDouble since the
// cut. A rate of noLimit times the estimate is no limit any more.
func (l *adaptiveLimiter) grow(now time.Time) {
	if l.rate == 0 {
		return
	}
	dt := now.Sub(l.grown).Seconds()
	l.grown = now
	gap := time.Duration(float64(time.Second) / l.rate)
	if l.confirmed {
		l.rate *= 1 + dt*probeGrowth*math.Exp2(now.Sub(l.cut).Seconds()/probeDouble.Seconds())
	} else {
		l.rate *= math.Exp2(min(dt/slowStart.Seconds(), 1))
	}
	if l.rate >= noLimit*l.estimate {
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

package upsert

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newTestLimiter(maxConc, initial int) (*adaptiveLimiter, *fakeClock) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	return newAdaptiveLimiter(maxConc, initial, clk.now), clk
}

// take starts a request that must be allowed now.
func take(t *testing.T, l *adaptiveLimiter) ticket {
	t.Helper()
	tk, wait, _, ok := l.tryAcquire()
	require.True(t, ok, "a request should start now (wait %v)", wait)
	return tk
}

func TestLimiterConcurrencyGrowsAndHalves(t *testing.T) {
	l, _ := newTestLimiter(8, 2)
	a, b := take(t, l), take(t, l)
	_, wait, _, ok := l.tryAcquire()
	require.False(t, ok, "2 in flight at a limit of 2")
	assert.Equal(t, time.Duration(-1), wait, "waits for a request to end, not for a time")

	// Additive increase: +1/limit per success, so +1 per round.
	l.release(a, outcomeOK, 0)
	l.release(b, outcomeOK, 0)
	conc, rate := l.limits()
	assert.Equal(t, 2, conc) // 2 + 1/2 + 1/2.5 = 2.9
	assert.Zero(t, rate, "no rate limit before a 429")
	for range 4 {
		l.release(take(t, l), outcomeOK, 0)
	}
	conc, _ = l.limits()
	assert.Equal(t, 4, conc)
	for range 100 {
		l.release(take(t, l), outcomeOK, 0)
	}
	conc, _ = l.limits()
	assert.Equal(t, 8, conc, "never above the maximum")

	// Multiplicative decrease on an overload answer, once per epoch: the
	// answers to requests started before the cut do not cut again.
	inFlight := []ticket{take(t, l), take(t, l), take(t, l)}
	l.release(inFlight[0], outcomeOverloaded, 0)
	conc, _ = l.limits()
	assert.Equal(t, 4, conc)
	l.release(inFlight[1], outcomeOverloaded, 0)
	l.release(inFlight[2], outcomeOverloaded, 0)
	conc, _ = l.limits()
	assert.Equal(t, 4, conc, "one cut for one burst of overloads")
	l.release(take(t, l), outcomeOverloaded, 0)
	conc, _ = l.limits()
	assert.Equal(t, 2, conc, "a request started after the cut cuts again")
	for range 5 {
		l.release(take(t, l), outcomeOverloaded, 0)
	}
	conc, _ = l.limits()
	assert.Equal(t, 1, conc, "never below one")
}

// succeed sends n requests that succeed, one every `every`, each after
// that wait.
func succeed(t *testing.T, l *adaptiveLimiter, clk *fakeClock, n int, every time.Duration) {
	t.Helper()
	for range n {
		clk.advance(every)
		l.release(take(t, l), outcomeOK, 0)
	}
}

// A 429 sets the estimate to the rate the service accepted over the last
// second (or since the first request, if less; counted by slots of
// slotLen, hence the 5%), and not above the rate sent, and cuts the rate
// to aim times it.
func TestLimiterEstimateIsTheLastSecond(t *testing.T) {
	for _, tc := range []struct {
		name   string
		warmup func(*testing.T, *adaptiveLimiter, *fakeClock) (estimate float64)
	}{
		{"since the first request", func(t *testing.T, l *adaptiveLimiter, clk *fakeClock) float64 {
			succeed(t, l, clk, 30, 10*time.Millisecond) // 100/s for 0.3 s
			return 100
		}},
		{"the last second only", func(t *testing.T, l *adaptiveLimiter, clk *fakeClock) float64 {
			succeed(t, l, clk, 200, 10*time.Millisecond) // 100/s for 2 s
			succeed(t, l, clk, 40, 25*time.Millisecond)  // then 40/s
			return 40
		}},
		{"a pause counts", func(t *testing.T, l *adaptiveLimiter, clk *fakeClock) float64 {
			succeed(t, l, clk, 100, 10*time.Millisecond) // 100/s for 1 s
			clk.advance(500 * time.Millisecond)          // then nothing
			return 50
		}},
		{"not above the rate since the last cut, a second ago or more", func(t *testing.T, l *adaptiveLimiter, clk *fakeClock) float64 {
			succeed(t, l, clk, 100, 10*time.Millisecond) // 100/s for 1 s
			l.release(take(t, l), outcomeThrottled, 0)   // a cut
			succeed(t, l, clk, 20, 50*time.Millisecond)  // 20/s for 1 s
			succeed(t, l, clk, 20, 25*time.Millisecond)  // then 40/s for 0.5 s: 30/s over the last second
			return 40 / 1.5
		}},
		{"the last second, when the last cut was exactly a second ago", func(t *testing.T, l *adaptiveLimiter, clk *fakeClock) float64 {
			succeed(t, l, clk, 20, 50*time.Millisecond) // 20 in the 0.95 s since the first request
			l.cut, l.sinceCut = clk.now().Add(-time.Second), 1
			return 20 / 0.95
		}},
		{"the last second, when the last cut was less than a second ago", func(t *testing.T, l *adaptiveLimiter, clk *fakeClock) float64 {
			succeed(t, l, clk, 100, 10*time.Millisecond) // 100/s for 1 s
			l.release(take(t, l), outcomeThrottled, 0)   // a cut
			succeed(t, l, clk, 20, 25*time.Millisecond)  // 40/s for 0.5 s since the cut
			return (50 + 20) / 0.99                      // the window: 0.99 s, 0.49 s of it at 100/s
		}},
		{"not above the rate sent", func(t *testing.T, l *adaptiveLimiter, clk *fakeClock) float64 {
			succeed(t, l, clk, 100, 10*time.Millisecond)
			l.release(take(t, l), outcomeThrottled, 0) // a cut to 90% of 100/s
			_, rate := l.limits()
			clk.advance(20 * time.Millisecond)
			return rate // the service accepted 100/s, but was sent less
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, clk := newTestLimiter(16, 16)
			want := tc.warmup(t, l, clk)
			l.release(take(t, l), outcomeThrottled, time.Second)
			assert.InEpsilon(t, want, l.estimate, 0.05)
			_, rate := l.limits()
			assert.InDelta(t, aim*l.estimate, rate, 1e-9)
		})
	}
}

// A slot of the window a second old is emptied before it is counted in
// again, however far the clock has moved.
func TestLimiterWindowForgetsASecondAgo(t *testing.T) {
	for _, tc := range []struct {
		name  string
		later time.Duration
	}{
		{"one second later, the same place in the ring", time.Second},
		{"a second and a half later", 1500 * time.Millisecond},
		{"many seconds later", 7 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, clk := newTestLimiter(16, 16)
			l.start = clk.now()
			l.count(clk.now(), 10)
			clk.advance(tc.later)
			l.count(clk.now(), 1)
			n, span := l.accepted(clk.now())
			assert.Equal(t, uint32(1), n, "only the new success counts")
			assert.Equal(t, min(tc.later, 900*time.Millisecond+tc.later%slotLen), span)
		})
	}
}

// The first 429 cuts the rate once for a burst of 429s; until a second cut
// confirms the estimate, the rate then doubles every slowStart, past the
// estimate too, until it is no limit: one lone 429 costs little. It doubles
// at most once per success, however long the answer took.
func TestLimiterCutThenSlowStart(t *testing.T) {
	l, clk := newTestLimiter(16, 16)
	succeed(t, l, clk, 40, 25*time.Millisecond)
	burst := []ticket{take(t, l), take(t, l), take(t, l)}
	for _, tk := range burst {
		l.release(tk, outcomeThrottled, 0)
	}
	_, rate := l.limits()
	assert.InEpsilon(t, 40, l.estimate, 0.05, "40 successes in a second")
	assert.InDelta(t, aim*l.estimate, rate, 1e-9, "cut once, to 90% of it")
	assert.Equal(t, 3, l.throttles)
	assert.False(t, l.confirmed)

	// Requests are paced at the rate.
	gap := time.Duration(float64(time.Second) / rate)
	clk.advance(gap)
	tk := take(t, l)
	_, wait, _, ok := l.tryAcquire()
	require.False(t, ok)
	assert.Equal(t, gap, wait)

	// Slow start: the rate doubles every slowStart, past the estimate.
	clk.advance(slowStart - gap)
	l.release(tk, outcomeOK, 0)
	_, rate = l.limits()
	assert.InDelta(t, 2*aim*l.estimate, rate, 1e-6)
	clk.advance(slowStart / 2)
	l.release(take(t, l), outcomeOK, 0)
	_, rate = l.limits()
	assert.InDelta(t, math.Sqrt2*2*aim*l.estimate, rate, 1e-6, "half a slowStart, half a doubling")
	clk.advance(slowStart / 2)
	l.release(take(t, l), outcomeOK, 0)
	_, rate = l.limits()
	assert.InDelta(t, 4*aim*l.estimate, rate, 1e-6, "past the estimate while it is not confirmed")
	// But at most once per success: four slowStarts without an answer
	// double it once, they do not make it no limit.
	clk.advance(4 * slowStart)
	l.release(take(t, l), outcomeOK, 0)
	_, rate = l.limits()
	assert.InDelta(t, 8*aim*l.estimate, rate, 1e-6, "one doubling for one success")
	for range 2 {
		clk.advance(slowStart)
		l.release(take(t, l), outcomeOK, 0)
	}
	_, rate = l.limits()
	assert.Zero(t, rate, "16 times the estimate is no limit any more")
	take(t, l) // at once, however close the last start
}

// The rate is no limit any more from noLimit times the estimate on, not
// below it.
func TestLimiterNoLimitFrom16Times(t *testing.T) {
	for _, tc := range []struct {
		from, want float64 // the rate before a slowStart of growth, and after
	}{
		{noLimit / 2, 0},
		{noLimit/2 - 0.5, noLimit - 1},
	} {
		l, clk := newTestLimiter(8, 8)
		l.rate, l.estimate, l.grown, l.next = tc.from, 1, clk.now(), clk.now()
		clk.advance(slowStart)
		l.release(take(t, l), outcomeOK, 0)
		_, rate := l.limits()
		assert.InDelta(t, tc.want, rate, 1e-9, "from %v", tc.from)
	}
}

// A cut that measures exactly a quarter above the estimate confirms it.
func TestLimiterConfirmsAtAQuarterAbove(t *testing.T) {
	l, clk := newTestLimiter(8, 8)
	l.start = clk.now()
	succeed(t, l, clk, 20, 25*time.Millisecond) // 40 a second, exactly
	l.estimate, l.rate = 32, 64
	l.release(take(t, l), outcomeThrottled, 0)
	assert.Equal(t, 40.0, l.estimate)
	assert.True(t, l.confirmed)
}

// A second cut that measures no more than a quarter above the estimate
// (the same limit, or a lowered one) confirms it: the rate then probes
// upward from aim times it, slowly at first, faster as no 429 comes, so
// that it finds a raised limit within seconds. A cut that measures much
// more (the limit was raised) does not confirm it.
func TestLimiterConfirmedLimitIsProbed(t *testing.T) {
	l, clk := newTestLimiter(16, 16)
	succeed(t, l, clk, 100, 20*time.Millisecond) // 50/s
	l.release(take(t, l), outcomeThrottled, time.Second)
	require.False(t, l.confirmed)
	succeed(t, l, clk, 50, 25*time.Millisecond) // 40/s, the rate above it
	l.release(take(t, l), outcomeThrottled, time.Second)
	assert.True(t, l.confirmed, "40/s after 50/s: a lowered limit")
	assert.InEpsilon(t, 40, l.estimate, 0.05)
	_, rate := l.limits()
	assert.InDelta(t, aim*l.estimate, rate, 1e-9)

	// Probing: 5% a second at first, the growth doubling every
	// probeDouble since the cut.
	clk.advance(time.Second / 10)
	l.release(take(t, l), outcomeOK, 0)
	_, next := l.limits()
	assert.InDelta(t, rate*(1+probeGrowth*math.Exp2(0.1/probeDouble.Seconds())*0.1), next, 1e-9)
	clk.advance(time.Second / 10)
	l.release(take(t, l), outcomeOK, 0)
	_, rate = l.limits()
	assert.Less(t, rate, l.estimate, "under the estimate for a while after the cut")
	for range 28 {
		clk.advance(time.Second / 10)
		l.release(take(t, l), outcomeOK, 0)
	}
	_, rate = l.limits()
	assert.Greater(t, rate, 5*l.estimate, "three seconds of probing find a limit raised five times")

	// A cut that measures more than a quarter above the estimate does not
	// confirm it: slow start again. The estimate is the rate accepted
	// since the last cut, 4 s ago, less than the last second's 200/s.
	succeed(t, l, clk, 200, 5*time.Millisecond) // 200/s
	l.release(take(t, l), outcomeThrottled, time.Second)
	assert.False(t, l.confirmed)
	assert.InEpsilon(t, (2+28+200)/4.0, l.estimate, 1e-9)
}

// In the first second, a 429 with fewer than minSample successes in the
// window measures no limit. The first is a probe: the rate stays and the
// concurrency limit drops to one; the answers to requests started before
// it say nothing more. A 429 to a request started after it confirms a
// limit: the successes so far, counted over a whole second. With
// minSample successes, or after the first second, a 429 measures the
// rate accepted.
func TestLimiterEarly429(t *testing.T) {
	for _, tc := range []struct {
		name      string
		successes int           // before the 429s
		every     time.Duration // one success every
		probe     bool
		estimate  float64 // of the cut, if not a probe
	}{
		{"no success", 0, 0, true, 0},
		{"a few", 3, time.Millisecond, true, 0},
		{"one short of the sample", minSample - 1, time.Millisecond, true, 0},
		{"the sample", minSample, time.Millisecond, false, 1000},
		{"a few in more than a second", 5, 300 * time.Millisecond, false, 4 / 0.9}, // the last 4 in 0.9 s
		{"a few at one second", 4, 250 * time.Millisecond, false, 4 / 0.9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, clk := newTestLimiter(8, 4)
			early := take(t, l) // started before the 429s
			succeed(t, l, clk, tc.successes, tc.every)
			before, _ := l.limits()
			l.release(take(t, l), outcomeThrottled, 0)
			conc, rate := l.limits()
			if !tc.probe {
				assert.InEpsilon(t, tc.estimate, l.estimate, 1e-6)
				assert.InDelta(t, aim*tc.estimate, rate, 1e-6)
				assert.Equal(t, before, conc, "a cut leaves the concurrency")
				return
			}
			assert.Zero(t, rate, "a probe keeps the rate")
			assert.Equal(t, 1, conc, "one request in flight until the next answer")
			assert.Zero(t, l.estimate)
			l.release(early, outcomeThrottled, 0)
			_, rate = l.limits()
			assert.Zero(t, rate, "a request started before the probe says nothing more")
			clk.advance(time.Millisecond)
			l.release(take(t, l), outcomeThrottled, 0)
			_, rate = l.limits()
			want := max(float64(tc.successes), minRate)
			assert.InDelta(t, want, l.estimate, 1e-9, "the successes of the first second, per second")
			assert.InDelta(t, max(aim*want, minRate), rate, 1e-9)
			assert.True(t, l.confirmed, "a second 429 confirms the limit")
			assert.Equal(t, 3, l.throttles)
		})
	}
}

// A 429's Retry-After holds back only the request it answered: the others
// go on at the rate after the cut. A 503's Retry-After pauses every
// request once, however many answers carry it: the pause ends at the
// latest of them, it does not add up.
func TestLimiterRetryAfter(t *testing.T) {
	l, clk := newTestLimiter(4, 4)
	succeed(t, l, clk, minSample, 10*time.Millisecond)
	l.release(take(t, l), outcomeThrottled, time.Second)
	_, rate := l.limits()
	_, wait, _, ok := l.tryAcquire()
	require.False(t, ok)
	assert.Equal(t, time.Duration(float64(time.Second)/rate), wait, "one gap of the rate, not the Retry-After")

	l2, clk2 := newTestLimiter(4, 4)
	a, b := take(t, l2), take(t, l2)
	l2.release(a, outcomeOverloaded, 2*time.Second)
	clk2.advance(100 * time.Millisecond)
	l2.release(b, outcomeOverloaded, 2*time.Second)
	_, wait, _, ok = l2.tryAcquire()
	require.False(t, ok)
	assert.Equal(t, 2*time.Second, wait, "until the later of the two, not 4s")
	clk2.advance(2 * time.Second)
	take(t, l2)
}

// acquire waits for a slot and returns when ctx ends.
func TestLimiterAcquireWaitsAndCancels(t *testing.T) {
	l := newAdaptiveLimiter(1, 1, nil)
	tk, err := l.acquire(t.Context())
	require.NoError(t, err)
	// The one slot is taken: nobody else may start until it is released.
	_, wait, changed, ok := l.tryAcquire()
	require.False(t, ok, "a second request started while the only slot was taken")
	assert.Equal(t, time.Duration(-1), wait, "it waits for a request to end")
	require.NotNil(t, changed)
	got := make(chan error, 1)
	go func() {
		tk2, err := l.acquire(t.Context())
		if err == nil {
			l.release(tk2, outcomeOK, 0)
		}
		got <- err
	}()
	l.release(tk, outcomeOK, 0) // frees the slot the goroutine waits for
	require.NoError(t, <-got)
	select {
	case <-changed:
	default:
		t.Fatal("the release did not wake the waiters")
	}

	tk, err = l.acquire(t.Context())
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	go func() { _, err := l.acquire(ctx); got <- err }()
	cancel()
	assert.ErrorIs(t, <-got, context.Canceled)
	l.release(tk, outcomeOK, 0)
}

// The latency of one request of Records against the fake on loopback, as
// measured on a 2-core machine during syncs of 2,000 new records, with
// Records's default concurrency (8 in flight): 0.4 ms in flight (the
// median), and 0.5 ms more for a request that opens a connection (the
// first look-up took 0.9 ms).
const (
	simLatency = 400 * time.Microsecond
	simDial    = 500 * time.Microsecond
)

// scenario is a simulated run of the limiter against a service, on a fake
// clock. It runs with Records's concurrency: 2*DefaultConcurrency workers
// send requests of one latency through a limiter of DefaultConcurrency
// that starts at initialConc, as Records builds it. The service admits a
// request at the end of its latency (as the fake, which waits its latency
// first) by a token bucket holding one second of its rate (unlimited when
// rate is nil), less spent tokens at first, and answers 429 with
// retryAfter when it is empty, or when
// the request is the throttleAt-th one it receives. A throttled request is
// sent again by its worker after retryAfter, as the client does (at once
// for 0). As in Records, the first request (a look-up) goes alone: nothing
// else starts before its answer. A request that finds no idle connection
// opens one, which adds dial to its latency; the client keeps them. The
// clock moves from one event to the next: an answer, a retry, or the time
// the limiter names.
type scenario struct {
	requests   int                         // successes needed
	latency    time.Duration               // of every request
	dial       time.Duration               // added to a request that opens a connection
	rate       func(time.Duration) float64 // the service's limit at a time from the start; nil: none
	retryAfter time.Duration               // of every 429
	throttleAt int                         // a lone 429 on this request (from 1), 0 for none
	throttled  map[int]bool                // 429s on these requests (from 1), as throttleAt
	until      time.Duration               // the run ends then, if not 0, whatever the successes
	spent      float64                     // tokens of the service's first bucket spent before the run
}

// outcome of a simulated run.
type simResult struct {
	elapsed   time.Duration
	sent      int
	throttled []time.Duration // the time of each 429
	accepted  []time.Duration // the time of each success
	cuts      int             // rate cuts the limiter made
	probes    int             // 429s it took as a probe
}

func (sc scenario) run() simResult {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	start := clk.t
	end := start.Add(10 * time.Minute) // a bound, should the limiter stall
	if sc.until > 0 {
		end = start.Add(sc.until)
	}
	l := newAdaptiveLimiter(DefaultConcurrency, initialConc, clk.now)
	type worker struct {
		busy  bool
		retry bool // the request was throttled: send it again when ready
		ready time.Time
		done  time.Time
		tk    ticket
	}
	ws := make([]worker, 2*DefaultConcurrency)
	var (
		res            simResult
		tokens         float64
		lastFill       = start
		assigned, succ int
		lastRate       float64
		busy, conns    int
	)
	admit := func(now time.Time) bool {
		res.sent++
		if res.sent == sc.throttleAt || sc.throttled[res.sent] {
			return false
		}
		if sc.rate == nil {
			return true
		}
		r := sc.rate(now.Sub(start))
		tokens = min(r, tokens+r*now.Sub(lastFill).Seconds())
		lastFill = now
		if res.sent == 1 || r != lastRate {
			tokens = r // a new limit starts with a full bucket, as the fake's
		}
		if res.sent == 1 {
			tokens -= sc.spent
		}
		lastRate = r
		if tokens >= 1 {
			tokens--
			return true
		}
		return false
	}
	for clk.now().Before(end) {
		now := clk.now()
		for i := range ws {
			w := &ws[i]
			if !w.busy || now.Before(w.done) {
				continue
			}
			w.busy = false
			busy--
			if admit(now) {
				succ++
				res.accepted = append(res.accepted, now.Sub(start))
				l.release(w.tk, outcomeOK, 0)
			} else {
				res.throttled = append(res.throttled, now.Sub(start))
				l.release(w.tk, outcomeThrottled, sc.retryAfter)
				w.ready = now.Add(sc.retryAfter)
				w.retry = true
			}
		}
		if succ >= sc.requests {
			break
		}
		next := end
		for i := range ws {
			w := &ws[i]
			switch {
			case w.busy:
				next = earlier(next, w.done)
				continue
			case !w.retry && assigned >= sc.requests, res.sent == 0 && busy > 0:
				continue
			case now.Before(w.ready):
				next = earlier(next, w.ready)
				continue
			}
			tk, wait, _, ok := l.tryAcquire()
			if !ok {
				if wait >= 0 {
					next = earlier(next, now.Add(wait))
				}
				continue
			}
			if !w.retry {
				assigned++
			}
			*w = worker{busy: true, done: now.Add(sc.latency), tk: tk}
			if busy++; busy > conns {
				conns++
				w.done = w.done.Add(sc.dial)
			}
			next = earlier(next, w.done)
		}
		clk.t = next
	}
	res.elapsed = clk.now().Sub(start)
	res.cuts, res.probes = l.cuts, l.probes
	return res
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// rateIn is the rate of successes in [from, to).
func (r simResult) rateIn(from, to time.Duration) float64 {
	n := 0
	for _, t := range r.accepted {
		if t >= from && t < to {
			n++
		}
	}
	return float64(n) / (to - from).Seconds()
}

// A lone 429 against an unlimited service costs at most twice the time
// without it, beyond the wait it asks for, wherever it comes: on the first
// request, before anything succeeded, too. The sync is that of 2,000 new
// records: 2,014 requests (14 look-ups), at the measured latency.
func TestLimiterSimulatedLone429(t *testing.T) {
	const requests = 2014
	base := scenario{requests: requests, latency: simLatency, dial: simDial}.run()
	for _, at := range []int{1, 3, 50, 500} {
		for _, ra := range []time.Duration{0, time.Second} {
			t.Run(fmt.Sprintf("request=%d/retry-after=%v", at, ra), func(t *testing.T) {
				r := scenario{requests: requests, latency: simLatency, dial: simDial, throttleAt: at, retryAfter: ra}.run()
				ratio := float64(r.elapsed-ra) / float64(base.elapsed)
				t.Logf("%v, %.2fx the time without it (%v) beyond the wait", r.elapsed, ratio, base.elapsed)
				assert.LessOrEqual(t, ratio, 2.0)
				assert.Len(t, r.throttled, 1)
			})
		}
	}
}

// The guard against ignoring early 429s: against a limit of 5 requests a
// second from the first request (a token bucket holding one second of it,
// answering 429 with Retry-After: 1), the limiter runs at 85% to 105% of
// the limit within 4 seconds (from 4 to 8 seconds), and is answered 429 at
// most 10 times in those first 4 seconds, whatever the latency, and
// whether the bucket is full at the first request or some of it was spent
// before (by the token request, when the service counts it, or by another
// client of the same account): the first second then measures less than
// the limit, and the allowance saved up under it must not lead the
// limiter past the limit later.
func TestLimiterSimulatedLowLimitFromTheStart(t *testing.T) {
	for _, latency := range []time.Duration{simLatency, 5 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond} {
		for _, spent := range []float64{0, 1, 2, 3} {
			t.Run(fmt.Sprintf("latency=%v/spent=%v", latency, spent), func(t *testing.T) {
				r := scenario{requests: math.MaxInt, latency: latency, retryAfter: time.Second, until: 8 * time.Second,
					rate: func(time.Duration) float64 { return 5 }, spent: spent}.run()
				got := r.rateIn(4*time.Second, 8*time.Second) / 5
				early := 0
				for _, d := range r.throttled {
					if d < 4*time.Second {
						early++
					}
				}
				t.Logf("%.1f%% of the limit from 4 to 8 s; %d 429s in the first 4 s, %d in 8 s: %v", 100*got, early, len(r.throttled), r.throttled)
				assert.GreaterOrEqual(t, got, 0.85)
				assert.LessOrEqual(t, got, 1.05)
				assert.LessOrEqual(t, early, 10)
			})
		}
	}
}

// A fixed limit of 50 requests a second is used at 95% or more of the
// best possible, whatever the latency.
func TestLimiterSimulatedFixedLimit(t *testing.T) {
	for _, latency := range []time.Duration{5 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond} {
		t.Run(latency.String(), func(t *testing.T) {
			r := scenario{requests: 1000, latency: latency, retryAfter: time.Second,
				rate: func(time.Duration) float64 { return 50 }}.run()
			best := 20 * time.Second // 1,000 requests at 50 a second
			t.Logf("%v, %.1f%% of the best possible, %d 429s", r.elapsed, 100*best.Seconds()/r.elapsed.Seconds(), len(r.throttled))
			assert.GreaterOrEqual(t, best.Seconds()/r.elapsed.Seconds(), 0.95)
		})
	}
}

// A limit that changes (50, 20, then 100 requests a second, 8 seconds
// each; the first lasts shift longer) is tracked within 4 seconds: from 4
// to 8 seconds after each change, the service accepts 85% to 105% of it.
// The latencies and shifts move the 429s against the changes and the
// measured windows.
func TestLimiterSimulatedChangingLimit(t *testing.T) {
	limits := []float64{50, 20, 100}
	for _, latency := range []time.Duration{5 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond} {
		for _, shift := range []time.Duration{0, 250 * time.Millisecond, 500 * time.Millisecond, 750 * time.Millisecond} {
			t.Run(fmt.Sprintf("latency=%v/shift=%v", latency, shift), func(t *testing.T) {
				phase := func(d time.Duration) int { return min(max(int((d-shift)/(8*time.Second)), 0), 2) }
				r := scenario{requests: math.MaxInt, latency: latency, retryAfter: time.Second, until: shift + 24*time.Second,
					rate: func(d time.Duration) float64 { return limits[phase(d)] }}.run()
				for i, limit := range limits {
					from := shift + time.Duration(i)*8*time.Second + 4*time.Second
					got := r.rateIn(from, from+4*time.Second) / limit
					t.Logf("a limit of %v/s: %.1f%% of it from %v", limit, 100*got, from)
					assert.InDelta(t, 0.95, got, 0.1, "limit %v", limit)
				}
				t.Logf("%d 429s", len(r.throttled))
			})
		}
	}
}

// With a clock that can sleep (Options.Clock), acquire waits on it: a
// wait of the pacing or of a 503 sleeps on that clock, once no request
// is in flight, and never on a timer.
func TestLimiterAcquireSleepsOnTheClock(t *testing.T) {
	l, clk := newTestLimiter(4, 4)
	var mu sync.Mutex
	var slept []time.Duration
	l.sleep = func(_ context.Context, d time.Duration) error {
		mu.Lock()
		defer mu.Unlock()
		slept = append(slept, d)
		clk.advance(d)
		return nil
	}
	a, b := take(t, l), take(t, l)
	l.release(a, outcomeOverloaded, time.Hour) // pauses every request for an hour
	got := make(chan ticket, 1)
	go func() {
		tk, err := l.acquire(t.Context())
		assert.NoError(t, err)
		got <- tk
	}()
	select {
	case <-got:
		t.Fatal("a request started during the pause")
	case <-time.After(50 * time.Millisecond):
	}
	mu.Lock()
	assert.Empty(t, slept, "no sleep while a request is in flight: it takes no time on the clock")
	mu.Unlock()
	l.release(b, outcomeOK, 0)
	select {
	case tk := <-got:
		l.release(tk, outcomeOK, 0)
	case <-time.After(time.Minute): // a liveness guard
		t.Fatal("acquire did not sleep on the clock")
	}
	assert.Equal(t, []time.Duration{time.Hour}, slept, "the pause, slept on the clock once")

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	l.release(take(t, l), outcomeOverloaded, time.Hour)
	l.sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	_, err := l.acquire(ctx)
	assert.ErrorIs(t, err, context.Canceled)
}

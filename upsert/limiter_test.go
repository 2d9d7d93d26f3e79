package upsert

import (
	"context"
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

func TestLimiterRateCutOnceAndProbesUp(t *testing.T) {
	l, clk := newTestLimiter(16, 16)
	// 40 successes over a second, then a burst of 429s.
	for range 40 {
		clk.advance(25 * time.Millisecond)
		l.release(take(t, l), outcomeOK, 0)
	}
	burst := []ticket{take(t, l), take(t, l), take(t, l)}
	for _, tk := range burst {
		l.release(tk, outcomeThrottled, 0)
	}
	_, rate := l.limits()
	assert.InDelta(t, rateCut*40, rate, 1e-9, "cut once, to 70% of the success rate")
	assert.Equal(t, 3, l.throttles)

	// Requests are paced at the rate: 1/28 s apart.
	gap := time.Duration(float64(time.Second) / rate)
	clk.advance(gap)
	tk := take(t, l)
	_, wait, _, ok := l.tryAcquire()
	require.False(t, ok)
	assert.Equal(t, gap, wait)

	// The limit is not known yet: the rate grows fast, 0.5 per success.
	l.release(tk, outcomeOK, 0)
	_, rate = l.limits()
	assert.InDelta(t, 28.5, rate, 1e-9)
	for range 24 {
		clk.advance(time.Second)
		l.release(take(t, l), outcomeOK, 0)
	}
	_, rate = l.limits()
	assert.InDelta(t, 40.5, rate, 1e-9)

	// A 429 at a paced rate marks the limit: cut to 70%, then back up by
	// 0.1 per success to 95% of it, and by 0.01 above.
	clk.advance(time.Second)
	l.release(take(t, l), outcomeThrottled, 0)
	_, rate = l.limits()
	assert.InDelta(t, rateCut*40.5, rate, 1e-9)
	clk.advance(time.Second)
	l.release(take(t, l), outcomeOK, 0)
	_, next := l.limits()
	assert.InDelta(t, rate+rateFastGrowth, next, 1e-9)
	for rate < rateNear*40.5 {
		clk.advance(time.Second)
		l.release(take(t, l), outcomeOK, 0)
		_, rate = l.limits()
	}
	before := rate
	clk.advance(time.Second)
	l.release(take(t, l), outcomeOK, 0)
	_, rate = l.limits()
	assert.InDelta(t, before+rateSlowGrowth, rate, 1e-9)

	// The next 429 cuts from the current rate.
	clk.advance(time.Second)
	l.release(take(t, l), outcomeThrottled, 0)
	_, after := l.limits()
	assert.InDelta(t, rateCut*rate, after, 1e-9)
}

// Right after the start, the first cut measures the successes over the
// time since the first one (at least 250ms), not over a whole second.
func TestLimiterFirstCutMeasuresSinceStart(t *testing.T) {
	l, clk := newTestLimiter(16, 16)
	for range 10 {
		clk.advance(10 * time.Millisecond)
		l.release(take(t, l), outcomeOK, 0)
	}
	l.release(take(t, l), outcomeThrottled, time.Second)
	_, rate := l.limits()
	assert.InDelta(t, rateCut*10/0.25, rate, 1e-9, "10 successes in under 250ms count as 40/s")
}

// A Retry-After pauses every request once, however many answers carry it:
// the pause ends at the latest of them, it does not add up.
func TestLimiterRetryAfterPausesAllOnce(t *testing.T) {
	l, clk := newTestLimiter(4, 4)
	a, b := take(t, l), take(t, l)
	l.release(a, outcomeThrottled, 2*time.Second)
	clk.advance(100 * time.Millisecond)
	l.release(b, outcomeThrottled, 2*time.Second)
	_, wait, _, ok := l.tryAcquire()
	require.False(t, ok)
	assert.Equal(t, 2*time.Second, wait, "until the later of the two, not 4s")
	clk.advance(2 * time.Second)
	take(t, l)

	// A 503 with Retry-After pauses too.
	l2, clk2 := newTestLimiter(4, 4)
	l2.release(take(t, l2), outcomeOverloaded, time.Second)
	_, wait, _, ok = l2.tryAcquire()
	require.False(t, ok)
	assert.Equal(t, time.Second, wait)
	clk2.advance(time.Second)
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

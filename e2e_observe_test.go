package workflow_test

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// captureHandler is a slog handler that keeps every record.
type captureHandler struct {
	mu      sync.Mutex
	records []slog.Record
}

func (h *captureHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *captureHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	h.records = append(h.records, r.Clone())
	h.mu.Unlock()
	return nil
}
func (h *captureHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *captureHandler) WithGroup(string) slog.Handler      { return h }

// attempts returns the attributes of the per-attempt records, in order.
func (h *captureHandler) attempts() []map[string]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []map[string]string
	for _, r := range h.records {
		if !strings.HasPrefix(r.Message, "workflow: request") {
			continue
		}
		m := map[string]string{"msg": r.Message}
		r.Attrs(func(a slog.Attr) bool {
			m[a.Key] = a.Value.String()
			return true
		})
		out = append(out, m)
	}
	return out
}

// canaryFilterValue and canaryHeader must never be logged or observed.
const (
	canaryFilterValue = "CANARY-filter-7f3a"
	canaryHeader      = "CANARY-header-91be"
)

func TestDebugLogPerAttempt(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "a"})
	srv.Inject(workflowtest.Fault{Route: "GET /v1/{recordType}/{alias}", Count: 1, Status: http.StatusServiceUnavailable})
	h := &captureHandler{}
	// The token fetch logs from its own goroutine: a buffer safe for it.
	var text syncBuffer
	logger := slog.New(multiHandler{h, slog.NewTextHandler(&text, &slog.HandlerOptions{Level: slog.LevelDebug})})
	rr := &retryRecorder{}
	c := srv.Client(workflow.WithLogger(logger), workflow.WithRetryPolicy(rr.policy(3)))

	opts := &workflow.ListOptions{Filter: rsql.Field("Title").Ne(canaryFilterValue)}
	page, err := c.Records.List(t.Context(), workflow.Tasks, "it", opts, workflow.WithHeader("X-Note", canaryHeader))
	require.NoError(t, err)
	require.Len(t, page.Items, 1)

	reqs := srv.Requests()
	var ids []string
	for _, r := range reqs {
		if r.Method == http.MethodGet && r.Path == "/v1/tasks/it" {
			ids = append(ids, r.RequestID)
		}
	}
	require.Len(t, ids, 2)
	got := h.attempts()
	require.Len(t, got, 2, "one record per attempt")
	for i, want := range []map[string]string{
		{"msg": "workflow: request failed, retrying", "method": "GET", "route": "/{recordType}/{alias}", "attempt": "1", "status": "503", "request_id": ids[0], "wait": rr.recordedWaits()[0].String()},
		{"msg": "workflow: request", "method": "GET", "route": "/{recordType}/{alias}", "attempt": "2", "status": "200", "request_id": ids[1]},
	} {
		for k, v := range want {
			assert.Equal(t, v, got[i][k], "attempt %d: %s", i+1, k)
		}
		assert.NotEmpty(t, got[i]["duration"])
		if i == 1 {
			assert.NotContains(t, got[i], "wait", "the last attempt has no wait")
		}
	}
	_, secret := srv.Credentials()
	for _, canary := range []string{canaryFilterValue, canaryHeader, secret, "Bearer ", "tasks/it"} {
		assert.NotContains(t, text.String(), canary)
	}
}

// multiHandler sends each record to every handler.
type multiHandler []slog.Handler

func (m multiHandler) Enabled(context.Context, slog.Level) bool { return true }
func (m multiHandler) Handle(ctx context.Context, r slog.Record) error {
	for _, h := range m {
		if err := h.Handle(ctx, r.Clone()); err != nil {
			return err
		}
	}
	return nil
}
func (m multiHandler) WithAttrs([]slog.Attr) slog.Handler { return m }
func (m multiHandler) WithGroup(string) slog.Handler      { return m }

// eventLog is an Observer recording every event as a line.
type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (l *eventLog) add(s string) {
	l.mu.Lock()
	l.events = append(l.events, s)
	l.mu.Unlock()
}

func (l *eventLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.events...)
}

type ctxKey struct{}

func (l *eventLog) observer() *workflow.Observer {
	return &workflow.Observer{
		CallStart: func(ctx context.Context, c workflow.CallInfo) context.Context {
			l.add("call " + c.Method + " " + c.Route)
			return context.WithValue(ctx, ctxKey{}, "call")
		},
		CallEnd: func(ctx context.Context, c workflow.CallInfo, r workflow.CallResult) {
			l.add("end call " + strconv.Itoa(r.StatusCode) + " attempts=" + strconv.Itoa(r.Attempts) + " err=" + r.ErrorType + " ctx=" + ctx.Value(ctxKey{}).(string) + " id=" + r.RequestID)
		},
		AttemptStart: func(ctx context.Context, a workflow.AttemptInfo) context.Context {
			l.add("attempt " + strconv.Itoa(a.Attempt) + " " + a.Route + " parent=" + ctx.Value(ctxKey{}).(string))
			return context.WithValue(ctx, ctxKey{}, "attempt")
		},
		AttemptEnd: func(ctx context.Context, a workflow.AttemptInfo, r workflow.AttemptResult) {
			l.add("end attempt " + strconv.Itoa(a.Attempt) + " " + strconv.Itoa(r.StatusCode) + " retry=" + strconv.FormatBool(r.Retry) + " err=" + r.ErrorType)
		},
		TokenFetchStart: func(ctx context.Context, f workflow.TokenFetchInfo) context.Context {
			l.add("token " + f.Route + " parent=" + ctx.Value(ctxKey{}).(string))
			return nil
		},
		TokenFetchEnd: func(ctx context.Context, f workflow.TokenFetchInfo, r workflow.TokenFetchResult) {
			l.add("end token err=" + r.ErrorType)
		},
		RateLimitWait: func(ctx context.Context, w workflow.RateLimitWait) {
			l.add("rate limit " + w.Source + " " + w.Route)
		},
	}
}

func TestObserverEvents(t *testing.T) {
	srv := workflowtest.Start(t)
	ids := srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "a"})
	srv.Inject(workflowtest.Fault{Route: "GET /v1/{recordType}/{alias}/{id}", Count: 1, Status: http.StatusTooManyRequests, RetryAfter: time.Second})
	l := &eventLog{}
	rr := &retryRecorder{}
	c := srv.Client(workflow.WithObserver(l.observer()), workflow.WithRetryPolicy(rr.policy(3)))

	var resp workflow.Response
	_, err := c.Records.Get(t.Context(), workflow.Tasks, "it", ids[0], workflow.WithResponseInto(&resp))
	require.NoError(t, err)
	_, err = c.Records.Get(t.Context(), workflow.Tasks, "it", "nope")
	require.ErrorIs(t, err, workflow.ErrNotFound)
	var ae *workflow.APIError
	require.ErrorAs(t, err, &ae)

	assert.Equal(t, []string{
		"call GET /{recordType}/{alias}/{id}",
		"attempt 1 /{recordType}/{alias}/{id} parent=call",
		"token /oauth/token parent=attempt",
		"end token err=",
		"end attempt 1 429 retry=true err=429",
		"rate limit server /{recordType}/{alias}/{id}",
		"attempt 2 /{recordType}/{alias}/{id} parent=call",
		"end attempt 2 200 retry=false err=",
		"end call 200 attempts=2 err= ctx=call id=" + resp.RequestID,
		"call GET /{recordType}/{alias}/{id}",
		"attempt 1 /{recordType}/{alias}/{id} parent=call",
		"end attempt 1 404 retry=false err=404",
		"end call 404 attempts=1 err=404 ctx=call id=" + ae.RequestID,
	}, l.list())
	assert.NotEmpty(t, resp.RequestID)
	assert.Equal(t, 2, resp.Attempts)
}

func TestObserverClientRateLimit(t *testing.T) {
	srv := workflowtest.Start(t)
	ids := srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "a"})
	l := &eventLog{}
	// One token every 50ms, burst 1.
	lim := rate.NewLimiter(rate.Every(50*time.Millisecond), 1)
	c := srv.Client(workflow.WithObserver(l.observer()), workflow.WithRateLimit(lim))
	_, err := c.Records.Get(t.Context(), workflow.Tasks, "it", ids[0])
	require.NoError(t, err)
	const event = "rate limit client /{recordType}/{alias}/{id}"
	assert.NotContains(t, l.list(), event, "a token was there: no wait, no event")

	// Take the next 20 tokens ahead: the next call finds none for a
	// second, twenty times more than it needs on a busy machine to reach
	// the limiter, and the event is reported once its wait is over.
	for range 20 {
		require.True(t, lim.Reserve().OK())
	}
	_, err = c.Records.Get(t.Context(), workflow.Tasks, "it", ids[0])
	require.NoError(t, err)
	assert.Contains(t, l.list(), event, "a wait for the limiter is reported")
}

package workflowtest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/fakehook"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// Default credentials of the server's default user. The secret contains
// characters that RFC 6749 section 2.3.1 requires a client to form-encode
// inside the Basic header, so every test through the fake checks that the
// client does so.
const (
	DefaultClientID     = "fake-client"
	DefaultClientSecret = "fake-secret/+=%1"
	DefaultUserEmail    = "admin@example.com"
	DefaultUserID       = "00000000-0000-4000-8000-000000000001"
)

// TokenLifetime is how long an access token issued by the fake stays
// valid, on the server's clock.
const TokenLifetime = 24 * time.Hour

// defaultRequestLogLimit bounds the request log (oldest entries go first).
const defaultRequestLogLimit = 100_000

// Server is a stateful in-process fake of the whole service, served over
// real HTTP on 127.0.0.1. Create it with NewServer or Start. All its
// methods are safe for concurrent use, also while clients are talking to
// it.
type Server struct {
	ts      *httptest.Server
	tb      testing.TB // the test of Start, nil for NewServer
	cfg     config
	closing chan struct{}
	once    sync.Once

	offset atomic.Int64  // clock offset added by Advance, in nanoseconds
	reqSeq atomic.Uint64 // last request ID handed out

	mu sync.RWMutex // guards st
	st *state

	faultMu sync.Mutex
	faults  []*Injection
	rng     *rand.Rand

	rateMu  sync.Mutex
	buckets map[string]*bucket

	latency   atomic.Int64 // added to every request, in nanoseconds (latency.go)
	opLatency sync.Map     // operation id to time.Duration (latency.go)

	logMu sync.Mutex
	log   []RequestRecord

	files files // uploads kept in temporary files (content.go)

	replies Replies // what success replies hold (replies.go)
}

type config struct {
	clock     func() time.Time
	rate      float64
	burst     int
	policy    AttachmentPolicy
	email     string
	clientID  string
	secret    string
	listener  net.Listener
	maxUpload int64
	seed      uint64
	logLimit  int
	logger    *slog.Logger
	maxStored int64
	spillAt   int64
	latency   time.Duration
	// strictBodies refuses undeclared members (WithStrictBodies).
	strictBodies bool
	replies      *Replies // WithReplies; nil: as RepliesEnv says (replies.go)

	// idSpace is the space of the UUIDs the server mints (WithIDSpace).
	idSpace uint32
}

// Option configures a Server.
type Option func(*config)

// WithClock makes the server read the time from clock instead of
// time.Now. Advance adds to whatever clock returns. Token expiry,
// timestamps, the rate limit and attachment processing all use it.
func WithClock(clock func() time.Time) Option {
	return func(c *config) {
		if clock != nil {
			c.clock = clock
		}
	}
}

// WithAttachmentPolicy sets how uploaded files move from PROCESSING to
// their final state (VALID, or ERROR). The default is ReadyImmediately.
func WithAttachmentPolicy(p AttachmentPolicy) Option {
	return func(c *config) { c.policy = p }
}

// WithUser sets the email and the credentials of the server's default user
// (DefaultUserEmail, DefaultClientID and DefaultClientSecret otherwise).
// Empty arguments keep the defaults.
func WithUser(email, clientID, clientSecret string) Option {
	return func(c *config) {
		c.email, c.clientID, c.secret = cmp.Or(email, c.email), cmp.Or(clientID, c.clientID), cmp.Or(clientSecret, c.secret)
	}
}

// WithListener makes the server accept connections on l instead of a new
// listener on 127.0.0.1 with a random port; the server closes l. BaseURL
// and AuthURL are built from l's address.
func WithListener(l net.Listener) Option {
	return func(c *config) { c.listener = l }
}

// WithMaxUploadSize changes the size limit of uploaded files (250 MB, the
// service's limit, read as 250,000,000 bytes, by default), so that tests of the 413 answer need not
// send 250 MB. A size of 0 or less keeps the limit as it is.
func WithMaxUploadSize(n int64) Option {
	return func(c *config) { c.maxUpload = cmp.Or(max(n, 0), c.maxUpload) }
}

// WithStoredContentLimit lowers how many bytes of an uploaded file the
// server keeps for the download route (DefaultStoredContentLimit, every
// file the service takes, by default). A larger file is accepted, counted
// and hashed as usual, but its download is answered 501, naming this
// option. Zero keeps no content. cmd/workflow-fake sets it with
// -stored-content-limit.
func WithStoredContentLimit(n int64) Option {
	return func(c *config) {
		if n >= 0 {
			c.maxStored = n
		}
	}
}

// WithSeed seeds the random source that decides probabilistic faults, so
// a run can be repeated exactly (the default seed is 1).
func WithSeed(seed uint64) Option {
	return func(c *config) { c.seed = seed }
}

// WithRequestLogLimit bounds how many requests Requests remembers (the
// most recent ones are kept); the default is 100,000. A limit of 0 or
// less keeps the limit as it is.
func WithRequestLogLimit(n int) Option {
	return func(c *config) { c.logLimit = cmp.Or(max(n, 0), c.logLimit) }
}

// WithLogger makes the server log one line per request (method, path,
// status, user) at info level. Silent by default.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// NewServer starts a fake service on 127.0.0.1 (or on the listener given
// with WithListener) with one user, the default user, whose credentials
// Credentials returns. Call Close when done (Start does it for tests).
func NewServer(opts ...Option) *Server {
	cfg := config{
		clock:     time.Now,
		policy:    ReadyImmediately(),
		email:     DefaultUserEmail,
		clientID:  DefaultClientID,
		secret:    DefaultClientSecret,
		maxUpload: maxUploadSize,
		seed:      1,
		logLimit:  defaultRequestLogLimit,
		maxStored: DefaultStoredContentLimit,
		spillAt:   defaultSpillAt,
	}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	s := &Server{
		cfg:     cfg,
		closing: make(chan struct{}),
		rng:     rand.New(rand.NewPCG(cfg.seed, cfg.seed^0x9e3779b97f4a7c15)),
		buckets: map[string]*bucket{},
		replies: repliesOf(cfg.replies),
	}
	s.st = s.newState()
	s.latency.Store(int64(cfg.latency))
	s.ts = httptest.NewUnstartedServer(s)
	if cfg.listener != nil {
		_ = s.ts.Listener.Close()
		s.ts.Listener = cfg.listener
	}
	s.ts.Start()
	return s
}

// Start is NewServer for tests: the server is closed when tb's test ends.
func Start(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	s := NewServer(opts...)
	s.tb = tb
	tb.Cleanup(s.Close)
	return s
}

// Close shuts the server down at once: requests waiting in an injected
// delay end, connections are closed, and Close returns when every handler
// has returned, and the temporary files of uploads are removed.
func (s *Server) Close() {
	s.once.Do(func() { close(s.closing) })
	s.ts.Close()
	s.files.removeAll()
}

// Shutdown stops the server gracefully: it stops accepting connections,
// ends injected delays, and waits for requests in flight to finish or ctx
// to end (http.Server.Shutdown), then closes the server.
func (s *Server) Shutdown(ctx context.Context) error {
	s.once.Do(func() { close(s.closing) })
	err := s.ts.Config.Shutdown(ctx)
	s.Close()
	return err
}

// URL returns the server's root address, e.g. "http://127.0.0.1:41234".
func (s *Server) URL() string { return s.ts.URL }

// BaseURL returns the API base address, ending in "/v1".
func (s *Server) BaseURL() string { return s.ts.URL + "/v1" }

// AuthURL returns the address of the token endpoint's host; the token
// endpoint is AuthURL() + "/oauth/token".
func (s *Server) AuthURL() string { return s.ts.URL }

// Credentials returns the client id and secret of the default user.
func (s *Server) Credentials() (clientID, clientSecret string) {
	return s.cfg.clientID, s.cfg.secret
}

// HTTPClient returns an *http.Client for talking to the server directly
// (its idle connections are closed by Close).
func (s *Server) HTTPClient() *http.Client {
	hc := s.ts.Client()
	// This module's own tests check every exchange against the service's
	// published contract here; for anyone else the hook is not set.
	if rt, ok := fakehook.Transport(s.tb, hc.Transport); ok {
		return &http.Client{Transport: rt}
	}
	return hc
}

// Client returns an SDK client wired to the server with the default
// user's credentials: WithCredentials, WithEndpoint(BaseURL(), AuthURL())
// and WithHTTPClient(HTTPClient()), followed by opts, which may override
// any of them (for example WithCredentials with an Account of AddUser, or
// WithRetryPolicy with a sleeper that does not wait). It panics if
// workflow.NewClient reports a configuration error, which can only come
// from opts.
func (s *Server) Client(opts ...workflow.Option) *workflow.Client {
	base := []workflow.Option{
		workflow.WithCredentials(s.cfg.clientID, s.cfg.secret),
		workflow.WithEndpoint(s.BaseURL(), s.AuthURL()),
		workflow.WithHTTPClient(s.HTTPClient()),
	}
	c, err := workflow.NewClient(append(base, opts...)...)
	if err != nil {
		panic(fmt.Sprintf("workflowtest: Client: %v", err))
	}
	return c
}

// Now returns the server's current time: its clock plus every Advance.
func (s *Server) Now() time.Time {
	return s.cfg.clock().Add(time.Duration(s.offset.Load()))
}

// Advance moves the server's clock forward by d (tokens expire, rate-limit
// buckets refill, attachments with a time policy finish processing).
func (s *Server) Advance(d time.Duration) {
	s.offset.Add(int64(d))
}

// Sleep is a wait on the server's clock that takes no real time: it
// moves the clock to d after the time it reads at its call, unless the
// clock is past that already (another sleep moved it), and returns at
// once (with ctx's error when ctx has ended). Give it to the
// client as workflow.RetryPolicy.Sleep, and the server to a sync as
// upsert.Options.Clock, and a test's retries, Retry-After waits, rate
// limit and the sync's pacing all keep the server's time, which moves
// only when they wait.
func (s *Server) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	end := s.Now().Add(d)
	for {
		off := s.offset.Load()
		behind := end.Sub(s.cfg.clock().Add(time.Duration(off)))
		if behind <= 0 || s.offset.CompareAndSwap(off, off+int64(behind)) {
			return nil
		}
	}
}

// Reset brings the server back to the state NewServer left it in: no
// record definitions, records, groups, permissions denials, faults or
// logged requests, only the default user (active again). Tokens already
// issued to the default user stay valid, so existing clients keep working.
// Counters restart, so ids are handed out as by a new server. The clock
// is not moved back.
func (s *Server) Reset() {
	s.mu.Lock()
	old := s.st
	s.st = s.newState()
	maps.DeleteFunc(old.tokens, func(_ string, t *token) bool { return t.userID != DefaultUserID })
	s.st.tokens = old.tokens
	s.st.next.token = old.next.token
	s.mu.Unlock()
	for _, a := range old.attachments {
		a.content.remove()
	}
	s.ClearFaults()
	s.ResetRequests()
	s.rateMu.Lock()
	s.buckets = map[string]*bucket{}
	s.rateMu.Unlock()
}

// request is one request on its way through the server.
type request struct {
	r *http.Request
	// log is the request's entry in the request log, filled as the
	// request goes (arrival, request ID, route, user, filter, fault,
	// status); logRequest adds the operation.
	log      RequestRecord
	op       op.ID // the operation's id
	rt       *route
	miss     response          // the answer to an API path of no operation (404, 405)
	query    url.Values        // the query, read by readQuery
	params   map[string]string // the path parameters by name
	body     []byte            // the JSON body, checked; a comment's text
	in       any               // the JSON body, decoded (see in); an upload's file, read
	user     *user
	clientID string
	// processingError: an injected fault makes this upload's processing
	// end in ERROR.
	processingError bool
}

// response is what a handler answers: a status and a body encoded as
// JSON (none when body is nil), or rawBody, or length bytes of stream.
type response struct {
	status     int
	body       any
	header     http.Header
	rawBody    []byte
	stream     io.ReadCloser
	length     int64
	retryAfter time.Duration
}

// errorBody is the body of every failure.
type errorBody struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
	// Error is the OAuth 2.0 error code, sent by the token endpoint only
	// (RFC 6749 section 5.2).
	Error string `json:"error,omitempty"`
}

// httpError is a failure on its way to becoming a response.
type httpError struct {
	status int
	msg    string
}

func errf(status int, format string, args ...any) *httpError {
	return &httpError{status: status, msg: fmt.Sprintf(format, args...)}
}

func fail(e *httpError) response {
	return response{status: e.status, body: errorBody{Status: e.status, Message: e.msg}}
}

func failf(status int, format string, args ...any) response {
	return fail(errf(status, format, args...))
}

func reply(status int, body any) response { return response{status: status, body: body} }

// ServeHTTP implements http.Handler: faults, authentication, the rate
// limit, routing, permissions and the handlers, in that order. Every
// response, faults included, carries an X-Request-Id header ("req-1",
// "req-2", ... in arrival order), which RequestRecord.RequestID repeats.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rq := &request{r: r, log: RequestRecord{Time: s.Now(), Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(),
		RequestID: "req-" + strconv.FormatUint(s.reqSeq.Add(1), 10)}}
	w.Header().Set("X-Request-Id", rq.log.RequestID)
	defer func() { // a request not answered: write logs the others
		if rq.log.Status == 0 {
			s.logRequest(rq)
		}
	}()
	s.find(rq)
	if s.pause(rq, w, s.latencyOf(rq.op), false) {
		s.applyFault(cmp.Or(s.pickFault(rq), &Fault{}), w, rq)
	}
}

// write sends resp and notes its status for the request log. A fault's
// Malformed sends the first half of the body as the whole (but for a 204,
// which has none); its Cut sends the first half under the whole body's
// Content-Length, then closes the connection.
func (s *Server) write(w http.ResponseWriter, rq *request, resp response, f *Fault) {
	h := w.Header()
	if resp.retryAfter > 0 {
		h.Set("Retry-After", strconv.FormatInt(max(int64((resp.retryAfter+time.Second-1)/time.Second), 1), 10))
	}
	maps.Copy(h, resp.header)
	rq.log.Status = cmp.Or(resp.status, http.StatusOK)
	s.logRequest(rq) // before the answer: a client that has it finds the request in Requests
	malformed := f.Malformed && rq.log.Status != http.StatusNoContent
	body, n := resp.rawBody, resp.length
	if resp.stream == nil {
		if body == nil && resp.body != nil {
			body = encodeJSON(resp.body)
		}
		if body != nil {
			body = s.promised(rq, body)
		}
		if malformed && len(body) < 2 {
			body = []byte("{}") // its half, "{", is not JSON
		}
		if body != nil && h.Get("Content-Type") == "" {
			h.Set("Content-Type", "application/json")
		}
		n, resp.stream = int64(len(body)), io.NopCloser(bytes.NewReader(body))
	}
	if malformed {
		n /= 2
	}
	h.Set("Content-Length", strconv.FormatInt(n, 10))
	if f.Cut {
		n /= 2
	}
	w.WriteHeader(rq.log.Status)
	defer resp.stream.Close()
	_, _ = io.CopyN(w, resp.stream, n)
	if f.Cut {
		_ = http.NewResponseController(w).Flush()
		panic(http.ErrAbortHandler) // closes the connection
	}
}

func encodeJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return encodeJSON(errorBody{Status: 500, Message: "encoding the response: " + err.Error()})
	}
	return buf.Bytes()
}

// formatTime prints t in the API's time form (UTC, milliseconds).
func formatTime(t time.Time) string { return t.UTC().Format(rsql.TimeLayout) }

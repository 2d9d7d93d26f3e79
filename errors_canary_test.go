package workflow

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"

	"github.com/seed-a15e58aa/workflow-go/internal/errcheck"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// canary marks every value the failure paths below send in a query or a
// body; no text the SDK produces may hold it.
const canary = "cnry7Q"

// echoAPI answers by the alias in the path, and puts in its messages
// everything the request sent (its query, escaped and not, and its body):
// the worst a service can do.
func echoAPI(other string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		q, _ := url.QueryUnescape(r.URL.RawQuery)
		read := "" // the filter's values as the service reads them: unescaped
		if e, err := rsql.Parse(r.URL.Query().Get("filter")); err == nil {
			rsql.Walk(e, func(e rsql.Expr) bool {
				if c, ok := e.(*rsql.Comparison); ok {
					for _, v := range c.Values {
						read += " no such " + v.Text
					}
				}
				return true
			})
		}
		echo := "echo " + r.URL.RawQuery + " " + q + read + " " + r.Header.Get("X-On-Behalf-Of") + " " + string(body)
		msg, _ := json.Marshal(map[string]string{"message": echo})
		w.Header().Set("X-Echo", echo)
		mode := r.URL.Query().Get("mode")
		for _, seg := range strings.Split(r.URL.Path, "/") {
			if strings.HasPrefix(seg, "e") || seg == "drop" || seg == "malformed" || seg == "redirect" {
				mode = seg
			}
		}
		switch mode {
		case "e422", "42":
			w.WriteHeader(http.StatusUnprocessableEntity)
			_, _ = w.Write(msg)
		case "e503":
			w.Header().Set("X-Request-Id", "req-1")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write(msg)
		case "drop":
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
		case "malformed":
			_, _ = w.Write([]byte(`{"broken": ` + string(msg)))
		case "redirect":
			http.Redirect(w, r, other+r.URL.Path+"?"+r.URL.RawQuery, http.StatusFound)
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write(msg)
		}
	})
}

// canaryCalls are the failure paths of the root package that carry a
// query or a body, for a record alias (which picks the server's answer).
var canaryCalls = map[string]func(ctx context.Context, c *Client, alias string) error{
	"Records.List": func(ctx context.Context, c *Client, alias string) error {
		_, err := c.Records.List(ctx, Tasks, alias, &ListOptions{Filter: rsql.Field("Email").In(canary+"a@example.com", canary+"b@example.com")})
		return err
	},
	"Records.All": func(ctx context.Context, c *Client, alias string) error {
		for _, err := range c.Records.All(ctx, Tasks, alias, &ListOptions{Filter: rsql.Field("Name").Eq(canary + " x")}) {
			return err
		}
		return nil
	},
	"Users.All": func(ctx context.Context, c *Client, alias string) error {
		for _, err := range c.Users.All(ctx, &ListOptions{Filter: rsql.Field("email").Eq(canary), After: canary + "cursor"}, WithQuery("mode", alias)) {
			return err
		}
		return nil
	},
	"Records.List, a value with a quote": func(ctx context.Context, c *Client, alias string) error {
		_, err := c.Records.List(ctx, Tasks, alias, &ListOptions{Filter: rsql.Field("Name").Eq(`O"Brien ` + canary)})
		return err
	},
	"Attachments.Upload": func(ctx context.Context, c *Client, alias string) error {
		_, err := c.Attachments.Upload(ctx, Tasks, alias, "1", canary+"-review.pdf", strings.NewReader("%PDF-1.4"),
			&UploadOptions{Description: "about " + canary})
		return err
	},
	"Records.Create": func(ctx context.Context, c *Client, alias string) error {
		_, err := c.Records.Create(ctx, Tasks, alias, Record{"Title": canary + " title", "Count": "9" + canary})
		return err
	},
	"Records.Update": func(ctx context.Context, c *Client, alias string) error {
		_, err := c.Records.Update(ctx, Tasks, "it", alias, Record{"Title": canary})
		return err
	},
	"CreateAs": func(ctx context.Context, c *Client, alias string) error {
		type task struct {
			Title string `workflow:"Title"`
		}
		_, err := CreateAs(ctx, c.Records, Tasks, alias, task{Title: canary})
		return err
	},
	"Watchers.Add": func(ctx context.Context, c *Client, alias string) error {
		return c.Records.Watchers.Add(ctx, Tasks, alias, "1", []string{canary + "@example.com"})
	},
	"Comments.Add": func(ctx context.Context, c *Client, alias string) error {
		_, err := c.Records.Comments.Add(ctx, Tasks, alias, "1", "secret plan "+canary)
		return err
	},
	"Related.AddMany": func(ctx context.Context, c *Client, alias string) error {
		return c.Records.Related.AddMany(ctx, Tasks, alias, "1", []RelatedRef{{ID: canary + "-1"}, {ID: canary + "-2"}})
	},
	"Records.Get, with a header": func(ctx context.Context, c *Client, alias string) error {
		_, err := c.Records.Get(ctx, Tasks, alias, "1", WithHeader("X-On-Behalf-Of", canary+"@example.com"))
		return err
	},
	"Call": func(ctx context.Context, c *Client, alias string) error {
		var out map[string]any
		return c.Call(ctx, http.MethodPost, "tasks/"+alias, url.Values{"q": {canary}}, map[string]string{"note": canary}, &out)
	},
}

func TestNoRequestDataInErrors(t *testing.T) {
	t.Parallel()
	other := newTestServer(t, http.NotFoundHandler())
	for _, mode := range []string{"e404", "e422", "e503", "drop", "malformed", "redirect", "canceled"} {
		for name, call := range canaryCalls {
			t.Run(mode+"/"+name, func(t *testing.T) {
				t.Parallel()
				var (
					mu    sync.Mutex
					texts []string
					logs  bytes.Buffer
				)
				seen := func(what string, err error) {
					if err != nil {
						mu.Lock()
						texts = append(texts, what+": "+err.Error())
						mu.Unlock()
					}
				}
				obs := &Observer{
					AttemptEnd: func(_ context.Context, _ AttemptInfo, r AttemptResult) { seen("AttemptResult.Err", r.Err) },
					CallEnd:    func(_ context.Context, _ CallInfo, r CallResult) { seen("CallResult.Err", r.Err) },
				}
				ts := newTestServer(t, echoAPI(other.URL))
				c := ts.client(t, WithObserver(obs), WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
					WithRetryPolicy(RetryPolicy{MaxAttempts: 2, Sleep: (&sleepRecorder{}).sleep, OnRetry: func(ev RetryEvent) {
						seen("RetryEvent.Err", ev.Err)
						mu.Lock()
						texts = append(texts, "RetryEvent.URL: "+ev.URL)
						mu.Unlock()
					}}))
				ctx := t.Context()
				if mode == "canceled" {
					var cancel context.CancelFunc
					ctx, cancel = context.WithCancel(ctx)
					cancel()
				}
				err := call(ctx, c, mode)
				if err == nil && mode == "malformed" {
					return // an operation whose answer is dropped, or any text
				}
				require.Error(t, err)
				ok, chain := errcheck.Reachable(err, sentinels...)
				assert.True(t, ok, "an exported type or sentinel is reachable: %s", chain)
				texts = append(texts, errcheck.Texts(err)...)
				if ue, ok := errors.AsType[*url.Error](err); ok {
					texts = append(texts, "url.Error.URL: "+ue.URL, "url.Error: "+ue.Error())
				}
				if ae, ok := errors.AsType[*APIError](err); ok {
					texts = append(texts, "APIError.URL: "+ae.URL, "APIError.Message: "+ae.Message, fmt.Sprintf("APIError: %#v", ae))
				}
				if re, ok := errors.AsType[*RequestError](err); ok {
					texts = append(texts, "RequestError.URL: "+re.URL)
				}
				if re, ok := errors.AsType[*RedirectError](err); ok {
					texts = append(texts, "RedirectError: "+re.From+" "+re.To)
				}
				texts = append(texts, "log: "+logs.String())
				for _, s := range texts {
					assert.NotContains(t, s, canary)
				}
				assert.Equal(t, 1, strings.Count(err.Error(), "workflow: "), "the package is named once: %s", err)
			})
		}
	}
}

// TestAPIErrorFullURLOnRequest: the query's values are redacted in URL and
// in the text, and FullURL gives them to a caller who asks.
func TestAPIErrorFullURLOnRequest(t *testing.T) {
	t.Parallel()
	c := newTestServer(t, echoAPI("")).client(t)
	err := canaryCalls["Records.List"](t.Context(), c, "e404")
	ae, ok := errors.AsType[*APIError](err)
	require.True(t, ok, "%T", err)
	u, perr := url.Parse(ae.FullURL())
	require.NoError(t, perr)
	assert.Equal(t, "Email=in="+canary+"a@example.com:"+canary+"b@example.com", u.Query().Get("filter"))
	assert.Equal(t, "/v1/tasks/e404", u.Path)
	assert.Equal(t, strings.Replace(ae.FullURL(), "?"+u.RawQuery, "", 1)+"?filter=REDACTED", ae.URL)
	assert.NotContains(t, fmt.Sprintf("%#v", ae), canary, "%#v prints no query value")
	assert.Equal(t, `workflow: GET /v1/tasks/e404: 404 Not Found: echo filter=[REDACTED] filter=[REDACTED] no such [REDACTED] no such [REDACTED]  `, ae.Error())
}

// sentinels are the exported sentinel errors a caller of this package
// matches with errors.Is.
var sentinels = []error{ErrUnauthorized, ErrForbidden, ErrNotFound, ErrTooLarge, ErrRateLimited, ErrUnprocessable,
	ErrUnexpectedResponse, ErrTimeout, ErrRepeatedCursor, ErrForeignHost, ErrAttachmentFailed,
	context.Canceled, context.DeadlineExceeded, io.EOF, io.ErrUnexpectedEOF}

// TestPublicErrorsAreReachable sweeps the failure paths that do not need
// an answer: every error is of an exported type or wraps one (or a
// sentinel), bad input a *ValidationError, and no text names the package
// twice.
func TestPublicErrorsAreReachable(t *testing.T) {
	t.Parallel()
	type badField struct{ Tags []string }
	c, m := newMockClient(t, mockReply(http.StatusAccepted, `{}`))
	ctx := t.Context()
	tests := []struct {
		name       string
		err        func() error
		validation bool
	}{
		{"Encode of an unsupported field type", func() error { _, err := Encode(badField{}); return err }, true},
		{"Encode of a non-struct", func() error { _, err := Encode(7); return err }, true},
		{"Decode into a non-pointer", func() error { return Decode(Record{}, badField{}) }, true},
		{"Decode of an unsupported field type", func() error { return Decode(Record{}, &badField{}) }, true},
		{"CreateAs of an unsupported field type", func() error { _, err := CreateAs(ctx, c.Records, Tasks, "it", badField{}); return err }, true},
		{"UpdateAs of an unsupported field type", func() error { _, err := UpdateAs(ctx, c.Records, Tasks, "it", "1", badField{}); return err }, true},
		{"Call with a map query", func() error {
			return c.Call(ctx, http.MethodGet, "tasks/it", map[string][]string{"a": {"1"}}, nil, nil)
		}, true},
		{"Call with a non-pointer out", func() error { return c.Call(ctx, http.MethodGet, "tasks/it", nil, nil, 3) }, true},
		{"Records.Get with an empty id", func() error { _, err := c.Records.Get(ctx, Tasks, "it", ""); return err }, true},
		{"a filter on a list without one", func() error {
			_, err := c.Records.Watchers.List(ctx, Tasks, "it", "1", &ListOptions{Filter: rsql.Field("a").Eq("b")})
			return err
		}, true},
		{"AddMany without refs", func() error { return c.Records.Related.AddMany(ctx, Tasks, "it", "1", nil) }, true},
		{"NewClient without credentials", func() error { _, err := NewClient(); return err }, false},
		{"ParseTime", func() error { _, err := ParseTime("yesterday"); return err }, false},
		{"Upload longer than its size", func() error {
			_, err := c.Attachments.Upload(ctx, Tasks, "it", "1", "a.txt", plainReader{strings.NewReader("0123456789AB")}, &UploadOptions{Size: 10})
			return err
		}, false},
		{"Upload shorter than its size", func() error {
			_, err := c.Attachments.Upload(ctx, Tasks, "it", "1", "a.txt", plainReader{strings.NewReader("01")}, &UploadOptions{Size: 10})
			return err
		}, false},
		{"UploadFile of a missing file", func() error {
			_, err := c.Attachments.UploadFile(ctx, Tasks, "it", "1", t.TempDir()+"/missing.txt", nil)
			return err
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := len(m.requests())
			err := tc.err()
			require.Error(t, err)
			ok, chain := errcheck.Reachable(err, sentinels...)
			assert.True(t, ok, "an exported type or sentinel is reachable: %s", chain)
			if tc.validation {
				assert.True(t, isA[*ValidationError](err), "a *ValidationError: %s", chain)
				assert.Equal(t, before, len(m.requests()), "nothing sent")
			}
			assert.LessOrEqual(t, strings.Count(err.Error(), "workflow: "), 1, "the package is named once: %s", err)
		})
	}
}

// canaryFilters are filters that do not parse, each with the users' data
// it holds (a value in the wrong place reads as an operator or a field).
// No text of the error may hold any of it; the offset and what was
// expected are enough to fix the filter.
var canaryFilters = []struct {
	name, filter string
	data         []string
}{
	{"a single = before an e-mail address", "Owner=alice.anders@example.com", []string{"alice", "anders", "example.com"}},
	{"a single = before a long value", "Owner=" + strings.Repeat("cnryQ", 60), []string{"cnryQ"}},
	{"an unknown operator made of the value", "Owner=alice=anders@example.com", []string{"alice", "anders", "example.com"}},
	{"a bang before the value", "Owner!alice", []string{"alice"}},
	{"a word after a quoted value", `Owner=="alice" anders`, []string{"alice", "anders", "'a'"}},
	{"a quoted value where a field is due", `"alice"==1`, []string{"alice"}},
	{"a quote not closed", `Owner=="alice`, []string{"alice"}},
	{"a list not closed", "Owner=in=(alice;anders)", []string{"alice", "anders"}},
}

// TestNoFilterTextInParseErrors: a filter that does not parse is a
// *ValidationError wrapping a *rsql.ParseError, nothing is sent, and
// none of its texts, logs or observer errors holds the filter's values.
func TestNoFilterTextInParseErrors(t *testing.T) {
	t.Parallel()
	lists := map[string]func(ctx context.Context, c *Client, f rsql.Expr) error{
		"Records.List": func(ctx context.Context, c *Client, f rsql.Expr) error {
			_, err := c.Records.List(ctx, Tasks, "it", &ListOptions{Filter: f})
			return err
		},
		"Records.All": func(ctx context.Context, c *Client, f rsql.Expr) error {
			for _, err := range c.Records.All(ctx, Tasks, "it", &ListOptions{Filter: f}) {
				return err
			}
			return nil
		},
		"Users.List": func(ctx context.Context, c *Client, f rsql.Expr) error {
			_, err := c.Users.List(ctx, &ListOptions{Filter: f})
			return err
		},
	}
	for _, tc := range canaryFilters {
		for name, list := range lists {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				var (
					mu    sync.Mutex
					texts []string
					logs  syncLog
				)
				obs := &Observer{CallEnd: func(_ context.Context, _ CallInfo, r CallResult) {
					if r.Err != nil {
						mu.Lock()
						texts = append(texts, "CallResult.Err: "+r.Err.Error())
						mu.Unlock()
					}
				}}
				c, m := newMockClient(t, mockReply(http.StatusOK, `{"items":[],"total":0,"paging":{}}`),
					WithObserver(obs), WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
				err := list(t.Context(), c, rsql.Raw(tc.filter))
				require.Error(t, err)
				assert.Empty(t, m.requests(), "nothing sent")
				ve, ok := errors.AsType[*ValidationError](err)
				require.True(t, ok, "%T", err)
				assert.Equal(t, "ListOptions.Filter", ve.Field)
				pe, ok := errors.AsType[*rsql.ParseError](err)
				require.True(t, ok, "%T", err)
				assert.Equal(t, tc.filter, pe.Input, "the filter stays on the error for a caller who asks")
				mu.Lock()
				texts = append(texts, errcheck.Texts(err)...)
				texts = append(texts, errcheck.Texts(pe)...)
				texts = append(texts, "log: "+logs.String())
				mu.Unlock()
				for _, s := range texts {
					for _, d := range tc.data {
						assert.NotContains(t, s, d)
					}
				}
			})
		}
	}
}

// TestParseErrorTextWithoutFilter pins the text of the refusal a new
// integrator meets first: the place and what was expected there.
func TestParseErrorTextWithoutFilter(t *testing.T) {
	t.Parallel()
	c, _ := newMockClient(t, mockReply(http.StatusOK, `{}`))
	_, err := c.Records.List(t.Context(), Tasks, "it", &ListOptions{Filter: rsql.Raw("Owner=alice.anders@example.com")})
	assert.EqualError(t, err, "workflow: invalid ListOptions.Filter: must be a valid RSQL filter: "+
		"rsql: at offset 5: expected operator, found '=' without a closing '='")
}

// syncLog is a log destination safe for concurrent writes.
type syncLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// canaryLevel is a TextUnmarshaler whose error quotes the value it
// refuses, as many do.
type canaryLevel int

func (l *canaryLevel) UnmarshalText(b []byte) error {
	if string(b) != "low" {
		return fmt.Errorf("unknown level %q", b)
	}
	*l = 1
	return nil
}

// canaryTask is a struct a record holding canary values does not decode
// into.
type canaryTask struct {
	Title    string      `workflow:"Title"`
	Priority int         `workflow:"Priority"`
	Score    *float64    `workflow:"Score"`
	Due      time.Time   `workflow:"Due Date"`
	Closed   *time.Time  `workflow:"Closed"`
	Done     bool        `workflow:"Done"`
	Level    canaryLevel `workflow:"Level"`
}

// TestNoRecordValueInDecodeErrors: a record value that does not fit its
// Go field is a *DecodeError naming the record field, the Go field and
// its type, and the rule; the value stays in Value, and no text holds it,
// whether the record came from Decode, GetAs or a list.
func TestNoRecordValueInDecodeErrors(t *testing.T) {
	t.Parallel()
	long := strings.Repeat(canary+" ", 40)
	tests := []struct {
		field, value string
		text         string // Error() of the *DecodeError
	}{
		{"Priority", canary, `workflow: cannot decode record field "Priority" into canaryTask.Priority (int): not a base-10 int`},
		{"Priority", "Request 0001: hardware issue " + canary, `workflow: cannot decode record field "Priority" into canaryTask.Priority (int): not a base-10 int`},
		{"Score", long, `workflow: cannot decode record field "Score" into canaryTask.Score (*float64): not a base-10 float64`},
		{"Due Date", canary, `workflow: cannot decode record field "Due Date" into canaryTask.Due (time.Time): not a time (want the form YYYY-MM-DDTHH:MM:SS.SSSZ)`},
		{"Closed", "2024-01-31 " + canary, `workflow: cannot decode record field "Closed" into canaryTask.Closed (*time.Time): not a time (want the form YYYY-MM-DDTHH:MM:SS.SSSZ)`},
		{"Done", canary, `workflow: cannot decode record field "Done" into canaryTask.Done (bool): not a bool (want true or false)`},
		{"Level", canary, `workflow: cannot decode record field "Level" into canaryTask.Level (workflow.canaryLevel): refused by its UnmarshalText`},
	}
	for _, tt := range tests {
		t.Run(tt.field+"/"+truncate(tt.value, 20), func(t *testing.T) {
			t.Parallel()
			body, err := json.Marshal(map[string]string{"Title": canary, tt.field: tt.value})
			require.NoError(t, err)
			page := `{"items":[{"data":` + string(body) + `,"cursor":"c1"}],"total":1,"paging":{}}`
			c, _ := newMockClient(t, func(call mockCall) *http.Response {
				if strings.HasSuffix(call.Path, "/1") {
					return mockResponse(http.StatusOK, string(body))
				}
				return mockResponse(http.StatusOK, page)
			})
			ctx := t.Context()
			calls := map[string]func() error{
				"Decode": func() error { return Decode(Record{"Title": canary, tt.field: tt.value}, &canaryTask{}) },
				"GetAs":  func() error { _, err := GetAs[canaryTask](ctx, c.Records, Tasks, "it", "1"); return err },
				"AllAs": func() error {
					for _, err := range AllAs[*canaryTask](ctx, c.Records, Tasks, "it", nil) {
						if err != nil {
							return err
						}
					}
					return nil
				},
			}
			for name, call := range calls {
				err := call()
				de, ok := errors.AsType[*DecodeError](err)
				require.True(t, ok, "%s: %T %v", name, err, err)
				assert.Equal(t, tt.field, de.Field, name)
				assert.Equal(t, tt.value, de.Value, "%s: the value stays on the error for a caller who asks", name)
				assert.Equal(t, tt.text, de.Error(), name)
				for _, s := range errcheck.Texts(err) {
					assert.NotContains(t, s, canary, name)
				}
			}
		})
	}
}

// TestNoRecordValueInTypeErrors: a record value of another JSON type
// names the record field, the JSON type due and the one found, not the
// value.
func TestNoRecordValueInTypeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ value, kind string }{
		{`["` + canary + `"]`, "an array"},
		{`{"` + canary + `":"` + canary + `"}`, "an object"},
		{`12345`, "a number"},
		{`true`, "a bool"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			t.Parallel()
			c, _ := newMockClient(t, mockReply(http.StatusOK, `{"Title":"`+canary+`","Priority":`+tt.value+`}`))
			_, err := c.Records.Get(t.Context(), Tasks, "it", "1")
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrUnexpectedResponse)
			assert.Contains(t, err.Error(), `record field "Priority": a record value must be a JSON string, not `+tt.kind)
			for _, s := range errcheck.Texts(err) {
				assert.NotContains(t, s, canary)
				assert.NotContains(t, s, "12345")
			}
		})
	}
}

// TestCutTextsHoldNoPartOfAValue: a text cut to its length (a server's
// message, an error body, a token reply's body) keeps no part of a secret,
// a token or a sent value that the cut split, which redaction cannot
// recognise once cut.
func TestCutTextsHoldNoPartOfAValue(t *testing.T) {
	t.Parallel()
	value := canary + "-alice@example.com"
	t.Run("a message cut inside a sent value", func(t *testing.T) {
		t.Parallel()
		c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = fmt.Fprintf(w, `{"message":%q}`, strings.Repeat("m", 495)+value)
		}))
		_, err := c.Records.List(t.Context(), Tasks, "t", &ListOptions{Filter: rsql.Field("Email").Eq(value)})
		ae := requireAs[*APIError](t, err)
		assert.Equal(t, strings.Repeat("m", 495)+"…", ae.Message, "the value removed, then the text cut, the marker with it")
	})
	t.Run("an error body cut inside the access token", func(t *testing.T) {
		t.Parallel()
		filler := strings.Repeat("f", maxErrorBody-5)
		c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, filler+testToken)
		}))
		_, err := c.Users.Get(t.Context(), someUser)
		ae := requireAs[*APIError](t, err)
		assert.Equal(t, filler, string(ae.Body))
	})
	t.Run("a plain body cut where it was read, inside a value", func(t *testing.T) {
		t.Parallel()
		c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, "bad "+strings.Repeat("p", maxErrorBody-10)+value)
		}))
		_, err := c.Records.List(t.Context(), Tasks, "t", &ListOptions{Filter: rsql.Field("Email").Eq(value)})
		ae := requireAs[*APIError](t, err)
		assert.Empty(t, ae.Message, "its one line may end in the start of a value")
		assert.Len(t, ae.Body, maxErrorBody)
	})
	t.Run("a plain body of exactly the length read is whole", func(t *testing.T) {
		t.Parallel()
		c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, "bad "+strings.Repeat("p", maxErrorBody-4))
		}))
		_, err := c.Users.Get(t.Context(), someUser)
		ae := requireAs[*APIError](t, err)
		assert.Equal(t, "bad "+strings.Repeat("p", 196)+"…", ae.Message)
	})
	t.Run("a request ID that holds the token", func(t *testing.T) {
		t.Parallel()
		var logs syncLog
		c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Request-Id", "req-"+testToken)
			w.WriteHeader(http.StatusBadRequest)
		}), WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
		_, err := c.Users.Get(t.Context(), someUser)
		ae := requireAs[*APIError](t, err)
		assert.Equal(t, "req-[REDACTED]", ae.RequestID)
		assert.NotContains(t, err.Error()+logs.String(), testToken)
	})
	secret := canary + "-0123456789abcdef"
	for _, tc := range []struct {
		name         string
		status       int
		body, want   string
		wantInErrTxt string
	}{
		{"a token reply's body cut inside the secret", http.StatusUnauthorized, strings.Repeat("x", 506) + secret, strings.Repeat("x", 506) + "…", "401"},
		{"a 2xx token reply with an error and a token", http.StatusOK, `{"error":"temporarily_unavailable","access_token":"` + canary + `-new-token"}`, "", "temporarily_unavailable"},
		{"a token reply whose text is cut inside the marker", http.StatusBadRequest, strings.Repeat("y", 195) + secret, strings.Repeat("y", 195) + "[REDACTED]", strings.Repeat("y", 195) + "…"},
		{"a token reply that holds the secret behind an escape", http.StatusBadRequest, `{"echo":"\u0063` + secret[1:] + `"}`, "", "400 Bad Request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			as := newAuthServer(t)
			as.tokenStatus, as.tokenBody = tc.status, tc.body
			c := as.client(t, WithCredentials("id", secret), WithMaxAttempts(1))
			_, err := c.Users.Get(t.Context(), someUser)
			ae := requireAs[*AuthError](t, err)
			assert.Equal(t, tc.want, ae.Body)
			assert.Contains(t, err.Error(), tc.wantInErrTxt)
			assert.NotContains(t, err.Error(), canary)
		})
	}
}

// TestURLParseErrorsHoldNoURL: a URL that does not parse is refused
// naming the field and the rule, without the URL, whose query or user
// information may hold a signature or a password.
func TestURLParseErrorsHoldNoURL(t *testing.T) {
	t.Parallel()
	for _, endpoint := range []string{"https://user:" + canary + "%zz@api.example.test/v1", "https://svc:" + canary + "/x@api.example.test/v1"} {
		_, err := NewClient(WithCredentials("id", "secret"), WithEndpoint(endpoint, ""))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "invalid base URL: must be an absolute URL, and does not parse as one")
		assert.NotContains(t, err.Error(), canary)
	}
	err := newServerClient(t, http.NotFoundHandler()).Call(t.Context(), http.MethodGet, "tasks/%zz?signature="+canary, nil, nil, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid path: must be a relative URL path, and does not parse as one")
	assert.NotContains(t, err.Error(), canary)

	c := newServerClient(t, http.NotFoundHandler())
	_, err = c.Attachments.DownloadAttachment(t.Context(), Tasks, "t", "1",
		&Attachment{ContentURL: "https://svc:" + canary + "/x@api.example.test/v1/tasks/t/1/attachments/a/content"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Attachment.ContentURL: must be a URL or a path")
	assert.NotContains(t, err.Error(), canary)
}

// TestValuesOfALargeBodyAreRemoved: the values of a JSON body larger than
// what is read again for redaction (maxScannedBody) are removed from a
// message as far as the part read goes, although that part is no whole
// JSON value.
func TestValuesOfALargeBodyAreRemoved(t *testing.T) {
	t.Parallel()
	c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var rec struct{ Email string }
		_ = json.NewDecoder(r.Body).Decode(&rec)
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = fmt.Fprintf(w, `{"message":%q}`, "Email "+rec.Email+" is already taken")
	}))
	_, err := c.Records.Create(t.Context(), Tasks, "t", Record{"Email": canary + "@example.com", "Notes": strings.Repeat("n", maxScannedBody)})
	ae := requireAs[*APIError](t, err)
	assert.Equal(t, "Email [REDACTED] is already taken", ae.Message)
}

// TestEchoesInOtherFormsAreRemoved: a value the request sent, or the
// access token, comes out of no message, whatever form the service
// echoes it in: JSON-escaped, URL-escaped, HTML-escaped, quoted as in a
// multipart header, spread over lines; and whatever the body that sent
// it (an upload's parts, JSON with a repeated name).
func TestEchoesInOtherFormsAreRemoved(t *testing.T) {
	t.Parallel()
	name, description := "Überprüfung "+canary+` "final".pdf`, "about\n"+canary+" and more"
	upload := func(ctx context.Context, c *Client) error {
		_, err := c.Attachments.Upload(ctx, Tasks, "t", "1", name, strings.NewReader("%PDF-1.4"), &UploadOptions{Description: description})
		return err
	}
	list := func(ctx context.Context, c *Client) error {
		_, err := c.Records.List(ctx, Tasks, "t", &ListOptions{Filter: rsql.Field("Email").Eq(canary + "-O'Neill-Ü@example.com")})
		return err
	}
	for _, tc := range []struct {
		name string
		call func(context.Context, *Client) error
		echo func(r *http.Request) string // the message, as JSON text
	}{
		{"the token, JSON-escaped", list, func(*http.Request) string {
			return `"token \u0074` + testToken[1:] + ` refused"`
		}},
		{"a filter value, URL-escaped", list, func(*http.Request) string {
			return `"see /search?q=` + url.QueryEscape(canary+"-O'Neill-Ü@example.com") + `"`
		}},
		{"a filter value, URL-escaped beside a stray %", list, func(*http.Request) string {
			return `"see /search?q=` + url.QueryEscape(canary+"-O'Neill-Ü@example.com") + ` (quota 100% used)"`
		}},
		{"a filter value, URL-escaped in a path beside a bad escape", list, func(*http.Request) string {
			return `"no page /q/` + url.PathEscape(canary+"-O'Neill-Ü@example.com") + `/%zz"`
		}},
		{"a filter value, HTML-escaped", list, func(r *http.Request) string {
			return `"no ` + html.EscapeString(canary+"-O'Neill-Ü@example.com") + `"`
		}},
		{"a file name, URL-escaped", upload, func(r *http.Request) string {
			return `"cannot store ` + url.PathEscape(name) + `"`
		}},
		{"a file name, as in its header", upload, func(r *http.Request) string {
			q, _ := json.Marshal(`filename="` + strings.ReplaceAll(name, `"`, `\"`) + `"`)
			return string(q)
		}},
		{"a description over two lines", upload, func(r *http.Request) string {
			q, _ := json.Marshal("described as " + description)
			return string(q)
		}},
		{"a filter value, HTML-escaped as PHP does", list, func(r *http.Request) string {
			return `"no ` + strings.ReplaceAll(canary+"-O'Neill-Ü@example.com", "'", "&#039;") + `"`
		}},
		{"a filter value, URL-escaped in lower case, the quote left", list, func(r *http.Request) string {
			return `"see /q/` + strings.NewReplacer("%27", "'", "%C3%9C", "%c3%9c").Replace(url.PathEscape(canary+"-O'Neill-Ü@example.com")) + `"`
		}},
		{"a filter value, in lower case", list, func(*http.Request) string {
			return `"no user ` + strings.ToLower(canary+"-O'Neill-Ü@example.com") + `"`
		}},
		{"a JSON value after invalid UTF-8", func(ctx context.Context, c *Client) error {
			return c.Call(ctx, http.MethodPost, "tasks/t", nil, json.RawMessage("{\"note\":\"caf\xe9\",\"email\":\""+canary+"@example.com\"}"), nil)
		}, func(*http.Request) string { return `"email ` + canary + `@example.com is taken"` }},
		{"a JSON value after a repeated name", func(ctx context.Context, c *Client) error {
			return c.Call(ctx, http.MethodPost, "tasks/t", nil, json.RawMessage(`{"note":"x","note":"y","email":"`+canary+`@example.com"}`), nil)
		}, func(*http.Request) string { return `"email ` + canary + `@example.com is taken"` }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.WriteHeader(http.StatusUnprocessableEntity)
				_, _ = io.WriteString(w, `{"message":`+tc.echo(r)+`}`)
			}), WithMaxAttempts(1))
			err := tc.call(t.Context(), c)
			ae := requireAs[*APIError](t, err)
			assert.Contains(t, ae.Message, "[REDACTED]")
			for _, s := range []string{canary, strings.ToLower(canary), "%C3%9Cberpr", testToken} {
				assert.NotContains(t, err.Error(), s)
			}
		})
	}
}

// TestTokenSourceErrorsHoldNoToken: the error of a caller's token source
// loses the tokens the client has used.
func TestTokenSourceErrorsHoldNoToken(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	ts := tokenSourceFunc(func() (*oauth2.Token, error) {
		if calls.Add(1) == 1 {
			return &oauth2.Token{AccessToken: canary + "-first-token"}, nil
		}
		return nil, fmt.Errorf("refresh refused; previous token %s revoked", canary+"-first-token")
	})
	c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}), WithTokenSource(ts))
	_, err := c.Users.Get(t.Context(), someUser)
	ae := requireAs[*AuthError](t, err)
	assert.Contains(t, ae.Error(), "refresh refused; previous token [REDACTED] revoked")
}

// TestTokenSourceRetrieveError: a caller's x/oauth2 token source that
// fails with a *oauth2.RetrieveError gives an *AuthError with the token
// endpoint's status, error code, description and body, and its URL without
// user info, query values or fragment; nothing of the token request,
// whose Basic header holds the secret, is kept.
func TestTokenSourceRetrieveError(t *testing.T) {
	t.Parallel()
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("id:"+canary))
	for _, tc := range []struct {
		name, url string
		status    int
	}{
		{"with its request", "https://id:pw-" + canary + "@auth.example.test/oauth/token?client_secret=" + canary + "&x#" + canary, http.StatusBadRequest},
		{"without one", "", http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: tc.status}
			if tc.url != "" {
				u, err := url.Parse(tc.url)
				require.NoError(t, err)
				resp.Request = &http.Request{URL: u, Header: http.Header{"Authorization": {basic}}}
			}
			ts := tokenSourceFunc(func() (*oauth2.Token, error) {
				return nil, &oauth2.RetrieveError{Response: resp, Body: []byte(`{"error":"invalid_client"}`), ErrorCode: "invalid_client", ErrorDescription: "unknown client"}
			})
			c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				t.Error("the API was called without a token")
			}), WithTokenSource(ts))
			_, err := c.Users.Get(t.Context(), someUser)
			ae := requireAs[*AuthError](t, err)
			assert.Equal(t, tc.status, ae.StatusCode)
			assert.Equal(t, "invalid_client", ae.ErrorCode)
			assert.Equal(t, "unknown client", ae.Description)
			assert.JSONEq(t, `{"error":"invalid_client"}`, ae.Body)
			if tc.url != "" {
				assert.Equal(t, "https://auth.example.test/oauth/token?client_secret=REDACTED&x", ae.URL)
			} else {
				assert.Empty(t, ae.URL)
			}
			assert.Nil(t, ae.Err, "the RetrieveError is not kept")
			for _, s := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
				assert.NotContains(t, s, canary)
				assert.NotContains(t, s, basic)
			}
		})
	}
}

type tokenSourceFunc func() (*oauth2.Token, error)

func (f tokenSourceFunc) Token() (*oauth2.Token, error) { return f() }

// TestRedirectErrorHoldsNoSentValue: a redirect to another host whose
// target carries a value the request sent shows it without the value.
func TestRedirectErrorHoldsNoSentValue(t *testing.T) {
	t.Parallel()
	c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://elsewhere.example.test/search/"+url.PathEscape(canary+" O'Neill"), http.StatusFound)
	}))
	_, err := c.Records.List(t.Context(), Tasks, "t", &ListOptions{Filter: rsql.Field("Name").Eq(canary + " O'Neill")})
	re := requireAs[*RedirectError](t, err)
	assert.Equal(t, "https://elsewhere.example.test/search/[REDACTED]", re.To)

	// A same-origin hop first, to a path that holds the value: From is
	// that hop's URL.
	c = newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/search/") {
			http.Redirect(w, r, "https://elsewhere.example.test/x", http.StatusFound)
			return
		}
		http.Redirect(w, r, "/v1/search/"+url.PathEscape(canary+" O'Neill"), http.StatusFound)
	}))
	_, err = c.Records.List(t.Context(), Tasks, "t", &ListOptions{Filter: rsql.Field("Name").Eq(canary + " O'Neill")})
	re = requireAs[*RedirectError](t, err)
	assert.True(t, strings.HasSuffix(re.From, "/v1/search/[REDACTED]"), re.From)
	assert.NotContains(t, err.Error(), canary)
}

// someUser is a user id that the test servers answer for with an error.
const someUser = "0b6f0a1c-2c39-4b0e-9d35-6f9bb4c0a9e1"

// requireAs returns the error of type T in err's chain, failing the test
// when there is none.
func requireAs[T error](t *testing.T, err error) T {
	t.Helper()
	e, ok := errors.AsType[T](err)
	require.True(t, ok, "no %T in %v", e, err)
	return e
}

// TestEscapedEchoesOfSecretsAreRemoved: a token, the secret or a sent
// value echoed inside a JSON string with "/" written "\/" (as PHP writes
// it), in a text that is no JSON to decode, or HTML-escaped, is removed
// like a plain echo.
func TestEscapedEchoesOfSecretsAreRemoved(t *testing.T) {
	const tok = "tok/" + canary + "/xyz+abc="
	t.Run("API: header and plain message", func(t *testing.T) {
		c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			esc := strings.ReplaceAll(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), "/", `\/`)
			w.Header().Set("X-Debug", `{"auth":"`+esc+`"}`)
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `rejected {"auth":"`+esc+`"}`)
		}), WithTokenSource(tokenSourceFunc(func() (*oauth2.Token, error) { return &oauth2.Token{AccessToken: tok}, nil })), WithMaxAttempts(1))
		var resp Response
		_, err := c.Users.Get(t.Context(), someUser, WithResponseInto(&resp))
		ae := requireAs[*APIError](t, err)
		assert.NotContains(t, err.Error(), canary, "Error")
		assert.NotContains(t, fmt.Sprint(ae.Header), canary, "APIError.Header")
		assert.NotContains(t, fmt.Sprint(resp.Header), canary, "Response.Header")
	})
	t.Run("API: a sent value in a plain message", func(t *testing.T) {
		value := "a/" + canary + "/b"
		c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `no match {"q":"`+strings.ReplaceAll(r.URL.Query().Get("filter"), "/", `\/`)+`"}`)
		}), WithMaxAttempts(1))
		_, err := c.Records.List(t.Context(), Tasks, "t", &ListOptions{Filter: rsql.Field("Path").Eq(value)})
		requireAs[*APIError](t, err)
		assert.NotContains(t, err.Error(), canary)
		assert.Contains(t, err.Error(), "no match")
	})
	t.Run("token endpoint: a cut JSON body", func(t *testing.T) {
		secret := "sec/" + canary + "/0123456789"
		as := newAuthServer(t)
		as.tokenStatus = http.StatusUnauthorized
		as.tokenBody = `{"error":"invalid_client","error_description":"bad secret ` + strings.ReplaceAll(secret, "/", `\/`) // cut: no closing
		c := as.client(t, WithCredentials("id", secret), WithMaxAttempts(1))
		_, err := c.Users.Get(t.Context(), someUser)
		ae := requireAs[*AuthError](t, err)
		assert.NotContains(t, err.Error(), canary, "Error")
		assert.NotContains(t, ae.Body, canary, "Body")
	})
	t.Run("token endpoint: HTML-escaped secret", func(t *testing.T) {
		secret := canary + "&Co<9876>"
		as := newAuthServer(t)
		as.tokenStatus = http.StatusUnauthorized
		as.tokenBody = `<html><body>bad secret ` + strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(secret) + `</body></html>`
		var logs lockedBuffer
		var fetchErr []string
		c := as.client(t, WithCredentials("id", secret), WithMaxAttempts(1),
			WithLogger(slog.New(slog.NewTextHandler(&logs, nil))),
			WithObserver(&Observer{TokenFetchEnd: func(_ context.Context, _ TokenFetchInfo, r TokenFetchResult) {
				if r.Err != nil {
					fetchErr = append(fetchErr, r.Err.Error())
				}
			}}))
		_, err := c.Users.Get(t.Context(), someUser)
		ae := requireAs[*AuthError](t, err)
		assert.NotContains(t, err.Error(), canary, "Error")
		assert.NotContains(t, ae.Body, canary, "Body")
		assert.NotContains(t, logs.String(), canary, "WARN log")
		assert.NotContains(t, strings.Join(fetchErr, " "), canary, "TokenFetchResult.Err")
	})
}

// TestSentBodiesOfEveryTypeAreScanned: the values of a body the caller
// built are removed from a server's message whatever the body's media type
// says (in any case, a +json type, a form) or when it says nothing.
func TestSentBodiesOfEveryTypeAreScanned(t *testing.T) {
	t.Parallel()
	body := `{"note":"` + canary + ` secret plan"}`
	send := func(mediaType, body string) func(context.Context, *Client) error {
		return func(ctx context.Context, c *Client) error {
			req, err := c.NewRequest(ctx, http.MethodPost, "tasks/t", strings.NewReader(body))
			if err != nil {
				return err
			}
			if mediaType != "" {
				req.Header.Set("Content-Type", mediaType)
			}
			_, err = c.Do(req, nil)
			return err
		}
	}
	for name, call := range map[string]func(context.Context, *Client) error{
		"Call with a reader": func(ctx context.Context, c *Client) error {
			return c.Call(ctx, http.MethodPost, "tasks/t", nil, bytes.NewReader([]byte(body)), nil)
		},
		"no media type":    send("", body),
		"upper case":       send("Application/JSON; charset=utf-8", body),
		"a +json type":     send("application/merge-patch+json", body),
		"a form":           send("application/x-www-form-urlencoded", url.Values{"note": {canary + " secret plan"}}.Encode()),
		"text, upper case": send("Text/Plain", canary+" secret plan"),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				msg, _ := json.Marshal(map[string]string{"message": "cannot store " + string(b)})
				w.WriteHeader(http.StatusUnprocessableEntity)
				_, _ = w.Write(msg)
			}), WithMaxAttempts(1))
			err := call(t.Context(), c)
			requireAs[*APIError](t, err)
			assert.Contains(t, err.Error(), "cannot store")
			assert.NotContains(t, err.Error(), canary)
		})
	}
}

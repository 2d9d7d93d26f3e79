package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// recCall is one request seen by a recServer.
type recCall struct {
	Method      string
	URI         string // request URI as sent, with /v1 and raw escapes
	RawQuery    string
	ContentType string
	Body        string
}

// recServer records every API request and answers with reply.
type recServer struct {
	*testServer
	mu    sync.Mutex
	calls []recCall
	reply func(w http.ResponseWriter, r *http.Request)
}

// newRecClient returns a client of a server that records requests and
// answers each with status and body.
func newRecClient(t *testing.T, status int, body string) (*Client, *recServer) {
	t.Helper()
	return newRecClientFunc(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
}

func newRecClientFunc(t *testing.T, reply func(w http.ResponseWriter, r *http.Request)) (*Client, *recServer) {
	t.Helper()
	rs := &recServer{reply: reply}
	rs.testServer = newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rs.mu.Lock()
		rs.calls = append(rs.calls, recCall{
			Method: r.Method, URI: r.RequestURI, RawQuery: r.URL.RawQuery,
			ContentType: r.Header.Get("Content-Type"), Body: string(b),
		})
		rs.mu.Unlock()
		rs.reply(w, r)
	}))
	return rs.client(t), rs
}

func (rs *recServer) recorded() []recCall {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]recCall(nil), rs.calls...)
}

// only returns the single request the server saw.
func (rs *recServer) only(t *testing.T) recCall {
	t.Helper()
	calls := rs.recorded()
	require.Len(t, calls, 1)
	return calls[0]
}

const recPageJSON = `{"items":[{"data":{"id":"1","Title":"One"},"cursor":"c1"},{"data":{"id":"2","Title":"Two"},"cursor":"c2"}],
 "total":57,"paging":{"has_next_page":true,"has_previous_page":false,"start_cursor":"c1","end_cursor":"c2"}}`

func TestRecordsListRequest(t *testing.T) {
	t.Parallel()
	filter := rsql.Or(
		rsql.And(rsql.Field("Status").Eq("Open"), rsql.Field("Priority").Gt(2)),
		rsql.Field("Owner").Eq("me"),
	)
	tests := []struct {
		name     string
		typ      RecordType
		alias    string
		opts     *ListOptions
		uri      string // path part
		rawQuery string
	}{
		{"nil options", Tasks, "it-requests", nil, "/v1/tasks/it-requests", ""},
		{"zero options", Apps, "crm", &ListOptions{}, "/v1/apps/crm", ""},
		{"forward with filter", Tasks, "it-requests", &ListOptions{First: 50, After: "c1", Filter: filter},
			"/v1/tasks/it-requests",
			"after=c1&filter=Status%3D%3DOpen%3BPriority%3Dgt%3D2%2COwner%3D%3Dme&first=50"},
		{"backward", Transactions, "orders", &ListOptions{Last: 10, Before: "c/9+x"},
			"/v1/transactions/orders", "before=c%2F9%2Bx&last=10"},
		{"bounds", Elements, "parts", &ListOptions{First: 1000}, "/v1/elements/parts", "first=1000"},
		{"last 1", Elements, "parts", &ListOptions{Last: 1}, "/v1/elements/parts", "last=1"},
		{"alias escaped", Tasks, "it requests?β", nil, "/v1/tasks/it%20requests%3F%CE%B2", ""},
		{"field name with space, raw filter", Tasks, "t", &ListOptions{Filter: rsql.Raw("Due Date=lt=2024-01-01T00:00:00.000Z")},
			"/v1/tasks/t", "filter=Due+Date%3Dlt%3D2024-01-01T00%3A00%3A00.000Z"},
		{"prefetch ignored by List", Tasks, "t", &ListOptions{Prefetch: true}, "/v1/tasks/t", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newRecClient(t, http.StatusOK, recPageJSON)
			page, err := c.Records.List(t.Context(), tt.typ, tt.alias, tt.opts)
			require.NoError(t, err)

			call := srv.only(t)
			assert.Equal(t, http.MethodGet, call.Method)
			want := tt.uri
			if tt.rawQuery != "" {
				want += "?" + tt.rawQuery
			}
			assert.Equal(t, want, call.URI)
			assert.Empty(t, call.Body)

			assert.Equal(t, &RecordPage{
				Items: []RecordItem{
					{Data: Record{"id": "1", "Title": "One"}, Cursor: "c1"},
					{Data: Record{"id": "2", "Title": "Two"}, Cursor: "c2"},
				},
				Total:  57,
				Paging: PagingState{HasNextPage: true, StartCursor: "c1", EndCursor: "c2"},
			}, page)
		})
	}
}

func TestRecordsListFilterReachesServer(t *testing.T) {
	t.Parallel()
	// The server decodes the query back to the exact filter text.
	due := time.Date(2024, 1, 31, 9, 30, 0, 0, time.FixedZone("", 3600))
	filter := rsql.And(rsql.Field("Status").In("Open", "In progress"), rsql.Field("Due Date").Lt(due))
	var got string
	c, _ := newRecClientFunc(t, func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Query().Get("filter")
		_, _ = io.WriteString(w, `{"items":[],"total":0,"paging":{}}`)
	})
	_, err := c.Records.List(t.Context(), Tasks, "it-requests", &ListOptions{Filter: filter})
	require.NoError(t, err)
	assert.Equal(t, `Status=in=Open:"In progress";Due Date=lt=2024-01-31T08:30:00.000Z`, got)
}

func TestRecordsGetCreateUpdateRequests(t *testing.T) {
	t.Parallel()
	type call func(ctx context.Context, c *Client) (Record, error)
	tests := []struct {
		name    string
		status  int
		resp    string
		do      call
		method  string
		uri     string
		body    string // expected JSON body, "" for none
		wantRec Record
	}{
		{
			name: "get", status: http.StatusOK, resp: `{"id":"a/b","Title":"T"}`,
			do: func(ctx context.Context, c *Client) (Record, error) {
				return c.Records.Get(ctx, Tasks, "it-requests", "a?b")
			},
			method: http.MethodGet, uri: "/v1/tasks/it-requests/a%3Fb",
			wantRec: Record{"id": "a/b", "Title": "T"},
		},
		{
			name: "get element by namespace (rule 2)", status: http.StatusOK, resp: `{"id":"E-7"}`,
			do: func(ctx context.Context, c *Client) (Record, error) {
				return c.Records.Get(ctx, Elements, "parts", "E-7")
			},
			method: http.MethodGet, uri: "/v1/elements/parts/E-7",
			wantRec: Record{"id": "E-7"},
		},
		{
			name: "get with reserved characters", status: http.StatusOK, resp: `{"id":"x"}`,
			do: func(ctx context.Context, c *Client) (Record, error) {
				return c.Records.Get(ctx, Apps, "my app", "x?y#z%")
			},
			method: http.MethodGet, uri: "/v1/apps/my%20app/x%3Fy%23z%25",
			wantRec: Record{"id": "x"},
		},
		{
			name: "get wrapped in data", status: http.StatusOK, resp: `{"data":{"id":"7"},"cursor":"c7"}`,
			do: func(ctx context.Context, c *Client) (Record, error) {
				return c.Records.Get(ctx, Tasks, "t", "7")
			},
			method: http.MethodGet, uri: "/v1/tasks/t/7",
			wantRec: Record{"id": "7"},
		},
		{
			name: "create", status: http.StatusCreated, resp: `{"id":"9","Title":"New","Due Date":"2024-01-31T09:30:00.000Z"}`,
			do: func(ctx context.Context, c *Client) (Record, error) {
				return c.Records.Create(ctx, Tasks, "it requests", Record{"Title": "New", "Due Date": "2024-01-31T09:30:00.000Z"})
			},
			method: http.MethodPost, uri: "/v1/tasks/it%20requests",
			body:    `{"Title":"New","Due Date":"2024-01-31T09:30:00.000Z"}`,
			wantRec: Record{"id": "9", "Title": "New", "Due Date": "2024-01-31T09:30:00.000Z"},
		},
		{
			name: "create answered as data", status: http.StatusCreated, resp: `{"data":{"id":"9","Title":"New"}}`,
			do: func(ctx context.Context, c *Client) (Record, error) {
				return c.Records.Create(ctx, Apps, "crm", Record{"Title": "New"})
			},
			method: http.MethodPost, uri: "/v1/apps/crm",
			body:    `{"Title":"New"}`,
			wantRec: Record{"id": "9", "Title": "New"},
		},
		{
			name: "update", status: http.StatusOK, resp: `{"id":"a/b","Title":"T","Status":"Done"}`,
			do: func(ctx context.Context, c *Client) (Record, error) {
				return c.Records.Update(ctx, Transactions, "orders", "a?b", Record{"Status": "Done"})
			},
			method: http.MethodPut, uri: "/v1/transactions/orders/a%3Fb",
			body:    `{"Status":"Done"}`,
			wantRec: Record{"id": "a/b", "Title": "T", "Status": "Done"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newRecClient(t, tt.status, tt.resp)
			rec, err := tt.do(t.Context(), c)
			require.NoError(t, err)
			assert.Equal(t, tt.wantRec, rec)

			call := srv.only(t)
			assert.Equal(t, tt.method, call.Method)
			assert.Equal(t, tt.uri, call.URI)
			if tt.body == "" {
				assert.Empty(t, call.Body)
			} else {
				assert.JSONEq(t, tt.body, call.Body)
				assert.Equal(t, "application/json", call.ContentType)
			}
		})
	}
}

func TestRecordsErrors(t *testing.T) {
	t.Parallel()
	c, srv := newRecClient(t, http.StatusNotFound, `{"status":404,"message":"no such record"}`)
	_, err := c.Records.Get(t.Context(), Tasks, "it-requests", "404")
	require.ErrorIs(t, err, ErrNotFound)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "no such record", ae.Message)
	assert.Equal(t, http.MethodGet, ae.Method)
	assert.Len(t, srv.recorded(), 1)

	c, _ = newRecClient(t, http.StatusForbidden, `{"status":403,"message":"nope"}`)
	_, err = c.Records.Update(t.Context(), Tasks, "it-requests", "1", Record{"a": "b"})
	require.ErrorIs(t, err, ErrForbidden)

	c, _ = newRecClient(t, http.StatusOK, `{"items": not json`)
	_, err = c.Records.List(t.Context(), Tasks, "it-requests", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "GET")
}

func TestRecordsValidation(t *testing.T) {
	t.Parallel()
	bad := []struct {
		name  string
		field string // expected ValidationError.Field
		do    func(ctx context.Context, c *Client) error
	}{
		{"unknown record type", "record type", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, "task", "a", nil)
			return err
		}},
		{"upper-case record type", "record type", func(ctx context.Context, c *Client) error {
			_, err := c.Records.Get(ctx, "Tasks", "a", "1")
			return err
		}},
		{"empty record type", "record type", func(ctx context.Context, c *Client) error {
			_, err := c.Records.Create(ctx, "", "a", Record{"x": "y"})
			return err
		}},
		{"empty alias", "alias", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "", nil)
			return err
		}},
		{"dot-dot alias", "alias", func(ctx context.Context, c *Client) error {
			_, err := c.Records.Get(ctx, Tasks, "..", "1")
			return err
		}},
		{"empty id on get", "id", func(ctx context.Context, c *Client) error {
			_, err := c.Records.Get(ctx, Tasks, "a", "")
			return err
		}},
		{"dot id on update", "id", func(ctx context.Context, c *Client) error {
			_, err := c.Records.Update(ctx, Tasks, "a", ".", Record{"x": "y"})
			return err
		}},
		{"empty fields on create", "fields", func(ctx context.Context, c *Client) error {
			_, err := c.Records.Create(ctx, Tasks, "a", Record{})
			return err
		}},
		{"nil fields on update", "fields", func(ctx context.Context, c *Client) error {
			_, err := c.Records.Update(ctx, Tasks, "a", "1", nil)
			return err
		}},
		{"first 1001", "ListOptions.First", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{First: 1001})
			return err
		}},
		{"first negative", "ListOptions.First", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{First: -1})
			return err
		}},
		{"last 1001", "ListOptions.Last", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{Last: 1001})
			return err
		}},
		{"first and last", "ListOptions", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{First: 5, Last: 5})
			return err
		}},
		{"after and before", "ListOptions", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{After: "x", Before: "y"})
			return err
		}},
		{"first and before", "ListOptions", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{First: 5, Before: "y"})
			return err
		}},
		{"after and last", "ListOptions", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{After: "x", Last: 5})
			return err
		}},
		{"builder filter with empty field", "ListOptions.Filter", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{Filter: rsql.Field("").Eq("x")})
			return err
		}},
		{"builder filter in without values", "ListOptions.Filter", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{Filter: rsql.And(rsql.Field("a").Eq(1), rsql.Field("b").In())})
			return err
		}},
		{"malformed raw filter", "ListOptions.Filter", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{Filter: rsql.Raw("Status==")})
			return err
		}},
		{"raw filter without operator", "ListOptions.Filter", func(ctx context.Context, c *Client) error {
			_, err := c.Records.List(ctx, Tasks, "a", &ListOptions{Filter: rsql.Raw("Status")})
			return err
		}},
		{"all with bad options", "ListOptions", func(ctx context.Context, c *Client) error {
			return firstErr(c.Records.All(ctx, Tasks, "a", &ListOptions{After: "x", Last: 5}))
		}},
		{"all with bad record type", "record type", func(ctx context.Context, c *Client) error {
			return firstErr(c.Records.All(ctx, "nope", "a", nil))
		}},
		{"pages with bad filter", "ListOptions.Filter", func(ctx context.Context, c *Client) error {
			return firstErr(c.Records.Pages(ctx, Tasks, "a", &ListOptions{Filter: rsql.Raw(";;")}))
		}},
		{"all with prefetch and bad size", "ListOptions.Last", func(ctx context.Context, c *Client) error {
			return firstErr(c.Records.All(ctx, Tasks, "a", &ListOptions{Last: 5000, Prefetch: true}))
		}},
		{"all-as with empty alias", "alias", func(ctx context.Context, c *Client) error {
			return firstErr(AllAs[codecTask](ctx, c.Records, Tasks, "", nil))
		}},
		{"get-as with empty id", "id", func(ctx context.Context, c *Client) error {
			_, err := GetAs[codecTask](ctx, c.Records, Tasks, "a", "")
			return err
		}},
		{"create-as with a value that cannot be sent", `codecTask.F64 (record field "F64")`, func(ctx context.Context, c *Client) error {
			_, err := CreateAs(ctx, c.Records, Tasks, "a", codecTask{F64: 1 / zeroFloat(), Level: 1})
			return err
		}},
		{"update-as with bad record type", "record type", func(ctx context.Context, c *Client) error {
			_, err := UpdateAs(ctx, c.Records, "x", "a", "1", codecTask{Level: 1})
			return err
		}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newRecClient(t, http.StatusOK, `{}`)
			err := tt.do(t.Context(), c)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tt.field, ve.Field)
			assert.Empty(t, srv.recorded(), "no request may be sent")
			assert.Zero(t, srv.tokenRequests.Load(), "no token may be requested")
		})
	}
}

// zeroFloat returns 0 at run time, so 1/zeroFloat() is +Inf.
func zeroFloat() float64 { return 0 }

// firstErr ranges over seq and returns the first error, after checking
// that nothing else was yielded.
func firstErr[T any](seq iter.Seq2[T, error]) error {
	n := 0
	var first error
	for _, err := range seq {
		n++
		if err != nil && first == nil {
			first = err
		}
	}
	if n != 1 {
		return errors.New("expected exactly one yield")
	}
	return first
}

// recTask is a typed record for the AllAs/GetAs/CreateAs/UpdateAs tests.
type recTask struct {
	ID     string    `workflow:"id,omitempty"`
	Title  string    `workflow:"Title"`
	Number int       `workflow:"Number"`
	Due    time.Time `workflow:"Due Date,omitempty"`
	Note   *string   `workflow:"Note"`
}

func TestTypedRecords(t *testing.T) {
	t.Parallel()
	c, srv := newRecClientFunc(t, func(w http.ResponseWriter, r *http.Request) {
		var in map[string]string
		_ = json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "application/json")
		switch r.Method {
		case http.MethodPost:
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, `{"id":"9","Title":"New","Number":"3","Due Date":"2024-01-31T09:30:00.000Z"}`)
		case http.MethodPut:
			_, _ = io.WriteString(w, `{"id":"9","Title":"Renamed","Number":"4","Note":""}`)
		default:
			_, _ = io.WriteString(w, `{"id":"9","Title":"New","Number":"3"}`)
		}
	})
	ctx := t.Context()
	due := time.Date(2024, 1, 31, 10, 30, 0, 0, time.FixedZone("CET", 3600))

	created, err := CreateAs(ctx, c.Records, Tasks, "it-requests", recTask{Title: "New", Number: 3, Due: due})
	require.NoError(t, err)
	assert.Equal(t, recTask{ID: "9", Title: "New", Number: 3, Due: due.UTC()}, created)

	got, err := GetAs[*recTask](ctx, c.Records, Tasks, "it-requests", "9")
	require.NoError(t, err)
	assert.Equal(t, &recTask{ID: "9", Title: "New", Number: 3}, got)

	updated, err := UpdateAs(ctx, c.Records, Tasks, "it-requests", "9", struct {
		Title string  `workflow:"Title"`
		Note  *string `workflow:"Note"`
	}{Title: "Renamed"})
	require.NoError(t, err)
	assert.Equal(t, "Renamed", updated.Title)
	require.NotNil(t, updated.Note)
	assert.Empty(t, *updated.Note)

	calls := srv.recorded()
	require.Len(t, calls, 3)
	assert.Equal(t, "POST /v1/tasks/it-requests", calls[0].Method+" "+calls[0].URI)
	assert.JSONEq(t, `{"Title":"New","Number":"3","Due Date":"2024-01-31T09:30:00.000Z"}`, calls[0].Body)
	assert.Equal(t, "GET /v1/tasks/it-requests/9", calls[1].Method+" "+calls[1].URI)
	assert.Equal(t, "PUT /v1/tasks/it-requests/9", calls[2].Method+" "+calls[2].URI)
	assert.JSONEq(t, `{"Title":"Renamed"}`, calls[2].Body, "a nil pointer is not sent")
}

func TestTypedRecordsDecodeError(t *testing.T) {
	t.Parallel()
	c, _ := newRecClient(t, http.StatusOK, `{"id":"9","Number":"many"}`)
	got, err := GetAs[recTask](t.Context(), c.Records, Tasks, "t", "9")
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "Number", de.Field)
	assert.Equal(t, "many", de.Value)
	assert.Equal(t, recTask{}, got)

	_, err = GetAs[int](t.Context(), c.Records, Tasks, "t", "9")
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "pointer to a struct"), err.Error())
}

// TestRecordsWire: every Records method sends its exact request (see checkWire).
func TestRecordsWire(t *testing.T) {
	checkWire(t, []wireCase{
		{name: "Records.List", method: "GET", path: "/tasks/it-requests", query: url.Values{"first": {"2"}, "after": {"c 1"}, "filter": {"Status==Open"}}, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.List(ctx, Tasks, "it-requests", &ListOptions{First: 2, After: "c 1", Filter: rsql.Field("Status").Eq("Open")}, o...)
				return err
			}},
		{name: "Records.All", method: "GET", path: "/tasks/it-requests", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.All(ctx, Tasks, "it-requests", wireListOpts, o...))
			}},
		{name: "Records.Get", method: "GET", path: wireRec, reply: mockReply(200, `{"id":"x"}`),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Get(ctx, Tasks, "it-requests", odd, o...)
				return err
			}},
		{name: "Records.Create", method: "POST", path: "/tasks/it-requests", reply: mockReply(201, `{"id":"x"}`),
			contentType: "application/json", body: `{"Title":"Printer jams"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Create(ctx, Tasks, "it-requests", Record{"Title": "Printer jams"}, o...)
				return err
			}},
		{name: "Records.Update", method: "PUT", path: wireRec, reply: mockReply(200, `{"id":"x"}`),
			contentType: "application/json", body: `{"Status":"Done"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := c.Records.Update(ctx, Tasks, "it-requests", odd, Record{"Status": "Done"}, o...)
				return err
			}},
		{name: "Records.Pages", method: "GET", path: "/tasks/it-requests", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(c.Records.Pages(ctx, Tasks, "it-requests", wireListOpts, o...))
			}},
	})
}

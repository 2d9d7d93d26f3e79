package workflow

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

func TestCallReadsEachReplyShape(t *testing.T) {
	type thing struct {
		Name string `json:"name"`
		Size int    `json:"size,omitzero"`
	}
	tests := []struct {
		name, body string
		out        func() any
		want       any
		malformed  bool
	}{
		{"struct", `{"name":"a"}`, func() any { return new(thing) }, &thing{Name: "a"}, false},
		{"raw JSON kept as sent", `{"b": 1, "a": [true]}`, func() any { return new(jsontext.Value) }, ptr(jsontext.Value(`{"b": 1, "a": [true]}`)), false},
		{"text", `c-1`, func() any { return new(string) }, ptr("c-1"), false},
		// out is left zero when the answer holds no value, even half read.
		{"empty body", ``, func() any { return &thing{Name: "old"} }, nil, true},
		{"null", `null`, func() any { return ptr(jsontext.Value(`{"old":1}`)) }, nil, true},
		{"wrong type", `[1]`, func() any { return &thing{Name: "old"} }, nil, true},
		{"a member of the wrong type after one read", `{"name":"a","size":"big"}`, func() any { return &thing{Size: 1} }, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, m := newMockClient(t, mockReply(http.StatusOK, tc.body))
			out := tc.out()
			err := c.Call(t.Context(), http.MethodPost, "aspects/compose", url.Values{"x": {"1"}}, map[string]int{"n": 1}, out, WithHeader("X-Trace", "t"))
			if tc.malformed {
				assert.ErrorIs(t, err, ErrUnexpectedResponse)
				assert.Contains(t, err.Error(), "workflow: POST /v1/aspects/compose: ", "the error names the request, without its query")
				assert.True(t, reflect.ValueOf(out).Elem().IsZero(), "out left zero, got %+v", out)
			} else {
				require.NoError(t, err)
				assert.Equal(t, tc.want, out)
			}
			calls := m.requests()
			require.Len(t, calls, 1)
			assert.Equal(t, "/aspects/compose", calls[0].Path)
			assert.Equal(t, "x=1", calls[0].Query)
			assert.JSONEq(t, `{"n":1}`, string(calls[0].Body))
			assert.Equal(t, "t", calls[0].Header.Get("X-Trace"))
		})
	}
}

func TestCallWithoutOutDropsTheBody(t *testing.T) {
	c, _ := newMockClient(t, mockReply(http.StatusNoContent, ""))
	require.NoError(t, c.Call(t.Context(), http.MethodDelete, "tables/1", nil, nil, nil))
	c, _ = newMockClient(t, mockReply(http.StatusNotFound, `{"message":"no table"}`))
	assert.ErrorIs(t, c.Call(t.Context(), http.MethodDelete, "tables/1", nil, nil, nil), ErrNotFound)
}

func TestPagedListWalksTheOnePager(t *testing.T) {
	c, m := newMockClient(t, func(call mockCall) *http.Response {
		if call.Query == "after=c1&first=1" {
			return mockResponse(http.StatusOK, `{"items":["b"],"total":2,"paging":{"has_next_page":false,"end_cursor":"c2"}}`)
		}
		return mockResponse(http.StatusOK, `{"items":["a"],"total":2,"paging":{"has_next_page":true,"end_cursor":"c1"}}`)
	})
	l := PagedList[string]{Client: c, Path: "tables"}
	var got []string
	for s, err := range l.All(t.Context(), &ListOptions{First: 1}) {
		require.NoError(t, err)
		got = append(got, s)
	}
	assert.Equal(t, []string{"a", "b"}, got)
	assert.Len(t, m.requests(), 2)
	_, err := l.List(t.Context(), &ListOptions{Filter: rsql.Raw("a==b")})
	var ve *ValidationError
	require.ErrorAs(t, err, &ve, "no filter is published for the list")
	assert.Equal(t, "ListOptions.Filter", ve.Field)
}

func TestSegmentChecksAndEscapes(t *testing.T) {
	s, err := Segment("id", "a b?")
	require.NoError(t, err)
	assert.Equal(t, "a%20b%3F", s)
	for _, bad := range []string{"", " ", "..", "a/b", "a\nb"} {
		_, err := Segment("id", bad)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, bad)
		assert.Equal(t, "id", ve.Field)
	}
}

func ptr[T any](v T) *T { return &v }

// An out that is neither nil nor a non-nil pointer is bad input: a
// *ValidationError naming out, and nothing is sent.
func TestCallRefusesAnOutThatIsNotAPointer(t *testing.T) {
	type thing struct{ Name string }
	var nilThing *thing
	for name, out := range map[string]any{"a struct": thing{}, "a nil pointer": nilThing, "a map": map[string]any{}} {
		t.Run(name, func(t *testing.T) {
			c, m := newMockClient(t, mockReply(http.StatusOK, `{"Name":"a"}`))
			err := c.Call(t.Context(), http.MethodGet, "things/1", nil, nil, out)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "out", ve.Field)
			assert.Contains(t, err.Error(), "non-nil pointer")
			assert.Empty(t, m.requests(), "nothing is sent")
		})
	}
}

func TestCallRefusesAQueryOfAnotherType(t *testing.T) {
	t.Parallel()
	c, m := newMockClient(t, mockReply(http.StatusOK, `{}`))
	for _, q := range []any{map[string][]string{"filter": {"a==1"}}, map[string]string{"a": "1"}, []string{"a"}, 5} {
		err := c.Call(t.Context(), http.MethodGet, "aspects/compose", q, nil, nil)
		ve, ok := errors.AsType[*ValidationError](err)
		require.True(t, ok, "%T: %v", q, err)
		assert.Equal(t, "query", ve.Field)
		assert.Equal(t, fmt.Sprintf(`must be url.Values or a struct with go-querystring "url" tags, not %T (a map[string][]string converts with url.Values(m))`, q), ve.Rule)
		assert.NoError(t, ve.Err)
	}
	type opts struct {
		A string `url:"a"`
	}
	require.NoError(t, c.Call(t.Context(), http.MethodGet, "aspects/compose", &opts{A: "1"}, nil, nil))
	require.NoError(t, c.Call(t.Context(), http.MethodGet, "aspects/compose", url.Values(map[string][]string{"a": {"2"}}), nil, nil))
	calls := m.requests()
	require.Len(t, calls, 2, "only the two good queries were sent")
	assert.Equal(t, "a=1", calls[0].Query)
	assert.Equal(t, "a=2", calls[1].Query)
}

// Operation sends an operation of the table by its id: the path filled
// and checked from the arguments, the operation named to observers, and
// an op.Body checked against the document before anything is sent, then
// sent byte for byte.
func TestOperationSendsAnOperationOfTheTable(t *testing.T) {
	var seen []CallInfo
	obs := WithObserver(&Observer{CallStart: func(ctx context.Context, c CallInfo) context.Context {
		seen = append(seen, c)
		return nil
	}})
	c, m := newMockClient(t, mockReply(http.StatusOK, `{"id":"g1"}`), obs)
	body := []byte(`{"name":"Ops",  "userIds":[]}`)
	var out map[string]string
	require.NoError(t, c.Operation(t.Context(), op.UpdateGroup, []string{"groupId", "g 1"}, nil, op.Body{Value: GroupRequest{}, JSON: body}, &out))
	assert.Equal(t, map[string]string{"id": "g1"}, out)
	calls := m.requests()
	require.Len(t, calls, 1)
	assert.Equal(t, "/groups/g%201", calls[0].Path)
	assert.Equal(t, string(body), string(calls[0].Body), "sent as encoded")
	require.Len(t, seen, 1)
	assert.Equal(t, string(op.UpdateGroup), seen[0].Operation)

	err := c.Operation(t.Context(), op.UpdateGroup, []string{"groupId", "g1"}, nil,
		op.Body{Value: GroupRequest{}, JSON: []byte(`{"userIds":["not a uuid"]}`)}, nil)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "GroupRequest.UserIDs[0]", ve.Field, "named as the Go value's field")
	err = c.Operation(t.Context(), op.UpdateGroup, []string{"groupId", "g1"}, nil, op.Body{JSON: []byte(`{"userIds":[1]}`)}, nil)
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "body.userIds[0]", ve.Field, "a body of no type: its JSON members")
	err = c.Operation(t.Context(), op.UpdateGroup, []string{"groupId", ""}, nil, nil, nil)
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "groupId", ve.Field)
	assert.Len(t, m.requests(), 1, "nothing sent after the first")
}

// OperationList pages a list operation of the table, its filter taken
// where the document publishes one, the operation named to observers.
func TestOperationListPagesAListOperation(t *testing.T) {
	var seen []string
	obs := WithObserver(&Observer{CallStart: func(ctx context.Context, c CallInfo) context.Context {
		seen = append(seen, c.Operation)
		return nil
	}})
	c, m := newMockClient(t, mockReply(http.StatusOK, `{"items":[{"id":"u1"}],"total":1,"paging":{"has_next_page":false}}`), obs)
	page, err := OperationList[map[string]string](c, op.ListUsers).List(t.Context(), &ListOptions{Filter: rsql.Raw("status==ACTIVE")})
	require.NoError(t, err)
	assert.Equal(t, []map[string]string{{"id": "u1"}}, page.Items)
	assert.Equal(t, []string{string(op.ListUsers)}, seen)
	assert.Contains(t, m.requests()[0].Query, "filter=")
	_, err = OperationList[map[string]string](c, op.ListGroups).List(t.Context(), &ListOptions{Filter: rsql.Raw("a==b")})
	var ve *ValidationError
	require.ErrorAs(t, err, &ve, "the groups list publishes no filter")
	assert.Equal(t, "ListOptions.Filter", ve.Field)
	_, err = OperationList[map[string]string](c, op.ListAgents, "alias", "a/b").List(t.Context(), nil)
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "alias", ve.Field)
}

package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readReply runs rd on body as the request path does.
func readReply(rd reply, body string) error {
	return rd.readBody(&http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(body))})
}

// TestPageReply holds every reader of the paged envelope (the general one
// and the record page decoder) to the same rule: items, total and paging
// present and not null, anything else an error matching
// ErrUnexpectedResponse.
func TestPageReply(t *testing.T) {
	type item struct {
		ID string `json:"id"`
	}
	tests := []struct {
		name    string
		body    string
		items   int
		total   int
		wantErr string
	}{
		{"page", `{"items":[{"id":"a"},{"id":"b"}],"total":7,"paging":{"has_next_page":true,"end_cursor":"c2"}}`, 2, 7, ""},
		{"unknown members ignored", `{"items":[],"total":0,"paging":{},"extra":1}`, 0, 0, ""},
		{"no items", `{"total":3,"paging":{}}`, 0, 0, `no "items"`},
		{"null items", `{"items":null,"total":1,"paging":{}}`, 0, 0, `no "items"`},
		{"no total", `{"items":[],"paging":{}}`, 0, 0, `no "total"`},
		{"null total", `{"items":[],"total":null,"paging":{}}`, 0, 0, `no "total"`},
		{"no paging", `{"items":[],"total":0}`, 0, 0, `no "paging"`},
		{"null paging", `{"items":[],"total":0,"paging":null}`, 0, 0, `no "paging"`},
		{"empty body", ``, 0, 0, "malformed"},
		{"null body", `null`, 0, 0, `no "items"`},
		{"bare array", `[{"id":"a"}]`, 0, 0, "malformed"},
		{"items of the wrong type", `{"items":{},"total":0,"paging":{}}`, 0, 0, "malformed"},
		{"total of the wrong type", `{"items":[],"total":"1","paging":{}}`, 0, 0, "malformed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p Page[item]
			var rp RecordPage
			for name, rd := range map[string]reply{"general": page(&p, 2), "record page decoder": page(&rp, 2)} {
				body := strings.ReplaceAll(tc.body, `{"id":"a"}`, `{"data":{"id":"a"},"cursor":"a"}`)
				body = strings.ReplaceAll(body, `{"id":"b"}`, `{"data":{"id":"b"},"cursor":"b"}`)
				err := readReply(rd, body)
				if tc.wantErr != "" {
					require.Error(t, err, name)
					assert.ErrorIs(t, err, ErrUnexpectedResponse, name)
					assert.Contains(t, err.Error(), tc.wantErr, name)
					continue
				}
				require.NoError(t, err, name)
			}
			if tc.wantErr == "" {
				assert.Len(t, p.Items, tc.items)
				assert.Len(t, rp.Items, tc.items)
				assert.Equal(t, tc.total, p.Total)
				assert.Equal(t, tc.total, rp.Total)
				assert.Equal(t, p.Paging, rp.Paging)
			}
		})
	}
}

// TestResourceReply: one rule for every single-object answer.
func TestResourceReply(t *testing.T) {
	tests := []struct {
		name, body string
		ok         bool
	}{
		{"user", `{"id":"u1","email":"a@example.com"}`, true},
		{"empty body", ``, false},
		{"null", `null`, false},
		{"empty object", `{}`, false},
		{"no id", `{"email":"a@example.com"}`, false},
		{"array", `[{"id":"u1"}]`, false},
		{"id of the wrong type", `{"id":1}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var u User
			err := readReply(resource(&u, "user"), tc.body)
			if tc.ok {
				require.NoError(t, err)
				assert.Equal(t, "u1", u.ID)
				return
			}
			assert.ErrorIs(t, err, ErrUnexpectedResponse)
			assert.Empty(t, u.ID, "a refused answer leaves the value as it was")
		})
	}
}

func TestOptionalReply(t *testing.T) {
	var a *Attachment
	require.NoError(t, readReply(optional(&a, "attachment"), " "))
	assert.Nil(t, a, "no body: no attachment")
	require.NoError(t, readReply(optional(&a, "attachment"), `{"id":"a1"}`))
	assert.Equal(t, "a1", a.ID)
	a = nil
	assert.ErrorIs(t, readReply(optional(&a, "attachment"), `{}`), ErrUnexpectedResponse, "a body that is there must hold the resource")
}

func TestArrayReply(t *testing.T) {
	var list []Attachment
	require.NoError(t, readReply(resource(&list, "attachment list"), `[]`))
	assert.NotNil(t, list, "an empty array is an empty list")
	for _, body := range []string{``, `null`, `{}`, `{"items":[]}`, `"x"`} {
		list = nil
		assert.ErrorIs(t, readReply(resource(&list, "attachment list"), body), ErrUnexpectedResponse, body)
	}
}

func TestRecordReply(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Record
	}{
		{name: "flat", in: `{"id":"7","Title":"x\u00e9"}`, want: Record{"id": "7", "Title": "xé"}},
		{name: "wrapped", in: `{"data":{"id":"7","a":null},"meta":{"v":1}}`, want: Record{"id": "7", "a": ""}},
		{name: "data as a field", in: `{"id":"7","data":"d"}`, want: Record{"id": "7", "data": "d"}},
		{name: "Data is a field, not the wrapper", in: `{"Data":{"a":"1"}}`},
		{name: "empty object", in: `{}`},
		{name: "empty data", in: `{"data":{}}`},
		{name: "empty body", in: ``},
		{name: "null", in: `null`},
		{name: "number field", in: `{"id":7}`},
		{name: "number field in data", in: `{"data":{"id":7}}`},
		{name: "duplicate names", in: `{"id":"1","id":"2"}`},
		{name: "array", in: `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec Record
			err := readReply(record(&rec), tt.in)
			if tt.want == nil {
				assert.ErrorIs(t, err, ErrUnexpectedResponse)
				assert.Nil(t, rec)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, rec)
		})
	}
}

func TestTextReply(t *testing.T) {
	var s string
	require.NoError(t, readReply(textBody(&s), "c-1"))
	assert.Equal(t, "c-1", s)
	for name, body := range map[string]string{"too long": strings.Repeat("x", maxTextReply+1), "not UTF-8": "a\xffb"} {
		assert.ErrorIs(t, readReply(textBody(&s), body), ErrUnexpectedResponse, name)
	}
}

// A body that ends inside its JSON value, or before the length the answer
// announced, was cut off: the failure of a lost connection (Temporary,
// matching io.ErrUnexpectedEOF), never a malformed answer, and the error
// says after how many bytes. Every reader of a JSON answer holds to it.
func TestReplyCutOff(t *testing.T) {
	var (
		u   User
		rec Record
		p   RecordPage
		gp  Page[struct{}]
		v   map[string]any
	)
	readers := map[string]reply{
		"resource": resource(&u, "user"), "record": record(&rec), "record page": page(&p, 2),
		"page": page(&gp, 2),
		"Do":   {read: func(r io.Reader) error { return json.NewDecoder(r).Decode(&v) }},
	}
	const full = `{"items":[{"data":{"id":"a"},"cursor":"a"}],"total":1,"paging":{}}`
	for name, rd := range readers {
		for _, body := range []string{`{"id":"u1"`, full[:len(full)/2], `{"items":[`, `{`} {
			err := readReply(rd, body)
			require.Error(t, err, name)
			assert.ErrorIs(t, err, io.ErrUnexpectedEOF, name)
			assert.NotErrorIs(t, err, ErrUnexpectedResponse, name)
			assert.True(t, Temporary(err), name)
			assert.Equal(t, fmt.Sprintf("the response body was cut off after %d bytes", len(body)), err.Error(), name)
		}
		// The connection lost before the announced length.
		err := rd.readBody(&http.Response{StatusCode: 200, Body: io.NopCloser(io.MultiReader(strings.NewReader(`{"id":`), iotestErr{io.ErrUnexpectedEOF}))})
		assert.EqualError(t, err, "the response body was cut off after 6 bytes", name)
	}
	// Complete but wrong: malformed, and the same again if asked again.
	for _, body := range []string{``, ` `, `{"items":[],"total":0,"paging":{}}}`, `{"items":[],"total":"x","paging":{}}`} {
		err := readReply(page(&gp, 2), body)
		assert.ErrorIs(t, err, ErrUnexpectedResponse, body)
		assert.False(t, Temporary(err), body)
	}
	err := readReply(page(&gp, 2), ``)
	assert.ErrorContains(t, err, "an empty body")
}

// A body that cannot be read is a transport failure, not a malformed
// answer.
func TestReplyReadErrorIsNotMalformed(t *testing.T) {
	var u User
	boom := errors.New("connection reset")
	err := resource(&u, "user").readBody(&http.Response{StatusCode: 200, Body: io.NopCloser(io.MultiReader(strings.NewReader(`{"id":`), iotestErr{boom}))})
	assert.ErrorIs(t, err, boom)
	assert.NotErrorIs(t, err, ErrUnexpectedResponse)
}

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }

func TestResourceMissingFromA2xxIsAnError(t *testing.T) {
	calls := map[string]func(c *Client) (any, error){
		"Records.Get":     func(c *Client) (any, error) { return c.Records.Get(t.Context(), Tasks, "it", "1") },
		"Records.Create":  func(c *Client) (any, error) { return c.Records.Create(t.Context(), Tasks, "it", Record{"a": "1"}) },
		"Records.Update":  func(c *Client) (any, error) { return c.Records.Update(t.Context(), Tasks, "it", "1", Record{"a": "1"}) },
		"Users.Get":       func(c *Client) (any, error) { return c.Users.Get(t.Context(), "u1") },
		"Groups.Get":      func(c *Client) (any, error) { return c.Groups.Get(t.Context(), "g1") },
		"Attachments.Get": func(c *Client) (any, error) { return c.Attachments.Get(t.Context(), Tasks, "it", "1", "a1") },
	}
	for _, body := range []string{"", "null", "{}", `{"data":{}}`} {
		for name, call := range calls {
			t.Run(name+" "+body, func(t *testing.T) {
				c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(body))
				}))
				_, err := call(c)
				require.ErrorIs(t, err, ErrUnexpectedResponse)
				assert.Regexp(t, `^workflow: (GET|POST|PUT) /v1/`, err.Error(), "the error names the operation")
			})
		}
	}
	t.Run("204", func(t *testing.T) {
		c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNoContent)
		}))
		_, err := c.Records.Get(t.Context(), Tasks, "it", "1")
		require.ErrorIs(t, err, ErrUnexpectedResponse)
	})
}

func TestRecordListWithoutItemsOrPaging(t *testing.T) {
	for _, body := range []string{
		`null`, `{}`, `{"total":3}`,
		`{"items":[{"data":{"a":"1"}}],"total":3}`,                  // no paging
		`{"items":null,"paging":{"has_next_page":false},"total":3}`, // null items
		`{"paging":{"has_next_page":false},"total":3}`,              // no items
		`{"items":[{"data":{"a":"1"}}],"paging":null,"total":3}`,    // null paging
	} {
		t.Run(body, func(t *testing.T) {
			c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(body))
			}))
			_, err := c.Records.List(t.Context(), Tasks, "it", nil)
			require.ErrorIs(t, err, ErrUnexpectedResponse)
			assert.Contains(t, err.Error(), "GET ")
			var n int
			for _, err := range c.Records.All(t.Context(), Tasks, "it", nil) {
				if err != nil {
					assert.ErrorIs(t, err, ErrUnexpectedResponse)
					break
				}
				n++
			}
			assert.Zero(t, n)
		})
	}
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"items":[],"paging":{"has_next_page":false},"total":0}`))
	}))
	p, err := c.Records.List(t.Context(), Tasks, "it", nil)
	require.NoError(t, err, "an empty list is a list")
	assert.Empty(t, p.Items)
}

// TestMalformedAnswersReadAlike: every kind of answer the SDK cannot use
// (a missing resource, a list without its envelope, a body of the wrong
// shape) is an error matching ErrUnexpectedResponse that names the request
// once.
func TestMalformedAnswersReadAlike(t *testing.T) {
	for _, tc := range []struct {
		name, body, wantPath string
		call                 func(c *Client) error
	}{
		{"record without fields", `{}`, "/v1/tasks/it/1", func(c *Client) error {
			_, err := c.Records.Get(t.Context(), Tasks, "it", "1")
			return err
		}},
		{"user without id", `{"email":"a@b.c"}`, "/v1/users/u", func(c *Client) error {
			_, err := c.Users.Get(t.Context(), "u")
			return err
		}},
		{"attachment list empty", ``, "/v1/tasks/it/1/attachments", func(c *Client) error {
			_, err := c.Attachments.List(t.Context(), Tasks, "it", "1")
			return err
		}},
		{"attachment list not an array", `{}`, "/v1/tasks/it/1/attachments", func(c *Client) error {
			_, err := c.Attachments.List(t.Context(), Tasks, "it", "1")
			return err
		}},
		{"record list without items", `{"paging":{}}`, "/v1/tasks/it", func(c *Client) error {
			_, err := c.Records.List(t.Context(), Tasks, "it", nil)
			return err
		}},
		{"paged list without items", `{"paging":{}}`, "/v1/users", func(c *Client) error {
			_, err := c.Users.List(t.Context(), nil)
			return err
		}},
		{"comment reply not UTF-8", "\xff\xfe", "/v1/tasks/it/1/comment", func(c *Client) error {
			_, err := c.Records.Comments.Add(t.Context(), Tasks, "it", "1", "hello")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(tc.body))
			}))
			err := tc.call(c)
			require.ErrorIs(t, err, ErrUnexpectedResponse)
			msg := err.Error()
			assert.Regexp(t, `^workflow: (GET|POST) `+tc.wantPath+`: `, msg)
			assert.Equal(t, 1, strings.Count(msg, "workflow:"), "the request is named once: %s", msg)
		})
	}
}

// TestModelsUnmarshalAlike: every model reads JSON the same way: a null
// leaves the value as it was (encoding/json's rule), a body that does not
// decode is an error that leaves it as it was too, and a new object
// replaces it whole.
func TestModelsUnmarshalAlike(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value func() (target any, id func() string)
	}{
		{"User", func() (any, func() string) { v := &User{ID: "old"}; return v, func() string { return v.ID } }},
		{"Group", func() (any, func() string) { v := &Group{ID: "old"}; return v, func() string { return v.ID } }},
		{"Attachment", func() (any, func() string) { v := &Attachment{ID: "old"}; return v, func() string { return v.ID } }},
		{"Comment", func() (any, func() string) { v := &Comment{ID: "old"}; return v, func() string { return v.ID } }},
		{"Watcher", func() (any, func() string) { v := &Watcher{ID: "old"}; return v, func() string { return v.ID } }},
		{"WatcherTarget", func() (any, func() string) { v := &WatcherTarget{ID: "old"}; return v, func() string { return v.ID } }},
		{"RelatedItem", func() (any, func() string) { v := &RelatedItem{ID: "old"}; return v, func() string { return v.ID } }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, id := tc.value()
			require.NoError(t, json.Unmarshal([]byte(`null`), v))
			assert.Equal(t, "old", id(), "null leaves the value")

			v, id = tc.value()
			require.Error(t, json.Unmarshal([]byte(`{"id": 7}`), v))
			assert.Equal(t, "old", id(), "a failed decoding leaves the value")

			v, id = tc.value()
			err := json.Unmarshal([]byte(`[]`), v)
			require.Error(t, err)
			assert.True(t, strings.HasSuffix(err.Error(), " workflow."+tc.name), "the error names the model, not its twin: %v", err)
			assert.Equal(t, "old", id(), "a body of the wrong JSON type leaves the value")

			v, id = tc.value()
			require.NoError(t, json.Unmarshal([]byte(`{"id": "new"}`), v))
			assert.Equal(t, "new", id())
		})
	}
}

// TestModelsKeepUnknownMembers: every model keeps the members it does not
// model in Extra and writes them back in place, with encoding/json as with
// go-json-experiment/json; the request bodies write their Extra members
// the same way.
func TestModelsKeepUnknownMembers(t *testing.T) {
	const in = `{"zz":[1,{"a":null}]}`
	for _, tc := range []struct {
		name  string
		value func() any
		extra func(any) map[string]jsontext.Value
	}{
		{"User", func() any { return &User{} }, func(v any) map[string]jsontext.Value { return v.(*User).Extra }},
		{"Group", func() any { return &Group{} }, func(v any) map[string]jsontext.Value { return v.(*Group).Extra }},
		{"GroupDomain", func() any { return &GroupDomain{} }, func(v any) map[string]jsontext.Value { return v.(*GroupDomain).Extra }},
		{"Attachment", func() any { return &Attachment{} }, func(v any) map[string]jsontext.Value { return v.(*Attachment).Extra }},
		{"Link", func() any { return &Link{} }, func(v any) map[string]jsontext.Value { return v.(*Link).Extra }},
		{"Comment", func() any { return &Comment{} }, func(v any) map[string]jsontext.Value { return v.(*Comment).Extra }},
		{"Watcher", func() any { return &Watcher{} }, func(v any) map[string]jsontext.Value { return v.(*Watcher).Extra }},
		{"WatcherTarget", func() any { return &WatcherTarget{} }, func(v any) map[string]jsontext.Value { return v.(*WatcherTarget).Extra }},
		{"RelatedItem", func() any { return &RelatedItem{} }, func(v any) map[string]jsontext.Value { return v.(*RelatedItem).Extra }},
	} {
		for lib, codec := range map[string]struct {
			unmarshal func([]byte, any) error
			marshal   func(any) ([]byte, error)
		}{
			"encoding/json":           {json.Unmarshal, json.Marshal},
			"go-json-experiment/json": {func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) }, func(v any) ([]byte, error) { return jsonv2.Marshal(v) }},
		} {
			t.Run(tc.name+"/"+lib, func(t *testing.T) {
				v := tc.value()
				require.NoError(t, codec.unmarshal([]byte(in), v))
				assert.Equal(t, map[string]jsontext.Value{"zz": jsontext.Value(`[1,{"a":null}]`)}, tc.extra(v))
				out, err := codec.marshal(v)
				require.NoError(t, err)
				assert.Contains(t, string(out), `"zz":[1,{"a":null}]`)
				assert.NotContains(t, string(out), "Extra")
			})
		}
	}
	for name, v := range map[string]any{
		"NewUser":      NewUser{Email: "a@example.com", Extra: map[string]jsontext.Value{"zz": jsontext.Value(`1`)}},
		"GroupRequest": GroupRequest{Name: new("g"), Extra: map[string]jsontext.Value{"zz": jsontext.Value(`1`)}},
	} {
		out, err := json.Marshal(v)
		require.NoError(t, err, name)
		assert.Contains(t, string(out), `"zz":1`, name)
		assert.NotContains(t, string(out), "Extra", name)
	}
}

// FuzzModelRoundTrip: whatever decodes into a User, Group or Attachment
// encodes again (with encoding/json) into JSON that decodes to the same
// value: the lossless round trip holds for any input, not only the seeds.
func FuzzModelRoundTrip(f *testing.F) {
	for _, s := range []string{
		adaJSON,
		`{"id":"g","name":"n","assignable":true,"watchable":false,"mentionable":true,"managed":false,"dynamic":true,"domains":[{"id":"d","domain":"a.com","x":[1]}],"z":{"a":null}}`,
		`{"id":"a","size":3,"state":"valid","createdAt":"2026-02-03T10:30:00.123+01:00","contentUrl":"/v1/x","viewState":"PUBLIC","e":"\u00e9"}`,
		`{}`, `null`, `{"Email":"case differs"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		roundTrip[User](t, in)
		roundTrip[Group](t, in)
		roundTrip[Attachment](t, in)
	})
}

func roundTrip[T any](t *testing.T, in string) {
	var v T
	if json.Unmarshal([]byte(in), &v) != nil {
		return
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%T from %q does not encode: %v", v, in, err)
	}
	var again T
	if err := json.Unmarshal(out, &again); err != nil {
		t.Fatalf("%T: %q does not decode again: %v", v, out, err)
	}
	if !reflect.DeepEqual(normalize(v), normalize(again)) {
		t.Fatalf("%T changed in a round trip:\n in  %q\n out %q\n %#v\n %#v", v, in, out, v, again)
	}
}

// normalize makes values comparable: encoding writes Extra members
// compactly, so raw values are compared after re-encoding.
func normalize(v any) any {
	b, _ := json.Marshal(v)
	var m any
	_ = json.Unmarshal(b, &m)
	return m
}

// A record page's items go into a slice made for the page size asked for;
// a short page keeps no more room than twice its items.
func TestPageItemsRoom(t *testing.T) {
	body := func(n int) string {
		items := make([]string, n)
		for i := range items {
			items[i] = `{"data":{"a":"1"},"cursor":"c"}`
		}
		return `{"items":[` + strings.Join(items, ",") + `],"total":9,"paging":{}}`
	}
	tests := []struct {
		name           string
		items, size    int
		minCap, maxCap int
	}{
		{"a full page", 50, 50, 50, 50},
		{"a page of more than half", 30, 50, 50, 50},
		{"a short page", 3, 50, 3, 6},
		{"an empty page", 0, 50, 0, 0},
		{"more items than asked for", 60, 50, 60, 120},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p RecordPage
			require.NoError(t, page(&p, tt.size).read(strings.NewReader(body(tt.items))))
			require.Len(t, p.Items, tt.items)
			require.NotNil(t, p.Items)
			assert.GreaterOrEqual(t, cap(p.Items), tt.minCap)
			assert.LessOrEqual(t, cap(p.Items), tt.maxCap)
		})
	}
	t.Run("the room of the items given", func(t *testing.T) {
		room := make([]RecordItem, 7, 50)
		room[0].Cursor = "old"
		p := RecordPage{Items: room}
		require.NoError(t, page(&p, 50).read(strings.NewReader(body(30))))
		require.Len(t, p.Items, 30)
		assert.Same(t, &room[0], &p.Items[0], "read into the room given")
		assert.Equal(t, "c", p.Items[0].Cursor)
		small := make([]RecordItem, 0, 10)
		p = RecordPage{Items: small}
		require.NoError(t, page(&p, 50).read(strings.NewReader(body(30))))
		assert.Equal(t, 50, cap(p.Items), "a room smaller than the page size is not used")
	})
}

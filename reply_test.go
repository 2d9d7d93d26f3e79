package workflow

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

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
			for name, rd := range map[string]reply{"general": page(&p), "record page decoder": page(&rp)} {
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
		{"truncated", `{"id":"u1"`, false},
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
		{name: "truncated", in: `{"id":"7"`},
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

package workflow

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/listbench"
	"github.com/seed-a15e58aa/workflow-go/internal/testperf"
)

// decodePage reads a record page as the request path does, without the
// rule that its members be present (reply_test.go covers that) and
// without the room page makes for the items (TestPageItemsRoom).
func decodePage(data []byte) (*RecordPage, error) {
	var p RecordPage
	err := jsonv2.Unmarshal(data, &p)
	return &p, err
}

// plainPage is RecordPage with plain maps: what go-json-experiment/json
// makes of a page without Record.UnmarshalJSONFrom.
type plainPage struct {
	Items []struct {
		Data   map[string]string `json:"data"`
		Cursor string            `json:"cursor"`
	} `json:"items"`
	Total  int         `json:"total"`
	Paging PagingState `json:"paging"`
}

// checkSameAsPlain fails unless Record.UnmarshalJSONFrom gives what the
// library gives for plain maps: both fail, or both give equal pages. Where
// scanPage reads the text, it must give what the library gives too.
func checkSameAsPlain(t *testing.T, data []byte) {
	t.Helper()
	var want plainPage
	wantErr := jsonv2.Unmarshal(data, &want)
	got, err := decodePage(data)
	if (wantErr == nil) != (err == nil) {
		t.Fatalf("input %q: plain maps give error %v, Record gives %v", data, wantErr, err)
	}
	checkScanPage(t, data, wantErr)
	if err != nil {
		return
	}
	require.Equal(t, len(want.Items), len(got.Items), "input %q", data)
	require.Equal(t, want.Items == nil, got.Items == nil, "input %q: nil items", data)
	for i, it := range want.Items {
		assert.Equal(t, it.Cursor, got.Items[i].Cursor, "input %q", data)
		assert.Equal(t, it.Data == nil, got.Items[i].Data == nil, "input %q: item %d nil data", data, i)
		assert.Equal(t, len(it.Data), len(got.Items[i].Data), "input %q", data)
		for k, v := range it.Data {
			assert.Equal(t, v, got.Items[i].Data[k], "input %q: item %d field %q", data, i, k)
		}
	}
	assert.Equal(t, want.Total, got.Total)
	assert.Equal(t, want.Paging, got.Paging)
}

// checkScanPage fails unless scanPage, where it reads data, gives what the
// JSON library gives (which fails with wantErr) for the page envelope.
func checkScanPage(t *testing.T, data []byte, wantErr error) {
	t.Helper()
	var fast envelope[RecordItem]
	if !scanPage(data, 4, nil, &fast) {
		return
	}
	require.NoError(t, wantErr, "input %q: scanPage reads what the library refuses", data)
	var want envelope[RecordItem]
	require.NoError(t, jsonv2.Unmarshal(data, &want), "input %q", data)
	assert.Equal(t, want, fast, "input %q", data)
}

// scanPage reads the pages the service sends, and leaves to the general
// path the text it does not: there its errors are the library's.
func TestScanPageReads(t *testing.T) {
	tests := []struct {
		in   string
		fast bool
	}{
		{string(listbench.Page(0, 3, 12, true)), true},
		{"{ \"paging\" : {\"end_cursor\":\"c\",\"x\":[{}]} ,\n\"items\":[ { \"cursor\":\"\\u0063\", \"d\\u0061ta\": {\"\\\"\":null}} ],\"total\":-0, \"more\":{\"a\":[1,\"]\"]}}", true},
		{`{"items":[{"data":null,"cursor":null},{}],"total":0,"paging":null}`, true},
		{`{"items":[],"total":1}`, true},
		{`{"items":[null]}`, false},
		{`{"items":[{"data":{},"x":{"y":[1,"]"]},"z":null}]}`, true},
		{`{"items":[{"x":1,"data":{},"x":2}]}`, false},
		{`{"items":[{"x":[1,,2]}]}`, false},
		{`{"items":[{"x":` + strings.Repeat("[", 65) + strings.Repeat("]", 65) + `}]}`, false},
		{`{"items":[{"data":{"a":"1","a":"2"}}]}`, false},
		// Names taken from the record before at the same place.
		{`{"items":[{"data":{"a":"1","b":"2","c":"3"}},{"data":{"b":"1"}},{"data":{"b":"1","b":"2"}}]}`, false},
		{`{"items":[{"data":{"a":"1","b":"2","c":"3"}},{"data":{"x":"1","b":"2","a":"3"}},{"data":{"a":"1","b":"2","a":"3"}}]}`, false},
		{`{"items":[{"data":{"a":"1","b":"2"}},{"data":{"a":"1","b":"2","b":"3"}}]}`, false},
		{`{"items":[{"data":{"a":"1","b":"2"}},{"data":{"a" "1","b":"2"}}]}`, false},
		{`{"items":[{"data":{"a\"b":"1","ab":"2"}},{"data":{"a\"b":"3","ab":"4","a":"5"}},{"data":{"ab":"6","a\"b":"7"}}]}`, true},
		{`{"items":[{"data":{"a":"1","ab":"2"}},{"data":{"ab":"3","a":"4"}},{"data":{"a":"5","ab":"6","":null}},{"data":{"a":"7","ab":"8","":"9"}}]}`, true},
		{`{"items":[{"data" {"a":"1"}}]}`, false},
		{`{"items":[{"cursor":"c","data":{"a":"1"}},{"data" : {"a":"2"} , "cursor" : "d" }]}`, true},
		{`{"items":[{"data":{"a":1}}]}`, false},
		{`{"items":[],"items":[]}`, false},
		{`{"items":[{"data":{"a":"1"},"data":{"b":"2"}}]}`, false},
		{`{"items":[{"cursor":"a","cursor":null}]}`, false},
		{`{"total":1,"total":1}`, false},
		{"{\"items\":[{\"data\":{\"a\":\"\xff\"}}]}", false},
		{"{\"items\":[{\"data\":{\"a\":\"\t\"}}]}", false},
		{`{"items":[{"data":{"a":"\x"}}]}`, false},
		{`{"total":1.5}`, false},
		{`{"x":` + strings.Repeat("[", 65) + strings.Repeat("]", 65) + `}`, false},
		{`{"items":[]} x`, false},
		{`{"items":[]`, false},
		{``, false},
	}
	for _, tt := range tests {
		var w envelope[RecordItem]
		assert.Equal(t, tt.fast, scanPage([]byte(tt.in), 4, nil, &w), "input %q", tt.in)
		var plain plainPage
		checkScanPage(t, []byte(tt.in), jsonv2.Unmarshal([]byte(tt.in), &plain))
	}
	var w envelope[User]
	assert.False(t, scanPage([]byte(`{"items":[]}`), 4, nil, &w), "a page of other items is the library's")
}

func TestRecordPageDecoding(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *RecordPage // nil: an error is expected
	}{
		{
			name: "the service's shape",
			in: `{"items":[{"data":{"id":"1","Name":"a"},"cursor":"c1"},{"data":{"id":"2","Name":"b"},"cursor":"c2"}],
				"total":2,"paging":{"has_next_page":true,"has_previous_page":false,"start_cursor":"c1","end_cursor":"c2"}}`,
			want: &RecordPage{
				Items: []RecordItem{
					{Data: Record{"id": "1", "Name": "a"}, Cursor: "c1"},
					{Data: Record{"id": "2", "Name": "b"}, Cursor: "c2"},
				},
				Total:  2,
				Paging: PagingState{HasNextPage: true, StartCursor: "c1", EndCursor: "c2"},
			},
		},
		{
			name: "escapes and unicode",
			in:   `{"items":[{"data":{"a\"b":"x\\y\n\u00e9\ud83d\ude00/\/","ñ":"日本"},"cursor":"\u0063"}]}`,
			want: &RecordPage{Items: []RecordItem{{Data: Record{`a"b`: "x\\y\né😀//", "ñ": "日本"}, Cursor: "c"}}},
		},
		{
			name: "nulls",
			in:   `{"items":[null,{"data":null,"cursor":null},{"data":{"k":null}}],"total":null,"paging":null}`,
			want: &RecordPage{Items: []RecordItem{{}, {}, {Data: Record{"k": ""}}}},
		},
		{
			name: "white space everywhere, and escaped member names",
			in:   "{ \"items\" : [ { \"\\u0064ata\" :\n{ \"a\" : \"1\" ,\t\"b\\u0031\":null\r} , \"cursor\" : \"c\" } ] }",
			want: &RecordPage{Items: []RecordItem{{Data: Record{"a": "1", "b1": ""}, Cursor: "c"}}},
		},
		{
			name: "field names in another order, or another length, from one record to the next",
			in:   `{"items":[{"data":{"a":"1","ab":"2"}},{"data":{"ab":"3","a":"4"}},{"data":{"a":"5","abc":"6","x":"7"}}]}`,
			want: &RecordPage{Items: []RecordItem{{Data: Record{"a": "1", "ab": "2"}}, {Data: Record{"ab": "3", "a": "4"}}, {Data: Record{"a": "5", "abc": "6", "x": "7"}}}},
		},
		{name: "null items", in: `{"items":null}`, want: &RecordPage{}},
		{name: "empty items", in: `{"items":[]}`, want: &RecordPage{Items: []RecordItem{}}},
		{name: "null page", in: ` null `, want: &RecordPage{}},
		{name: "empty object", in: `{}`, want: &RecordPage{}},
		{
			name: "unknown fields at every level are skipped",
			in:   `{"x":{"y":[1,2,{"z":null}]},"items":[{"meta":{"data":5},"data":{"k":"v"}}],"paging":{"more":[true]},"total":1}`,
			want: &RecordPage{Items: []RecordItem{{Data: Record{"k": "v"}}}, Total: 1},
		},
		{name: "negative zero total", in: `{"total":-0}`, want: &RecordPage{}},
		{name: "total with fraction", in: `{"total":1.0}`},
		{name: "total with exponent", in: `{"total":1e3}`},
		{name: "total overflows", in: `{"total":9223372036854775808}`},
		{name: "total as a string", in: `{"total":"1"}`},
		{name: "number field value", in: `{"items":[{"data":{"n":1}}]}`},
		{name: "bool field value", in: `{"items":[{"data":{"n":true}}]}`},
		{name: "object field value", in: `{"items":[{"data":{"n":{}}}]}`},
		{name: "data as an array", in: `{"items":[{"data":[]}]}`},
		{name: "item as a string", in: `{"items":["x"]}`},
		{name: "items as an object", in: `{"items":{}}`},
		{name: "cursor as a number", in: `{"items":[{"cursor":1}]}`},
		{name: "paging flag as a string", in: `{"paging":{"has_next_page":"true"}}`},
		{name: "page as an array", in: `[]`},
		{name: "page as a string", in: `"page"`},
		{name: "empty body", in: ``},
		{name: "white space only", in: " \n"},
		{name: "trailing data", in: `{} x`},
		{name: "second value", in: `{} {}`},
		{name: "truncated", in: `{"items":[{"data":{"a":"b"`},
		{name: "bad escape", in: `{"items":[{"data":{"a":"\x"}}]}`},
		{name: "control character in a string", in: "{\"x\":\"a\tb\"}"},
		{name: "syntax error in a skipped value", in: `{"x":[1,,2],"items":[]}`},
		{name: "single quotes", in: `{'items':[]}`},
		{name: "byte order mark", in: "\xef\xbb\xbf{}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodePage([]byte(tt.in))
			if tt.want == nil {
				assert.Error(t, err)
			} else {
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
				assert.Equal(t, tt.want.Items == nil, got.Items == nil, "nil Items")
			}
			checkSameAsPlain(t, []byte(tt.in))
		})
	}
}

// A value, a record or an item of the wrong type is an error that names
// the field, and the JSON type due and the one found, never the value.
func TestRecordValueErrorNamesTheField(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"items":[{"data":{"a":"1","due date":2}}]}`, `record field "due date": a record value must be a JSON string, not a number`},
		{`{"items":[{"data":{"a":"1","due date":-2}}]}`, `record field "due date": a record value must be a JSON string, not a number`},
		{`{"items":[{"data":{"due date":["cnry"]}}]}`, `record field "due date": a record value must be a JSON string, not an array`},
		{`{"items":[{"data":{"due date":{"cnry":"cnry"}}}]}`, `record field "due date": a record value must be a JSON string, not an object`},
		{`{"items":[{"data":{"due date":true}}]}`, `record field "due date": a record value must be a JSON string, not a bool`},
		{`{"items":[{"data":{"due date":false}}]}`, `record field "due date": a record value must be a JSON string, not a bool`},
		{`{"items":[{"data":["cnry"]}]}`, "a record must be a JSON object of strings, not an array"},
		{`{"items":[{"data":"cnry"}]}`, "a record must be a JSON object of strings, not a string"},
		{`{"items":["cnry"]}`, "a record item must be a JSON object, not a string"},
		{`{"items":[17]}`, "a record item must be a JSON object, not a number"},
		{`{"items":[{"cnry":1}, null, {}]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := decodePage([]byte(tt.in))
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "cnry")
			checkSameAsPlain(t, []byte(tt.in))
		})
	}
}

// Names and values outside what the record decoder shares: invalid UTF-8
// and duplicate names are refused, as the library refuses them elsewhere.
func TestRecordDecodingIsStrict(t *testing.T) {
	for _, in := range []string{
		"{\"items\":[{\"data\":{\"k\":\"a\xffb\"}}]}",
		`{"items":[{"data":{"f":"1","f":"2"}}]}`,
		`{"items":[],"items":[]}`,
	} {
		_, err := decodePage([]byte(in))
		assert.Error(t, err, in)
		checkSameAsPlain(t, []byte(in))
	}
}

// Record and RecordItem hold to the page reader's rules whatever the
// decoder's options: a decoder that allows invalid UTF-8 or repeated names
// (as encoding/json's does on Go 1.27) gets an error, and the value is
// left as it was.
func TestRecordDecodingWithRelaxedOptions(t *testing.T) {
	relaxed := jsonv2.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	for _, in := range []string{"{\"a\":\"x\xffy\"}", `{"a":"\ud800"}`, `{"a":"1","a":"2"}`} {
		rec := Record{"old": "1"}
		err := jsonv2.Unmarshal([]byte(in), &rec, relaxed)
		var se *jsontext.SyntacticError
		assert.ErrorAs(t, err, &se, "input %q", in)
		assert.Equal(t, Record{"old": "1"}, rec)
	}
	for _, in := range []string{`{"data":{"a":"1"},"cursor":"c","data":{"b":"2"}}`, "{\"cursor\":\"\xff\"}", `{"data":{"a":"1","a":"1"}}`} {
		it := RecordItem{Cursor: "old"}
		err := jsonv2.Unmarshal([]byte(in), &it, relaxed)
		var se *jsontext.SyntacticError
		assert.ErrorAs(t, err, &se, "input %q", in)
		assert.Equal(t, RecordItem{Cursor: "old"}, it)
	}
}

// A Record and a RecordItem decode alike through encoding/json (which
// calls UnmarshalJSON on Go 1.26, and UnmarshalJSONFrom with options that
// allow more on Go 1.27), through go-json-experiment/json, and in a page
// read by the page reader.
func TestRecordDecodesAlike(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want *Record // nil: refused
	}{
		{`{"a":"1","b":null}`, &Record{"a": "1", "b": ""}},
		{` {} `, &Record{}},
		{`null`, new(Record)},
		{`{"\u00e9":"\ud83d\ude00\n\/"}`, &Record{"é": "😀\n/"}},
		{`{"a":"\ud800"}`, nil},
		{`{"a":"x\udc00"}`, nil},
		{`{"a":"\ud800\u0041"}`, nil},
		{"{\"a\":\"x\xffy\"}", nil},
		{"{\"\xff\":\"1\"}", nil},
		{`{"a":"1","a":"2"}`, nil},
		{`{"a":"1","b":2}`, nil},
		{`{"a":"1","b":{"c":"d"}}`, nil},
		{`{"a":true}`, nil},
		{`["a"]`, nil},
		{`"a"`, nil},
		{`{"a":"1"`, nil},
		{`{"a":"1"} x`, nil},
		{"{\"a\":\"\t\"}", nil},
	} {
		rec, err := checkRecordDecodesAlike(t, []byte(tc.in))
		if tc.want == nil {
			assert.Error(t, err, "input %q", tc.in)
		} else if assert.NoError(t, err, "input %q", tc.in) {
			assert.Equal(t, *tc.want, rec, "input %q", tc.in)
		}
		checkItemDecodesAlike(t, []byte(`{"cursor":"c","data":`+tc.in+`}`))
	}
	for _, in := range []string{`null`, `{}`, `{"cursor":null,"x":[1]}`, `{"cursor":"\ud800"}`, "{\"cursor\":\"\xff\"}",
		`{"cursor":"a","cursor":"b"}`, `{"cursor":1}`, `[]`} {
		checkItemDecodesAlike(t, []byte(in))
	}
}

// checkRecordDecodesAlike decodes data into a Record through encoding/json,
// through go-json-experiment/json and, where data is one JSON value, as
// the data of an item in a page read by the page reader. It fails unless
// all refuse it, each leaving the record as it was, or all give the same
// record, which it returns.
func checkRecordDecodesAlike(t *testing.T, data []byte) (Record, error) {
	t.Helper()
	return checkDecodesAlike(t, data, func() Record { return Record{"old": "1"} },
		`{"items":[{"data":%s}],"total":1,"paging":{}}`, func(it RecordItem) Record { return it.Data })
}

// checkItemDecodesAlike is checkRecordDecodesAlike for a RecordItem.
func checkItemDecodesAlike(t *testing.T, data []byte) {
	t.Helper()
	checkDecodesAlike(t, data, func() RecordItem { return RecordItem{Data: Record{"old": "1"}, Cursor: "old"} },
		`{"items":[%s],"total":1,"paging":{}}`, func(it RecordItem) RecordItem { return it })
}

func checkDecodesAlike[T any](t *testing.T, data []byte, old func() T, pageText string, fromPage func(RecordItem) T) (T, error) {
	t.Helper()
	var v1, v2 T
	err1, err2 := json.Unmarshal(data, &v1), jsonv2.Unmarshal(data, &v2)
	require.Equal(t, err1 == nil, err2 == nil, "input %q: encoding/json: %v; go-json-experiment/json: %v", data, err1, err2)
	// Where data is not one JSON value, even by encoding/json's rules, the
	// page around it would end elsewhere, and go-json-experiment/json may
	// have decoded the value before the text that follows it.
	oneValue := jsontext.Value(data).IsValid(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	if err1 == nil {
		require.True(t, oneValue, "input %q", data)
		require.Equal(t, v2, v1, "input %q", data)
	} else {
		v1, v2 = old(), old()
		require.Error(t, json.Unmarshal(data, &v1))
		require.Equal(t, old(), v1, "input %q: encoding/json left the value changed", data)
		if require.Error(t, jsonv2.Unmarshal(data, &v2)); oneValue {
			require.Equal(t, old(), v2, "input %q: go-json-experiment/json left the value changed", data)
		}
	}
	if !oneValue {
		return v1, err1
	}
	var p RecordPage
	errPage := page[RecordItem](&p, 1).read(strings.NewReader(fmt.Sprintf(pageText, data)))
	require.Equal(t, err1 == nil, errPage == nil, "input %q: encoding/json: %v; the page reader: %v", data, err1, errPage)
	if errPage == nil {
		require.Equal(t, v1, fromPage(p.Items[0]), "input %q", data)
	}
	return v1, err1
}

// The nesting limit is the library's.
func TestRecordPageDecoderDepth(t *testing.T) {
	for _, depth := range []int{9999, 10000, 10001} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			in := `{"items":[{"data":{}}],"x":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
			checkSameAsPlain(t, []byte(in))
		})
	}
}

// Values handed out stay as they were when later pages reuse the decoder's
// buffers.
func TestRecordPageDecoderResultsDoNotAlias(t *testing.T) {
	first, err := decodePage(listbench.Page(0, 50, 12, true))
	require.NoError(t, err)
	snapshot := clonePage(first)
	for i := range 5 {
		_, err := decodePage(listbench.Page(1000*(i+1), 50, 12, true))
		require.NoError(t, err)
	}
	assert.Equal(t, snapshot, first)
}

func clonePage(p *RecordPage) *RecordPage {
	c := *p
	c.Items = make([]RecordItem, len(p.Items))
	for i, it := range p.Items {
		c.Items[i].Cursor = strings.Clone(it.Cursor)
		c.Items[i].Data = Record{}
		for k, v := range it.Data {
			c.Items[i].Data[strings.Clone(k)] = strings.Clone(v)
		}
	}
	return &c
}

// The decoder's point is to allocate little: a map and a string per
// record and a few allocations per page, where the standard library
// allocates every value (and on Go 1.26 every name as well).
func TestRecordPageDecoderAllocations(t *testing.T) {
	recordPageDecoderAllocations(t, 200)
}

// recordPageDecoderAllocations checks that decoding a page of records of
// 12 fields takes under half the allocations of encoding/json decoding
// the page into plain maps (plainPage, which has no method of the SDK, so
// the baseline is the standard library's on every Go version), and
// returns the page decoder's count.
func recordPageDecoderAllocations(t *testing.T, records int) float64 {
	const fields = 12
	data := listbench.Page(0, records, fields, false)
	decode := func() {
		if _, err := decodePage(data); err != nil {
			t.Fatal(err)
		}
	}
	decode() // warm the shared names
	// AllocsPerRun counts the whole process's allocations, so goroutines
	// left running by other tests can add to one measurement: keep the
	// least of three.
	leastAllocs := func(f func()) float64 {
		least := testing.AllocsPerRun(5, f)
		for range 2 {
			least = min(least, testing.AllocsPerRun(5, f))
		}
		return least
	}
	ours := leastAllocs(decode)
	baseline := leastAllocs(func() {
		var p plainPage
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("allocations per page of %d records: page decoder %.0f, encoding/json %.0f", records, ours, baseline)
	// Per page of 200 records: the decoder about 1,000 (1,600 under the
	// race detector, whose sync.Pool drops a quarter of what it is
	// given); encoding/json about 8,600 on Go 1.26 and 4,100 on Go 1.27,
	// whose decoder shares the names. One allocation per value would be
	// 2,400 more than the decoder's: well over half.
	assert.Less(t, ours, baseline/2)
	return ours
}

// The page decoder's own count, which other goroutines of the process can
// add to (and sync.Pool under the race detector): WORKFLOW_PERF=1.
func TestPerfRecordPageDecoderAllocations(t *testing.T) {
	testperf.Require(t)
	const records = 200
	ours := recordPageDecoderAllocations(t, records)
	// A record's map of 12 fields takes 4 allocations and its text one;
	// allow a few hundred more per page for buffers.
	assert.LessOrEqual(t, ours, float64(records*5+200))
}

// FuzzRecordPageDecoder holds Record.UnmarshalJSONFrom equal to the
// library's plain map decoding on every input: both fail, or both give
// equal pages.
func FuzzRecordPageDecoder(f *testing.F) {
	f.Add([]byte(listbench.Page(0, 3, 4, true)))
	f.Add([]byte(`{"items":[{"data":{"a":"1"},"cursor":"c"}],"items":[null,{"cursor":"d"}]}`))
	f.Add([]byte(`{"items":[{"data":{"k":null,"j":"\u00e9\ud800"}}],"total":-0,"paging":{"has_next_page":null}}`))
	f.Add([]byte(`{"items":[ { "\u0064ata" : { "a\"b" : "x\\y" , "é" :"1"} , "x":[{"y":1}], "cursor" : null } ]}`))
	f.Add([]byte(`{"paging":{"end_cursor":"c","x":[{"y":"]"}]},"items":[{"cursor":"c","data":{"a":"\u00e9"}}],"total":1,"z":null}`))
	f.Add([]byte(`{"items":[{"data":{"a":"1"}},{"data":{"a":"2","a":"3"}}],"total":1,"total":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSameAsPlain(t, data)
	})
}

// FuzzRecordJSON holds a Record decoded through encoding/json equal to
// the same record decoded through go-json-experiment/json and read in a
// page by the page reader: all refuse it, leaving the record as it was,
// or all give the same record.
func FuzzRecordJSON(f *testing.F) {
	for _, s := range []string{`{"a":"1","b":null}`, `null`, `{"a":"\ud800"}`, `{"\u00e9":"\ud83d\ude00"}`,
		"{\"a\":\"x\xffy\"}", `{"a":"1","a":"2"}`, `{"a":"1","b":2}`, `[]`, `{"a":"1"} {}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRecordDecodesAlike(t, data)
	})
}

// FuzzErrorBody checks that the message taken from an error body is one
// short line, whatever the body.
func FuzzErrorBody(f *testing.F) {
	f.Add([]byte(`{"status":404,"message":"record not found"}`))
	f.Add([]byte(`{"error":{"message":"line one\nline two"}}`))
	f.Add([]byte(`{"errors":[{"detail":"a"},{"detail":"b"}]}`))
	f.Add([]byte("plain text\r\nsecond line"))
	f.Add([]byte(`<html><body>Bad gateway</body></html>`))
	f.Add([]byte(`{"message":"` + strings.Repeat("é", 600) + `"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		msg := apiErrorOf(400, http.Header{}, body).Message
		if utf8.RuneCountInString(msg) > 501 {
			t.Fatalf("message of %d runes: %q", utf8.RuneCountInString(msg), msg)
		}
		if strings.ContainsAny(msg, "\r\n") {
			t.Fatalf("message spans lines: %q", msg)
		}
	})
}

// special8 finds the first byte of eight that a string cannot hold as it
// is, wherever it stands and whatever the bytes after it, in the byte
// order of the word as binary.LittleEndian reads it on every machine.
func TestSpecial8(t *testing.T) {
	special := func(c byte) bool { return c == '"' || c == '\\' || c < ' ' || c >= utf8.RuneSelf }
	// firstSpecial is the index of the first byte that needs a look, or 8.
	firstSpecial := func(b []byte) int {
		for i, c := range b {
			if special(c) {
				return i
			}
		}
		return 8
	}
	check := func(b []byte) {
		t.Helper()
		m := special8(binary.LittleEndian.Uint64(b))
		got := 8
		if m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if want := firstSpecial(b); got != want {
			t.Fatalf("bytes %q: first to look at %d, want %d", b, got, want)
		}
	}
	for c := range 256 {
		for pos := range 8 {
			for _, rest := range []byte{'a', ' ', '"', 0, 0xff, '!', '#', '[', ']', 0x7f} {
				b := bytes.Repeat([]byte{'a'}, 8)
				b[pos] = byte(c)
				for j := pos + 1; j < 8; j++ {
					b[j] = rest
				}
				check(b)
			}
		}
	}
}

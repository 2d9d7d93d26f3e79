package workflow

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFormatTime(t *testing.T) {
	t.Parallel()
	cet := time.FixedZone("CET", 3600)
	tests := []struct {
		name string
		in   time.Time
		want string
	}{
		{"utc", time.Date(2024, 1, 31, 9, 30, 0, 0, time.UTC), "2024-01-31T09:30:00.000Z"},
		{"offset converted to utc", time.Date(2024, 1, 31, 10, 30, 0, 0, cet), "2024-01-31T09:30:00.000Z"},
		{"day changes with the offset", time.Date(2024, 3, 1, 0, 30, 0, 0, cet), "2024-02-29T23:30:00.000Z"},
		{"milliseconds kept", time.Date(2024, 1, 31, 9, 30, 5, 123_000_000, time.UTC), "2024-01-31T09:30:05.123Z"},
		{"sub-millisecond truncated", time.Date(2024, 1, 31, 9, 30, 5, 999_999_999, time.UTC), "2024-01-31T09:30:05.999Z"},
		{"zero time", time.Time{}, "0001-01-01T00:00:00.000Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, FormatTime(tt.in))
		})
	}
}

func TestParseTime(t *testing.T) {
	t.Parallel()
	want := time.Date(2024, 1, 31, 9, 30, 5, 123_000_000, time.UTC)
	ok := []struct {
		name, in string
		want     time.Time
	}{
		{"api form", "2024-01-31T09:30:05.123Z", want},
		{"rfc3339 with offset", "2024-01-31T10:30:05.123+01:00", want},
		{"rfc3339 negative offset", "2024-01-31T04:30:05.123-05:00", want},
		{"no fraction", "2024-01-31T09:30:05Z", want.Truncate(time.Second)},
		{"nanoseconds", "2024-01-31T09:30:05.123456789Z", want.Add(456789)},
		{"date only", "2024-01-31", time.Date(2024, 1, 31, 0, 0, 0, 0, time.UTC)},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTime(tt.in)
			require.NoError(t, err)
			assert.True(t, tt.want.Equal(got), "got %s, want %s", got, tt.want)
			assert.Equal(t, time.UTC, got.Location())
		})
	}
	bad := []string{
		"",
		"2024-01-31 09:30:05.123Z",
		" 2024-01-31T09:30:05.123Z",
		"2024-01-31T09:30:05.123Z ",
		"2024-13-01T00:00:00.000Z",
		"2024-01-31T25:00:00.000Z",
		"2024-01-31T09:30:05.123",
		"31/01/2024",
		"yesterday",
		"1706693405",
	}
	for _, in := range bad {
		t.Run("bad "+in, func(t *testing.T) {
			_, err := ParseTime(in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), fmt.Sprintf("%q", in))
			assert.Contains(t, err.Error(), "YYYY-MM-DDTHH:MM:SS.SSSZ")
		})
	}
}

func TestFormatParseTimeRoundTrip(t *testing.T) {
	t.Parallel()
	for _, in := range []time.Time{
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999_000_000, time.UTC),
		time.Date(2024, 2, 29, 12, 0, 0, 1_000_000, time.FixedZone("", -7*3600)),
		time.Date(9999, 12, 31, 23, 59, 59, 999_000_000, time.UTC),
	} {
		got, err := ParseTime(FormatTime(in))
		require.NoError(t, err)
		assert.True(t, in.Equal(got), "%s -> %s", in, got)
	}
}

// codecLevel is a TextMarshaler/TextUnmarshaler with pointer receivers.
type codecLevel int

func (l *codecLevel) MarshalText() ([]byte, error) {
	switch *l {
	case 1:
		return []byte("low"), nil
	case 2:
		return []byte("high"), nil
	}
	return nil, fmt.Errorf("unknown level %d", int(*l))
}

func (l *codecLevel) UnmarshalText(b []byte) error {
	switch string(b) {
	case "low":
		*l = 1
	case "high":
		*l = 2
	default:
		return fmt.Errorf("unknown level %q", b)
	}
	return nil
}

// codecStatus is a named string type without methods.
type codecStatus string

// codecTask has a field of every supported kind.
type codecTask struct {
	ID       string      `workflow:"id"`
	Title    string      // untagged: record field "Title"
	Status   codecStatus `workflow:"Status"`
	Done     bool        `workflow:"Done"`
	Count    int         `workflow:"Count"`
	I8       int8        `workflow:"I8"`
	I16      int16       `workflow:"I16"`
	I32      int32       `workflow:"I32"`
	I64      int64       `workflow:"I64"`
	U        uint        `workflow:"U"`
	U8       uint8       `workflow:"U8"`
	U16      uint16      `workflow:"U16"`
	U32      uint32      `workflow:"U32"`
	U64      uint64      `workflow:"U64"`
	F32      float32     `workflow:"F32"`
	F64      float64     `workflow:"F64"`
	Due      time.Time   `workflow:"Due Date"`
	Level    codecLevel  `workflow:"Level"`
	Addr     netip.Addr  `workflow:"Addr"`
	Note     *string     `workflow:"Note"`
	Priority *int        `workflow:"Priority"`
	Closed   *time.Time  `workflow:"Closed At"`
	Flag     *bool       `workflow:"Flag"`
	Ptr      *codecLevel `workflow:"Level Ptr"`
	Ignored  string      `workflow:"-"`
}

func codecPtr[T any](v T) *T { return &v }

func TestCodecRoundTrip(t *testing.T) {
	t.Parallel()
	full := codecTask{
		ID: "42", Title: "Fix the printer", Status: "Open", Done: true,
		Count: -7, I8: math.MinInt8, I16: math.MaxInt16, I32: math.MinInt32, I64: math.MaxInt64,
		U: 7, U8: math.MaxUint8, U16: math.MaxUint16, U32: math.MaxUint32, U64: math.MaxUint64,
		F32: 1.5, F64: 0.1,
		Due:   time.Date(2024, 1, 31, 9, 30, 5, 123_000_000, time.UTC),
		Level: 2, Addr: netip.MustParseAddr("192.0.2.1"),
		Note: codecPtr(""), Priority: codecPtr(0), Closed: codecPtr(time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)),
		Flag: codecPtr(false), Ptr: codecPtr(codecLevel(1)),
	}
	tests := []struct {
		name string
		in   codecTask
		rec  Record // expected Encode output
	}{
		{
			name: "every field set",
			in:   full,
			rec: Record{
				"id": "42", "Title": "Fix the printer", "Status": "Open", "Done": "true",
				"Count": "-7", "I8": "-128", "I16": "32767", "I32": "-2147483648", "I64": "9223372036854775807",
				"U": "7", "U8": "255", "U16": "65535", "U32": "4294967295", "U64": "18446744073709551615",
				"F32": "1.5", "F64": "0.1", "Due Date": "2024-01-31T09:30:05.123Z",
				"Level": "high", "Addr": "192.0.2.1",
				"Note": "", "Priority": "0", "Closed At": "2024-02-01T00:00:00.000Z", "Flag": "false", "Level Ptr": "low",
			},
		},
		{
			name: "zero values, nil pointers absent",
			in:   codecTask{Level: 1},
			rec: Record{
				"id": "", "Title": "", "Status": "", "Done": "false",
				"Count": "0", "I8": "0", "I16": "0", "I32": "0", "I64": "0",
				"U": "0", "U8": "0", "U16": "0", "U32": "0", "U64": "0",
				"F32": "0", "F64": "0", "Due Date": "", "Level": "low", "Addr": "",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := Encode(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.rec, rec)

			// Encode of a pointer gives the same record.
			rec2, err := Encode(&tt.in)
			require.NoError(t, err)
			assert.Equal(t, rec, rec2)

			var out codecTask
			require.NoError(t, Decode(rec, &out))
			assert.Equal(t, tt.in, out)
		})
	}
}

func TestDecodeValues(t *testing.T) {
	t.Parallel()
	type target struct {
		B   bool       `workflow:"b"`
		I   int        `workflow:"i"`
		U8  uint8      `workflow:"u8"`
		F   float64    `workflow:"f"`
		F32 float32    `workflow:"f32"`
		T   time.Time  `workflow:"t"`
		S   string     `workflow:"s"`
		PS  *string    `workflow:"ps"`
		PI  *int       `workflow:"pi"`
		PT  *time.Time `workflow:"pt"`
		PB  *bool      `workflow:"pb"`
		L   codecLevel `workflow:"l"`
	}
	tests := []struct {
		name string
		rec  Record
		want target
	}{
		{"bool true", Record{"b": "true"}, target{B: true}},
		{"bool TRUE", Record{"b": "TRUE"}, target{B: true}},
		{"bool 1", Record{"b": "1"}, target{B: true}},
		{"bool t", Record{"b": "t"}, target{B: true}},
		{"bool False", Record{"b": "False"}, target{}},
		{"int signed", Record{"i": "-12"}, target{I: -12}},
		{"int plus sign", Record{"i": "+12"}, target{I: 12}},
		{"uint8 max", Record{"u8": "255"}, target{U8: 255}},
		{"float", Record{"f": "-2.5"}, target{F: -2.5}},
		{"float exponent", Record{"f": "1e3"}, target{F: 1000}},
		{"float integer", Record{"f": "3"}, target{F: 3}},
		{"float32", Record{"f32": "0.1"}, target{F32: 0.1}},
		{"time api form", Record{"t": "2024-01-31T09:30:00.000Z"}, target{T: time.Date(2024, 1, 31, 9, 30, 0, 0, time.UTC)}},
		{"time offset to utc", Record{"t": "2024-01-31T10:30:00+01:00"}, target{T: time.Date(2024, 1, 31, 9, 30, 0, 0, time.UTC)}},
		{"string as is", Record{"s": "  a, b; c  "}, target{S: "  a, b; c  "}},
		{"empty string", Record{"s": ""}, target{}},
		{"pointer to empty string", Record{"ps": ""}, target{PS: codecPtr("")}},
		{"pointer to int", Record{"pi": "0"}, target{PI: codecPtr(0)}},
		{"pointer to bool", Record{"pb": "false"}, target{PB: codecPtr(false)}},
		{"empty number, bool, time: zero", Record{"b": "", "i": "", "u8": "", "f": "", "t": ""}, target{}},
		{"empty pointers: nil", Record{"pi": "", "pt": "", "pb": ""}, target{}},
		{"absent pointers: nil", Record{}, target{}},
		{"text unmarshaler", Record{"l": "high"}, target{L: 2}},
		{"unknown record fields ignored", Record{"x": "1", "I": "2"}, target{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got target
			require.NoError(t, Decode(tt.rec, &got))
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestDecodeEmptyClearsAndAbsentKeeps(t *testing.T) {
	t.Parallel()
	type target struct {
		I  int  `workflow:"i"`
		PI *int `workflow:"pi"`
		J  int  `workflow:"j"`
		PJ *int `workflow:"pj"`
	}
	got := target{I: 1, PI: codecPtr(2), J: 3, PJ: codecPtr(4)}
	require.NoError(t, Decode(Record{"i": "", "pi": ""}, &got))
	assert.Equal(t, target{J: 3, PJ: codecPtr(4)}, got)
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	type target struct {
		B   bool       `workflow:"Is Done"`
		I8  int8       `workflow:"Small"`
		U   uint       `workflow:"Count"`
		F   float64    `workflow:"Score"`
		F32 float32    `workflow:"Score32"`
		T   time.Time  `workflow:"Due Date"`
		PT  *time.Time `workflow:"Closed"`
		L   codecLevel `workflow:"Level"`
		I   int        `workflow:"Number"`
	}
	tests := []struct {
		field, value, goField, msg string
		cause                      string // Err's text, when Error does not print it
	}{
		{"Is Done", "maybe", "target.B", "not a bool", ""},
		{"Small", "128", "target.I8", "out of range for int8", ""},
		{"Small", "1.5", "target.I8", "not a base-10 int8", ""},
		{"Count", "-1", "target.U", "not a base-10 uint", ""},
		{"Score", "abc", "target.F", "not a base-10 float64", ""},
		{"Score", "NaN", "target.F", "not a finite number", ""},
		{"Score", "-Inf", "target.F", "not a finite number", ""},
		{"Score32", "1e39", "target.F32", "out of range for float32", ""},
		{"Due Date", "tomorrow", "target.T", "not a time (want the form YYYY-MM-DDTHH:MM:SS.SSSZ)", ""},
		{"Closed", "2024-01-31 09:30", "target.PT", "not a time", ""},
		{"Level", "medium", "target.L", "refused by its UnmarshalText", `unknown level "medium"`},
		{"Number", " 1", "target.I", "not a base-10 int", ""},
	}
	for _, tt := range tests {
		t.Run(tt.field+"="+tt.value, func(t *testing.T) {
			var got target
			err := Decode(Record{tt.field: tt.value}, &got)
			var de *DecodeError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, tt.field, de.Field)
			assert.Equal(t, tt.goField, de.GoField)
			assert.Equal(t, tt.value, de.Value)
			assert.Contains(t, err.Error(), tt.msg)
			assert.Contains(t, err.Error(), fmt.Sprintf("%q", tt.field))
			assert.NotContains(t, err.Error(), fmt.Sprintf("%q", tt.value), "the value is users' data")
			assert.Contains(t, err.Error(), tt.goField)
			if tt.cause != "" {
				assert.EqualError(t, de.Err, tt.cause, "the cause stays on the error")
			}
			assert.Equal(t, target{}, got, "a bad value leaves the field unchanged")
		})
	}
}

func TestDecodeContinuesAfterBadValue(t *testing.T) {
	t.Parallel()
	type target struct {
		A int    `workflow:"a"`
		B string `workflow:"b"`
		C int    `workflow:"c"`
		D int    `workflow:"d"`
	}
	got := target{A: 9}
	err := Decode(Record{"a": "x", "b": "ok", "c": "y", "d": "4"}, &got)
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "a", de.Field, "the first failing field in struct order is reported")
	assert.Equal(t, target{A: 9, B: "ok", D: 4}, got)
}

func TestEncodeValues(t *testing.T) {
	t.Parallel()
	cet := time.FixedZone("CET", 3600)
	type withComma struct {
		Cost  int    `workflow:"Cost, USD"`
		Other string `workflow:"a,b,omitempty"`
		Dash  string `workflow:"-,"`
	}
	type omit struct {
		S  string     `workflow:"s,omitempty"`
		I  int        `workflow:"i,omitempty"`
		B  bool       `workflow:"b,omitempty"`
		T  time.Time  `workflow:"t,omitempty"`
		PI *int       `workflow:"pi,omitempty"`
		L  codecLevel `workflow:"l,omitempty"`
	}
	type floats struct {
		F   float64 `workflow:"f"`
		F32 float32 `workflow:"f32"`
	}
	type times struct {
		T  time.Time  `workflow:"t"`
		PT *time.Time `workflow:"pt"`
	}
	tests := []struct {
		name string
		in   any
		want Record
	}{
		{"names with commas and a dash", withComma{Cost: 5, Dash: "x"}, Record{"Cost, USD": "5", "-": "x"}},
		{"omitempty drops zero values", omit{}, Record{}},
		{"omitempty keeps non-zero values and non-nil pointers", omit{S: "s", I: 1, B: true, T: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), PI: codecPtr(0), L: 2},
			Record{"s": "s", "i": "1", "b": "true", "t": "2024-01-01T00:00:00.000Z", "pi": "0", "l": "high"}},
		{"floats without exponent", floats{F: 1e21, F32: 1e-7}, Record{"f": "1000000000000000000000", "f32": "0.0000001"}},
		{"float32 shortest form", floats{F: -0.5, F32: 0.1}, Record{"f": "-0.5", "f32": "0.1"}},
		{"times in utc", times{T: time.Date(2024, 1, 31, 10, 30, 0, 0, cet), PT: codecPtr(time.Date(2024, 1, 1, 0, 30, 0, 0, cet))},
			Record{"t": "2024-01-31T09:30:00.000Z", "pt": "2023-12-31T23:30:00.000Z"}},
		{"zero time is empty", times{}, Record{"t": ""}},
		{"zero time behind a pointer is empty", times{PT: &time.Time{}}, Record{"t": "", "pt": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	t.Parallel()
	type target struct {
		F  float64    `workflow:"Score"`
		PF *float32   `workflow:"Weight"`
		T  time.Time  `workflow:"Due Date"`
		L  codecLevel `workflow:"Level"`
	}
	tests := []struct {
		name      string
		in        target
		field     string
		valueText string
		kept      string // the cause's text, kept but not shown (it may quote the value)
	}{
		{"NaN", target{F: math.NaN()}, `target.F (record field "Score")`, "NaN", ""},
		{"+Inf", target{F: math.Inf(1)}, `target.F (record field "Score")`, "+Inf", ""},
		{"-Inf behind pointer", target{PF: codecPtr(float32(math.Inf(-1)))}, `target.PF (record field "Weight")`, "-Inf", ""},
		{"year 10000", target{T: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, `target.T (record field "Due Date")`, "a time outside the years 0001 to 9999", ""},
		{"year 0", target{T: time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC)}, `target.T (record field "Due Date")`, "a time outside the years 0001 to 9999", ""},
		{"MarshalText error", target{L: 7}, `target.L (record field "Level")`, "refused by its MarshalText", "unknown level 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			if in.L == 0 {
				in.L = 1
			}
			rec, err := Encode(in)
			assert.Nil(t, rec)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tt.field, ve.Field)
			assert.Contains(t, err.Error(), tt.valueText)
			if tt.kept != "" {
				assert.NotContains(t, err.Error(), tt.kept)
				require.Error(t, errors.Unwrap(ve.Err), "the MarshalText error is kept")
				assert.Equal(t, tt.kept, errors.Unwrap(ve.Err).Error())
			}
		})
	}
}

func TestCodecBadTypes(t *testing.T) {
	t.Parallel()
	type slice struct {
		Tags []string
	}
	type mapField struct {
		M map[string]string `workflow:"m"`
	}
	type nested struct {
		Inner struct{ A int } `workflow:"inner"`
	}
	type iface struct {
		V any
	}
	type dup struct {
		A string `workflow:"x"`
		B string `workflow:"x"`
	}
	type dupLeft struct {
		X string `workflow:"x"`
	}
	type dupRight struct {
		X int `workflow:"x"`
	}
	type dupEmbedded struct {
		dupLeft
		dupRight
	}
	type badExtra struct {
		E map[string]string `workflow:",extra"`
	}
	type twoExtra struct {
		E1 Record `workflow:",extra"`
		E2 Record `workflow:",extra"`
	}
	type skipped struct {
		Tags []string `workflow:"-"`
		A    int      `workflow:"a"`
	}
	tests := []struct {
		name  string
		v     any
		field string
		rule  string
	}{
		{"slice", &slice{}, "slice.Tags", "has type []string, which a record field cannot hold"},
		{"map", &mapField{}, "mapField.M", "has type map[string]string"},
		{"struct", &nested{}, "nested.Inner", "has type struct"},
		{"interface", &iface{}, "iface.V", "has type interface {}"},
		{"duplicate names", &dup{}, "dup.B", `maps to record field "x", as dup.A does`},
		{"duplicate names, embedded", &dupEmbedded{}, "dupRight.X", `maps to record field "x", as dupLeft.X does`},
		{"extra of wrong type", &badExtra{}, "badExtra.E", "has the extra option, so must be a workflow.Record, not map[string]string"},
		{"two extra fields", &twoExtra{}, "twoExtra.E2", "has the extra option, which twoExtra.E1 has already"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, run := range map[string]func() error{
				"Decode": func() error { return Decode(Record{}, tt.v) },
				"Encode": func() error { _, err := Encode(tt.v); return err },
			} {
				ve, ok := errors.AsType[*ValidationError](run())
				require.True(t, ok, "%s: a *ValidationError", name)
				assert.Equal(t, tt.field, ve.Field, name)
				assert.Contains(t, ve.Rule, tt.rule, name)
				assert.Equal(t, 1, strings.Count(ve.Error(), "workflow: "), name)
			}
		})
	}

	// A field tagged "-" may have any type; unexported fields are skipped.
	type private struct {
		a int
		B int
	}
	var pv private
	require.NoError(t, Decode(Record{"a": "1", "B": "2"}, &pv))
	assert.Equal(t, private{B: 2}, pv)
	rec, err := Encode(private{a: 1, B: 2})
	require.NoError(t, err)
	assert.Equal(t, Record{"B": "2"}, rec)

	var s skipped
	require.NoError(t, Decode(Record{"a": "1", "Tags": "x"}, &s))
	assert.Equal(t, skipped{A: 1}, s)

	// Decode needs a non-nil pointer to a struct; Encode a struct or one.
	var nilTask *codecTask
	var n int
	for _, v := range []any{nil, codecTask{}, nilTask, &n, codecPtr(&codecTask{})} {
		ve, ok := errors.AsType[*ValidationError](Decode(Record{}, v))
		require.True(t, ok, "%T", v)
		assert.Equal(t, "v", ve.Field)
		assert.Equal(t, fmt.Sprintf("must be a non-nil pointer to a struct, got %T", v), ve.Rule)
	}
	for _, v := range []any{nil, nilTask, 5, &n, "x", Record{}} {
		_, err := Encode(v)
		ve, ok := errors.AsType[*ValidationError](err)
		require.True(t, ok, "%T", v)
		assert.Equal(t, "v", ve.Field)
		assert.Equal(t, fmt.Sprintf("must be a struct or a non-nil pointer to one, got %T", v), ve.Rule)
	}
}

// codecBase is embedded in codecEmbedded.
type codecBase struct {
	ID      string `workflow:"id"`
	Created time.Time
	Shadow  string `workflow:"shadow"`
}

type codecAudit struct {
	Owner string `workflow:"Owner"`
}

type codecEmbedded struct {
	codecBase
	*codecAudit // unexported pointer: cannot be allocated, skipped
	*CodecMeta
	Title  string `workflow:"Title"`
	Shadow int    `workflow:"shadow"` // shallower field wins
}

// CodecMeta is embedded by pointer.
type CodecMeta struct {
	Rev int `workflow:"rev"`
}

func TestCodecEmbedded(t *testing.T) {
	t.Parallel()
	rec := Record{"id": "7", "Created": "2024-01-01T00:00:00.000Z", "shadow": "3", "Title": "t", "rev": "2", "Owner": "o"}
	var got codecEmbedded
	require.NoError(t, Decode(rec, &got))
	want := codecEmbedded{
		codecBase: codecBase{ID: "7", Created: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)},
		CodecMeta: &CodecMeta{Rev: 2},
		Title:     "t",
		Shadow:    3,
	}
	assert.Equal(t, want, got)

	back, err := Encode(got)
	require.NoError(t, err)
	assert.Equal(t, Record{"id": "7", "Created": "2024-01-01T00:00:00.000Z", "shadow": "3", "Title": "t", "rev": "2"}, back)

	// A nil embedded pointer is left out on Encode and stays nil on Decode
	// when none of its fields is present.
	got.CodecMeta = nil
	back, err = Encode(got)
	require.NoError(t, err)
	assert.NotContains(t, back, "rev")
	var again codecEmbedded
	require.NoError(t, Decode(back, &again))
	assert.Nil(t, again.CodecMeta)
	assert.Equal(t, got, again)
}

func TestCodecShallowFieldWinsOverClash(t *testing.T) {
	t.Parallel()
	// Two embedded fields of one name at the same depth do not collide
	// when a shallower field of the name comes after them: it wins, as
	// with encoding/json.
	type left struct {
		X string `workflow:"x"`
		L string `workflow:"l"`
	}
	type right struct {
		X int `workflow:"x"`
	}
	type outer struct {
		left
		right
		X string `workflow:"x"`
	}
	var got outer
	require.NoError(t, Decode(Record{"x": "top", "l": "left"}, &got))
	assert.Equal(t, outer{left: left{L: "left"}, X: "top"}, got)
	rec, err := Encode(got)
	require.NoError(t, err)
	assert.Equal(t, Record{"x": "top", "l": "left"}, rec)
}

func TestCodecExtra(t *testing.T) {
	t.Parallel()
	type task struct {
		Title string `workflow:"Title"`
		Rest  Record `workflow:",extra"`
	}
	var got task
	require.NoError(t, Decode(Record{"Title": "t", "Owner": "o", "Due Date": ""}, &got))
	assert.Equal(t, task{Title: "t", Rest: Record{"Owner": "o", "Due Date": ""}}, got)

	got.Title = "new"
	got.Rest["Title"] = "ignored: the struct's own field wins"
	rec, err := Encode(got)
	require.NoError(t, err)
	assert.Equal(t, Record{"Title": "new", "Owner": "o", "Due Date": ""}, rec)

	// No unknown fields: Rest is nil.
	var only task
	require.NoError(t, Decode(Record{"Title": "x"}, &only))
	assert.Nil(t, only.Rest)
}

func TestCodecEncodeValueReceiverText(t *testing.T) {
	t.Parallel()
	// netip.Addr has a value-receiver MarshalText; codecLevel a pointer
	// receiver, found also when Encode gets the struct by value.
	type target struct {
		A netip.Addr  `workflow:"a"`
		L codecLevel  `workflow:"l"`
		P *netip.Addr `workflow:"p"`
	}
	rec, err := Encode(target{A: netip.MustParseAddr("::1"), L: 1, P: codecPtr(netip.MustParseAddr("10.0.0.1"))})
	require.NoError(t, err)
	assert.Equal(t, Record{"a": "::1", "l": "low", "p": "10.0.0.1"}, rec)

	var back target
	require.NoError(t, Decode(rec, &back))
	assert.Equal(t, "10.0.0.1", back.P.String())

	var bad target
	err = Decode(Record{"a": "not an ip"}, &bad)
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "a", de.Field)
}

func TestCodecConcurrentPlans(t *testing.T) {
	t.Parallel()
	// Many goroutines building and using the cached plan of a new type at
	// once (run with -race).
	type fresh struct {
		A int       `workflow:"a"`
		B time.Time `workflow:"b"`
	}
	rec := Record{"a": "1", "b": "2024-01-01T00:00:00.000Z"}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			var v fresh
			if err := Decode(rec, &v); err != nil {
				errs <- err
				return
			}
			back, err := Encode(v)
			if err != nil {
				errs <- err
				return
			}
			if !reflect.DeepEqual(back, rec) {
				errs <- fmt.Errorf("got %v", back)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// codecFuzz has a field of every kind the codec supports.
type codecFuzz struct {
	S   string      `workflow:"S s"`
	B   bool        `workflow:"B"`
	I   int         `workflow:"I"`
	I8  int8        `workflow:"I8"`
	I16 int16       `workflow:"I16"`
	I32 int32       `workflow:"I32"`
	I64 int64       `workflow:"I64"`
	U   uint        `workflow:"U"`
	U8  uint8       `workflow:"U8"`
	U16 uint16      `workflow:"U16"`
	U32 uint32      `workflow:"U32"`
	U64 uint64      `workflow:"U64"`
	F32 float32     `workflow:"F32"`
	F64 float64     `workflow:"F64"`
	T   time.Time   `workflow:"T, with comma"`
	L   codecLevel  `workflow:"L"`
	O   string      `workflow:"O,omitempty"`
	OI  int         `workflow:"OI,omitempty"`
	PS  *string     `workflow:"PS"`
	PI  *int64      `workflow:"PI"`
	PU  *uint16     `workflow:"PU"`
	PF  *float64    `workflow:"PF"`
	PB  *bool       `workflow:"PB"`
	PT  *time.Time  `workflow:"PT"`
	PL  *codecLevel `workflow:"PL"`
}

// Millisecond instants of the years 0001 to 9999, which the API form holds.
const (
	codecMinMillis = -62135596800000 // 0001-01-01T00:00:00.000Z
	codecMaxMillis = 253402300799999 // 9999-12-31T23:59:59.999Z
)

func codecFuzzTime(ms int64) time.Time {
	span := int64(codecMaxMillis - codecMinMillis + 1)
	ms = codecMinMillis + ((ms%span)+span)%span
	return time.UnixMilli(ms).UTC()
}

func codecFinite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

func FuzzCodecRoundTrip(f *testing.F) {
	f.Add("", false, int64(0), uint64(0), 0.0, int64(0), uint8(0))
	f.Add("Open; a,b", true, int64(-1), uint64(1), 0.1, int64(1706693405123), uint8(0xff))
	f.Add("ünïcödé\x00\n", true, int64(math.MinInt64), uint64(math.MaxUint64), -1e300, int64(codecMaxMillis), uint8(0x55))
	f.Add(strings.Repeat("x", 300), false, int64(math.MaxInt64), uint64(1<<32), 5e-324, int64(codecMinMillis), uint8(0xaa))
	f.Fuzz(func(t *testing.T, s string, b bool, i int64, u uint64, fl float64, ms int64, mask uint8) {
		fl = codecFinite(fl)
		tm := codecFuzzTime(ms)
		// mask selects which pointers are set.
		set := func(bit int) bool { return mask&(1<<bit) != 0 }
		v := codecFuzz{
			S: s, B: b, I: int(i), I8: int8(i), I16: int16(i), I32: int32(i), I64: i,
			U: uint(u), U8: uint8(u), U16: uint16(u), U32: uint32(u), U64: u,
			F32: float32(fl), F64: fl, T: tm, L: codecLevel(1 + u%2),
			O: s, OI: int(i),
		}
		if float32(fl) != float32(fl) || math.IsInf(float64(float32(fl)), 0) {
			v.F32 = 0
		}
		if set(0) {
			v.PS = codecPtr(s)
		}
		if set(1) {
			v.PI = codecPtr(i)
		}
		if set(2) {
			v.PU = codecPtr(uint16(u))
		}
		if set(3) {
			v.PF = codecPtr(fl)
		}
		if set(4) {
			v.PB = codecPtr(b)
		}
		if set(5) && !tm.IsZero() {
			v.PT = codecPtr(tm) // a pointer to the zero time reads back as nil
		}
		if set(6) {
			v.PL = codecPtr(codecLevel(2 - u%2))
		}
		rec, err := Encode(v)
		if err != nil {
			t.Fatalf("Encode(%+v): %v", v, err)
		}
		var got codecFuzz
		if err := Decode(rec, &got); err != nil {
			t.Fatalf("Decode(%v): %v", rec, err)
		}
		if !reflect.DeepEqual(v, got) {
			t.Fatalf("round trip through %v:\n got  %+v\n want %+v", rec, got, v)
		}
		// Every time sent is in the API form.
		for _, k := range []string{"T, with comma", "PT"} {
			if ts, ok := rec[k]; ok && ts != "" {
				if _, err := time.Parse(timeLayout, ts); err != nil {
					t.Fatalf("%s = %q is not in the API form", k, ts)
				}
			}
		}
	})
}

func TestDecodeErrorUnwrap(t *testing.T) {
	t.Parallel()
	sentinel := errors.New("boom")
	e := &DecodeError{Field: "f", GoField: "T.F", Type: reflect.TypeFor[int](), Value: strings.Repeat("v", 300), Err: sentinel}
	assert.ErrorIs(t, e, sentinel)
	assert.Equal(t, `workflow: cannot decode record field "f" into T.F (int): boom`, e.Error(), "no value in the message")
}

func TestCodecFloatsAreBase10Only(t *testing.T) {
	type row struct {
		F float64 `workflow:"f"`
	}
	for _, in := range []string{"0x1p4", "1_000.5", "Inf", "-Inf", "NaN", "infinity", "0X10", "1e", ".", "+"} {
		var r row
		err := Decode(Record{"f": in}, &r)
		assert.Error(t, err, in)
	}
	for in, want := range map[string]float64{"16": 16, "-1.5": -1.5, "+2": 2, "1e3": 1000, ".5": 0.5, "5.": 5, "1.25E-2": 0.0125} {
		var r row
		require.NoError(t, Decode(Record{"f": in}, &r), in)
		assert.Equal(t, want, r.F, in)
	}
}

// codecReadOnly can be read from text but not written as text.
type codecReadOnly struct{ s string }

func (r *codecReadOnly) UnmarshalText(b []byte) error {
	r.s = string(b)
	return nil
}

// codecWriteOnly can be written as text but not read from it.
type codecWriteOnly struct{ s string }

func (w codecWriteOnly) MarshalText() ([]byte, error) { return []byte(w.s), nil }

func TestCodecOneWayText(t *testing.T) {
	t.Parallel()
	type target struct {
		R codecReadOnly  `workflow:"r"`
		W codecWriteOnly `workflow:"w"`
	}
	var got target
	err := Decode(Record{"r": "in", "w": "out"}, &got)
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "w", de.Field)
	assert.Contains(t, err.Error(), "codecWriteOnly does not implement encoding.TextUnmarshaler")
	assert.Equal(t, "in", got.R.s)

	_, err = Encode(target{W: codecWriteOnly{"x"}})
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, `target.R (record field "r")`, ve.Field)
	assert.Contains(t, err.Error(), "codecReadOnly does not implement encoding.TextMarshaler")

	rec, err := Encode(struct {
		W codecWriteOnly `workflow:"w"`
	}{codecWriteOnly{"x"}})
	require.NoError(t, err)
	assert.Equal(t, Record{"w": "x"}, rec)
}

// askedError counts the calls of its Error method.
type askedError struct{ asked *int }

func (e askedError) Error() string { *e.asked++; return "bad value \"secret\"" }

// Format prints something else than Error, which DecodeError does not use.
func (e askedError) Format(f fmt.State, _ rune) { fmt.Fprint(f, "formatted") }

// TestDecodeErrorText: the cause's Error text is printed (not its
// Format), and the cause of a field decoded by its own UnmarshalText is
// not even asked for its text (it may quote the value).
func TestDecodeErrorText(t *testing.T) {
	t.Parallel()
	var asked int
	e := &DecodeError{Field: "n", GoField: "T.N", Type: reflect.TypeFor[int](), Err: askedError{&asked}}
	assert.Equal(t, `workflow: cannot decode record field "n" into T.N (int): bad value "secret"`, e.Error())
	assert.Equal(t, 1, asked)
	e = &DecodeError{Field: "a", GoField: "T.A", Type: reflect.TypeFor[netip.Addr](), Err: askedError{&asked}}
	assert.Equal(t, `workflow: cannot decode record field "a" into T.A (netip.Addr): refused by its UnmarshalText`, e.Error())
	assert.Equal(t, 1, asked, "the UnmarshalText error is not asked")
	assert.Equal(t, `workflow: cannot decode record field "n" into T.N (int): <nil>`, (&DecodeError{Field: "n", GoField: "T.N", Type: reflect.TypeFor[int]()}).Error())
}

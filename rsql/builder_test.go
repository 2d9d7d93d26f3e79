package rsql

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type stamp struct{ time.Time }

type Stamped struct {
	*time.Time
}

func TestTimesPrintInTheAPIsForm(t *testing.T) {
	loc := time.FixedZone("X", 5*3600+30*60)
	tm := time.Date(2024, 3, 5, 15, 41, 12, 345678901, loc)
	want := "2024-03-05T10:11:12.345Z"
	for name, v := range map[string]any{
		"time.Time":            tm,
		"*time.Time":           &tm,
		"embedding":            stamp{tm},
		"*embedding":           &stamp{tm},
		"embedding *time.Time": Stamped{&tm},
	} {
		e := Field("due").Gt(v)
		require.NoError(t, e.Validate(), name)
		s := e.String()
		assert.Equal(t, "due=gt="+want, s, name)
	}
}

func TestBuilderErrors(t *testing.T) {
	f := Field
	ok := f("ok").Eq(1)
	tests := []struct {
		name string
		e    Expr
		want string
	}{
		{"empty field", f("").Eq(1), "rsql: empty field name"},
		{"leading space", f(" a").Eq(1), `rsql: field name " a" must not start or end with whitespace`},
		{"trailing space", f("a\t").Eq(1), `rsql: field name "a\t" must not start or end with whitespace`},
		{"equals in field", f("a=b").Eq(1), `rsql: field name "a=b" must not contain "=" (reserved by the filter syntax)`},
		{"bang in field", f("a!b").Eq(1), `must not contain "!"`},
		{"semicolon in field", f("a;b").Eq(1), `must not contain ";"`},
		{"comma in field", f("a,b").Eq(1), `must not contain ","`},
		{"paren in field", f("a(b").Eq(1), `must not contain "("`},
		{"close paren in field", f("a)b").Eq(1), `must not contain ")"`},
		{"double quote in field", f(`a"b`).Eq(1), `must not contain "\""`},
		{"single quote in field", f("a'b").Eq(1), `must not contain "'"`},
		{"nil value", f("x").Eq(nil), `rsql: field "x": == value: nil is not a value (use IsNull/NotNull`},
		{"nil pointer", f("x").Eq((*time.Time)(nil)), `rsql: field "x": == value: nil *time.Time is not a value`},
		{"unsupported type", f("x").Like(struct{}{}), `rsql: field "x": =lk= value: unsupported value type struct {}`},
		{"slice", f("x").Eq([]string{"a"}), `unsupported value type []string`},
		{"NaN", f("x").Gt(math.NaN()), `rsql: field "x": =gt= value: NaN cannot be written in a filter`},
		{"Inf", f("x").Gt(math.Inf(1)), `+Inf cannot be written`},
		{"marshal error", f("x").Eq(badText{}), `rsql: field "x": == value: MarshalText of rsql.badText refused the value`},
		{"empty in", f("x").In(), `rsql: field "x": =in= needs at least one value`},
		{"empty not in", f("x").NotIn(), `rsql: field "x": =out= needs at least one value`},
		{"nil bound", f("x").Between(1, nil), `rsql: field "x": =bt= value 2: nil is not a value`},
		{"nil in list", f("x").In("a", nil), `rsql: field "x": =in= value 2: nil is not a value`},
		{"empty and", And(), "rsql: And with no operands"},
		{"empty or", Or(), "rsql: Or with no operands"},
		{"nil operand", And(ok, nil), "rsql: And operand 2 is nil"},
		{"nil or operand", Or(nil), "rsql: Or operand 1 is nil"},
		{"typed nil operand", And(ok, (*Comparison)(nil)), "rsql: nil *Comparison"},
		{"error propagates through and", And(ok, f("").Eq(1)), "rsql: empty field name"},
		{"error propagates through or/and", Or(ok, And(ok, f("x").Eq(nil))), `field "x"`},
		{"bad raw", Raw("x=foo=1"), `rsql: at offset 1: expected operator, found an unknown operator`},
		{"bad raw inside and", And(ok, Raw("")), "rsql: at offset 0: expected field name, found end of input"},
		{"unknown operator literal", &Comparison{Field: "x", Op: "=zz=", Values: []Value{{Text: "1"}}}, `rsql: field "x": unknown operator "=zz="`},
		{"no value literal", &Comparison{Field: "x", Op: OpEq}, `rsql: field "x": == needs exactly one value, got 0`},
		{"two values for eq", &Comparison{Field: "x", Op: OpLike, Values: []Value{{Text: "1"}, {Text: "2"}}}, `=lk= needs exactly one value, got 2`},
		{"one value for range", &Comparison{Field: "x", Op: OpBetween, Values: []Value{{Text: "1"}}}, `rsql: field "x": =bt= needs exactly two values (low and high), got 1`},
		{"nil expr in and", And(Expr(nil)), "rsql: And operand 1 is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.e.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, "", tt.e.String())
			b, merr := tt.e.MarshalText()
			assert.Nil(t, b)
			assert.Equal(t, err, merr)
		})
	}
}

// TestMarshalTextErrorKeptNotShown: a value's MarshalText error may quote
// the value, users' data: the filter's error keeps it and does not print it.
func TestMarshalTextErrorKeptNotShown(t *testing.T) {
	err := Field("x").Eq(badText{}).Validate()
	require.ErrorIs(t, err, errBadText)
	assert.NotContains(t, err.Error(), errBadText.Error())
}

func TestConstructorsReturnPointers(t *testing.T) {
	assert.IsType(t, &Comparison{}, Field("x").Eq(1))
	assert.IsType(t, &Comparison{}, Field("x").In())
	assert.IsType(t, &AndExpr{}, And())
	assert.IsType(t, &OrExpr{}, Or())
	assert.IsType(t, RawExpr(""), Raw(""))
}

func TestAndCopiesOperands(t *testing.T) {
	es := []Expr{Field("a").Eq(1), Field("b").Eq(2)}
	e := And(es...)
	es[0] = Field("c").Eq(3)
	assert.Equal(t, "a==1;b==2", e.String())
}

// Exported, so that the embedded fields can be read.
type (
	Depth1 struct{ time.Time }
	Depth2 struct {
		Note string
		Depth1
	}
	Depth3  struct{ *Depth2 }
	Depth4  struct{ Depth3 }
	Depth5  struct{ Depth4 }
	Depth6  struct{ Depth5 }
	Depth7  struct{ Depth6 }
	Depth8  struct{ Depth7 }
	Depth9  struct{ Depth8 }
	Depth10 struct{ Depth9 }
	Loop    struct{ *Loop }
	Plain   struct{ Name string }
	Wrapper struct {
		Plain
		N int
	}
)

func TestTimesEmbeddedUpToSevenLevels(t *testing.T) {
	tm := time.Date(2024, 3, 5, 15, 41, 12, 345678901, time.FixedZone("X", 3600))
	d7 := Depth7{Depth6{Depth5{Depth4{Depth3{&Depth2{"n", Depth1{tm}}}}}}}
	assert.Equal(t, "x==2024-03-05T14:41:12.345Z", Field("x").Eq(Depth2{"n", Depth1{tm}}).String())
	assert.Equal(t, "x==2024-03-05T14:41:12.345Z", Field("x").Eq(d7).String())
	assert.Equal(t, "x==2024-03-05T14:41:12.345Z", Field("x").Eq(&d7).String())
	assert.Equal(t, "x==2024-03-05T15:41:12.345678901+01:00", Field("x").Eq(Depth8{d7}).String(),
		"deeper: the promoted MarshalText")
	assert.Equal(t, "x==2024-03-05T15:41:12.345678901+01:00", Field("x").Eq(Depth10{Depth9{Depth8{d7}}}).String())
	assert.ErrorContains(t, Field("x").Eq(Wrapper{}).Validate(), "unsupported value type rsql.Wrapper",
		"an embedded struct without a time")
	assert.ErrorContains(t, Field("x").Eq(Loop{&Loop{}}).Validate(), "unsupported value type rsql.Loop",
		"a type that embeds itself, searched to a bounded depth")
	assert.EqualError(t, Field("x").Eq(Depth3{}).Validate(), `rsql: field "x": == value: rsql.Depth3: the time it embeds is behind a nil pointer`)
	assert.EqualError(t, Field("x").Gt(Stamped{}).Validate(), `rsql: field "x": =gt= value: rsql.Stamped: the time it embeds is behind a nil pointer`)
}

package rsql

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type stringerT struct{ s string }

func (s stringerT) String() string { return "S-" + s.s }

type textT struct{ s string }

func (t textT) MarshalText() ([]byte, error) { return []byte("T-" + t.s), nil }

type badText struct{}

func (badText) MarshalText() ([]byte, error) { return nil, errBadText }

// errBadText is badText's MarshalText error.
var errBadText = errors.New("boom")

type status string

type level int

var (
	jan1  = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	jan31 = time.Date(2024, 1, 31, 23, 59, 59, 999_000_000, time.UTC)
)

func TestPrintOperators(t *testing.T) {
	f := Field
	tests := []struct {
		name string
		e    Expr
		want string
	}{
		{"eq", f("status").Eq("open"), "status==open"},
		{"ne", f("status").Ne("closed"), "status!=closed"},
		{"gt", f("n").Gt(5), "n=gt=5"},
		{"ge", f("n").Ge(uint8(7)), "n=ge=7"},
		{"lt", f("n").Lt(-3), "n=lt=-3"},
		{"le", f("n").Le(2.5), "n=le=2.5"},
		{"between", f("n").Between(1, 10), "n=bt=1:10"},
		{"not between", f("n").NotBetween(int64(-1), uint(10)), "n=nbt=-1:10"},
		{"in", f("s").In("a", "b", "c"), "s=in=a:b:c"},
		{"in one", f("s").In("a"), "s=in=a"},
		{"not in", f("s").NotIn("a", "b"), "s=out=a:b"},
		{"like", f("t").Like("foo"), "t=lk=foo"},
		{"not like", f("t").NotLike("foo"), "t!lk=foo"},
		{"ilike", f("t").ILike("Foo"), "t=lki=Foo"},
		{"not ilike", f("t").NotILike("Foo"), "t!lki=Foo"},
		{"is null", f("x").IsNull(), "x==null"},
		{"not null", f("x").NotNull(), "x!=null"},
		{"null value in list", f("x").In("a", Value{Null: true}), "x=in=a:null"},
		{"bool", f("done").Eq(true), "done==true"},
		{"float32", f("f").Eq(float32(0.1)), "f==0.1"},
		{"big float no exponent", f("f").Eq(1e21), "f==1000000000000000000000"},
		{"small float no exponent", f("f").Eq(1e-7), "f==0.0000001"},
		{"max uint64", f("u").Eq(uint64(math.MaxUint64)), "u==18446744073709551615"},
		{"stringer", f("x").Eq(stringerT{"a"}), "x==S-a"},
		{"text marshaler", f("x").Eq(textT{"a"}), "x==T-a"},
		{"named string", f("x").Eq(status("open")), "x==open"},
		{"named int", f("x").Eq(level(3)), "x==3"},
		{"value", f("x").Eq(Value{Text: "v"}), "x==v"},
		{"null value ignores text", f("x").Eq(Value{Text: "v", Null: true}), "x==null"},
		{"time lt keeps colons unquoted", f("Due Date").Lt(jan1), "Due Date=lt=2024-01-01T00:00:00.000Z"},
		{"time converted to UTC", f("d").Eq(time.Date(2024, 3, 1, 10, 0, 0, 123_456_789, time.FixedZone("X", 2*3600))), "d==2024-03-01T08:00:00.123Z"},
		{"field with spaces", f("Due Date").Eq("x"), "Due Date==x"},
		{"field with inner colon", f("a:b").Eq("x"), "a:b==x"},
		{"operator alias in literal", &Comparison{Field: "x", Op: "!in=", Values: []Value{{Text: "a"}, {Text: "b"}}}, "x=out=a:b"},
		{"bt alias in literal", &Comparison{Field: "x", Op: "!bt=", Values: []Value{{Text: "1"}, {Text: "2"}}}, "x=nbt=1:2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.e.Validate())
			assert.Equal(t, tt.want, tt.e.String())
			b, err := tt.e.MarshalText()
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(b))
		})
	}
}

func TestPrintColonRewrites(t *testing.T) {
	f := Field
	tests := []struct {
		name string
		e    Expr
		want string
	}{
		{"timestamp range", f("Due Date").Between(jan1, jan31),
			"Due Date=ge=2024-01-01T00:00:00.000Z;Due Date=le=2024-01-31T23:59:59.999Z"},
		{"timestamp not between", f("d").NotBetween(jan1, jan31),
			"d=lt=2024-01-01T00:00:00.000Z,d=gt=2024-01-31T23:59:59.999Z"},
		{"in with colons", f("t").In("10:00", "11:00"), "t==10:00,t==11:00"},
		{"not in with colons", f("t").NotIn("10:00", "11:00"), "t!=10:00;t!=11:00"},
		{"in mixed keeps colon-free values merged", f("x").In("a:b", "c", "d"), "x==a:b,x=in=c:d"},
		{"in mixed single", f("x").In("a:b", "c"), "x==a:b,x==c"},
		{"only one bound has a colon", f("x").Between("a:b", "c"), "x=ge=a:b;x=le=c"},
		{"not between under and is distributed", And(f("d").NotBetween("1:0", "2:0"), f("y").Eq(1)),
			"d=lt=1:0;y==1,d=gt=2:0;y==1"},
		{"in with colons under and", And(f("y").Eq(1), f("t").In("1:0", "2:0")),
			"y==1;t==1:0,y==1;t==2:0"},
		{"range in or", Or(f("d").Between("1:0", "2:0"), f("x").Eq(1)),
			"d=ge=1:0;d=le=2:0,x==1"},
		{"quoted and colon", f("x").In("a b:c", "d"), `x=="a b:c",x==d`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.e.Validate())
			assert.Equal(t, tt.want, tt.e.String())
		})
	}
}

func TestPrintQuoting(t *testing.T) {
	tests := []struct {
		value any
		want  string
	}{
		{"plain", `x==plain`},
		{"a,b", `x=="a,b"`},
		{"a;b", `x=="a;b"`},
		{`say "hi"`, `x=="say \"hi\""`},
		{`a\b c`, `x=="a\\b c"`},
		{`C:\dir`, `x==C:\dir`},
		{`back\slash"`, `x=="back\\slash\""`},
		{"two words", `x=="two words"`},
		{" lead", `x==" lead"`},
		{"tab\there", "x==\"tab\there\""},
		{"line\nbreak", "x==\"line\nbreak\""},
		{"", `x==""`},
		{"null", `x=="null"`},
		{"Null", `x=="Null"`},
		{"(x)", `x=="(x)"`},
		{"a=b", `x=="a=b"`},
		{"it's", `x=="it's"`},
		{"wow!", `x=="wow!"`},
		{"<5>", `x=="<5>"`},
		{"~x", `x=="~x"`},
		{"12:30", `x==12:30`},
		{"ünïcødé", `x==ünïcødé`},
		{"a\x80", "x==a\x80"},
		{"nb\u00a0sp", "x==\"nb\u00a0sp\""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.value), func(t *testing.T) {
			e := Field("x").Eq(tt.value)
			assert.Equal(t, tt.want, e.String())
		})
	}
	t.Run("null literal vs string", func(t *testing.T) {
		assert.Equal(t, `x==null`, Field("x").IsNull().String())
		assert.Equal(t, `x=="null"`, Field("x").Eq("null").String())
		assert.Equal(t, `x=in="null":null`, Field("x").In("null", Value{Null: true}).String())
	})
	t.Run("list values", func(t *testing.T) {
		assert.Equal(t, `x=in="a b":"c,d":"":e`, Field("x").In("a b", "c,d", "", "e").String())
		assert.Equal(t, `x=bt="":"z z"`, Field("x").Between("", "z z").String())
	})
	t.Run("field with spaces and quoted value", func(t *testing.T) {
		assert.Equal(t, `Customer Name=lki="o'brien"`, Field("Customer Name").ILike("o'brien").String())
	})
}

func TestPrintDNF(t *testing.T) {
	a, b, c, d := Field("a").Eq(1), Field("b").Eq(2), Field("c").Eq(3), Field("d").Eq(4)
	x := func(v any) Expr { return Field("x").Eq(v) }
	tests := []struct {
		name string
		e    Expr
		want string
	}{
		{"or under and", And(Or(a, b), c), "a==1;c==3,b==2;c==3"},
		{"or under and, second", And(c, Or(a, b)), "c==3;a==1,c==3;b==2"},
		{"two ors", And(Or(a, b), Or(c, d)), "a==1;c==3,a==1;d==4,b==2;c==3,b==2;d==4"},
		{"and of and flattens", And(And(a, b), c), "a==1;b==2;c==3"},
		{"or of or flattens", Or(Or(a, b), c), "a==1,b==2,c==3"},
		{"or of ands", Or(And(a, b), And(c, d)), "a==1;b==2,c==3;d==4"},
		{"single operand and", And(a), "a==1"},
		{"single operand or", Or(And(a)), "a==1"},
		{"merge eq into in", Or(x(1), x(2)), "x=in=1:2"},
		{"merge keeps position", Or(a, x(1), b, x(2)), "a==1,x=in=1:2,b==2"},
		{"merge eq with in", Or(x(1), Field("x").In(2, 3)), "x=in=1:2:3"},
		{"merge drops duplicate values", Or(x(1), Field("x").In(1, 2)), "x=in=1:2"},
		{"merge under and", And(Or(Field("s").Eq("open"), Field("s").Eq("pending")), Field("p").Gt(2)),
			"s=in=open:pending;p=gt=2"},
		{"no merge of null", Or(Field("x").IsNull(), x(1)), "x==null,x==1"},
		{"no merge of colon", Or(x("a:b"), x("c")), "x==a:b,x==c"},
		{"no merge of ne", Or(Field("x").Ne(1), Field("x").Ne(2)), "x!=1,x!=2"},
		{"no merge across fields", Or(x(1), Field("y").Eq(1)), "x==1,y==1"},
		{"merge quoted values", Or(x("a b"), x("c")), `x=in="a b":c`},
		{"duplicate in and", And(a, b, a), "a==1;b==2"},
		{"duplicate in or", Or(a, b, a), "a==1,b==2"},
		{"duplicate group", Or(And(a, b), And(b, a)), "a==1;b==2"},
		{"distribution duplicates", And(Or(a, b), Or(a, b)), "a==1,a==1;b==2,b==2"},
		{"raw alone verbatim", Raw("(a==1, b==2);c==3"), "(a==1, b==2);c==3"},
		{"raw in and", And(Raw("a==1,b==2"), c), "a==1;c==3,b==2;c==3"},
		{"raw in or", Or(Raw("x==1"), x(2)), "x=in=1:2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.e.Validate())
			assert.Equal(t, tt.want, tt.e.String())
		})
	}
}

func distinct(prefix string, n int) []Expr {
	es := make([]Expr, n)
	for i := range es {
		es[i] = Field(fmt.Sprintf("%s%d", prefix, i)).Eq(i)
	}
	return es
}

func TestPrintBound(t *testing.T) {
	t.Run("256 alternatives", func(t *testing.T) {
		e := Or(distinct("f", 256)...)
		require.NoError(t, e.Validate())
		assert.Equal(t, 256, strings.Count(e.String(), "==")) // 256 comparisons
	})
	t.Run("257 alternatives", func(t *testing.T) {
		e := Or(distinct("f", 257)...)
		assert.ErrorIs(t, e.Validate(), errTooLarge)
		assert.Equal(t, "", e.String())
	})
	t.Run("128 groups of two is 256", func(t *testing.T) {
		e := And(Or(distinct("f", 128)...), Field("c").Eq(1))
		require.NoError(t, e.Validate())
	})
	t.Run("129 groups of two is too many", func(t *testing.T) {
		e := And(Or(distinct("f", 129)...), Field("c").Eq(1))
		err := e.Validate()
		require.ErrorIs(t, err, errTooLarge)
		assert.Contains(t, err.Error(), "more than 256 comparisons")
		_, err = e.MarshalText()
		assert.ErrorIs(t, err, errTooLarge)
	})
	t.Run("merged alternatives do not count", func(t *testing.T) {
		vals := make([]Expr, 300)
		for i := range vals {
			vals[i] = Field("x").Eq(i)
		}
		e := Or(vals...)
		require.NoError(t, e.Validate())
		assert.True(t, strings.HasPrefix(e.String(), "x=in=0:1:2:"))
	})
	t.Run("exponential blowup stops early", func(t *testing.T) {
		var ands []Expr
		for i := range 40 {
			ands = append(ands, Or(Field(fmt.Sprint("a", i)).Eq(1), Field(fmt.Sprint("b", i)).Eq(1)))
		}
		// 2^40 alternatives: an expansion that did not stop at the
		// bound would never return.
		assert.ErrorIs(t, And(ands...).Validate(), errTooLarge)
	})
	t.Run("nested bound", func(t *testing.T) {
		inner := And(Or(distinct("f", 129)...), Field("c").Eq(1))
		assert.ErrorIs(t, Or(inner, Field("z").Eq(1)).Validate(), errTooLarge)
	})
}

func TestRawParseErrorType(t *testing.T) {
	var pe *ParseError
	require.ErrorAs(t, Raw("a==1;").Validate(), &pe)
	assert.Equal(t, 5, pe.Offset)
}

// TestPrintConjunctions covers the conjunctions a program builds most:
// duplicates dropped (null values equal whatever their Text), aliases
// and ':' rewrites deduplicated against the comparisons they produce,
// the size bound counted after deduplication, and which error wins.
func TestPrintConjunctions(t *testing.T) {
	f := Field
	a := f("a").Eq(1)
	notInAlias := &Comparison{Field: "x", Op: "!in=", Values: []Value{{Text: "a"}}}
	numbered := func(n int, field func(i int) string) []Expr {
		es := make([]Expr, n)
		for i := range es {
			es[i] = f(field(i)).Eq(i)
		}
		return es
	}
	byIndex := func(i int) string { return fmt.Sprint("f", i) }
	sameField := func(int) string { return "x" }
	tests := []struct {
		name string
		e    Expr
		want string // the text, or the error's text when it starts with "rsql: "
	}{
		{"repeated comparison", And(a, a), "a==1"},
		{"repeats across nesting", And(a, And(f("b").Eq(2), a), f("b").Eq(2)), "a==1;b==2"},
		{"null equals null whatever its text", And(f("x").Eq(Value{Text: "v", Null: true}), f("x").IsNull()), "x==null"},
		{"the string null is not null", And(f("x").Eq(Value{Text: "null"}), f("x").IsNull()), `x=="null";x==null`},
		{"the empty string is not null", And(f("x").Eq(""), f("x").Eq(Value{Null: true})), `x=="";x==null`},
		{"alias equals its canonical operator", And(notInAlias, f("x").NotIn("a")), "x=out=a"},
		{"rewritten range equals its bounds", And(f("d").Between("1:0", "2:0"), f("d").Ge("1:0"), f("d").Le("2:0")), "d=ge=1:0;d=le=2:0"},
		{"range of one point keeps both bounds", f("d").Between("1:0", "1:0"), "d=ge=1:0;d=le=1:0"},
		{"rewritten not-in drops repeated values", f("t").NotIn("1:0", "2:0", "1:0"), "t!=1:0;t!=2:0"},
		{"rewritten not-in equals its inequalities", And(f("t").NotIn("1:0", "b"), f("t").Ne("b"), f("t").NotIn("b", "1:0")), "t!=1:0;t!=b"},
		{"in of one colon value", f("t").In("1:0", "1:0"), "t==1:0"},
		{"rewritten in under and", And(f("t").In("1:0", "2:0"), a), "t==1:0;a==1,t==2:0;a==1"},
		{"list values are kept as given", f("x").In("a", "a"), "x=in=a:a"},
		{"list values quoted one by one", f("x").In("a b", `c"d\e`, "", "null", Value{Null: true}), `x=in="a b":"c\"d\\e":"":"null":null`},
		{"257 comparisons", And(numbered(257, byIndex)...), errTooLarge.Error()},
		{"300 after merging groups", And(And(numbered(200, byIndex)...), And(numbered(100, sameField)...)), errTooLarge.Error()},
		{"the bound, reached before a later invalid operand", And(append(numbered(257, byIndex), f("").Eq(1))...), errTooLarge.Error()},
		{"an invalid operand inside an operand, before the bound", And(And(numbered(200, byIndex)...), And(append(numbered(100, sameField), f("").Eq(1))...)), "rsql: empty field name"},
		{"300 repeats of one field", And(numbered(300, sameField)...), errTooLarge.Error()},
		{"nil *AndExpr operand", And(a, (*AndExpr)(nil)), "rsql: nil *AndExpr"},
		{"empty And operand", And(a, And()), "rsql: And with no operands"},
		{"first error in operand order", And(a, f("x").Eq(nil), f("").Eq(1)), `rsql: field "x": == value: nil is not a value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.e.Validate()
			if strings.HasPrefix(tt.want, "rsql: ") {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.want)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, tt.e.String())
		})
	}
	t.Run("256 comparisons, repeats not counted", func(t *testing.T) {
		for _, e := range []Expr{
			And(numbered(256, byIndex)...),
			And(append(numbered(256, byIndex), numbered(10, byIndex)...)...),
		} {
			require.NoError(t, e.Validate())
			s := e.String()
			assert.Equal(t, 256, strings.Count(s, "=="))
			assert.True(t, strings.HasPrefix(s, "f0==0;f1==1;"), s[:20])
			assert.True(t, strings.HasSuffix(s, ";f255==255"))
		}
	})
}

func TestNullInAnyCaseIsQuoted(t *testing.T) {
	for _, v := range []string{"null", "NULL", "Null", "nUlL"} {
		s := Field("f").Eq(v).String()
		assert.Equal(t, `f=="`+v+`"`, s)
	}
	s := Field("f").Eq("nullable").String()
	assert.Equal(t, `f==nullable`, s)
}

// otherExpr is an implementation of Expr outside the package.
type otherExpr struct {
	text string
	err  error
}

func (o otherExpr) String() string               { return o.text }
func (o otherExpr) MarshalText() ([]byte, error) { return []byte(o.text), o.err }
func (o otherExpr) Validate() error              { return o.err }

func TestPrintOtherNodes(t *testing.T) {
	a, b := Field("a").Eq(1), Field("b").Eq(2)
	raw := RawExpr("(a==1,b==2)")
	tests := []struct {
		name string
		e    Expr
		want string // the text, or the error's text when it starts with "rsql: "
	}{
		{"*RawExpr alone, verbatim", &raw, "(a==1,b==2)"},
		{"*RawExpr in And, parsed", And(&raw, Field("c").Eq(3)), "a==1;c==3,b==2;c==3"},
		{"nil *RawExpr in And", And(a, (*RawExpr)(nil)), "rsql: nil *RawExpr"},
		{"nil *OrExpr in And", And(a, (*OrExpr)(nil)), "rsql: nil *OrExpr"},
		{"another Expr, by its text", And(otherExpr{text: "x==1,y==2"}, b), "x==1;b==2,y==2;b==2"},
		{"another Expr that is invalid", Or(a, otherExpr{err: errors.New("rsql: mine")}), "rsql: mine"},
		{"another Expr whose text does not parse", Or(a, otherExpr{text: "x=="}), "rsql: at offset 3: expected value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.e.Validate()
			if strings.HasPrefix(tt.want, "rsql: ") {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.want)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, tt.e.String())
		})
	}
}

// TestPrintLargeSets covers the sets searched through keys once they
// hold more than smallSet members.
func TestPrintLargeSets(t *testing.T) {
	groups := make([]Expr, 20)
	for i := range groups {
		groups[i] = And(Field(fmt.Sprint("f", i)).Eq(i), Field("g").IsNull())
	}
	e := Or(append(groups, And(Field("g").IsNull(), Field("f3").Eq(3)))...)
	require.NoError(t, e.Validate())
	assert.Equal(t, 19, strings.Count(e.String(), ","), "20 groups: the repeated one (in another order) is dropped")

	cmps := distinct("f", 20)
	cmps = append(cmps, Field("n").IsNull(), Field("n").Eq(Value{Text: "x", Null: true}), Field("n").Eq("null"))
	s := And(cmps...).String()
	assert.Equal(t, 1, strings.Count(s, "n==null"), s)
	assert.True(t, strings.HasSuffix(s, `;f19==19;n==null;n=="null"`), s)
}

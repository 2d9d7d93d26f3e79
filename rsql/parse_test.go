package rsql

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func v(s string) Value { return Value{Text: s} }

var null = Value{Null: true}

func cmp(field string, op Operator, vals ...Value) *Comparison {
	return &Comparison{Field: field, Op: op, Values: vals}
}

func and(es ...Expr) *AndExpr { return &AndExpr{Operands: es} }
func or(es ...Expr) *OrExpr   { return &OrExpr{Operands: es} }

func TestParseTree(t *testing.T) {
	a, b, c := cmp("a", OpEq, v("1")), cmp("b", OpEq, v("2")), cmp("c", OpEq, v("3"))
	tests := []struct {
		in   string
		want Expr
	}{
		{"a==1", a},
		{"a==1,b==2;c==3", or(a, and(b, c))},
		{"a==1;b==2,c==3", or(and(a, b), c)},
		{"(a==1,b==2);c==3", and(or(a, b), c)},
		{"a==1;(b==2,c==3)", and(a, or(b, c))},
		{"((a==1))", a},
		{"(a==1;b==2);c==3", and(a, b, c)},
		{"a==1,(b==2,c==3)", or(a, b, c)},
		{" a == 1 ; ( b==2 , c==3 ) ", and(a, or(b, c))},
		{"\ta==1\n,\nb==2", or(a, b)},
		{"x!=1", cmp("x", OpNe, v("1"))},
		{"x=gt=1", cmp("x", OpGt, v("1"))},
		{"x=ge=1", cmp("x", OpGe, v("1"))},
		{"x=lt=1", cmp("x", OpLt, v("1"))},
		{"x=le=1", cmp("x", OpLe, v("1"))},
		{"x=bt=1:2", cmp("x", OpBetween, v("1"), v("2"))},
		{"x=nbt=1:2", cmp("x", OpNotBetween, v("1"), v("2"))},
		{"x!bt=1:2", cmp("x", OpNotBetween, v("1"), v("2"))},
		{"x=in=a:b:c", cmp("x", OpIn, v("a"), v("b"), v("c"))},
		{"x=out=a:b", cmp("x", OpNotIn, v("a"), v("b"))},
		{"x!in=a:b", cmp("x", OpNotIn, v("a"), v("b"))},
		{"x=lk=foo", cmp("x", OpLike, v("foo"))},
		{"x!lk=foo", cmp("x", OpNotLike, v("foo"))},
		{"x=lki=Foo", cmp("x", OpILike, v("Foo"))},
		{"x!lki=Foo", cmp("x", OpNotILike, v("Foo"))},
		{"x=IN=a", cmp("x", OpIn, v("a"))},
		{"x==null", cmp("x", OpEq, null)},
		{`x=="null"`, cmp("x", OpEq, v("null"))},
		{"x==NULL", cmp("x", OpEq, null)},
		{"x!=Null", cmp("x", OpNe, null)},
		{`x=="NULL"`, cmp("x", OpEq, v("NULL"))},
		{"x=out=nUlL:a", cmp("x", OpNotIn, null, v("a"))},
		{"x==nulls", cmp("x", OpEq, v("nulls"))},
		{"x==a\x80", cmp("x", OpEq, v("a\x80"))},
		{"x\u3000==a\u00a0;\u2003y==b", and(cmp("x", OpEq, v("a")), cmp("y", OpEq, v("b")))},
		{"x\x80 ==a", cmp("x\x80", OpEq, v("a"))},
		{"x=in=a:null", cmp("x", OpIn, v("a"), null)},
		{`x=="a,b"`, cmp("x", OpEq, v("a,b"))},
		{`x=="a;b"`, cmp("x", OpEq, v("a;b"))},
		{`x=="say \"hi\""`, cmp("x", OpEq, v(`say "hi"`))},
		{`x=="a\\b"`, cmp("x", OpEq, v(`a\b`))},
		{`x=='it\'s'`, cmp("x", OpEq, v("it's"))},
		{`x=='say "hi"'`, cmp("x", OpEq, v(`say "hi"`))},
		{`x==""`, cmp("x", OpEq, v(""))},
		{`x==C:\dir`, cmp("x", OpEq, v(`C:\dir`))},
		{`x==it's`, cmp("x", OpEq, v("it's"))},
		{`x==a=b`, cmp("x", OpEq, v("a=b"))},
		{"Due Date=lt=2024-01-01T00:00:00.000Z", cmp("Due Date", OpLt, v("2024-01-01T00:00:00.000Z"))},
		{`d=bt="2024-01-01T00:00:00.000Z":"2024-02-01T00:00:00.000Z"`,
			cmp("d", OpBetween, v("2024-01-01T00:00:00.000Z"), v("2024-02-01T00:00:00.000Z"))},
		{"Customer Name==John Smith", cmp("Customer Name", OpEq, v("John Smith"))},
		{"  Customer Name  ==  John Smith  ", cmp("Customer Name", OpEq, v("John Smith"))},
		{"x=in= a : b ", cmp("x", OpIn, v("a"), v("b"))},
		{`x=in="a b":'c:d'`, cmp("x", OpIn, v("a b"), v("c:d"))},
		{"x=in=(a, b:c ,d)", cmp("x", OpIn, v("a"), v("b:c"), v("d"))},
		{"x=out=(a)", cmp("x", OpNotIn, v("a"))},
		{`x=bt=("1:0", 2)`, cmp("x", OpBetween, v("1:0"), v("2"))},
		{"x=in=(a,b);y==1", and(cmp("x", OpIn, v("a"), v("b")), cmp("y", OpEq, v("1")))},
		{"x==ünï cødé", cmp("x", OpEq, v("ünï cødé"))},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParsePrecedence(t *testing.T) {
	got, err := Parse("a==1,b==2;c==3")
	require.NoError(t, err)
	o, ok := got.(*OrExpr)
	require.True(t, ok, "top node is %T", got)
	require.Len(t, o.Operands, 2)
	assert.Equal(t, cmp("a", OpEq, v("1")), o.Operands[0])
	an, ok := o.Operands[1].(*AndExpr)
	require.True(t, ok)
	assert.Equal(t, []Expr{cmp("b", OpEq, v("2")), cmp("c", OpEq, v("3"))}, an.Operands)
	assert.Equal(t, "a==1,b==2;c==3", got.String())
}

func TestParseThenPrint(t *testing.T) {
	tests := []struct{ in, want string }{
		{"(a==1,b==2);c==3", "a==1;c==3,b==2;c==3"},
		{"x!bt=1:2", "x=nbt=1:2"},
		{"x!in=a:b", "x=out=a:b"},
		{"x=in=(a,b)", "x=in=a:b"},
		{"x=in=(10:00,11:00)", "x==10:00,x==11:00"},
		{"x=='a b'", `x=="a b"`},
		{"(status==open, status==pending) ; priority=gt=2", "status=in=open:pending;priority=gt=2"},
		{"Customer Name==John Smith", `Customer Name=="John Smith"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.String())
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in       string
		offset   int
		expected string
		found    string
	}{
		{"", 0, "field name", "end of input"},
		{"   ", 3, "field name", "end of input"},
		{"a", 1, "operator", "end of input"},
		{"a b", 3, "operator", "end of input"},
		{"a==", 3, "value", "end of input"},
		{"a==  ", 5, "value", "end of input"},
		{"a=foo=1", 1, "operator", "an unknown operator"},
		{"a=FOO=1", 1, "operator", "an unknown operator"},
		{"a!gt=1", 1, "operator", "an unknown operator"},
		{"a=1", 1, "operator", "'=' without a closing '='"},
		{"a=gt1", 1, "operator", "'=' without a closing '='"},
		{"a;b==1", 1, "operator", "';'"},
		{"x=a=1", 1, "operator", "an unknown operator"},
		{"x=z=1", 1, "operator", "an unknown operator"},
		{"x=A=1", 1, "operator", "an unknown operator"},
		{"x=Z=1", 1, "operator", "an unknown operator"},
		{"x=", 1, "operator", "'=' without a closing '='"},
		{"x!", 1, "operator", "'!' without a closing '='"},
		{"x=!=1", 1, "operator", "'=' without a closing '='"},
		{"x=gt", 1, "operator", "'=' without a closing '='"},
		{"x!LK", 1, "operator", "'!' without a closing '='"},
		{"a==\"1\"\xff", 6, "';', ',' or end of input", "invalid UTF-8"},
		{"a==\"1\"\ufffd", 6, "';', ',' or end of input", "a word"},
		{"==1", 0, "field name", "'='"},
		{"a==1;", 5, "field name", "end of input"},
		{"a==1,,b==2", 5, "field name", "','"},
		{"a==1)", 4, "';', ',' or end of input", "')'"},
		{"(a==1", 5, "';', ',' or ')'", "end of input"},
		{"a==1;(b==2", 10, "';', ',' or ')'", "end of input"},
		{"()", 1, "field name", "')'"},
		{`a=="x`, 5, `closing '"'`, "end of input"},
		{`a=='x\`, 6, `closing '\''`, "end of input"},
		{`a=="1" b`, 7, "';', ',' or end of input", "a word"},
		{"x=bt=1", 6, "':' and a second value", "end of input"},
		{"x=bt=1;y==2", 6, "':' and a second value", "';'"},
		{"x=bt=1:2:3", 8, "only two values", "':'"},
		{"x=bt=(1)", 7, "',' and a second value", "')'"},
		{"x=bt=(1,2,3)", 9, "only two values", "','"},
		{"x=in=a::b", 7, "value", "':'"},
		{"x=in=a:", 7, "value", "end of input"},
		{"x=in=(a;b)", 7, "',' or ')'", "';'"},
		{"x=in=(a", 7, "',' or ')'", "end of input"},
		{"x=in=()", 6, "value", "')'"},
		{"x==(a)", 3, "value", "'('"},
		{"x==a(b)", 4, "';', ',' or end of input", "'('"},
		{"x==1 (", 5, "';', ',' or end of input", "'('"},
		{"x\xff", 2, "operator", "end of input"},
		{"x==1;\x80", 6, "operator", "end of input"},
		{"x==1;\xff", 6, "operator", "end of input"},
		{"\"x\"==1", 0, "field name", "a quoted string"},
		{strings.Repeat("(", 101) + "a==1", 100, "at most 100 nested parentheses", "'('"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			e, err := Parse(tt.in)
			assert.Nil(t, e)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.offset, pe.Offset, "offset")
			assert.Equal(t, tt.expected, pe.Expected, "expected")
			assert.Equal(t, tt.found, pe.FoundKind, "found")
			assert.Equal(t, tt.in, pe.Input)
		})
	}
}

// TestParseErrorMessage: the text says where and what was expected, and
// names the kind of what was found, never the filter's text (its values
// are users' data).
func TestParseErrorMessage(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"status=foo=1", "rsql: at offset 6: expected operator, found an unknown operator"},
		{"Owner=alice.anders@example.com", "rsql: at offset 5: expected operator, found '=' without a closing '='"},
		{"Owner!alice", "rsql: at offset 5: expected operator, found '!' without a closing '='"},
		{`Owner=="alice" anders`, "rsql: at offset 15: expected ';', ',' or end of input, found a word"},
		{`Owner=="alice" "anders"`, "rsql: at offset 15: expected ';', ',' or end of input, found a quoted string"},
		{"Owner==\"alice\"\xff", "rsql: at offset 14: expected ';', ',' or end of input, found invalid UTF-8"},
		{`Owner=="alice`, `rsql: at offset 13: expected closing '"', found end of input`},
		{"Owner=in=(alice;bob)", "rsql: at offset 15: expected ',' or ')', found ';'"},
		{"a==1;\xff", "rsql: at offset 6: expected operator, found end of input"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := Parse(tt.in)
			assert.EqualError(t, err, tt.want)
		})
	}
}

func TestParseDepthCountsNestingNotGroups(t *testing.T) {
	s := strings.Repeat("(a==1);", 150) + "(b==2)"
	e, err := Parse(s)
	require.NoError(t, err)
	assert.Equal(t, "a==1;b==2", e.String())
}

func TestParseDepthLimitAccepts100(t *testing.T) {
	s := strings.Repeat("(", 100) + "a==1" + strings.Repeat(")", 100)
	e, err := Parse(s)
	require.NoError(t, err)
	assert.Equal(t, "a==1", e.String())
}

// TestParseSlabs checks the allocation scheme of the parser: the bounds
// it sizes its slabs from are exact for input without quoted separators
// (nothing is left over), every value of a tree shares one array, and a
// quoted value without escapes is a substring of the input.
func TestParseSlabs(t *testing.T) {
	for _, n := range []int{1, 3, 64, 70, 200} {
		var sb strings.Builder
		for i := range n {
			if i > 0 {
				sb.WriteString([]string{";", ","}[i%2])
			}
			fmt.Fprintf(&sb, "f%d=in=a:b:%d", i, i)
		}
		p := parser{s: sb.String()}
		p.init()
		e, err := p.or()
		require.NoError(t, err)
		assert.Equal(t, 0, p.cmpsLeft, "comparisons bound, n=%d", n)
		assert.Equal(t, 0, p.valsLeft, "values bound, n=%d", n)
		assert.Empty(t, p.cmps, "unused comparisons, n=%d", n)
		if 3*n > maxChunk {
			continue
		}
		assert.Equal(t, len(p.vals), cap(p.vals), "unused values, n=%d", n)
		var first *Value
		i := 0
		Walk(e, func(x Expr) bool {
			if c, ok := x.(*Comparison); ok {
				if first == nil {
					first = &c.Values[0]
				}
				assert.Equal(t, unsafe.Add(unsafe.Pointer(first), 3*i*int(unsafe.Sizeof(Value{}))), unsafe.Pointer(&c.Values[0]), "one array, n=%d", n)
				i++
			}
			return true
		})
		assert.Equal(t, n, i)
	}
	in := `x=="a b";y=='c'`
	e, err := Parse(in)
	require.NoError(t, err)
	start := uintptr(unsafe.Pointer(unsafe.StringData(in)))
	for _, c := range e.(*AndExpr).Operands {
		at := uintptr(unsafe.Pointer(unsafe.StringData(c.(*Comparison).Values[0].Text)))
		assert.True(t, at > start && at < start+uintptr(len(in)), "%v is a substring of the input", c)
	}
}

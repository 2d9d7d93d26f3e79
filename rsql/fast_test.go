package rsql

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkSamePrint checks that render (with its fast path for conjunctions)
// prints e exactly as the general DNF algorithm does, or fails the same.
func checkSamePrint(t *testing.T, e Expr) {
	t.Helper()
	if _, raw := e.(RawExpr); raw {
		return
	}
	got, gotErr := render(e)
	want, wantErr := renderDNF(e)
	require.Equal(t, wantErr, gotErr)
	require.Equal(t, want, got)
}

func TestConjunctionFastPathMatchesDNF(t *testing.T) {
	f := Field
	dup := f("a").Eq(1)
	many := func(n int, field func(i int) string) []Expr {
		es := make([]Expr, n)
		for i := range es {
			es[i] = f(field(i)).Eq(i)
		}
		return es
	}
	byIndex := func(i int) string { return fmt.Sprint("f", i) }
	same := func(int) string { return "x" }
	tests := []Expr{
		dup,
		And(dup, dup),
		And(dup, And(f("b").Eq(2), dup), f("b").Eq(2)),
		And(f("x").Eq(Value{Text: "v", Null: true}), f("x").IsNull()),
		And(f("x").Eq(Value{Text: "null"}), f("x").IsNull()),
		And(f("x").Eq(""), f("x").Eq(Value{Null: true})),
		&Comparison{Field: "x", Op: "!in=", Values: []Value{{Text: "a"}}},
		And(&Comparison{Field: "x", Op: "!in=", Values: []Value{{Text: "a"}}}, f("x").NotIn("a")),
		f("d").Between("1:0", "2:0"),
		And(f("d").Between("1:0", "2:0"), f("d").Ge("1:0"), f("d").Le("2:0")),
		f("d").Between("1:0", "1:0"),
		f("t").NotIn("1:0", "2:0", "1:0"),
		And(f("t").NotIn("1:0", "b"), f("t").Ne("b"), f("t").NotIn("b", "1:0")),
		f("t").NotBetween("1:0", "2:0"),
		f("t").In("1:0"),
		f("t").In("1:0", "1:0"),
		And(f("t").In("1:0", "2:0"), dup),
		f("x").In("a", "a"),
		f("x").In("a b", `c"d\e`, "", "null", Value{Null: true}),
		And(many(256, byIndex)...),
		And(many(257, byIndex)...),
		And(And(many(200, byIndex)...), And(many(100, same)...)),
		And(append(many(256, byIndex), many(10, byIndex)...)...),
		And(append(many(257, byIndex), f("").Eq(1))...),
		And(And(many(200, byIndex)...), And(append(many(100, same), f("").Eq(1))...)),
		And(many(300, same)...),
		And(dup, Or(dup)),
		And(dup, Raw("a==1")),
		And(dup, nil),
		And(dup, (*AndExpr)(nil)),
		And(dup, And()),
		And(dup, f("x").Eq(nil)),
		And(dup, &Comparison{Field: "x", Op: "=zz=", Values: []Value{{Text: "1"}}}),
		And(dup, &Comparison{Field: "x", Op: OpBetween, Values: []Value{{Text: "1"}}}),
		&Comparison{Field: "x", Op: OpEq},
		(*Comparison)(nil),
		f(" x").Eq(1),
	}
	for i, e := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkSamePrint(t, e) })
	}
}

// TestConjunctionFastPathRandom compares the two printers on expressions
// from the fuzzers' generator.
func TestConjunctionFastPathRandom(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 64)
	for range n {
		for i := range data {
			data[i] = byte(r.Uint32())
			if r.IntN(3) == 0 {
				data[i] %= 8 // more ANDs, fewer random strings
			}
		}
		g := &gen{b: data[:r.IntN(len(data)+1)]}
		checkSamePrint(t, g.expr(0))
	}
}

func FuzzConjunctionFastPath(f *testing.F) {
	f.Add([]byte{4, 2, 2, 0, 1, 6, 3, 1, 8, 24, 24})
	f.Add([]byte("\x06\x02\x03\x08\x03\x01\x02\x05\x07\x00\x06\x18\x18"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &gen{b: data}
		checkSamePrint(t, g.expr(0))
	})
}

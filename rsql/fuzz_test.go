package rsql

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gen builds an expression with the public builder from fuzz bytes.
type gen struct {
	b []byte
	i int
}

func (g *gen) next() byte {
	if g.i >= len(g.b) {
		return 0
	}
	c := g.b[g.i]
	g.i++
	return c
}

func (g *gen) str(max int) string {
	n := int(g.next()) % (max + 1)
	end := min(g.i+n, len(g.b))
	s := string(g.b[g.i:end])
	g.i = end
	return s
}

var genFields = []string{"a", "b", "Due Date", "Customer Name", "x:y", "ñame"}

var genValues = []any{
	"open", "", "null", "a:b", "a,b", "a;b", `q"uote`, `back\slash`, " lead", "trail ",
	"two words", "(p)", "it's", "!", "=", "<>", "~", "12:30", 42, -7, uint16(9), 2.5,
	float32(1e-3), true, time.Date(2024, 5, 6, 7, 8, 9, 10_000_000, time.UTC),
	Value{Null: true}, Value{Text: "v"},
}

func (g *gen) value() any {
	k := int(g.next()) % (len(genValues) + 1)
	if k == len(genValues) {
		return g.str(8)
	}
	return genValues[k]
}

func (g *gen) field() FieldRef {
	k := int(g.next()) % (len(genFields) + 1)
	if k == len(genFields) {
		return Field(g.str(6))
	}
	return Field(genFields[k])
}

func (g *gen) values() []any {
	n := int(g.next()) % 4
	vs := make([]any, n)
	for i := range vs {
		vs[i] = g.value()
	}
	return vs
}

func (g *gen) comparison() Expr {
	f := g.field()
	switch g.next() % 16 {
	case 0:
		return f.Eq(g.value())
	case 1:
		return f.Ne(g.value())
	case 2:
		return f.Gt(g.value())
	case 3:
		return f.Ge(g.value())
	case 4:
		return f.Lt(g.value())
	case 5:
		return f.Le(g.value())
	case 6:
		return f.Between(g.value(), g.value())
	case 7:
		return f.NotBetween(g.value(), g.value())
	case 8:
		return f.In(g.values()...)
	case 9:
		return f.NotIn(g.values()...)
	case 10:
		return f.Like(g.value())
	case 11:
		return f.NotLike(g.value())
	case 12:
		return f.ILike(g.value())
	case 13:
		return f.NotILike(g.value())
	case 14:
		return f.IsNull()
	default:
		return f.NotNull()
	}
}

func (g *gen) expr(depth int) Expr {
	k := g.next() % 8
	if depth >= 4 || k < 4 {
		return g.comparison()
	}
	if k == 7 {
		// Raw text made by the printer, inside or outside a group.
		return Raw(g.expr(depth + 1).String())
	}
	ops := make([]Expr, 1+int(g.next())%3)
	for i := range ops {
		ops[i] = g.expr(depth + 1)
	}
	if k%2 == 0 {
		return And(ops...)
	}
	return Or(ops...)
}

// flat is e with groups of one unwrapped and same-kind nesting flattened,
// i.e. e as Parse would return it if printing changed nothing.
func flat(e Expr) Expr {
	switch n := e.(type) {
	case *Comparison:
		c, err := checkComparison(n)
		if err != nil {
			return n
		}
		return c
	case *AndExpr:
		var ops []Expr
		for _, o := range n.Operands {
			o = flat(o)
			if a, ok := o.(*AndExpr); ok {
				ops = append(ops, a.Operands...)
			} else {
				ops = append(ops, o)
			}
		}
		if len(ops) == 1 {
			return ops[0]
		}
		return &AndExpr{Operands: ops}
	case *OrExpr:
		var ops []Expr
		for _, o := range n.Operands {
			o = flat(o)
			if a, ok := o.(*OrExpr); ok {
				ops = append(ops, a.Operands...)
			} else {
				ops = append(ops, o)
			}
		}
		if len(ops) == 1 {
			return ops[0]
		}
		return &OrExpr{Operands: ops}
	case RawExpr:
		p, err := Parse(string(n))
		if err != nil {
			return n
		}
		return flat(p)
	}
	return e
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{4, 2, 2, 0, 1, 6, 3, 1, 8, 24, 24})
	f.Add([]byte{5, 1, 0, 0, 0, 0, 0, 1})
	f.Add([]byte("\x06\x02\x03\x08\x03\x01\x02\x05\x07\x00\x06\x18\x18"))
	f.Add([]byte("\x07\x01\x06\x1b\x04a b:c"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &gen{b: data}
		e := g.expr(0)
		s := e.String()
		if err := e.Validate(); err != nil {
			require.Equal(t, "", s)
			_, merr := e.MarshalText()
			require.Equal(t, err, merr)
			return
		}
		p, err := Parse(s)
		require.NoError(t, err, "printed %q", s)
		require.Equal(t, s, p.String(), "reprint")
		if _, raw := e.(RawExpr); raw {
			return // printed verbatim; checked above
		}
		want, err := normalize(e)
		require.NoError(t, err)
		require.Equal(t, want, p, "tree of %q", s)
		if fl := flat(e); reflect.DeepEqual(fl, want) {
			// Nothing was rewritten: the parse gives back the built tree.
			require.Equal(t, fl, p)
		}
	})
}

// foundKinds are every ParseError.FoundKind: the text of an error names
// one of these, never a piece of the filter.
var foundKinds = []string{"end of input", "a word", "a quoted string", "invalid UTF-8", "null",
	"an unknown operator", "'=' without a closing '='", "'!' without a closing '='",
	"';'", "','", "'('", "')'", "':'", "'='", "'!'"}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a==1", "a==1,b==2;c==3", "(a==1,b==2);c==3", "x=in=(a,b)", `x=="a\"b"`,
		"x=='it\\'s'", "Due Date=lt=2024-01-01T00:00:00.000Z", "x!bt=1:2", "x=bt=1:2:3",
		"x==null", "x=in=a:null", " ( a == 1 ) ", "x=foo=1", "", "((", "x==\"",
		"x==1,x==2", "x=in=10:00", "x=in=(10:00, b)", "a==1;(b==2,c==3;(d==4,e==5))",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			require.GreaterOrEqual(t, pe.Offset, 0)
			require.LessOrEqual(t, pe.Offset, len(s))
			require.Contains(t, foundKinds, pe.FoundKind, "a kind, never the filter's text")
			if pe.Rule == nil {
				require.Equal(t, fmt.Sprintf("rsql: at offset %d: expected %s, found %s", pe.Offset, pe.Expected, pe.FoundKind), pe.Error())
			}
			return
		}
		assert.NoError(t, Raw(s).Validate())
		out := e.String()
		if verr := e.Validate(); verr != nil {
			require.ErrorIs(t, verr, errTooLarge, "a parsed filter can only fail the size bound")
			return
		}
		e2, err := Parse(out)
		require.NoError(t, err, "reparse of %q", out)
		require.Equal(t, out, e2.String(), "reprint")
		want, err := normalize(e)
		require.NoError(t, err)
		require.Equal(t, want, e2)
		// Printing is idempotent on its own output.
		n2, err := normalize(e2)
		require.NoError(t, err)
		require.Equal(t, e2, n2)
	})
}

// normalize returns the tree that Parse produces from e's printed form.
func normalize(e Expr) (Expr, error) {
	d, err := toDNF(e)
	if err != nil {
		return nil, err
	}
	ors := make([]Expr, len(d))
	for i, c := range d {
		if len(c) == 1 {
			ors[i] = c[0]
			continue
		}
		ands := make([]Expr, len(c))
		for j, x := range c {
			ands[j] = x
		}
		ors[i] = &AndExpr{Operands: ands}
	}
	if len(ors) == 1 {
		return ors[0], nil
	}
	return &OrExpr{Operands: ors}, nil
}

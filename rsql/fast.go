package rsql

import "strings"

// The fast path of the printer. An expression made only of comparisons
// and ANDs (no OR, no raw text, and no comparison whose ':' rewrite is a
// disjunction) is a single conjunction in disjunctive normal form: the
// general algorithm (toDNF, then format) prints its comparisons in order,
// without exact duplicates. printConjunction produces the same text
// straight into one buffer, without copying comparisons or building keys.
// For anything else, and for every error, it reports false and render
// runs the general algorithm, which produces the same text or the error
// the general algorithm finds first.

// term is one comparison of a conjunction: a valid comparison with its
// canonical operator, or one produced by a ':' rewrite. vals aliases the
// caller's values; a null value's Text is ignored.
type term struct {
	field string
	op    Operator
	vals  []Value
}

// smallTerms is the size of the term buffer that stays on the stack.
const smallTerms = 32

// printConjunction returns the filter text of e if e is a valid
// conjunction of comparisons (see above) of at most maxComparisons terms.
func printConjunction(e Expr) (string, bool) {
	var buf [smallTerms]term
	ts, ok := appendTerms(buf[:0], e)
	if !ok || len(ts) == 0 {
		return "", false
	}
	size := 0
	for _, t := range ts {
		size += len(t.field) + len(t.op) + 1
		for _, v := range t.vals {
			size += len(v.Text) + 3
		}
	}
	var b strings.Builder
	b.Grow(size)
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(t.field)
		b.WriteString(string(t.op))
		for j, v := range t.vals {
			if j > 0 {
				b.WriteByte(':')
			}
			writeValue(&b, v)
		}
	}
	return b.String(), true
}

// appendTerms appends the terms of e that are not already in ts and
// reports whether e is a valid conjunction of comparisons.
func appendTerms(ts []term, e Expr) ([]term, bool) {
	switch n := e.(type) {
	case *Comparison:
		if n == nil {
			return ts, false
		}
		return appendComparison(ts, n)
	case *AndExpr:
		if n == nil || len(n.Operands) == 0 {
			return ts, false
		}
		for _, o := range n.Operands {
			var ok bool
			if ts, ok = appendTerms(ts, o); !ok {
				return ts, false
			}
		}
		return ts, true
	}
	return ts, false // nil, OR, raw text or another implementation
}

// appendComparison appends the terms of c: c itself, or the ones of its
// ':' rewrite if that is a conjunction.
func appendComparison(ts []term, c *Comparison) ([]term, bool) {
	if c.err != nil || checkField(c.Field) != nil {
		return ts, false
	}
	op, ok := c.Op.canonical()
	if !ok {
		return ts, false
	}
	n := len(c.Values)
	switch {
	case op.isRange() && n != 2, op.isList() && n == 0, !op.isMulti() && n != 1:
		return ts, false
	}
	if !op.isMulti() || !valuesHaveColon(c.Values) {
		return addTerm(ts, term{c.Field, op, c.Values})
	}
	switch op {
	case OpBetween: // x=ge=lo;x=le=hi
		if ts, ok = addTerm(ts, term{c.Field, OpGe, c.Values[0:1]}); !ok {
			return ts, false
		}
		return addTerm(ts, term{c.Field, OpLe, c.Values[1:2]})
	case OpNotIn: // x!=a;x!=b...
		for i := range c.Values {
			if ts, ok = addTerm(ts, term{c.Field, OpNe, c.Values[i : i+1]}); !ok {
				return ts, false
			}
		}
		return ts, true
	}
	return ts, false // =nbt= and =in= become disjunctions
}

func valuesHaveColon(vs []Value) bool {
	for _, v := range vs {
		if hasColon(v) {
			return true
		}
	}
	return false
}

// addTerm appends t unless an equal term is already in ts, and reports
// false once there would be more than maxComparisons terms.
func addTerm(ts []term, t term) ([]term, bool) {
	for i := range ts {
		if sameTerm(&ts[i], &t) {
			return ts, true
		}
	}
	if len(ts) == maxComparisons {
		return ts, false
	}
	return append(ts, t), true
}

// sameTerm reports whether a and b print the same (what cmpKey compares).
func sameTerm(a, b *term) bool {
	if a.field != b.field || a.op != b.op || len(a.vals) != len(b.vals) {
		return false
	}
	for i := range a.vals {
		if !sameValue(a.vals[i], b.vals[i]) {
			return false
		}
	}
	return true
}

func sameValue(a, b Value) bool {
	if a.Null || b.Null {
		return a.Null == b.Null
	}
	return a.Text == b.Text
}

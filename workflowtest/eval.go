package workflowtest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// matcher reports whether an item, given as its field map, passes a
// filter.
type matcher func(fields map[string]string) bool

// compile turns a parsed filter into a matcher. It refuses the
// comparisons that rsql.CheckComparison refuses, the rules of the filter
// language written once in package rsql (Parse applies them already).
//
// Evaluation rules:
//   - A field that the item does not have is absent; a field with the
//     empty string as value is empty. The literal null matches both.
//   - Two values are compared as numbers when both are decimal numbers
//     (sign, digits, optional fraction and exponent), as times when both
//     are in the API's form (rsql.TimeLayout), and as strings otherwise
//     (byte-wise).
//   - ==, =gt=, =ge=, =lt=, =le=, =bt=, =lk= and =lki= never match an
//     absent or empty field (unless the value is null, for ==); !=, =nbt=,
//     =out=, !lk= and !lki= are their exact negations, so they do match
//     absent and empty fields.
//   - =bt= is inclusive at both ends; =lk= is "contains" (no wildcards),
//     =lki= the same after lower-casing both sides.
func compile(e rsql.Expr) (matcher, error) {
	switch n := e.(type) {
	case *rsql.Comparison:
		return compileComparison(n)
	case *rsql.AndExpr:
		ms, err := compileAll(n.Operands)
		if err != nil {
			return nil, err
		}
		return func(f map[string]string) bool {
			for _, m := range ms {
				if !m(f) {
					return false
				}
			}
			return true
		}, nil
	case *rsql.OrExpr:
		ms, err := compileAll(n.Operands)
		if err != nil {
			return nil, err
		}
		return func(f map[string]string) bool {
			for _, m := range ms {
				if m(f) {
					return true
				}
			}
			return false
		}, nil
	case rsql.RawExpr:
		parsed, err := rsql.Parse(string(n))
		if err != nil {
			return nil, err
		}
		return compile(parsed)
	}
	return nil, fmt.Errorf("unsupported filter node %T", e)
}

func compileAll(es []rsql.Expr) ([]matcher, error) {
	ms := make([]matcher, len(es))
	for i, e := range es {
		m, err := compile(e)
		if err != nil {
			return nil, err
		}
		ms[i] = m
	}
	return ms, nil
}

// operand is a filter value with its number form precomputed.
type operand struct {
	null  bool
	text  string
	lower string
	isNum bool
	num   float64
}

func newOperand(v rsql.Value) operand {
	if v.Null {
		return operand{null: true}
	}
	o := operand{text: v.Text, lower: strings.ToLower(v.Text)}
	o.num, o.isNum = parseNumber(v.Text)
	return o
}

// compare orders a field value against an operand (numbers, then times,
// then strings).
func (o *operand) compare(v string) int {
	if o.isNum {
		if f, ok := parseNumber(v); ok {
			switch {
			case f < o.num:
				return -1
			case f > o.num:
				return 1
			}
			return 0
		}
	}
	// Two times in the API's form (fixed width, UTC, zero-padded) are in
	// chronological order exactly when they are in byte order, so the
	// time comparison needs no parsing: when v is a time too, the string
	// comparison below is the time comparison.
	return strings.Compare(v, o.text)
}

// equal reports whether a field (v, present) equals the operand: the
// same text, byte for byte. "007" does not equal 7, nor "1.0" 1: the
// specification gives == no numeric meaning, and a test that passed on
// the fake by a numeric equality could fail on the service.
func (o *operand) equal(v string, present bool) bool {
	if o.null {
		return !present || v == ""
	}
	return present && v == o.text
}

func compileComparison(c *rsql.Comparison) (matcher, error) {
	field := c.Field
	ops := make([]operand, len(c.Values))
	for i, v := range c.Values {
		ops[i] = newOperand(v)
	}
	if err := rsql.CheckComparison(c); err != nil {
		return nil, err
	}
	has := func(f map[string]string) (string, bool) {
		v, ok := f[field]
		return v, ok && v != ""
	}
	neg := func(m matcher) matcher { return func(f map[string]string) bool { return !m(f) } }
	o := &ops[0]

	switch c.Op {
	case rsql.OpEq:
		return func(f map[string]string) bool { v, ok := f[field]; return o.equal(v, ok) }, nil
	case rsql.OpNe:
		return func(f map[string]string) bool { v, ok := f[field]; return !o.equal(v, ok) }, nil
	case rsql.OpIn, rsql.OpNotIn:
		in := func(f map[string]string) bool {
			v, ok := f[field]
			for i := range ops {
				if ops[i].equal(v, ok) {
					return true
				}
			}
			return false
		}
		if c.Op == rsql.OpNotIn {
			return neg(in), nil
		}
		return in, nil
	case rsql.OpGt, rsql.OpGe, rsql.OpLt, rsql.OpLe:
		test := map[rsql.Operator]func(int) bool{
			rsql.OpGt: func(c int) bool { return c > 0 },
			rsql.OpGe: func(c int) bool { return c >= 0 },
			rsql.OpLt: func(c int) bool { return c < 0 },
			rsql.OpLe: func(c int) bool { return c <= 0 },
		}[c.Op]
		return func(f map[string]string) bool {
			v, ok := has(f)
			return ok && test(o.compare(v))
		}, nil
	case rsql.OpBetween, rsql.OpNotBetween:
		lo, hi := &ops[0], &ops[1]
		bt := func(f map[string]string) bool {
			v, ok := has(f)
			return ok && lo.compare(v) >= 0 && hi.compare(v) <= 0
		}
		if c.Op == rsql.OpNotBetween {
			return neg(bt), nil
		}
		return bt, nil
	case rsql.OpLike, rsql.OpNotLike:
		lk := func(f map[string]string) bool {
			v, ok := has(f)
			return ok && strings.Contains(v, o.text)
		}
		if c.Op == rsql.OpNotLike {
			return neg(lk), nil
		}
		return lk, nil
	case rsql.OpILike, rsql.OpNotILike:
		lki := func(f map[string]string) bool {
			v, ok := has(f)
			return ok && strings.Contains(strings.ToLower(v), o.lower)
		}
		if c.Op == rsql.OpNotILike {
			return neg(lki), nil
		}
		return lki, nil
	}
	return nil, fmt.Errorf("unknown operator %q", c.Op)
}

// parseNumber accepts decimal numbers only: an optional sign, digits with
// an optional fraction, and an optional exponent (no hex, no Inf or NaN,
// no underscores).
func parseNumber(s string) (float64, bool) {
	i, n := 0, len(s)
	if i < n && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < n && isDigit(s[i]) {
		i++
		digits++
	}
	if i < n && s[i] == '.' {
		i++
		for i < n && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < n && isDigit(s[i]) {
			i++
			exp++
		}
		if exp == 0 {
			return 0, false
		}
	}
	if i != n {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// canonical prints a parsed filter unambiguously, so that two spellings
// of the same tree (whitespace, operator aliases, quoting) give the same
// cursors.
func canonical(e rsql.Expr) string {
	if e == nil {
		return ""
	}
	var b strings.Builder
	writeCanonical(&b, e)
	return b.String()
}

func writeCanonical(b *strings.Builder, e rsql.Expr) {
	switch n := e.(type) {
	case *rsql.Comparison:
		b.WriteString(strconv.Quote(n.Field))
		b.WriteString(string(n.Op))
		for i, v := range n.Values {
			if i > 0 {
				b.WriteByte(':')
			}
			if v.Null {
				b.WriteString("null")
			} else {
				b.WriteString(strconv.Quote(v.Text))
			}
		}
	case *rsql.AndExpr:
		writeGroup(b, "and(", n.Operands)
	case *rsql.OrExpr:
		writeGroup(b, "or(", n.Operands)
	default:
		b.WriteString(strconv.Quote(e.String()))
	}
}

func writeGroup(b *strings.Builder, open string, ops []rsql.Expr) {
	b.WriteString(open)
	for i, o := range ops {
		if i > 0 {
			b.WriteByte(',')
		}
		writeCanonical(b, o)
	}
	b.WriteByte(')')
}

package workflowtest

import (
	"cmp"
	"fmt"
	"io"
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
	if c, ok := e.(*rsql.Comparison); ok {
		return compileComparison(c)
	}
	es, all, ok := operands(e)
	if !ok {
		return nil, fmt.Errorf("unsupported filter node %T", e)
	}
	ms := make([]matcher, len(es))
	for i, e := range es {
		m, err := compile(e)
		if err != nil {
			return nil, err
		}
		ms[i] = m
	}
	// An AND is decided by its first operand that fails, an OR by its
	// first that passes.
	return func(f map[string]string) bool {
		for _, m := range ms {
			if m(f) != all {
				return !all
			}
		}
		return all
	}, nil
}

// operands returns the operands of an AND (all is true) or an OR node of
// a parsed filter; ok is false for any other node.
func operands(e rsql.Expr) (es []rsql.Expr, all, ok bool) {
	switch n := e.(type) {
	case *rsql.AndExpr:
		return n.Operands, true, true
	case *rsql.OrExpr:
		return n.Operands, false, true
	}
	return nil, false, false
}

// operand is a filter value with its number form precomputed.
type operand struct {
	null  bool
	text  string
	lower string
	isNum bool
	num   float64
}

// compare orders a field value against an operand (numbers, then times,
// then strings): -1, 0 or +1.
func (o *operand) compare(v string) int {
	if o.isNum {
		if f, ok := parseNumber(v); ok {
			return cmp.Compare(f, o.num)
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

// negations maps each negating operator to the operator it negates.
var negations = map[rsql.Operator]rsql.Operator{
	rsql.OpNe: rsql.OpEq, rsql.OpNotIn: rsql.OpIn, rsql.OpNotBetween: rsql.OpBetween,
	rsql.OpNotLike: rsql.OpLike, rsql.OpNotILike: rsql.OpILike,
}

// orderings are the ordering operators, each with the range of the
// results of operand.compare that it accepts.
var orderings = map[rsql.Operator][2]int{
	rsql.OpGt: {1, 1}, rsql.OpGe: {0, 1}, rsql.OpLt: {-1, -1}, rsql.OpLe: {-1, 0},
}

func compileComparison(c *rsql.Comparison) (matcher, error) {
	if err := rsql.CheckComparison(c); err != nil {
		return nil, err
	}
	ops := make([]operand, len(c.Values))
	for i, v := range c.Values {
		ops[i] = operand{null: v.Null}
		if !v.Null {
			ops[i].text, ops[i].lower = v.Text, strings.ToLower(v.Text)
			ops[i].num, ops[i].isNum = parseNumber(v.Text)
		}
	}
	op, negated := negations[c.Op]
	if !negated {
		op = c.Op
	}
	field, o := c.Field, &ops[0]
	if op == rsql.OpEq || op == rsql.OpIn { // == has one operand
		return func(f map[string]string) bool {
			v, present := f[field]
			for i := range ops {
				if ops[i].equal(v, present) {
					return !negated
				}
			}
			return negated
		}, nil
	}
	// The other operators test only fields with a value.
	var valued func(v string) bool
	switch op {
	case rsql.OpGt, rsql.OpGe, rsql.OpLt, rsql.OpLe:
		r := orderings[op]
		valued = func(v string) bool { c := o.compare(v); return r[0] <= c && c <= r[1] }
	case rsql.OpBetween:
		valued = func(v string) bool { return ops[0].compare(v) >= 0 && ops[1].compare(v) <= 0 }
	case rsql.OpLike:
		valued = func(v string) bool { return strings.Contains(v, o.text) }
	case rsql.OpILike:
		valued = func(v string) bool { return strings.Contains(strings.ToLower(v), o.lower) }
	default:
		return nil, fmt.Errorf("unknown operator %q", c.Op)
	}
	return func(f map[string]string) bool {
		v := f[field]
		return (v != "" && valued(v)) != negated
	}, nil
}

// parseNumber accepts decimal numbers only: an optional sign, digits with
// an optional fraction, and an optional exponent (no hex, no Inf or NaN,
// no underscores, which strconv.ParseFloat reads too). The text is
// scanned first: ParseFloat fails slowly on text (its error is allocated).
func parseNumber(s string) (float64, bool) {
	i := skipDigits(s, skipSign(s, 0))
	n := i - skipSign(s, 0)
	if i < len(s) && s[i] == '.' {
		j := skipDigits(s, i+1)
		n, i = n+j-i-1, j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := skipSign(s, i+1)
		if i = skipDigits(s, j); i == j {
			return 0, false
		}
	}
	if n == 0 || i != len(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// skipSign returns the index after a sign at i, if there is one.
func skipSign(s string, i int) int {
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		return i + 1
	}
	return i
}

// skipDigits returns the index after the digits from i.
func skipDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// writeCanonical writes a parsed filter (nil: none) unambiguously, so
// that two spellings of the same tree (whitespace, operator aliases,
// quoting) give the same cursors and the same index of matches.
func writeCanonical(w io.Writer, e rsql.Expr) {
	if c, ok := e.(*rsql.Comparison); ok {
		fmt.Fprintf(w, "%q%s", c.Field, c.Op)
		for _, v := range c.Values {
			if v.Null {
				fmt.Fprint(w, ":null")
			} else {
				fmt.Fprintf(w, ":%q", v.Text)
			}
		}
		return
	}
	if es, all, ok := operands(e); ok {
		fmt.Fprintf(w, "%t(", all)
		for _, o := range es {
			writeCanonical(w, o)
			fmt.Fprint(w, ",")
		}
		fmt.Fprint(w, ")")
	}
}

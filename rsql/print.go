package rsql

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxComparisons bounds the size of any node in disjunctive normal form.
const maxComparisons = 256

var errTooLarge = fmt.Errorf("rsql: filter expands to more than %d comparisons once ORs under ANDs are distributed (the API has no parentheses); simplify it", maxComparisons)

// reservedFieldChars may not appear in field names.
const reservedFieldChars = "=!;,()\"'"

// quoteChars force a value to be quoted.
const quoteChars = ";,\"'()!=<>~"

// clause is a conjunction of comparisons; a []clause is a disjunction of
// clauses (disjunctive normal form).
type clause []*Comparison

// render validates e and returns its filter text.
func render(e Expr) (string, error) {
	switch r := e.(type) {
	case RawExpr:
		return renderRaw(string(r))
	case *RawExpr:
		if r == nil {
			return "", errors.New("rsql: nil expression")
		}
		return renderRaw(string(*r))
	}
	d, err := toDNF(e)
	if err != nil {
		return "", err
	}
	return format(d), nil
}

func renderRaw(s string) (string, error) {
	if _, err := Parse(s); err != nil {
		return "", err
	}
	return s, nil
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

// toDNF validates e and converts it to simplified disjunctive normal form.
func toDNF(e Expr) ([]clause, error) {
	switch n := e.(type) {
	case nil:
		return nil, errors.New("rsql: nil expression")
	case *Comparison:
		if n == nil {
			return nil, errors.New("rsql: nil *Comparison")
		}
		c, err := checkComparison(n)
		if err != nil {
			return nil, err
		}
		return expand(c)
	case *AndExpr:
		if n == nil {
			return nil, errors.New("rsql: nil *AndExpr")
		}
		if len(n.Operands) == 0 {
			return nil, errors.New("rsql: And with no operands")
		}
		acc := []clause{{}}
		for i, o := range n.Operands {
			if o == nil {
				return nil, fmt.Errorf("rsql: And operand %d is nil", i+1)
			}
			d, err := toDNF(o)
			if err != nil {
				return nil, err
			}
			if acc, err = product(acc, d); err != nil {
				return nil, err
			}
		}
		return disjunction(acc)
	case *OrExpr:
		if n == nil {
			return nil, errors.New("rsql: nil *OrExpr")
		}
		if len(n.Operands) == 0 {
			return nil, errors.New("rsql: Or with no operands")
		}
		var all []clause
		for i, o := range n.Operands {
			if o == nil {
				return nil, fmt.Errorf("rsql: Or operand %d is nil", i+1)
			}
			d, err := toDNF(o)
			if err != nil {
				return nil, err
			}
			all = append(all, d...)
		}
		return disjunction(all)
	case RawExpr:
		return rawDNF(string(n))
	case *RawExpr:
		if n == nil {
			return nil, errors.New("rsql: nil *RawExpr")
		}
		return rawDNF(string(*n))
	default:
		// Another implementation of Expr: use its text.
		if err := e.Validate(); err != nil {
			return nil, err
		}
		return rawDNF(e.String())
	}
}

func rawDNF(s string) ([]clause, error) {
	p, err := Parse(s)
	if err != nil {
		return nil, err
	}
	return toDNF(p)
}

// checkComparison validates c and returns a copy with the canonical
// operator and null values normalised.
func checkComparison(c *Comparison) (*Comparison, error) {
	if c.err != nil {
		return nil, c.err
	}
	if err := checkField(c.Field); err != nil {
		return nil, err
	}
	op, ok := c.Op.canonical()
	if !ok {
		return nil, fmt.Errorf("rsql: field %q: unknown operator %q", c.Field, string(c.Op))
	}
	n := len(c.Values)
	switch {
	case op.isRange() && n != 2:
		return nil, fmt.Errorf("rsql: field %q: %s needs exactly two values (low and high), got %d", c.Field, op, n)
	case op.isList() && n == 0:
		return nil, fmt.Errorf("rsql: field %q: %s needs at least one value", c.Field, op)
	case !op.isMulti() && n != 1:
		return nil, fmt.Errorf("rsql: field %q: %s needs exactly one value, got %d", c.Field, op, n)
	}
	vals := make([]Value, n)
	for i, v := range c.Values {
		if v.Null {
			vals[i] = Value{Null: true}
		} else {
			vals[i] = Value{Text: v.Text}
		}
	}
	return &Comparison{Field: c.Field, Op: op, Values: vals}, nil
}

func checkField(name string) error {
	if name == "" {
		return errors.New("rsql: empty field name")
	}
	first, _ := utf8.DecodeRuneInString(name)
	last, _ := utf8.DecodeLastRuneInString(name)
	if unicode.IsSpace(first) || unicode.IsSpace(last) {
		return fmt.Errorf("rsql: field name %q must not start or end with whitespace", name)
	}
	if i := strings.IndexAny(name, reservedFieldChars); i >= 0 {
		return fmt.Errorf("rsql: field name %q must not contain %q (reserved by the filter syntax)", name, name[i:i+1])
	}
	return nil
}

// expand applies the ':' rewrites to a valid comparison.
func expand(c *Comparison) ([]clause, error) {
	if !c.Op.isMulti() || !slices.ContainsFunc(c.Values, hasColon) {
		return []clause{{c}}, nil
	}
	one := func(op Operator, v Value) *Comparison {
		return &Comparison{Field: c.Field, Op: op, Values: []Value{v}}
	}
	switch c.Op {
	case OpBetween:
		return []clause{{one(OpGe, c.Values[0]), one(OpLe, c.Values[1])}}, nil
	case OpNotBetween:
		return disjunction([]clause{{one(OpLt, c.Values[0])}, {one(OpGt, c.Values[1])}})
	case OpIn:
		cs := make([]clause, len(c.Values))
		for i, v := range c.Values {
			cs[i] = clause{one(OpEq, v)}
		}
		return disjunction(cs)
	default: // OpNotIn
		cl := make(clause, len(c.Values))
		for i, v := range c.Values {
			cl[i] = one(OpNe, v)
		}
		return []clause{dedupeClause(cl)}, nil
	}
}

func hasColon(v Value) bool { return !v.Null && strings.Contains(v.Text, ":") }

// product distributes AND over two disjunctions.
func product(a, b []clause) ([]clause, error) {
	var out []clause
	seen := map[string]bool{}
	count := 0
	for _, x := range a {
		for _, y := range b {
			c := dedupeClause(append(append(clause{}, x...), y...))
			k := clauseKey(c)
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, c)
			if count += len(c); count > maxComparisons {
				return nil, errTooLarge
			}
		}
	}
	return out, nil
}

// disjunction drops duplicate clauses, merges same-field == / =in=
// alternatives into one =in= and checks the size bound.
func disjunction(cs []clause) ([]clause, error) {
	seen := map[string]bool{}
	uniq := cs[:0:0]
	for _, c := range cs {
		k := clauseKey(c)
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, c)
		}
	}
	out := mergeIn(uniq)
	count := 0
	for _, c := range out {
		count += len(c)
	}
	if count > maxComparisons {
		return nil, errTooLarge
	}
	return out, nil
}

// mergeable reports the field of a clause that is a single == or =in=
// comparison without null values or values containing ':'.
func mergeable(c clause) (string, bool) {
	if len(c) != 1 || (c[0].Op != OpEq && c[0].Op != OpIn) {
		return "", false
	}
	for _, v := range c[0].Values {
		if v.Null || strings.Contains(v.Text, ":") {
			return "", false
		}
	}
	return c[0].Field, true
}

func mergeIn(cs []clause) []clause {
	n := map[string]int{}
	for _, c := range cs {
		if f, ok := mergeable(c); ok {
			n[f]++
		}
	}
	merged := map[string]*Comparison{}
	seenVal := map[string]map[string]bool{}
	out := make([]clause, 0, len(cs))
	for _, c := range cs {
		f, ok := mergeable(c)
		if !ok || n[f] < 2 {
			out = append(out, c)
			continue
		}
		m := merged[f]
		if m == nil {
			m = &Comparison{Field: f, Op: OpIn}
			merged[f] = m
			seenVal[f] = map[string]bool{}
			out = append(out, clause{m})
		}
		for _, v := range c[0].Values {
			if !seenVal[f][v.Text] {
				seenVal[f][v.Text] = true
				m.Values = append(m.Values, v)
			}
		}
	}
	return out
}

func dedupeClause(c clause) clause {
	seen := map[string]bool{}
	out := c[:0]
	for _, x := range c {
		k := cmpKey(x)
		if !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

func cmpKey(c *Comparison) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(c.Field)))
	b.WriteByte(':')
	b.WriteString(c.Field)
	b.WriteString(string(c.Op))
	for _, v := range c.Values {
		if v.Null {
			b.WriteString("N")
			continue
		}
		b.WriteString(strconv.Itoa(len(v.Text)))
		b.WriteByte(':')
		b.WriteString(v.Text)
	}
	return b.String()
}

// clauseKey identifies a clause regardless of the order of its comparisons.
func clauseKey(c clause) string {
	keys := make([]string, len(c))
	for i, x := range c {
		keys[i] = cmpKey(x)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(strconv.Itoa(len(k)))
		b.WriteByte('|')
		b.WriteString(k)
	}
	return b.String()
}

func format(d []clause) string {
	var b strings.Builder
	for i, c := range d {
		if i > 0 {
			b.WriteByte(',')
		}
		for j, x := range c {
			if j > 0 {
				b.WriteByte(';')
			}
			b.WriteString(x.Field)
			b.WriteString(string(x.Op))
			for k, v := range x.Values {
				if k > 0 {
					b.WriteByte(':')
				}
				b.WriteString(formatValue(v))
			}
		}
	}
	return b.String()
}

func formatValue(v Value) string {
	if v.Null {
		return "null"
	}
	if !needsQuote(v.Text) {
		return v.Text
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(v.Text); i++ {
		if c := v.Text[i]; c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(v.Text[i])
	}
	b.WriteByte('"')
	return b.String()
}

func needsQuote(s string) bool {
	if s == "" || s == "null" {
		return true
	}
	for _, r := range s {
		if unicode.IsSpace(r) || strings.ContainsRune(quoteChars, r) {
			return true
		}
	}
	return false
}

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
	if r, ok := e.(RawExpr); ok { // a *RawExpr calls its value's methods
		return renderRaw(string(r))
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

// toDNF validates e, which is not nil (And and Or check their operands),
// and converts it to simplified disjunctive normal form.
func toDNF(e Expr) ([]clause, error) {
	switch n := e.(type) {
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
	if err := CheckComparison(c); err != nil {
		return nil, err
	}
	op, _ := c.Op.canonical()
	vals := make([]Value, len(c.Values))
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
	if startsWithSpace(name) || len(trimRightSpace(name)) != len(name) {
		return fmt.Errorf("rsql: field name %q must not start or end with whitespace", name)
	}
	for i := range len(name) {
		if fieldStop[name[i]] { // the reserved characters are ASCII
			return fmt.Errorf("rsql: field name %q must not contain %q (reserved by the filter syntax)", name, name[i:i+1])
		}
	}
	return nil
}

// startsWithSpace reports whether s, which is not empty, starts with a
// rune unicode.IsSpace accepts.
func startsWithSpace(s string) bool {
	if c := s[0]; c < utf8.RuneSelf {
		return asciiSpace[c]
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
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
	var out clauseSet
	count := 0
	for _, x := range a {
		for _, y := range b {
			c := make(clause, 0, len(x)+len(y))
			c = dedupeClause(append(append(c, x...), y...))
			if !out.add(c) {
				continue
			}
			if count += len(c); count > maxComparisons {
				return nil, errTooLarge
			}
		}
	}
	return out.list, nil
}

// disjunction drops duplicate clauses, merges same-field == / =in=
// alternatives into one =in= and checks the size bound.
func disjunction(cs []clause) ([]clause, error) {
	uniq := clauseSet{list: make([]clause, 0, len(cs))}
	for _, c := range cs {
		uniq.add(c)
	}
	out := mergeIn(uniq.list)
	count := 0
	for _, c := range out {
		count += len(c)
	}
	if count > maxComparisons {
		return nil, errTooLarge
	}
	return out, nil
}

// smallSet is the size up to which sets of clauses or comparisons are
// searched one by one rather than through a map of their keys.
const smallSet = 16

// clauseSet is a list of distinct clauses, in the order they were added.
// Two clauses are the same if they have the same comparisons in any order
// (clauseKey). Every clause is free of duplicate comparisons (expand,
// product and mergeIn only make such clauses), so that is set equality.
type clauseSet struct {
	list []clause
	keys map[string]bool // the clauseKey of each clause, once there are many
}

// add adds c unless the set holds it already, and reports whether it did.
func (s *clauseSet) add(c clause) bool {
	if s.keys == nil && len(s.list) < smallSet {
		for _, x := range s.list {
			if sameClause(x, c) {
				return false
			}
		}
		s.list = append(s.list, c)
		return true
	}
	if s.keys == nil {
		s.keys = make(map[string]bool, 2*len(s.list))
		for _, x := range s.list {
			s.keys[clauseKey(x)] = true
		}
	}
	k := clauseKey(c)
	if s.keys[k] {
		return false
	}
	s.keys[k] = true
	s.list = append(s.list, c)
	return true
}

// sameClause reports whether the clauses a and b, each without duplicate
// comparisons, hold the same comparisons.
func sameClause(a, b clause) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y *Comparison) bool { return sameComparison(x, y) }) {
			return false
		}
	}
	return true
}

// sameComparison reports whether a and b have the same cmpKey: the same
// field, operator and values (null values being equal whatever their Text).
func sameComparison(a, b *Comparison) bool {
	if a.Field != b.Field || a.Op != b.Op || len(a.Values) != len(b.Values) {
		return false
	}
	for i := range a.Values {
		if !sameValue(a.Values[i], b.Values[i]) {
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

// anyMerge reports whether two mergeable clauses of cs have the same field.
func anyMerge(cs []clause) bool {
	if len(cs) > 4*smallSet {
		return true // let mergeIn find out
	}
	var fields [4 * smallSet]string
	n := 0
	for _, c := range cs {
		if f, ok := mergeable(c); ok {
			if slices.Contains(fields[:n], f) {
				return true
			}
			fields[n] = f
			n++
		}
	}
	return false
}

func mergeIn(cs []clause) []clause {
	if !anyMerge(cs) {
		return cs
	}
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

// dedupeClause drops the repeated comparisons of c, in place.
func dedupeClause(c clause) clause {
	out := c[:0]
	if len(c) <= smallSet {
		for _, x := range c {
			if !slices.ContainsFunc(out, func(y *Comparison) bool { return sameComparison(x, y) }) {
				out = append(out, x)
			}
		}
		return out
	}
	seen := make(map[string]bool, len(c))
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
	size := 0
	for _, c := range d {
		for _, x := range c {
			size += len(x.Field) + len(x.Op) + 1
			for _, v := range x.Values {
				size += len(v.Text) + 3
			}
		}
	}
	var b strings.Builder
	b.Grow(size)
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
				writeValue(&b, v)
			}
		}
	}
	return b.String()
}

// writeValue writes v as it appears in a filter: null, the text, or the
// text in double quotes with " and \ escaped.
func writeValue(b *strings.Builder, v Value) {
	if v.Null {
		b.WriteString("null")
		return
	}
	if !needsQuote(v.Text) {
		b.WriteString(v.Text)
		return
	}
	b.WriteByte('"')
	s := v.Text
	for {
		i := strings.IndexAny(s, `"\`)
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteByte('\\')
		b.WriteByte(s[i])
		s = s[i+1:]
	}
	b.WriteString(s)
	b.WriteByte('"')
}

// quoteByte[c] is set for the ASCII bytes that force a value to be quoted:
// whitespace and quoteChars.
var quoteByte = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = unicode.IsSpace(rune(c)) || strings.ContainsRune(quoteChars, rune(c))
	}
	return t
}()

// needsQuote reports whether s must be quoted: it is empty, is the word
// null in any case (NULL, Null: a service may read any of them as null),
// or contains whitespace or one of quoteChars.
func needsQuote(s string) bool {
	if s == "" || len(s) == 4 && strings.EqualFold(s, "null") {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if quoteByte[c] {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return true
		}
		i += n
	}
	return false
}

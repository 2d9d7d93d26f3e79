package rsql

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxDepth bounds the nesting of parentheses accepted by Parse.
const maxDepth = 100

// ParseError is the error returned by Parse.
type ParseError struct {
	Input    string // the text being parsed
	Offset   int    // byte offset in Input where the problem was found
	Expected string // what the parser expected, e.g. "operator"
	Found    string // what it found, e.g. "';'", "\"=foo=\"" or "end of input"
}

// Error returns "rsql: at offset N: expected X, found Y".
func (e *ParseError) Error() string {
	return fmt.Sprintf("rsql: at offset %d: expected %s, found %s", e.Offset, e.Expected, e.Found)
}

var eqOps = map[string]Operator{
	"gt": OpGt, "ge": OpGe, "lt": OpLt, "le": OpLe,
	"bt": OpBetween, "nbt": OpNotBetween, "in": OpIn, "out": OpNotIn,
	"lk": OpLike, "lki": OpILike,
}

var bangOps = map[string]Operator{
	"bt": OpNotBetween, "in": OpNotIn, "lk": OpNotLike, "lki": OpNotILike,
}

// Parse parses filter text. It returns the tree as written (parentheses
// become nesting, no normal form is applied) built from *Comparison,
// *AndExpr and *OrExpr nodes; an AND or OR directly inside a node of the
// same kind is flattened, and a group of one operand is unwrapped.
// Operators are returned in canonical spelling and values unquoted and
// unescaped. Errors are of type *ParseError. See the package documentation
// for the accepted syntax.
func Parse(s string) (Expr, error) {
	p := &parser{s: s}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.s) {
		return nil, p.fail("';', ',' or end of input")
	}
	return e, nil
}

type parser struct {
	s     string
	pos   int
	depth int
}

func (p *parser) fail(expected string) *ParseError {
	return p.failAt(p.pos, expected, describe(p.s, p.pos))
}

func (p *parser) failAt(pos int, expected, found string) *ParseError {
	return &ParseError{Input: p.s, Offset: pos, Expected: expected, Found: found}
}

// describe names the character at pos for an error message.
func describe(s string, pos int) string {
	if pos >= len(s) {
		return "end of input"
	}
	r, n := utf8.DecodeRuneInString(s[pos:])
	if r == utf8.RuneError && n == 1 {
		return fmt.Sprintf("byte 0x%02x", s[pos])
	}
	return strconv.QuoteRune(r)
}

func (p *parser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *parser) eat(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *parser) space() {
	for p.pos < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.pos:])
		if !unicode.IsSpace(r) {
			return
		}
		p.pos += n
	}
}

func (p *parser) or() (Expr, error) {
	var ops []Expr
	for {
		e, err := p.and()
		if err != nil {
			return nil, err
		}
		if o, ok := e.(*OrExpr); ok {
			ops = append(ops, o.Operands...)
		} else {
			ops = append(ops, e)
		}
		p.space()
		if !p.eat(',') {
			break
		}
	}
	if len(ops) == 1 {
		return ops[0], nil
	}
	return &OrExpr{Operands: ops}, nil
}

func (p *parser) and() (Expr, error) {
	var ops []Expr
	for {
		e, err := p.term()
		if err != nil {
			return nil, err
		}
		if a, ok := e.(*AndExpr); ok {
			ops = append(ops, a.Operands...)
		} else {
			ops = append(ops, e)
		}
		p.space()
		if !p.eat(';') {
			break
		}
	}
	if len(ops) == 1 {
		return ops[0], nil
	}
	return &AndExpr{Operands: ops}, nil
}

func (p *parser) term() (Expr, error) {
	p.space()
	if p.peek() != '(' {
		return p.comparison()
	}
	if p.depth >= maxDepth {
		return nil, p.fail(fmt.Sprintf("at most %d nested parentheses", maxDepth))
	}
	p.depth++
	p.pos++
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	p.space()
	if !p.eat(')') {
		return nil, p.fail("';', ',' or ')'")
	}
	p.depth--
	return e, nil
}

func (p *parser) comparison() (Expr, error) {
	start := p.pos
	for p.pos < len(p.s) && strings.IndexByte(reservedFieldChars, p.s[p.pos]) < 0 {
		p.pos++
	}
	field := strings.TrimRightFunc(p.s[start:p.pos], unicode.IsSpace)
	if field == "" {
		return nil, p.fail("field name")
	}
	op, err := p.operator()
	if err != nil {
		return nil, err
	}
	c := &Comparison{Field: field, Op: op}
	p.space()
	switch {
	case op.isMulti() && p.peek() == '(':
		c.Values, err = p.parenList(op)
	case op.isMulti():
		c.Values, err = p.colonList(op)
	default:
		var v Value
		v, err = p.value(false)
		c.Values = []Value{v}
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func (p *parser) operator() (Operator, error) {
	start := p.pos
	c := p.peek()
	if c != '=' && c != '!' {
		return "", p.fail("operator")
	}
	if start+1 < len(p.s) && p.s[start+1] == '=' {
		p.pos += 2
		if c == '=' {
			return OpEq, nil
		}
		return OpNe, nil
	}
	j := start + 1
	for j < len(p.s) && isLetter(p.s[j]) {
		j++
	}
	if j == start+1 {
		return "", p.failAt(start, "operator", strconv.Quote(p.s[start:j]))
	}
	if j >= len(p.s) || p.s[j] != '=' {
		return "", p.failAt(start, "operator", strconv.Quote(p.s[start:j]))
	}
	table := eqOps
	if c == '!' {
		table = bangOps
	}
	op, ok := table[strings.ToLower(p.s[start+1:j])]
	if !ok {
		return "", p.failAt(start, "operator", strconv.Quote(p.s[start:j+1]))
	}
	p.pos = j + 1
	return op, nil
}

// colonList parses v1:v2:... for a list or range operator.
func (p *parser) colonList(op Operator) ([]Value, error) {
	var vals []Value
	for {
		v, err := p.value(true)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
		p.space()
		if p.peek() != ':' {
			break
		}
		if op.isRange() && len(vals) == 2 {
			return nil, p.fail("only two values")
		}
		p.pos++
	}
	if op.isRange() && len(vals) != 2 {
		return nil, p.fail("':' and a second value")
	}
	return vals, nil
}

// parenList parses (v1,v2,...), the list form of other RSQL dialects, in
// which ':' is an ordinary character.
func (p *parser) parenList(op Operator) ([]Value, error) {
	p.pos++ // '('
	var vals []Value
	for {
		v, err := p.value(false)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
		p.space()
		switch {
		case p.peek() == ',':
			if op.isRange() && len(vals) == 2 {
				return nil, p.fail("only two values")
			}
			p.pos++
		case p.peek() == ')':
			if op.isRange() && len(vals) != 2 {
				return nil, p.fail("',' and a second value")
			}
			p.pos++
			return vals, nil
		default:
			return nil, p.fail("',' or ')'")
		}
	}
}

// value parses one quoted or unquoted value. An unquoted value ends at
// ; , ( ) (and ':' when colon is set) and is trimmed of whitespace.
func (p *parser) value(colon bool) (Value, error) {
	p.space()
	if c := p.peek(); c == '"' || c == '\'' {
		return p.quoted()
	}
	start := p.pos
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == ';' || c == ',' || c == '(' || c == ')' || colon && c == ':' {
			break
		}
		p.pos++
	}
	text := strings.TrimRightFunc(p.s[start:p.pos], unicode.IsSpace)
	if text == "" {
		return Value{}, p.fail("value")
	}
	if text == "null" {
		return Value{Null: true}, nil
	}
	return Value{Text: text}, nil
}

// quoted parses a value in double or single quotes; a backslash makes the
// next byte literal.
func (p *parser) quoted() (Value, error) {
	q := p.s[p.pos]
	p.pos++
	var b strings.Builder
	for {
		if p.pos >= len(p.s) {
			return Value{}, p.fail("closing " + strconv.QuoteRune(rune(q)))
		}
		c := p.s[p.pos]
		switch {
		case c == '\\':
			if p.pos+1 >= len(p.s) {
				p.pos = len(p.s)
				return Value{}, p.fail("closing " + strconv.QuoteRune(rune(q)))
			}
			b.WriteByte(p.s[p.pos+1])
			p.pos += 2
		case c == q:
			p.pos++
			return Value{Text: b.String()}, nil
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

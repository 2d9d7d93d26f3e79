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

// ParseError is the error returned by Parse. Its text says where the
// filter breaks and what was expected there, and names only the kind of
// what was found there (FoundKind), never the filter's own text: a filter
// holds users' data (e-mail addresses, names), and a value written where
// an operator or a field is due would otherwise be printed. Input keeps
// the text for a caller who needs to show it.
type ParseError struct {
	Input    string // the text being parsed: users' data, which Error never prints
	Offset   int    // byte offset in Input where the problem was found
	Expected string // what the parser expected, e.g. "operator"
	// FoundKind is the kind of what the parser found at Offset, never its
	// text: "a word", "a quoted string", "an unknown operator", "'=' without
	// a closing '='", a character of the syntax such as "';'", "invalid
	// UTF-8", "null" (with Rule) or "end of input".
	FoundKind string

	// Rule is the rule of CheckComparison that a well-formed comparison
	// breaks (Offset is then that of the offending value), nil for a
	// syntax error.
	Rule *RuleError
}

// Error returns "rsql: at offset N: expected X, found KIND", or for a
// broken rule "rsql: at offset N: OP RULE": the field is not named, as
// text read where a field is due may be a value (Rule.Field has it).
func (e *ParseError) Error() string {
	if e.Rule != nil {
		return fmt.Sprintf("rsql: at offset %d: %s %s", e.Offset, e.Rule.Op, e.Rule.Rule)
	}
	return fmt.Sprintf("rsql: at offset %d: expected %s, found %s", e.Offset, e.Expected, e.FoundKind)
}

// Unwrap returns Rule, so that errors.As finds the *RuleError.
func (e *ParseError) Unwrap() error {
	if e.Rule == nil {
		return nil
	}
	return e.Rule
}

// lookupOp returns the operator =name= (or !name= if bang), matching the
// name without regard to case. name is made of ASCII letters.
func lookupOp(bang bool, name string) (Operator, bool) {
	if len(name) < 2 || len(name) > 3 {
		return "", false
	}
	var b [3]byte
	for i := range len(name) {
		b[i] = name[i] | 0x20 // lower case
	}
	lower := string(b[:len(name)])
	if bang {
		switch lower {
		case "bt":
			return OpNotBetween, true
		case "in":
			return OpNotIn, true
		case "lk":
			return OpNotLike, true
		case "lki":
			return OpNotILike, true
		}
		return "", false
	}
	switch lower {
	case "gt":
		return OpGt, true
	case "ge":
		return OpGe, true
	case "lt":
		return OpLt, true
	case "le":
		return OpLe, true
	case "bt":
		return OpBetween, true
	case "nbt":
		return OpNotBetween, true
	case "in":
		return OpIn, true
	case "out":
		return OpNotIn, true
	case "lk":
		return OpLike, true
	case "lki":
		return OpILike, true
	}
	return "", false
}

// Parse parses filter text. It returns the tree as written (parentheses
// become nesting, no normal form is applied) built from *Comparison,
// *AndExpr and *OrExpr nodes; an AND or OR directly inside a node of the
// same kind is flattened, and a group of one operand is unwrapped.
// Operators are returned in canonical spelling and values unquoted and
// unescaped. Errors are of type *ParseError. See the package documentation
// for the accepted syntax.
func Parse(s string) (Expr, error) {
	p := parser{s: s}
	p.init()
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.s) {
		return nil, p.fail("';', ',' or end of input")
	}
	return e, nil
}

// The parser takes the comparisons and values of the tree from slabs
// (chunks of at most maxChunk) sized from an upper bound of how many the
// input can hold, and collects the operands of the node being parsed on a
// stack shared by all nodes, so that a tree costs a few allocations
// besides its nodes' operand slices. Values are substrings of the input,
// except quoted values containing escapes.
type parser struct {
	s     string
	pos   int
	depth int

	cmps     []Comparison // unused comparisons of the current chunk
	cmpsLeft int          // upper bound of the comparisons still to parse
	vals     []Value      // values of the current chunk; cap is the chunk
	list     int          // start in vals of the values being parsed
	null     int          // offset of the first null of these values, or -1
	valsLeft int          // upper bound of the values still to parse
	stack    []Expr       // operands of the nodes being parsed
}

const maxChunk = 64

func (p *parser) init() {
	seps := strings.Count(p.s, ";") + strings.Count(p.s, ",")
	// Every comparison but the first follows a ';' or ','; every value
	// but the first of a comparison follows a ':' or ','.
	p.cmpsLeft = 1 + seps
	p.valsLeft = 1 + seps + strings.Count(p.s, ":")
	p.stack = make([]Expr, 0, min(p.cmpsLeft, maxChunk))
}

// allocComparison returns a zero Comparison for the tree.
func (p *parser) allocComparison() *Comparison {
	if len(p.cmps) == 0 {
		p.cmps = make([]Comparison, max(1, min(p.cmpsLeft, maxChunk)))
	}
	c := &p.cmps[0]
	p.cmps = p.cmps[1:]
	p.cmpsLeft--
	return c
}

// beginValues starts the values of a comparison; addValue appends one,
// and endValues returns them.
func (p *parser) beginValues() { p.list, p.null = len(p.vals), -1 }

func (p *parser) addValue(v Value) {
	if len(p.vals) == cap(p.vals) {
		cur := p.vals[p.list:]
		n := max(2*len(cur), min(p.valsLeft, maxChunk), 1)
		p.vals = append(make([]Value, 0, n), cur...)
		p.list = 0
	}
	p.vals = append(p.vals, v)
	p.valsLeft--
}

func (p *parser) endValues() []Value {
	return p.vals[p.list:len(p.vals):len(p.vals)]
}

// node returns the operands pushed on the stack since base as a node of
// their own (a new slice), or the operand if there is only one, and pops
// them.
func (p *parser) node(base int, and bool) Expr {
	ops := p.stack[base:]
	var e Expr
	switch {
	case len(ops) == 1:
		e = ops[0]
	case and:
		e = &AndExpr{Operands: append([]Expr(nil), ops...)}
	default:
		e = &OrExpr{Operands: append([]Expr(nil), ops...)}
	}
	clear(ops)
	p.stack = p.stack[:base]
	return e
}

func (p *parser) fail(expected string) *ParseError {
	return p.failAt(p.pos, expected, kindAt(p.s, p.pos))
}

func (p *parser) failAt(pos int, expected, kind string) *ParseError {
	return &ParseError{Input: p.s, Offset: pos, Expected: expected, FoundKind: kind}
}

// kindAt names the kind of what starts at s[pos] for an error message,
// without its text: a character of the syntax is named, anything else is
// "a word" (or "a quoted string").
func kindAt(s string, pos int) string {
	if pos >= len(s) {
		return "end of input"
	}
	switch c := s[pos]; c {
	case ';', ',', '(', ')', ':', '=', '!':
		return "'" + string(c) + "'"
	case '"', '\'':
		return "a quoted string"
	}
	if r, n := utf8.DecodeRuneInString(s[pos:]); r == utf8.RuneError && n == 1 {
		return "invalid UTF-8"
	}
	return "a word"
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

// asciiSpace[c] is set for the ASCII bytes that unicode.IsSpace accepts.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// fieldStop[c] is set for the bytes of reservedFieldChars.
var fieldStop = func() (t [256]bool) {
	for i := range len(reservedFieldChars) {
		t[reservedFieldChars[i]] = true
	}
	return t
}()

func (p *parser) space() {
	for p.pos < len(p.s) {
		if c := p.s[p.pos]; c < utf8.RuneSelf {
			if !asciiSpace[c] {
				return
			}
			p.pos++
			continue
		}
		r, n := utf8.DecodeRuneInString(p.s[p.pos:])
		if !unicode.IsSpace(r) {
			return
		}
		p.pos += n
	}
}

// trimRightSpace is strings.TrimRightFunc(s, unicode.IsSpace).
func trimRightSpace(s string) string {
	for len(s) > 0 {
		if c := s[len(s)-1]; c < utf8.RuneSelf {
			if !asciiSpace[c] {
				return s
			}
			s = s[:len(s)-1]
			continue
		}
		r, n := utf8.DecodeLastRuneInString(s)
		if !unicode.IsSpace(r) {
			return s
		}
		s = s[:len(s)-n]
	}
	return s
}

func (p *parser) or() (Expr, error) {
	base := len(p.stack)
	for {
		e, err := p.and()
		if err != nil {
			return nil, err
		}
		if o, ok := e.(*OrExpr); ok {
			p.stack = append(p.stack, o.Operands...)
		} else {
			p.stack = append(p.stack, e)
		}
		p.space()
		if !p.eat(',') {
			break
		}
	}
	return p.node(base, false), nil
}

func (p *parser) and() (Expr, error) {
	base := len(p.stack)
	for {
		e, err := p.term()
		if err != nil {
			return nil, err
		}
		if a, ok := e.(*AndExpr); ok {
			p.stack = append(p.stack, a.Operands...)
		} else {
			p.stack = append(p.stack, e)
		}
		p.space()
		if !p.eat(';') {
			break
		}
	}
	return p.node(base, true), nil
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
	for p.pos < len(p.s) && !fieldStop[p.s[p.pos]] {
		p.pos++
	}
	field := trimRightSpace(p.s[start:p.pos])
	if field == "" {
		return nil, p.fail("field name")
	}
	op, err := p.operator()
	if err != nil {
		return nil, err
	}
	p.space()
	p.beginValues()
	switch {
	case op.isMulti() && p.peek() == '(':
		err = p.parenList(op)
	case op.isMulti():
		err = p.colonList(op)
	default:
		var v Value
		if v, err = p.value(false); err == nil {
			p.addValue(v)
		}
	}
	if err != nil {
		return nil, err
	}
	vals := p.endValues()
	if r := checkValues(field, op, vals); r != nil {
		return nil, &ParseError{Input: p.s, Offset: p.null, Expected: "a value " + string(op) + " takes", FoundKind: "null", Rule: r}
	}
	c := p.allocComparison()
	c.Field, c.Op, c.Values = field, op, vals
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
	if j >= len(p.s) || p.s[j] != '=' {
		return "", p.failAt(start, "operator", "'"+string(c)+"' without a closing '='")
	}
	op, ok := lookupOp(c == '!', p.s[start+1:j])
	if !ok {
		return "", p.failAt(start, "operator", "an unknown operator")
	}
	p.pos = j + 1
	return op, nil
}

// colonList parses v1:v2:... for a list or range operator.
func (p *parser) colonList(op Operator) error {
	n := 0
	for {
		v, err := p.value(true)
		if err != nil {
			return err
		}
		p.addValue(v)
		n++
		p.space()
		if p.peek() != ':' {
			break
		}
		if op.isRange() && n == 2 {
			return p.fail("only two values")
		}
		p.pos++
	}
	if op.isRange() && n != 2 {
		return p.fail("':' and a second value")
	}
	return nil
}

// parenList parses (v1,v2,...), the list form of other RSQL dialects, in
// which ':' is an ordinary character.
func (p *parser) parenList(op Operator) error {
	p.pos++ // '('
	n := 0
	for {
		v, err := p.value(false)
		if err != nil {
			return err
		}
		p.addValue(v)
		n++
		p.space()
		switch {
		case p.peek() == ',':
			if op.isRange() && n == 2 {
				return p.fail("only two values")
			}
			p.pos++
		case p.peek() == ')':
			if op.isRange() && n != 2 {
				return p.fail("',' and a second value")
			}
			p.pos++
			return nil
		default:
			return p.fail("',' or ')'")
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
	text := trimRightSpace(p.s[start:p.pos])
	if text == "" {
		return Value{}, p.fail("value")
	}
	if len(text) == 4 && strings.EqualFold(text, "null") {
		if p.null == -1 {
			p.null = start
		}
		return Value{Null: true}, nil
	}
	return Value{Text: text}, nil
}

// quoted parses a value in double or single quotes; a backslash makes the
// next byte literal. Without backslashes the value is a substring of the
// input.
func (p *parser) quoted() (Value, error) {
	q := p.s[p.pos]
	start := p.pos + 1
	i := start
	for i < len(p.s) && p.s[i] != q && p.s[i] != '\\' {
		i++
	}
	if i < len(p.s) && p.s[i] == q {
		p.pos = i + 1
		return Value{Text: p.s[start:i]}, nil
	}
	var b strings.Builder
	seg := start // start of the bytes not yet written to b
	for i < len(p.s) {
		switch p.s[i] {
		case '\\':
			if i+1 >= len(p.s) {
				i = len(p.s)
				continue
			}
			b.WriteString(p.s[seg:i])
			b.WriteByte(p.s[i+1])
			i += 2
			seg = i
		case q:
			b.WriteString(p.s[seg:i])
			p.pos = i + 1
			return Value{Text: b.String()}, nil
		default:
			i++
		}
	}
	p.pos = len(p.s)
	return Value{}, p.fail("closing " + strconv.QuoteRune(rune(q)))
}

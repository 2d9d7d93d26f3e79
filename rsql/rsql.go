package rsql

// TimeLayout is the layout (for time.Time.Format) of dates in filters:
// ISO 8601 in UTC with milliseconds, e.g. 2024-01-31T09:30:00.000Z.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Operator is a comparison operator, spelled as in the filter text.
type Operator string

// The canonical operator spellings. Parse maps the aliases !bt= and !in= to
// OpNotBetween and OpNotIn.
const (
	OpEq         Operator = "=="    // equal
	OpNe         Operator = "!="    // not equal
	OpGt         Operator = "=gt="  // greater than
	OpGe         Operator = "=ge="  // greater than or equal
	OpLt         Operator = "=lt="  // less than
	OpLe         Operator = "=le="  // less than or equal
	OpBetween    Operator = "=bt="  // between two values (inclusive bounds per the API)
	OpNotBetween Operator = "=nbt=" // not between two values; alias !bt=
	OpIn         Operator = "=in="  // in a list of values
	OpNotIn      Operator = "=out=" // not in a list of values; alias !in=
	OpLike       Operator = "=lk="  // contains
	OpNotLike    Operator = "!lk="  // does not contain
	OpILike      Operator = "=lki=" // contains, ignoring case
	OpNotILike   Operator = "!lki=" // does not contain, ignoring case
)

// aliases maps the alternative spellings to canonical operators.
var aliases = map[Operator]Operator{
	"!bt=": OpNotBetween,
	"!in=": OpNotIn,
}

// canonical returns the canonical spelling of op and whether op is known.
func (op Operator) canonical() (Operator, bool) {
	switch op {
	case OpEq, OpNe, OpGt, OpGe, OpLt, OpLe, OpBetween, OpNotBetween,
		OpIn, OpNotIn, OpLike, OpNotLike, OpILike, OpNotILike:
		return op, true
	}
	c, ok := aliases[op]
	return c, ok
}

func (op Operator) isRange() bool { return op == OpBetween || op == OpNotBetween }
func (op Operator) isList() bool  { return op == OpIn || op == OpNotIn }
func (op Operator) isMulti() bool { return op.isRange() || op.isList() }

// Value is one value of a comparison.
type Value struct {
	Text string // the value as it appears in the filter, unquoted and unescaped
	Null bool   // the literal null; Text is ignored
}

// Expr is a filter expression: a *Comparison, *AndExpr, *OrExpr or RawExpr.
type Expr interface {
	// String returns the filter text, or "" when Validate reports an error.
	String() string
	// MarshalText returns the filter text, or the error Validate reports.
	// It lets an Expr be used directly as a query-string field.
	MarshalText() ([]byte, error)
	// Validate reports builder mistakes, a comparison that breaks a rule
	// of CheckComparison (a *RuleError), an expression too large to print
	// (more than 256 comparisons in disjunctive normal form), and for a
	// RawExpr the error from parsing it.
	Validate() error
}

// Comparison is a single comparison: Field Op Values. Ranges take two
// values, lists one or more, every other operator exactly one.
type Comparison struct {
	Field  string
	Op     Operator
	Values []Value

	err error // a mistake made while building, reported by Validate
}

// AndExpr is the conjunction of its operands (printed with ';').
type AndExpr struct {
	Operands []Expr
}

// OrExpr is the disjunction of its operands (printed with ',').
type OrExpr struct {
	Operands []Expr
}

// RawExpr is filter text supplied by the caller. On its own it is printed
// verbatim (parentheses or quotes included); inside And or Or it is parsed
// and takes part in normalisation, so And(Raw(s)) prints s in the form the
// API documents. Validate parses it.
type RawExpr string

// String implements Expr.
func (c *Comparison) String() string { return stringOf(c) }

// MarshalText implements Expr.
func (c *Comparison) MarshalText() ([]byte, error) { return marshalOf(c) }

// Validate implements Expr.
func (c *Comparison) Validate() error { _, err := render(c); return err }

// String implements Expr.
func (a *AndExpr) String() string { return stringOf(a) }

// MarshalText implements Expr.
func (a *AndExpr) MarshalText() ([]byte, error) { return marshalOf(a) }

// Validate implements Expr.
func (a *AndExpr) Validate() error { _, err := render(a); return err }

// String implements Expr.
func (o *OrExpr) String() string { return stringOf(o) }

// MarshalText implements Expr.
func (o *OrExpr) MarshalText() ([]byte, error) { return marshalOf(o) }

// Validate implements Expr.
func (o *OrExpr) Validate() error { _, err := render(o); return err }

// String implements Expr: the text verbatim, or "" if it does not parse.
func (r RawExpr) String() string { return stringOf(r) }

// MarshalText implements Expr.
func (r RawExpr) MarshalText() ([]byte, error) { return marshalOf(r) }

// Validate implements Expr: it returns the *ParseError from parsing r.
func (r RawExpr) Validate() error { _, err := render(r); return err }

func stringOf(e Expr) string {
	s, err := render(e)
	if err != nil {
		return ""
	}
	return s
}

func marshalOf(e Expr) ([]byte, error) {
	s, err := render(e)
	if err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// Walk calls fn for e and then, in pre-order, for the operands of AndExpr
// and OrExpr nodes. If fn returns false the children of that node are
// skipped. A RawExpr is visited as a leaf (it is not parsed). Nil
// expressions are not visited.
func Walk(e Expr, fn func(Expr) bool) {
	if e == nil {
		return
	}
	if !fn(e) {
		return
	}
	switch n := e.(type) {
	case *AndExpr:
		if n != nil {
			for _, o := range n.Operands {
				Walk(o, fn)
			}
		}
	case *OrExpr:
		if n != nil {
			for _, o := range n.Operands {
				Walk(o, fn)
			}
		}
	}
}

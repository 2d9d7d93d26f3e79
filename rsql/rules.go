package rsql

import "fmt"

// RuleError reports a comparison that is well formed but whose operator
// does not take its values. Validate returns it for a built comparison;
// Parse returns it inside a *ParseError.
type RuleError struct {
	Field string   // the field of the comparison
	Op    Operator // its operator, in canonical spelling
	Rule  string   // the rule broken, said of Op, e.g. "needs at least one value"
}

// Error returns "rsql: field "F": OP RULE". A *ParseError that holds it
// does not print the field: there it is text read from the filter.
func (e *RuleError) Error() string {
	return fmt.Sprintf("rsql: field %q: %s %s", e.Field, e.Op, e.Rule)
}

// The rules of the filter language beyond its grammar. They are written
// here once: Validate applies them to built comparisons, Parse to the
// comparisons it reads, and the fake server of package workflowtest
// answers 422 to a filter that breaks one.
const (
	ruleNull  = "does not take null (null is a value of ==, !=, =in= and =out= only)"
	ruleRange = "needs exactly two values (low and high), got %d"
	ruleList  = "needs at least one value"
	ruleOne   = "needs exactly one value, got %d"
)

// takesNull reports whether the canonical operator op takes the literal
// null: an ordering, range or contains operator compares with a value,
// and null is none.
func (op Operator) takesNull() bool {
	return op == OpEq || op == OpNe || op.isList()
}

// CheckComparison reports whether the operator of c (canonical or an
// alias) takes the values of c:
//
//   - =bt= and =nbt= take exactly two values (low and high);
//   - =in= and =out= take at least one value;
//   - every other operator takes exactly one;
//   - only ==, !=, =in= and =out= take null.
//
// A broken rule is a *RuleError; an unknown operator is an error too.
// CheckComparison does not look at the field name (see Validate).
func CheckComparison(c *Comparison) error {
	op, ok := c.Op.canonical()
	if !ok {
		return fmt.Errorf("rsql: field %q: unknown operator %q", c.Field, string(c.Op))
	}
	if r := checkValues(c.Field, op, c.Values); r != nil {
		return r
	}
	return nil
}

// checkValues applies the rules of CheckComparison to a canonical operator.
func checkValues(field string, op Operator, vals []Value) *RuleError {
	n := len(vals)
	rule := ""
	switch {
	case op.isRange() && n != 2:
		rule = fmt.Sprintf(ruleRange, n)
	case op.isList() && n == 0:
		rule = ruleList
	case !op.isMulti() && n != 1:
		rule = fmt.Sprintf(ruleOne, n)
	case !op.takesNull() && hasNull(vals):
		rule = ruleNull
	default:
		return nil
	}
	return &RuleError{Field: field, Op: op, Rule: rule}
}

func hasNull(vals []Value) bool {
	for _, v := range vals {
		if v.Null {
			return true
		}
	}
	return false
}

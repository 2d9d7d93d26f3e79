package rsql

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNullOnlyWithEqualityAndLists(t *testing.T) {
	f := Field("Status")
	refused := map[Operator]Expr{
		OpGt:         f.Gt(null),
		OpGe:         f.Ge(null),
		OpLt:         f.Lt(null),
		OpLe:         f.Le(null),
		OpBetween:    f.Between(null, 5),
		OpNotBetween: f.NotBetween(1, null),
		OpLike:       f.Like(null),
		OpNotLike:    f.NotLike(null),
		OpILike:      f.ILike(null),
		OpNotILike:   f.NotILike(null),
	}
	for op, e := range refused {
		t.Run(string(op), func(t *testing.T) {
			err := e.Validate()
			var re *RuleError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, RuleError{Field: "Status", Op: op, Rule: ruleNull}, *re)
			assert.EqualError(t, err, `rsql: field "Status": `+string(op)+` does not take null (null is a value of ==, !=, =in= and =out= only)`)
			assert.Empty(t, e.String())
			assert.EqualError(t, And(Field("a").Eq(1), e).Validate(), err.Error(), "inside And")
		})
	}
	for _, e := range []Expr{f.IsNull(), f.NotNull(), f.Eq(null), f.In("a", null), f.NotIn(null), f.Gt("null"), f.Between("NULL", "Null"), f.Like(Value{Text: "null"})} {
		assert.NoError(t, e.Validate(), e.String())
	}
}

func TestParseRefusesNullWhereNoOperatorTakesIt(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		op     Operator
	}{
		{"Status=gt=null", 10, OpGt},
		{"Status=ge=NULL", 10, OpGe},
		{"Status=lt= Null", 11, OpLt},
		{"Status=LE=nUlL", 10, OpLe},
		{"a==1;Status=bt=1:null", 17, OpBetween},
		{"Status!bt=(NULL,2)", 11, OpNotBetween},
		{"Status=nbt=null:null", 11, OpNotBetween},
		{"a==1,(b==2;Status=lk=null)", 21, OpLike},
		{"Status!lk=null", 10, OpNotLike},
		{"Status=lki=null", 11, OpILike},
		{"Status!lki=null", 11, OpNotILike},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := Parse(tt.in)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, ParseError{Input: tt.in, Offset: tt.offset, Expected: "a value " + string(tt.op) + " takes", FoundKind: "null",
				Rule: &RuleError{Field: "Status", Op: tt.op, Rule: ruleNull}}, *pe)
			var re *RuleError
			require.ErrorAs(t, err, &re)
			assert.Same(t, pe.Rule, re)
			assert.Contains(t, err.Error(), ": "+string(tt.op)+` does not take null (null is a value of ==, !=, =in= and =out= only)`)
			assert.NotContains(t, err.Error(), "Status", "the text read as the field is not printed")
			assert.ErrorAs(t, Raw(tt.in).Validate(), &re, "Raw")
			assert.ErrorAs(t, And(Raw(tt.in), Field("x").Eq(1)).Validate(), &re, "Raw inside And")
		})
	}
	_, err := Parse("Status=gt=null")
	assert.EqualError(t, err, `rsql: at offset 10: =gt= does not take null (null is a value of ==, !=, =in= and =out= only)`)

	_, err = Parse("a==")
	var re *RuleError
	assert.False(t, errors.As(err, &re), "a syntax error has no rule")
	for _, ok := range []string{"x==NULL", "x!=null", "x=in=a:Null", "x=out=(null,b)", `x=gt="null"`, "x=lk=nulls", `x=bt="NULL":'null'`} {
		_, err := Parse(ok)
		assert.NoError(t, err, ok)
	}
}

func TestCheckComparison(t *testing.T) {
	vs := func(n int) []Value { return make([]Value, n) }
	tests := []struct {
		c    Comparison
		rule string // "" when c passes
	}{
		{Comparison{Field: "x", Op: OpEq, Values: vs(1)}, ""},
		{Comparison{Field: "x", Op: OpEq, Values: vs(0)}, "needs exactly one value, got 0"},
		{Comparison{Field: "x", Op: OpLike, Values: vs(2)}, "needs exactly one value, got 2"},
		{Comparison{Field: "x", Op: OpBetween, Values: vs(2)}, ""},
		{Comparison{Field: "x", Op: OpBetween, Values: vs(1)}, "needs exactly two values (low and high), got 1"},
		{Comparison{Field: "x", Op: "!bt=", Values: vs(3)}, "needs exactly two values (low and high), got 3"},
		{Comparison{Field: "x", Op: OpIn, Values: vs(5)}, ""},
		{Comparison{Field: "x", Op: "!in=", Values: vs(0)}, "needs at least one value"},
		{Comparison{Field: "x", Op: "!in=", Values: []Value{null}}, ""},
		{Comparison{Field: "x", Op: "!bt=", Values: []Value{{}, null}}, ruleNull},
		{Comparison{Field: "x", Op: OpNe, Values: []Value{null}}, ""},
		{Comparison{Field: "x", Op: OpGe, Values: []Value{{Text: "NULL"}}}, ""},
	}
	for _, tt := range tests {
		err := CheckComparison(&tt.c)
		if tt.rule == "" {
			assert.NoError(t, err, "%+v", tt.c)
			continue
		}
		var re *RuleError
		require.ErrorAs(t, err, &re, "%+v", tt.c)
		op, _ := tt.c.Op.canonical()
		assert.Equal(t, RuleError{Field: "x", Op: op, Rule: tt.rule}, *re)
	}
	err := CheckComparison(&Comparison{Field: "x", Op: "=zz=", Values: vs(1)})
	assert.EqualError(t, err, `rsql: field "x": unknown operator "=zz="`)
}

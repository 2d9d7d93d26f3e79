package rsql

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWalk(t *testing.T) {
	e := Or(And(Field("a").Eq(1), Field("b").Eq(2)), Raw("c==3"), Field("d").Eq(4))
	var seen []string
	Walk(e, func(x Expr) bool {
		switch n := x.(type) {
		case *OrExpr:
			seen = append(seen, "or")
		case *AndExpr:
			seen = append(seen, "and")
			return false
		default:
			seen = append(seen, n.String())
		}
		return true
	})
	assert.Equal(t, []string{"or", "and", "c==3", "d==4"}, seen)

	var all []string
	Walk(e, func(x Expr) bool {
		if c, ok := x.(*Comparison); ok {
			all = append(all, c.Field)
		}
		return true
	})
	assert.Equal(t, []string{"a", "b", "d"}, all)
	Walk(nil, func(Expr) bool { t.Fatal("called for nil"); return true })
}

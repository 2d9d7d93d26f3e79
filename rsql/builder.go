package rsql

import (
	"encoding"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
)

// And returns the conjunction of es as an *AndExpr. The operands are kept
// as given; printing flattens and normalises them. Invalid operands (and nil
// ones, and an empty list) make the result invalid.
func And(es ...Expr) Expr {
	return &AndExpr{Operands: append([]Expr(nil), es...)}
}

// Or returns the disjunction of es as an *OrExpr. See And.
func Or(es ...Expr) Expr {
	return &OrExpr{Operands: append([]Expr(nil), es...)}
}

// Raw returns s as a RawExpr: filter text used verbatim on its own, parsed
// when combined with other expressions. Validate reports a parse error.
func Raw(s string) Expr { return RawExpr(s) }

// FieldRef names a field; its methods build comparisons on it. Each method
// returns a *Comparison; a mistake (see the package documentation) is kept
// inside it and reported by Validate and MarshalText.
type FieldRef struct {
	name string
}

// Field returns a reference to the field called name. Names may contain
// inner spaces, but must not be empty, start or end with whitespace, or
// contain = ! ; , ( ) " or '.
func Field(name string) FieldRef { return FieldRef{name: name} }

// Eq builds name==v.
func (f FieldRef) Eq(v any) Expr { return f.cmp(OpEq, v) }

// Ne builds name!=v.
func (f FieldRef) Ne(v any) Expr { return f.cmp(OpNe, v) }

// Gt builds name=gt=v.
func (f FieldRef) Gt(v any) Expr { return f.cmp(OpGt, v) }

// Ge builds name=ge=v.
func (f FieldRef) Ge(v any) Expr { return f.cmp(OpGe, v) }

// Lt builds name=lt=v.
func (f FieldRef) Lt(v any) Expr { return f.cmp(OpLt, v) }

// Le builds name=le=v.
func (f FieldRef) Le(v any) Expr { return f.cmp(OpLe, v) }

// Between builds name=bt=lo:hi (printed as =ge=/=le= if a bound contains ':').
func (f FieldRef) Between(lo, hi any) Expr { return f.cmp(OpBetween, lo, hi) }

// NotBetween builds name=nbt=lo:hi (printed as =lt=/=gt= if a bound contains ':').
func (f FieldRef) NotBetween(lo, hi any) Expr { return f.cmp(OpNotBetween, lo, hi) }

// In builds name=in=v1:v2:... At least one value is required.
func (f FieldRef) In(vs ...any) Expr { return f.cmp(OpIn, vs...) }

// NotIn builds name=out=v1:v2:... At least one value is required.
func (f FieldRef) NotIn(vs ...any) Expr { return f.cmp(OpNotIn, vs...) }

// Like builds name=lk=v (contains).
func (f FieldRef) Like(v any) Expr { return f.cmp(OpLike, v) }

// NotLike builds name!lk=v (does not contain).
func (f FieldRef) NotLike(v any) Expr { return f.cmp(OpNotLike, v) }

// ILike builds name=lki=v (contains, ignoring case).
func (f FieldRef) ILike(v any) Expr { return f.cmp(OpILike, v) }

// NotILike builds name!lki=v (does not contain, ignoring case).
func (f FieldRef) NotILike(v any) Expr { return f.cmp(OpNotILike, v) }

// IsNull builds name==null.
func (f FieldRef) IsNull() Expr {
	c := newComparison(f.name, OpEq, 1)
	c.Values = append(c.Values, Value{Null: true})
	return c
}

// NotNull builds name!=null.
func (f FieldRef) NotNull() Expr {
	c := newComparison(f.name, OpNe, 1)
	c.Values = append(c.Values, Value{Null: true})
	return c
}

func (f FieldRef) cmp(op Operator, vs ...any) *Comparison {
	c := newComparison(f.name, op, len(vs))
	for i, v := range vs {
		val, err := toValue(v)
		if err != nil {
			what := "value"
			if len(vs) > 1 {
				what = fmt.Sprintf("value %d", i+1)
			}
			c.err = fmt.Errorf("rsql: field %q: %s %s: %w", f.name, op, what, err)
			return c
		}
		c.Values = append(c.Values, val)
	}
	return c
}

// newComparison returns a comparison with an empty Values slice of
// capacity n, allocated together with the comparison when n is 1 or 2.
func newComparison(field string, op Operator, n int) *Comparison {
	switch n {
	case 1:
		x := &struct {
			c Comparison
			v [1]Value
		}{}
		x.c = Comparison{Field: field, Op: op, Values: x.v[:0:1]}
		return &x.c
	case 2:
		x := &struct {
			c Comparison
			v [2]Value
		}{}
		x.c = Comparison{Field: field, Op: op, Values: x.v[:0:2]}
		return &x.c
	}
	return &Comparison{Field: field, Op: op, Values: make([]Value, 0, n)}
}

// toValue converts a Go value to a Value; see the package documentation.
func toValue(v any) (Value, error) {
	if v == nil {
		return Value{}, fmt.Errorf("nil is not a value (use IsNull/NotNull or Value{Null: true} for null)")
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && rv.IsNil() {
		return Value{}, fmt.Errorf("nil %T is not a value", v)
	}
	if t, ok, err := asTime(rv); err != nil {
		return Value{}, fmt.Errorf("%T: %w", v, err)
	} else if ok {
		// A *time.Time, or a type embedding time.Time, would otherwise
		// print through its MarshalText or String, with its own offset
		// and nanoseconds.
		return Value{Text: t.UTC().Format(TimeLayout)}, nil
	}
	switch x := v.(type) {
	case Value:
		return x, nil
	case encoding.TextMarshaler:
		b, err := x.MarshalText()
		if err != nil {
			return Value{}, marshalTextError{rv.Type(), err}
		}
		return Value{Text: string(b)}, nil
	case fmt.Stringer:
		return Value{Text: x.String()}, nil
	}
	switch rv.Kind() {
	case reflect.String:
		return Value{Text: rv.String()}, nil
	case reflect.Bool:
		return Value{Text: strconv.FormatBool(rv.Bool())}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Value{Text: strconv.FormatInt(rv.Int(), 10)}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return Value{Text: strconv.FormatUint(rv.Uint(), 10)}, nil
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return Value{}, fmt.Errorf("%v cannot be written in a filter", f)
		}
		bits := 64
		if rv.Kind() == reflect.Float32 {
			bits = 32
		}
		return Value{Text: strconv.FormatFloat(f, 'f', -1, bits)}, nil
	}
	return Value{}, fmt.Errorf("unsupported value type %T (use a string, bool, number, time.Time, fmt.Stringer, encoding.TextMarshaler or rsql.Value)", v)
}

var timeType = reflect.TypeFor[time.Time]()

// asTime returns the time a value is or embeds: a time.Time, a non-nil
// pointer to one, or a struct (or pointer to a struct) with an embedded
// time.Time or non-nil *time.Time, at most seven levels deep (deeper, the
// value prints through the promoted MarshalText, in its own zone). A nil
// pointer on the way to the time is an error: the methods the value
// promotes from it would panic.
func asTime(rv reflect.Value) (time.Time, bool, error) {
	for depth := 0; depth < 8; depth++ {
		for rv.Kind() == reflect.Pointer {
			if rv.IsNil() {
				return time.Time{}, false, errNilEmbedded
			}
			rv = rv.Elem()
		}
		if rv.Type() == timeType {
			return rv.Interface().(time.Time), true, nil
		}
		if rv.Kind() != reflect.Struct {
			return time.Time{}, false, nil
		}
		found := false
		for i := range rv.NumField() {
			f := rv.Type().Field(i)
			if !f.Anonymous || !f.IsExported() {
				continue
			}
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft == timeType || hasEmbeddedTime(ft, 8-depth) {
				rv, found = rv.Field(i), true
				break
			}
		}
		if !found {
			return time.Time{}, false, nil
		}
	}
	return time.Time{}, false, nil
}

var errNilEmbedded = errors.New("the time it embeds is behind a nil pointer")

// hasEmbeddedTime reports whether struct type t embeds time.Time, at most
// depth levels down.
func hasEmbeddedTime(t reflect.Type, depth int) bool {
	if depth <= 0 || t.Kind() != reflect.Struct {
		return false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.Anonymous {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft == timeType || hasEmbeddedTime(ft, depth-1) {
			return true
		}
	}
	return false
}

// marshalTextError is a value's MarshalText error, which the filter's
// error keeps (errors.As finds it) but does not ask for its text: it may
// quote the value, users' data.
type marshalTextError struct {
	t   reflect.Type
	err error
}

func (e marshalTextError) Error() string {
	return "MarshalText of " + e.t.String() + " refused the value"
}
func (e marshalTextError) Unwrap() error { return e.err }

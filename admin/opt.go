package admin

import (
	"fmt"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/internal/check"
)

// Opt is a member of a read model: what the service sent for it, which is
// one of three things, and what the model writes back, the same one.
//
//   - nothing: the member was absent (the zero Opt); it is left out;
//   - null: IsNull; it is written as null;
//   - a value, zero values included: Get reports it with true; it is
//     written as it was read.
//
// Every member of the package's read models (View, Agent, Table, ...) is
// an Opt, but for those kept as raw JSON (jsontext.Value, which holds a
// null as the JSON null and an absent member as nil) and the Extra map.
// Request bodies keep pointers instead: a body cannot hold null, and nil
// leaves a member out. Ptr gives the pointer a body takes.
type Opt[T any] struct {
	//lint:ignore U1000 read through reflection: an Opt's JSON is its value's (check.Wraps)
	wraps
	v    *T // the value read; nil for absent and for null
	null bool
}

// wraps says that an Opt's JSON is its value's (see check.Wraps).
//
//lint:ignore U1000 Opt embeds it, for the request checks
type wraps = check.Wraps

// Some returns the Opt that holds v (sent, and written back, even when v
// is its type's zero value).
func Some[T any](v T) Opt[T] { return Opt[T]{v: &v} }

// Null returns the Opt of a member sent as null.
func Null[T any]() Opt[T] { return Opt[T]{null: true} }

// Get returns the value and true when the member was sent with a value;
// the zero value and false when it was null or absent.
func (o Opt[T]) Get() (T, bool) {
	if o.v == nil {
		var zero T
		return zero, false
	}
	return *o.v, true
}

// Value returns the value sent, or the zero value when the member was null
// or absent.
func (o Opt[T]) Value() T {
	v, _ := o.Get()
	return v
}

// Ptr returns a pointer to a copy of the value sent, or nil when the
// member was null or absent: the form of a request body's member.
func (o Opt[T]) Ptr() *T {
	if o.v == nil {
		return nil
	}
	v := *o.v
	return &v
}

// Present reports whether the member was sent, with a value or null.
func (o Opt[T]) Present() bool { return !o.IsZero() }

// IsNull reports whether the member was sent as null.
func (o Opt[T]) IsNull() bool { return o.null }

// IsZero reports whether the member was absent: the zero Opt, which a
// model leaves out when it is written (the omitzero option).
func (o Opt[T]) IsZero() bool { return o.v == nil && !o.null }

// String formats the value sent, "null", or "absent".
func (o Opt[T]) String() string {
	switch {
	case o.null:
		return "null"
	case o.v == nil:
		return "absent"
	}
	return fmt.Sprint(*o.v)
}

// elem returns the value sent (nil for none), and whether the member was
// sent as null.
func (o Opt[T]) elem() (any, bool) {
	if o.v == nil {
		return nil, o.null
	}
	return *o.v, false
}

// MarshalJSONTo writes the value, or null. An absent member is written as
// null too where it is not left out (a model leaves it out).
func (o Opt[T]) MarshalJSONTo(enc *jsontext.Encoder) error {
	if o.v == nil {
		return enc.WriteToken(jsontext.Null)
	}
	return json.MarshalEncode(enc, o.v)
}

// UnmarshalJSONFrom reads the value, or null.
func (o *Opt[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() == 'n' {
		_, err := dec.ReadToken()
		*o = Null[T]()
		return err
	}
	var v T
	if err := json.UnmarshalDecode(dec, &v); err != nil {
		return err
	}
	*o = Some(v)
	return nil
}

// MarshalJSON is MarshalJSONTo, for encoding/json.
func (o Opt[T]) MarshalJSON() ([]byte, error) { return json.Marshal(o) }

// UnmarshalJSON is UnmarshalJSONFrom, for encoding/json.
func (o *Opt[T]) UnmarshalJSON(data []byte) error { return json.Unmarshal(data, o) }

package jsonmodel

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// part is a model nested in another: it has methods of its own.
type part struct {
	Name  string                    `json:"name"`
	Extra map[string]jsontext.Value `json:",embed"`
}

func (p part) MarshalJSON() ([]byte, error)     { return Marshal(p) }
func (p *part) UnmarshalJSON(data []byte) error { return Unmarshal(data, p) }

// thing is a model as the SDK declares one.
type thing struct {
	ID    string                    `json:"id"`
	Count int                       `json:"count,omitzero"`
	Part  part                      `json:"part,omitzero"`
	Extra map[string]jsontext.Value `json:",embed"`
}

func (t thing) MarshalJSON() ([]byte, error)     { return Marshal(t) }
func (t *thing) UnmarshalJSON(data []byte) error { return Unmarshal(data, t) }

// codecs are the two JSON libraries a user may call a model's methods from.
var codecs = map[string]struct {
	unmarshal func([]byte, any) error
	marshal   func(any) ([]byte, error)
}{
	"encoding/json":           {json.Unmarshal, json.Marshal},
	"go-json-experiment/json": {func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) }, func(v any) ([]byte, error) { return jsonv2.Marshal(v) }},
}

func TestUnmarshal(t *testing.T) {
	old := thing{ID: "old", Count: 3, Extra: map[string]jsontext.Value{"was": jsontext.Value(`1`)}}
	for _, tc := range []struct {
		name, in string
		want     thing
		err      *decodeError // nil for none
	}{
		{"null leaves the value", `null`, old, nil},
		{"null with white space leaves the value", " \n null\t", old, nil},
		{"an object replaces the value whole", `{"id":"new"}`, thing{ID: "new"}, nil},
		{"unknown members go to Extra, nested ones to the nested model's", `{"id":"n","part":{"name":"p","q":[1]},"z":{"a":null}}`,
			thing{ID: "n", Part: part{Name: "p", Extra: map[string]jsontext.Value{"q": jsontext.Value(`[1]`)}}, Extra: map[string]jsontext.Value{"z": jsontext.Value(`{"a":null}`)}}, nil},
		{"a member of the wrong type leaves the value", `{"id":7}`, old, &decodeError{member: "id", goType: reflect.TypeFor[string]()}},
		{"a value of the wrong type names the model", `[]`, old, &decodeError{goType: reflect.TypeFor[thing]()}},
		{"a syntax error leaves the value", `{"id":`, old, &decodeError{}},
	} {
		for lib, c := range codecs {
			t.Run(tc.name+"/"+lib, func(t *testing.T) {
				v := old
				v.Extra = map[string]jsontext.Value{"was": jsontext.Value(`1`)}
				err := c.unmarshal([]byte(tc.in), &v)
				if tc.err == nil {
					require.NoError(t, err)
				} else {
					require.Error(t, err)
					assert.Equal(t, *tc.err, decodeErrorOf(t, err), "%v", err)
				}
				assert.Equal(t, tc.want, v)
			})
		}
	}
}

// decodeError is what a decoding error says, whatever its wording: the
// member it is about ("" for the whole value) and the Go type that could
// not take the JSON value; a syntax error has neither.
type decodeError struct {
	member string
	goType reflect.Type
}

// decodeErrorOf reads a decoding error of either JSON library. encoding/json
// returns the model's own error on Go 1.26, and on Go 1.27 (where it runs
// on the engine of encoding/json/v2) an UnmarshalTypeError or SyntaxError
// made from it.
func decodeErrorOf(t *testing.T, err error) decodeError {
	t.Helper()
	var (
		se   *jsonv2.SemanticError
		te   *json.UnmarshalTypeError
		syn1 *json.SyntaxError
		syn2 *jsontext.SyntacticError
	)
	switch {
	case errors.As(err, &se):
		return decodeError{strings.ReplaceAll(strings.TrimPrefix(string(se.JSONPointer), "/"), "/", "."), se.GoType}
	case errors.As(err, &te):
		return decodeError{te.Field, te.Type}
	case errors.As(err, &syn1), errors.As(err, &syn2):
		return decodeError{}
	}
	t.Fatalf("an error of type %T: %v", err, err)
	return decodeError{}
}

func TestMarshal(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   thing
		want string
	}{
		{"zero", thing{}, `{"id":""}`},
		{"fields and tags", thing{ID: "a", Count: 2, Part: part{Name: "p"}}, `{"id":"a","count":2,"part":{"name":"p"}}`},
		{"unknown members in place, nested too", thing{ID: "a", Part: part{Name: "p", Extra: map[string]jsontext.Value{"q": jsontext.Value(`[1]`)}}, Extra: map[string]jsontext.Value{"z": jsontext.Value(`true`)}},
			`{"id":"a","part":{"name":"p","q":[1]},"z":true}`},
	} {
		for lib, c := range codecs {
			t.Run(tc.name+"/"+lib, func(t *testing.T) {
				out, err := c.marshal(tc.in)
				require.NoError(t, err)
				assert.JSONEq(t, tc.want, string(out))
				var back thing
				require.NoError(t, c.unmarshal(out, &back))
				assert.Equal(t, tc.in, back, "the value comes back as it was")
			})
		}
	}
}

// TestTwinIsMadeOnce: every call, from any goroutine, converts to the same
// twin type, which has the model's fields and tags and no methods.
func TestTwinIsMadeOnce(t *testing.T) {
	defer goleak.VerifyNone(t)
	var wg sync.WaitGroup
	types := make([]reflect.Type, 16)
	for i := range types {
		wg.Go(func() { types[i] = reflect.TypeOf(twinOf(&thing{})) })
	}
	wg.Wait()
	twin := types[0]
	for _, ty := range types {
		assert.Same(t, twin, ty)
	}
	require.Equal(t, reflect.Pointer, twin.Kind())
	assert.LessOrEqual(t, testing.AllocsPerRun(100, func() { twinOf(&thing{}) }), 1.0,
		"the twin is looked up, not made again: making one allocates the fields and the type")
	assert.Zero(t, twin.NumMethod())
	assert.Zero(t, twin.Elem().NumMethod())
	model := reflect.TypeFor[thing]()
	require.Equal(t, model.NumField(), twin.Elem().NumField())
	for i := range model.NumField() {
		assert.Equal(t, model.Field(i).Name, twin.Elem().Field(i).Name)
		assert.Equal(t, model.Field(i).Tag, twin.Elem().Field(i).Tag)
		assert.Equal(t, model.Field(i).Type, twin.Elem().Field(i).Type)
	}
}

// TestUnmarshalBody: reading a request body, null is refused for a member
// the model names, at any depth, and allowed for an unknown member (kept
// as raw JSON, like an opaque member's insides).
func TestUnmarshalBody(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		err      string // the member's pointer, "" for no error
	}{
		{"a modelled member", `{"id":null}`, "/id"},
		{"a nested model's member", `{"id":"a","part":{"name":null}}`, "/part/name"},
		{"an unknown member", `{"id":"a","zz":null}`, ""},
		{"inside an unknown member", `{"id":"a","zz":{"x":[null]}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v body
			err := UnmarshalBody([]byte(tc.in), &v)
			if tc.err == "" {
				require.NoError(t, err)
				out, err := Marshal(v)
				require.NoError(t, err)
				assert.JSONEq(t, tc.in, string(out))
				return
			}
			assert.ErrorIs(t, err, ErrNull)
			se, ok := errors.AsType[*jsonv2.SemanticError](err)
			require.True(t, ok, "%T", err)
			assert.Equal(t, tc.err, string(se.JSONPointer))
			assert.Equal(t, "jsonmodel.body", se.GoType.String(), "the error names the body's type")
		})
	}
}

// body is a request body as the SDK declares one.
type body struct {
	ID    string                    `json:"id"`
	Part  *bodyPart                 `json:"part,omitzero"`
	Extra map[string]jsontext.Value `json:",embed"`
}

type bodyPart struct {
	Name  *string                   `json:"name,omitzero"`
	Extra map[string]jsontext.Value `json:",embed"`
}

func (p *bodyPart) UnmarshalJSON(data []byte) error { return UnmarshalBody(data, p) }

// TestMarshalRefusesAnExtraKeyThatNamesAField: the fallback cannot hold a
// member the model names; the error names the model and the key.
func TestMarshalRefusesAnExtraKeyThatNamesAField(t *testing.T) {
	_, err := Marshal(thing{ID: "a", Extra: map[string]jsontext.Value{"count": jsontext.Value(`1`)}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"count"`)
	assert.Contains(t, err.Error(), "jsonmodel.thing")
	_, err = Marshal(thing{ID: "a", Extra: map[string]jsontext.Value{"other": jsontext.Value(`1`)}})
	assert.NoError(t, err)
}

// firstFallback is a model whose fallback is its first field.
type firstFallback struct {
	Extra map[string]jsontext.Value `json:",embed"`
	ID    *string                   `json:"id,omitzero"`
}

// noFallback is a model without a fallback, with a member that is a map
// of raw values (not a fallback: its keys are the member's own).
type noFallback struct {
	ID     string                    `json:"id"`
	Labels map[string]jsontext.Value `json:"labels,omitzero"`
}

// TestTheFallbackIsFoundWhereverItStands: the fallback is the field tagged
// embed, first or not, and a model without one has none, whatever its
// other fields hold.
func TestTheFallbackIsFoundWhereverItStands(t *testing.T) {
	t.Run("first field: a key naming a field is refused", func(t *testing.T) {
		_, err := Marshal(firstFallback{Extra: map[string]jsontext.Value{"id": jsontext.Value(`"a"`)}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `"id"`)
	})
	t.Run("first field: null is kept in an unknown member", func(t *testing.T) {
		var v firstFallback
		require.NoError(t, UnmarshalBody([]byte(`{"id":"a","zz":null}`), &v))
		assert.Equal(t, jsontext.Value(`null`), v.Extra["zz"])
		assert.ErrorIs(t, UnmarshalBody([]byte(`{"id":null}`), &v), ErrNull)
	})
	t.Run("no fallback: a map member's keys are its own", func(t *testing.T) {
		out, err := Marshal(noFallback{ID: "a", Labels: map[string]jsontext.Value{"id": jsontext.Value(`1`)}})
		require.NoError(t, err)
		assert.JSONEq(t, `{"id":"a","labels":{"id":1}}`, string(out))
	})
}

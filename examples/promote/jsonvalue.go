package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// The configuration is handled as parsed JSON: an object is a
// map[string]any, an array a []any, a string a string, true and false a
// bool, null nil, and a number a number, its literal as it came (so that
// no number is rewritten: 1.0 stays 1.0, a 20-digit id keeps its digits).

// number is a JSON number, its literal as it came.
type number string

// parseJSON parses one JSON value. Duplicate member names, invalid UTF-8
// and trailing data are errors.
func parseJSON(b []byte) (any, error) {
	d := jsontext.NewDecoder(bytes.NewReader(b))
	v, err := parseValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// parseValue parses the next value of d.
func parseValue(d *jsontext.Decoder) (any, error) {
	t, err := d.ReadToken()
	if err != nil {
		return nil, err
	}
	switch t.Kind() {
	case 'n':
		return nil, nil
	case 't', 'f':
		return t.Bool(), nil
	case '"':
		return t.String(), nil
	case '0':
		return number(t.String()), nil
	case '[':
		a := []any{}
		for d.PeekKind() != ']' {
			v, err := parseValue(d)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := d.ReadToken()
		return a, err
	case '{':
		m := map[string]any{}
		for d.PeekKind() != '}' {
			k, err := d.ReadToken()
			if err != nil {
				return nil, err
			}
			if m[k.String()], err = parseValue(d); err != nil {
				return nil, err
			}
		}
		_, err := d.ReadToken()
		return m, err
	}
	return nil, fmt.Errorf("unexpected %v", t)
}

// encodeJSON writes v canonically: the members of every object sorted by
// name (byte order of their UTF-8), strings in one escaping (only what
// JSON requires is escaped), numbers as they came. indent gives one
// member or element per line, indented by two spaces, and a final
// newline: the form of the files.
func encodeJSON(v any, indent bool) []byte {
	var buf bytes.Buffer
	var opts []jsontext.Options
	if indent {
		opts = append(opts, jsontext.WithIndent("  "))
	}
	e := jsontext.NewEncoder(&buf, opts...)
	if err := encodeValue(e, v); err != nil {
		panic("promote: encoding a parsed value: " + err.Error()) // parsed values always encode
	}
	if !indent {
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	return buf.Bytes()
}

func encodeValue(e *jsontext.Encoder, v any) error {
	switch v := v.(type) {
	case nil:
		return e.WriteToken(jsontext.Null)
	case bool:
		return e.WriteToken(jsontext.Bool(v))
	case string:
		return e.WriteToken(jsontext.String(v))
	case number:
		return e.WriteValue(jsontext.Value(v))
	case []any:
		if err := e.WriteToken(jsontext.BeginArray); err != nil {
			return err
		}
		for _, x := range v {
			if err := encodeValue(e, x); err != nil {
				return err
			}
		}
		return e.WriteToken(jsontext.EndArray)
	case map[string]any:
		if err := e.WriteToken(jsontext.BeginObject); err != nil {
			return err
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if err := e.WriteToken(jsontext.String(k)); err != nil {
				return err
			}
			if err := encodeValue(e, v[k]); err != nil {
				return err
			}
		}
		return e.WriteToken(jsontext.EndObject)
	}
	return fmt.Errorf("%T is no parsed JSON value", v)
}

// absent stands for a member one side of a comparison does not have.
type absent struct{}

// change is a member whose value differs: Path is its JSON pointer
// (RFC 6901) in the object, Old and New its values (absent where it has
// none).
type change struct {
	Path     string
	Old, New any
}

// diff appends to out the members that differ between old and new, the
// values at path: leaves where both are objects, each element where both
// are arrays of one length, and each member of an object on one side
// only. Numbers are compared by their literal.
func diff(path string, old, new any, out []change) []change {
	if reflect.DeepEqual(old, new) {
		return out
	}
	om, oObj := old.(map[string]any)
	nm, nObj := new.(map[string]any)
	_, oAbsent := old.(absent)
	_, nAbsent := new.(absent)
	oa, oArr := old.([]any)
	na, nArr := new.([]any)
	switch {
	case oObj && nObj, oObj && nAbsent && len(om) > 0, oAbsent && nObj && len(nm) > 0:
		keys := slices.Sorted(maps.Keys(om))
		for k := range nm {
			if _, ok := om[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = diff(path+"/"+escapePointer(k), member(om, k), member(nm, k), out)
		}
		return out
	case oArr && nArr && len(oa) == len(na):
		for i := range oa {
			out = diff(fmt.Sprintf("%s/%d", path, i), oa[i], na[i], out)
		}
		return out
	}
	return append(out, change{Path: path, Old: old, New: new})
}

// member is m[k], or absent.
func member(m map[string]any, k string) any {
	if v, ok := m[k]; ok {
		return v
	}
	return absent{}
}

// escapePointer escapes a member name for a JSON pointer.
func escapePointer(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}

// show is how a plan prints a value: compact canonical JSON, or
// "(absent)".
func show(v any) string {
	if _, ok := v.(absent); ok {
		return "(absent)"
	}
	return string(encodeJSON(v, false))
}

package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/admin"
)

// An object is held in the canonical form of package admin (see
// admin.Automation): members sorted by name at every depth, strings with
// the fewest escapes, numbers as they came, no white space. Every member
// and element of a canonical value is canonical in turn, so equal values
// have equal bytes, and a member is printed as its bytes.

// canonical returns the canonical form of b, the write form of an object
// of kind k. Duplicate member names, invalid UTF-8 and trailing data are
// errors.
func canonical(k kind, b []byte) (jsontext.Value, error) {
	if jsontext.Value(b).Kind() != '{' {
		return nil, fmt.Errorf("%s must be a JSON object", k.withArticle())
	}
	c, err := admin.Canonical(b)
	if err != nil {
		if u := errors.Unwrap(err); u != nil {
			err = u // the parse error, without admin's words for an automation
		}
		return nil, err
	}
	return jsontext.Value(c), nil
}

// indented is the canonical value v as a file holds it: one member or
// element per line, indented by two spaces, and a final newline.
func indented(v jsontext.Value) []byte {
	v = slices.Clone(v)
	if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
		panic("promote: indenting a canonical value: " + err.Error()) // canonical values are valid
	}
	return append(v, '\n')
}

// members returns the members of v, or nil when v is no JSON object.
func members(v jsontext.Value) map[string]jsontext.Value {
	var m map[string]jsontext.Value
	if v.Kind() != '{' || json.Unmarshal(v, &m) != nil {
		return nil
	}
	return m
}

// text returns v as a string, and whether it is a JSON string.
func text(v jsontext.Value) (string, bool) {
	var s string
	return s, v.Kind() == '"' && json.Unmarshal(v, &s) == nil
}

// names returns the names of the members of a and b, sorted, each once.
func names[V any](a, b map[string]V) []string {
	s := slices.AppendSeq(slices.Collect(maps.Keys(a)), maps.Keys(b))
	slices.Sort(s)
	return slices.Compact(s)
}

// change is a member whose value differs: Path is its JSON pointer
// (RFC 6901) in the object, Old and New its canonical values (nil where
// it has none).
type change struct {
	Path     string
	Old, New jsontext.Value
}

// diff appends to out the members that differ between old and new, the
// values at path (nil: absent): leaves where both are objects, each
// element where both are arrays of one length, and each member of an
// object on one side only. Numbers are compared by their literal.
func diff(path string, old, new jsontext.Value, out []change) []change {
	if bytes.Equal(old, new) {
		return out
	}
	om, nm := members(old), members(new)
	var oa, na []jsontext.Value
	switch {
	case om != nil && (nm != nil || new == nil && len(om) > 0), old == nil && len(nm) > 0:
		for _, k := range names(om, nm) {
			out = diff(path+"/"+escapePointer(k), om[k], nm[k], out)
		}
		return out
	case old.Kind() == '[' && new.Kind() == '[' && json.Unmarshal(old, &oa) == nil && json.Unmarshal(new, &na) == nil && len(oa) == len(na):
		for i := range oa {
			out = diff(fmt.Sprintf("%s/%d", path, i), oa[i], na[i], out)
		}
		return out
	}
	return append(out, change{Path: path, Old: old, New: new})
}

// escapePointer escapes a member name for a JSON pointer.
func escapePointer(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}

// show is how a plan prints a value: compact canonical JSON, or
// "(absent)".
func show(v jsontext.Value) string {
	if v == nil {
		return "(absent)"
	}
	return string(v)
}

package workflow

import (
	"context"
	"encoding"
	"errors"
	"fmt"
	"iter"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// timeLayout is the API's date-time form, shared with the rsql package so
// that filters and records write times identically.
const timeLayout = rsql.TimeLayout

// FormatTime returns t in the API's form, YYYY-MM-DDTHH:MM:SS.SSSZ: converted
// to UTC and truncated to the millisecond. The API does not accept local
// offsets, so this is the only form the SDK sends.
func FormatTime(t time.Time) string {
	return t.UTC().Format(timeLayout)
}

// ParseTime reads a date-time sent by the service and returns it in UTC.
//
// The API's form is YYYY-MM-DDTHH:MM:SS.SSSZ. Because a value read back can
// only be interpreted one way, ParseTime also accepts any RFC 3339 date-time
// (with or without fractional seconds, with "Z" or a numeric offset, which
// is converted to UTC) and a bare date YYYY-MM-DD (midnight UTC). Anything
// else, including surrounding spaces, is an error. What the SDK sends is
// always in the API's form (see FormatTime).
func ParseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err == nil {
		return t, nil
	}
	if t2, err2 := time.Parse(time.RFC3339Nano, s); err2 == nil {
		return t2.UTC(), nil
	}
	if t2, err2 := time.Parse(time.DateOnly, s); err2 == nil {
		return t2, nil
	}
	return time.Time{}, fmt.Errorf("workflow: invalid time %q (want the form YYYY-MM-DDTHH:MM:SS.SSSZ): %w", s, err)
}

// DecodeError reports a record field whose value could not be stored in
// the Go field it maps to. Its text names the record field, the Go field
// and its type, and the rule the value breaks, never the value: a record's
// values are users' data. Value and Err keep it for a caller who asks.
type DecodeError struct {
	Field   string       // record field name, e.g. "Due Date"
	GoField string       // Go field, e.g. "Task.Due"
	Type    reflect.Type // type of the Go field
	Value   string       // the record's value: users' data, which Error never prints
	// Err is why the value was rejected. For a field whose type
	// implements encoding.TextUnmarshaler it is the error of its
	// UnmarshalText, which Error does not print (it may quote the value).
	Err error
	// Cursor is the list cursor of the record that failed, set by AllAs:
	// pass it as ListOptions.After (Before, going backward) to resume
	// after the bad record.
	Cursor string
}

// Error names the record field, the Go field and its type, and why the
// value was rejected, without the value.
func (e *DecodeError) Error() string {
	why := "<nil>"
	switch {
	case unmarshalsText(e.Type): // its error is not even asked for its text
		why = "refused by its UnmarshalText"
	case e.Err != nil:
		why = e.Err.Error()
	}
	return fmt.Sprintf("workflow: cannot decode record field %q into %s (%v): %s", e.Field, e.GoField, e.Type, why)
}

// unmarshalsText reports whether a Go field of type t is decoded by its
// own UnmarshalText (time.Time is decoded by ParseTime).
func unmarshalsText(t reflect.Type) bool {
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t != nil && t != timeType && reflect.PointerTo(t).Implements(textUnmarshalerType)
}

// Unwrap returns the cause.
func (e *DecodeError) Unwrap() error { return e.Err }

// Decode stores the fields of r in the struct v points to.
//
// Each exported field of the struct maps to the record field named by its
// `workflow:"..."` tag, or to the record field with the Go field's name when
// untagged; names match exactly, case included (record field names are used
// exactly as the definition configures them). A field tagged `workflow:"-"`
// is skipped. The fields of an embedded struct are treated as the outer
// struct's own, as encoding/json does: of several fields mapping to one
// record field, the least deeply embedded wins; two at that depth are an
// error naming both (encoding/json drops both silently). Record field
// names may contain
// spaces and commas: a tag's text after the last comma is an option only if
// it is one of the options below.
//
// Options (after a comma in the tag):
//   - omitempty: Encode leaves the field out when it holds its zero value
//     (an empty string, 0, false, the zero time; a non-nil pointer is never
//     left out).
//   - extra: the field, of type Record, collects on Decode the record fields
//     no other field maps to, and on Encode adds them back (the struct's own
//     fields win). A struct has at most one such field.
//
// Supported field types: string, bool, every int, uint and float kind (and
// named types of them), time.Time, types implementing
// encoding.TextUnmarshaler (Decode) and encoding.TextMarshaler (Encode), and
// pointers to any of these. Any other field type is an error unless tagged
// "-".
//
// Values are read as follows. Numbers are base 10 and must fit the Go type;
// floats must be finite. Bools accept true/false, t/f and 1/0, in any case.
// Times are read with ParseTime and stored in UTC. A TextUnmarshaler gets the
// value as it is. An empty value stores the zero value in a string, number,
// bool or time field, and leaves a pointer to one of these nil (so an empty
// value and an absent one look the same there); a *string, or a pointer to a
// TextUnmarshaler, is set to a new value decoded from "". A record field
// absent from r leaves its Go field unchanged, so decode into a fresh value.
//
// When values cannot be stored, the other fields are still decoded and the
// first failure is returned as a *DecodeError. A v that is not a non-nil
// pointer to a struct, or a struct field of an unsupported type, is a
// *ValidationError naming the type.
func Decode(r Record, v any) error {
	return decodeRecord(r, nil, "", v)
}

// decodeRecord is Decode for the fields of r, or when rt is not nil for
// rt's fields, their values slices of all (a list item's record, read
// without a Record in between).
func decodeRecord(r Record, rt *recordText, all string, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return invalid("v", fmt.Sprintf("must be a non-nil pointer to a struct, got %T", v))
	}
	p, err := planFor(rv.Type().Elem())
	if err != nil {
		return err
	}
	var st decodeState
	sv := rv.Elem()
	if rt != nil {
		for _, f := range rt.fields {
			p.store(&st, sv, f.name, all[f.off:f.end])
		}
	} else {
		for name, s := range r {
			p.store(&st, sv, name, s)
		}
	}
	if p.extra != nil {
		dst, _ := fieldAt(sv, p.extra, true)
		dst.Set(reflect.ValueOf(st.rest))
	}
	return st.first
}

// Encode returns the record fields of the struct v (or v points to), as
// Decode describes them, ready for Create or Update. A nil pointer field is
// left out, as is an omitempty field holding its zero value. Times are sent
// in the API's form (FormatTime: UTC, millisecond precision); the zero time
// is sent as "" (no value). Floats use the shortest decimal form that reads
// back to the same value, without an exponent (as the rsql package writes
// them), and must be finite.
//
// A value that cannot be sent is a *ValidationError naming the Go field,
// the record field and what is wrong with the value (not the value
// itself, which may be users' data), so nothing wrong reaches the service.
// A field's MarshalText error is its cause, which its text does not
// print (it may quote the value).
// A v that is not a struct or a non-nil pointer to one, or a struct field
// of an unsupported type, is a *ValidationError naming the type.
func Encode(v any) (Record, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	} else if rv.Kind() == reflect.Struct {
		// Copy into an addressable value so that TextMarshaler methods on
		// pointer receivers are found.
		rv = reflect.New(rv.Type()).Elem()
		rv.Set(reflect.ValueOf(v))
	}
	if rv.Kind() != reflect.Struct {
		return nil, invalid("v", fmt.Sprintf("must be a struct or a non-nil pointer to one, got %T", v))
	}
	p, err := planFor(rv.Type())
	if err != nil {
		return nil, err
	}
	return p.encode(rv)
}

// AllAs iterates over the records like RecordsService.All, decoding each
// into a new T: a struct type (see Decode) or a pointer to one. A record that does not decode
// ends the iteration with a *DecodeError whose Cursor resumes after that
// record; any other error is yielded once, as with All. To save the
// position of a long walk and resume it later, use AllItemsAs.
func AllAs[T any](ctx context.Context, s *RecordsService, t RecordType, alias string, opts *ListOptions, reqOpts ...RequestOption) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for item, err := range AllItemsAs[T](ctx, s, t, alias, opts, reqOpts...) {
			if !yield(item.Value, err) {
				return
			}
		}
	}
}

// GetAs is RecordsService.Get followed by Decode into a new T:
// GET /{recordType}/{alias}/{id}.
func GetAs[T any](ctx context.Context, s *RecordsService, t RecordType, alias, id string, reqOpts ...RequestOption) (T, error) {
	return decodeAs[T](s.Get(ctx, t, alias, id, reqOpts...))
}

// decodeAs decodes r, the record a call answered, into a new T; when the
// call failed (err is not nil) it returns err.
func decodeAs[T any](r Record, err error) (T, error) {
	var v T
	if err == nil {
		err = decodeTo(r, nil, "", &v)
	}
	if err != nil {
		return *new(T), err
	}
	return v, nil
}

// decodeTo decodes the record as decodeRecord does into *v, a struct or a
// pointer to one (which is then allocated).
func decodeTo[T any](r Record, rt *recordText, all string, v *T) error {
	dst := any(v)
	if rv := reflect.ValueOf(v).Elem(); rv.Kind() == reflect.Pointer && rv.Type().Elem().Kind() == reflect.Struct {
		rv.Set(reflect.New(rv.Type().Elem()))
		dst = *v
	}
	return decodeRecord(r, rt, all, dst)
}

// CreateAs encodes v (see Encode), creates the record with
// RecordsService.Create (POST /{recordType}/{alias}) and returns the
// created record decoded into a new T. Nothing is sent if v does not
// encode.
func CreateAs[T any](ctx context.Context, s *RecordsService, t RecordType, alias string, v T, reqOpts ...RequestOption) (T, error) {
	return writeAs(v, func(fields Record) (Record, error) { return s.Create(ctx, t, alias, fields, reqOpts...) })
}

// UpdateAs encodes v (see Encode), sends the fields with
// RecordsService.Update (PUT /{recordType}/{alias}/{id}) and returns the
// updated record decoded into a new T. Every field Encode writes is sent;
// use pointer or omitempty fields for the ones you do not mean to change.
// Nothing is sent if v does not encode.
func UpdateAs[T any](ctx context.Context, s *RecordsService, t RecordType, alias, id string, v T, reqOpts ...RequestOption) (T, error) {
	return writeAs(v, func(fields Record) (Record, error) { return s.Update(ctx, t, alias, id, fields, reqOpts...) })
}

// writeAs encodes v, writes the fields with write and decodes the record
// the service answers into a new T.
func writeAs[T any](v T, write func(Record) (Record, error)) (T, error) {
	fields, err := Encode(v)
	if err != nil {
		return *new(T), err
	}
	return decodeAs[T](write(fields))
}

// fieldKind is how a Go field's value is converted.
type fieldKind uint8

const (
	kindString fieldKind = iota
	kindBool
	kindInt
	kindUint
	kindFloat
	kindTime
	kindText // encoding.TextMarshaler / TextUnmarshaler
)

// codecField is one struct field of a plan.
type codecField struct {
	name      string       // record field name
	goName    string       // "Type.Field" for messages
	index     []int        // path from the outer struct, through embedded structs
	typ       reflect.Type // the field's type
	ptr       bool         // the field is a pointer to elem
	elem      reflect.Type // the type values are converted to and from
	kind      fieldKind
	omitEmpty bool
	depth     int // of embedding: the shallowest field of a name wins
}

// codecPlan is what Decode and Encode know about a struct type.
type codecPlan struct {
	fields []codecField
	byName map[string]int // record field name -> index in fields
	extra  []int          // index path of the `,extra` Record field, if any
}

type planEntry struct {
	plan *codecPlan
	err  error
}

var planCache sync.Map // reflect.Type -> planEntry

var (
	timeType            = reflect.TypeFor[time.Time]()
	recordType          = reflect.TypeFor[Record]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
)

// planFor returns the cached plan of struct type t, building it once.
func planFor(t reflect.Type) (*codecPlan, error) {
	e, ok := planCache.Load(t)
	if !ok {
		p, err := buildPlan(t)
		e, _ = planCache.LoadOrStore(t, planEntry{p, err})
	}
	pe := e.(planEntry)
	return pe.plan, pe.err
}

func buildPlan(t reflect.Type) (*codecPlan, error) {
	var (
		cands     []codecField // found walking the struct and its embedded structs
		extra     []int
		extraName string
	)
	visiting := map[reflect.Type]bool{}
	var walk func(st reflect.Type, index []int, depth int) error
	walk = func(st reflect.Type, index []int, depth int) error {
		if visiting[st] {
			return nil // an embedding cycle through pointers adds nothing new
		}
		visiting[st] = true
		defer delete(visiting, st)
		for i := range st.NumField() {
			sf := st.Field(i)
			idx := append(append([]int(nil), index...), i)
			tag := sf.Tag.Get("workflow")
			if tag == "-" {
				continue
			}
			name, opts := parseTag(tag)
			goName := st.Name() + "." + sf.Name
			elem, ptr := sf.Type, sf.Type.Kind() == reflect.Pointer
			if ptr {
				elem = elem.Elem()
			}
			// The fields of an embedded struct are walked as the outer
			// struct's own; time.Time and text types are values (they
			// implement the text interfaces).
			if sf.Anonymous && name == "" && !opts.extra && elem.Kind() == reflect.Struct && !implementsText(elem) {
				if ptr && !sf.IsExported() {
					continue // cannot be allocated through reflection
				}
				if err := walk(elem, idx, depth+1); err != nil {
					return err
				}
				continue
			}
			if !sf.IsExported() {
				continue
			}
			if opts.extra {
				if sf.Type != recordType {
					return invalid(goName, fmt.Sprintf("has the extra option, so must be a workflow.Record, not %s", sf.Type))
				}
				if extra != nil {
					return invalid(goName, "has the extra option, which "+extraName+" has already (one field of a struct may have it)")
				}
				extra, extraName = idx, goName
				continue
			}
			if name == "" {
				name = sf.Name
			}
			f := codecField{name: name, goName: goName, index: idx, typ: sf.Type, ptr: ptr, elem: elem, omitEmpty: opts.omitEmpty, depth: depth}
			if err := classify(&f); err != nil {
				return err
			}
			cands = append(cands, f)
		}
		return nil
	}
	if err := walk(t, nil, 0); err != nil {
		return nil, err
	}

	// The shallowest field of a name wins, wherever it stands; two at the
	// shallowest depth collide (clash holds the second).
	best, clash := map[string]int{}, map[string]int{}
	for i, c := range cands {
		j, ok := best[c.name]
		_, clashed := clash[c.name]
		switch {
		case !ok || c.depth < cands[j].depth:
			best[c.name] = i
			delete(clash, c.name)
		case c.depth == cands[j].depth && !clashed:
			clash[c.name] = i
		}
	}
	for i, c := range cands {
		if k, ok := clash[c.name]; ok && k == i {
			return nil, invalid(c.goName, fmt.Sprintf("maps to record field %q, as %s does (give one another name, or tag it `workflow:\"-\"`)",
				c.name, cands[best[c.name]].goName))
		}
	}
	p := &codecPlan{byName: make(map[string]int, len(best)), extra: extra}
	for i, c := range cands {
		if best[c.name] == i {
			p.byName[c.name] = len(p.fields)
			p.fields = append(p.fields, c)
		}
	}
	return p, nil
}

type tagOptions struct{ omitEmpty, extra bool }

// parseTag splits a tag into the record field name and the options. Only
// known options are split off the end, so a record field name may itself
// contain commas.
func parseTag(tag string) (string, tagOptions) {
	var o tagOptions
	for {
		i := strings.LastIndexByte(tag, ',')
		if i < 0 {
			return tag, o
		}
		switch tag[i+1:] {
		case "omitempty":
			o.omitEmpty = true
		case "extra":
			o.extra = true
		case "":
		default:
			return tag, o
		}
		tag = tag[:i]
	}
}

func implementsText(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return pt.Implements(textUnmarshalerType) || pt.Implements(textMarshalerType)
}

// classify sets f.kind from f.elem, or reports an unsupported type.
func classify(f *codecField) error {
	switch t := f.elem; {
	case t == timeType:
		f.kind = kindTime
	case implementsText(t):
		f.kind = kindText
	default:
		switch t.Kind() {
		case reflect.String:
			f.kind = kindString
		case reflect.Bool:
			f.kind = kindBool
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f.kind = kindInt
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			f.kind = kindUint
		case reflect.Float32, reflect.Float64:
			f.kind = kindFloat
		default:
			return invalid(f.goName, fmt.Sprintf("has type %s, which a record field cannot hold (use a string, bool, number, time.Time, encoding.TextMarshaler/TextUnmarshaler or a pointer to one, or tag it `workflow:\"-\"`)",
				f.typ))
		}
	}
	return nil
}

// decodeState is a record's decoding in progress: the failure of the
// first Go field that failed, in the struct's order, and the record fields
// the plan does not know.
type decodeState struct {
	first   error
	firstAt int
	rest    Record
}

// store decodes the record field name = s into its Go field in sv, or
// keeps it for the extra field.
func (p *codecPlan) store(st *decodeState, sv reflect.Value, name, s string) {
	i, known := p.byName[name]
	switch {
	case known:
		f := &p.fields[i]
		if err := f.decode(sv, s); err != nil && (st.first == nil || i < st.firstAt) {
			st.first, st.firstAt = &DecodeError{Field: f.name, GoField: f.goName, Type: f.typ, Value: s, Err: err}, i
		}
	case p.extra != nil:
		if st.rest == nil {
			st.rest = make(Record)
		}
		st.rest[name] = s
	}
}

// fieldAt returns the field at index. A nil embedded pointer on the way
// is allocated when alloc is set (to write the field), and otherwise
// makes fieldAt return false (there is no field to read).
func fieldAt(v reflect.Value, index []int, alloc bool) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !alloc {
					return reflect.Value{}, false
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// errNonFinite rejects NaN and infinities, which the API cannot hold.
var errNonFinite = errors.New("not a finite number")

// errNotTime rejects a value ParseTime does not read.
var errNotTime = errors.New("not a time (want the form YYYY-MM-DDTHH:MM:SS.SSSZ)")

func (f *codecField) decode(sv reflect.Value, s string) error {
	if s == "" && f.kind != kindString && f.kind != kindText {
		// No value: leave the zero value (or a nil pointer). Fields are only
		// written when present, so set it explicitly.
		if dst, ok := fieldAt(sv, f.index, false); ok {
			dst.SetZero()
		}
		return nil
	}
	if !f.ptr && f.kind != kindText {
		// decodeInto parses before it sets: a bad value leaves the field
		// as it was.
		dst, _ := fieldAt(sv, f.index, true)
		return decodeInto(f, dst.Addr(), s)
	}
	// A fresh value first, so that a bad value leaves the field as it was.
	nv := reflect.New(f.elem)
	if err := decodeInto(f, nv, s); err != nil {
		return err
	}
	if !f.ptr {
		nv = nv.Elem()
	}
	dst, _ := fieldAt(sv, f.index, true)
	dst.Set(nv)
	return nil
}

// decodeInto converts s into *pv (pv is a pointer to f.elem).
func decodeInto(f *codecField, pv reflect.Value, s string) error {
	v := pv.Elem()
	switch f.kind {
	case kindString:
		v.SetString(s)
	case kindBool:
		b, err := strconv.ParseBool(strings.ToLower(s))
		if err != nil {
			return errors.New("not a bool (want true or false)")
		}
		v.SetBool(b)
	case kindInt:
		n, err := strconv.ParseInt(s, 10, v.Type().Bits())
		if err != nil {
			return numError(err, v.Type())
		}
		v.SetInt(n)
	case kindUint:
		n, err := strconv.ParseUint(s, 10, v.Type().Bits())
		if err != nil {
			return numError(err, v.Type())
		}
		v.SetUint(n)
	case kindFloat:
		if !isBase10(s) { // ParseFloat also takes hex ("0x1p4"), "_" separators, "Inf" and "NaN"
			if n, err := strconv.ParseFloat(s, 64); err == nil && (math.IsNaN(n) || math.IsInf(n, 0)) {
				return errNonFinite
			}
			return fmt.Errorf("not a base-10 %s", v.Type())
		}
		// A base-10 number is never NaN, and one too large for the type
		// fails with strconv.ErrRange: what parses is finite.
		n, err := strconv.ParseFloat(s, v.Type().Bits())
		if err != nil {
			return numError(err, v.Type())
		}
		v.SetFloat(n)
	case kindTime:
		t, err := ParseTime(s)
		if err != nil {
			return errNotTime // ParseTime's error quotes the value
		}
		*pv.Interface().(*time.Time) = t
	case kindText:
		u, ok := pv.Interface().(encoding.TextUnmarshaler)
		if !ok {
			return fmt.Errorf("%s does not implement encoding.TextUnmarshaler", f.elem)
		}
		return u.UnmarshalText([]byte(s))
	}
	return nil
}

// isBase10 reports whether s is a base-10 number with an optional sign:
// digits, at most one ".", an optional exponent.
func isBase10(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	return isDecimal(s)
}

func numError(err error, t reflect.Type) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("out of range for %s", t)
	}
	return fmt.Errorf("not a base-10 %s", t)
}

func (p *codecPlan) encode(sv reflect.Value) (Record, error) {
	r := make(Record, len(p.fields))
	for i := range p.fields {
		f := &p.fields[i]
		v, ok := fieldAt(sv, f.index, false)
		if !ok {
			continue
		}
		if f.ptr {
			if v.IsNil() {
				continue
			}
			v = v.Elem()
		} else if f.omitEmpty && v.IsZero() {
			continue
		}
		s, err := f.encode(v)
		if err != nil {
			return nil, &ValidationError{
				Field: fmt.Sprintf("%s (record field %q)", f.goName, f.name),
				Rule:  "must be a value the record field can hold",
				Err:   err,
			}
		}
		if f.omitEmpty && !f.ptr && s == "" {
			continue
		}
		r[f.name] = s
	}
	if p.extra != nil {
		if v, ok := fieldAt(sv, p.extra, false); ok {
			// Only names no field maps to: the struct's own fields win,
			// even those left out.
			for k, s := range v.Interface().(Record) {
				if _, known := p.byName[k]; !known {
					r[k] = s
				}
			}
		}
	}
	return r, nil
}

// encode converts v (of type f.elem, addressable) to its record value.
func (f *codecField) encode(v reflect.Value) (string, error) {
	switch f.kind {
	case kindString:
		return v.String(), nil
	case kindBool:
		return strconv.FormatBool(v.Bool()), nil
	case kindInt:
		return strconv.FormatInt(v.Int(), 10), nil
	case kindUint:
		return strconv.FormatUint(v.Uint(), 10), nil
	case kindFloat:
		x := v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", fmt.Errorf("%v is %w", x, errNonFinite)
		}
		return strconv.FormatFloat(x, 'f', -1, v.Type().Bits()), nil
	case kindTime:
		t := v.Interface().(time.Time)
		if t.IsZero() {
			return "", nil
		}
		if y := t.UTC().Year(); y < 1 || y > 9999 {
			return "", errors.New("a time outside the years 0001 to 9999")
		}
		return FormatTime(t), nil
	}
	// kindText
	m, ok := v.Addr().Interface().(encoding.TextMarshaler)
	if !ok {
		return "", fmt.Errorf("%s does not implement encoding.TextMarshaler", f.elem)
	}
	b, err := m.MarshalText()
	if err != nil {
		return "", marshalTextError{err}
	}
	return string(b), nil
}

// marshalTextError is a field's MarshalText error, which Encode's error
// keeps (errors.As finds it) but does not ask for its text: it may quote
// the value, users' data (as UnmarshalText's may, see DecodeError).
type marshalTextError struct{ err error }

func (marshalTextError) Error() string   { return "refused by its MarshalText" }
func (e marshalTextError) Unwrap() error { return e.err }

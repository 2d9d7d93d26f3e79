package workflow

import (
	"errors"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"
)

// UnmarshalJSONFrom reads a record, a JSON object whose values are strings
// (or null, read as ""), for github.com/go-json-experiment/json, which the
// SDK reads every answer with: the pages of a record list (thousands of
// records of the same fields) are read through it and RecordItem's. It
// costs two allocations a record, whatever its number of fields: field
// names are shared with earlier records that have the same ones, and the
// values are slices of one string per record. A value kept from a record
// thus keeps that record's text alive (a few hundred bytes), never the
// page's. A value of another JSON type is an error; the record is left as
// it was.
func (r *Record) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	rt := getRecordText()
	defer recordTexts.Put(rt)
	found, err := rt.object(dec)
	if err == nil {
		*r = rt.record(found, string(rt.text))
	}
	return err
}

// UnmarshalJSONFrom reads a list item, {"data": {...}, "cursor": "..."},
// as Record's does: its cursor shares the record's string. Other members
// are skipped; null leaves the item as it was.
func (it *RecordItem) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return readItem(dec, &it.Cursor, func(rt *recordText, found bool, all string) {
		it.Data = rt.record(found, all)
	})
}

// readItem reads a list item, {"data": {...}, "cursor": "..."}: it sets
// *cursor when the item has one, and hands the record's fields to done,
// with all, the record's text as one string. Null is no item.
func readItem(dec *jsontext.Decoder, cursor *string, done func(rt *recordText, found bool, all string)) error {
	if dec.PeekKind() != '{' {
		return skipAs(dec, "a record item must be a JSON object")
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	rt := getRecordText()
	defer recordTexts.Put(rt)
	found, at, hasCursor := false, [2]int{}, false
	for dec.PeekKind() != '}' {
		raw, err := dec.ReadValue()
		if err != nil {
			return err
		}
		switch name, _ := unquoteName(raw, 0); string(name) {
		case "data":
			found, err = rt.object(dec)
		case "cursor":
			start := len(rt.text)
			if raw, err = dec.ReadValue(); err == nil {
				hasCursor, _, err = rt.str(raw, 0)
			}
			at = [2]int{start, len(rt.text)}
		default:
			err = dec.SkipValue()
		}
		if err != nil {
			return err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	all := string(rt.text)
	if hasCursor {
		*cursor = all[at[0]:at[1]]
	}
	done(rt, found, all)
	return nil
}

// recordText collects the fields of a record and the unquoted text of
// their values (and of its item's cursor), which become one string. It is
// scratch space, reused from one record to the next.
type recordText struct {
	fields []recordField
	text   []byte
}

var recordTexts = sync.Pool{New: func() any { return new(recordText) }}

// getRecordText returns an empty recordText; put it back in recordTexts
// when done. Buffers that grew past a large record's size are dropped.
func getRecordText() *recordText {
	rt := recordTexts.Get().(*recordText)
	if cap(rt.text) > 64<<10 || cap(rt.fields) > 1024 {
		*rt = recordText{}
	}
	rt.fields, rt.text = rt.fields[:0], rt.text[:0]
	return rt
}

type recordField struct {
	name     string
	off, end int
}

// object reads a record object, or null (found false), into rt's fields.
// The tokenizer checks the whole object at once (reading it member by
// member costs about twice as much); its members are then read from the
// checked text, which needs no checks of its own.
func (rt *recordText) object(dec *jsontext.Decoder) (found bool, err error) {
	if dec.PeekKind() != '{' {
		return false, skipAs(dec, "a record must be a JSON object of strings")
	}
	raw, err := dec.ReadValue()
	if err != nil {
		return false, err
	}
	for i := skipSpace(raw, 1); raw[i] != '}'; i = skipSpace(raw, i) {
		if raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
		name, end := unquoteName(raw, i)
		shared, start := rt.name(name), len(rt.text)
		if _, i, err = rt.str(raw, skipSpace(raw, skipSpace(raw, end)+1)); err != nil {
			return false, fmt.Errorf("record field %q: %w", shared, err)
		}
		rt.fields = append(rt.fields, recordField{shared, start, len(rt.text)})
	}
	return true, nil
}

// str reads the string (or null: ok false, nothing added) at raw[i:] into
// rt's text, and returns where it ends; any other value is an error.
func (rt *recordText) str(raw []byte, i int) (ok bool, end int, err error) {
	switch raw[i] {
	case 'n':
		return false, i + len("null"), nil
	case '"':
		end, escaped := stringEnd(raw, i)
		if escaped {
			rt.text, err = jsontext.AppendUnquote(rt.text, raw[i:end])
		} else {
			rt.text = append(rt.text, raw[i+1:end-1]...)
		}
		return true, end, err
	}
	return false, i, errors.New("a record value must be a JSON string")
}

// name returns a member name as a shared string: the name at the same
// place in the record before (the same in the records of one list), or
// else internName's.
func (rt *recordText) name(name []byte) string {
	if k := len(rt.fields); k < cap(rt.fields) {
		if prev := rt.fields[:k+1][k].name; prev == string(name) {
			return prev
		}
	}
	return internName(name)
}

// record returns the fields as a Record whose values are slices of all
// (rt's text as one string); nil when no object was found.
func (rt *recordText) record(found bool, all string) Record {
	if !found {
		return nil
	}
	rec := make(Record, len(rt.fields))
	for _, f := range rt.fields {
		rec[f.name] = all[f.off:f.end]
	}
	return rec
}

// skipAs skips a value that is not an object: null is read as nothing,
// any other value is the error why.
func skipAs(dec *jsontext.Decoder, why string) error {
	v, err := dec.ReadValue()
	if err != nil || v.Kind() == 'n' {
		return err
	}
	return errors.New(why)
}

// skipSpace returns the index of the first byte of checked JSON text at or
// after i that is not white space.
func skipSpace(raw []byte, i int) int {
	for raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r' {
		i++
	}
	return i
}

// unquoteName returns the member name that starts at raw[i] (checked JSON
// text) without its quotes, and the index just past it.
func unquoteName(raw []byte, i int) (name []byte, end int) {
	end, escaped := stringEnd(raw, i)
	if escaped {
		name, _ = jsontext.AppendUnquote(nil, raw[i:end])
		return name, end
	}
	return raw[i+1 : end-1], end
}

// stringEnd returns the index just past the string that starts at raw[i]
// (checked JSON text), and whether it has escapes.
func stringEnd(raw []byte, i int) (end int, escaped bool) {
	for i++; raw[i] != '"'; i++ {
		if raw[i] == '\\' {
			i, escaped = i+1, true
		}
	}
	return i + 1, escaped
}

// Bounds of the shared field names.
const (
	maxInterned    = 4096 // names remembered
	maxInternedLen = 64   // longest name remembered
)

// interned holds the field names read so far, so that every record of a
// list shares one string per name. It is read without a lock (a map that
// is never changed once stored); a new name stores a copy with it added.
var interned struct {
	mu sync.Mutex // serializes the stores
	m  atomic.Pointer[map[string]string]
}

// internName returns the member name as a shared string.
func internName(name []byte) string {
	if m := interned.m.Load(); m != nil {
		if s, ok := (*m)[string(name)]; ok {
			return s
		}
	}
	s := string(name)
	if len(s) > maxInternedLen {
		return s
	}
	interned.mu.Lock()
	defer interned.mu.Unlock()
	m := map[string]string{}
	if old := interned.m.Load(); old != nil {
		if len(*old) >= maxInterned {
			return s
		}
		m = maps.Clone(*old)
	}
	m[s] = s
	interned.m.Store(&m)
	return s
}

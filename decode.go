package workflow

import (
	"errors"
	"maps"
	"sync"
	"sync/atomic"

	json "github.com/go-json-experiment/json"
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
	if dec.PeekKind() == 'n' {
		_, err := dec.ReadToken()
		return err
	}
	if dec.PeekKind() != '{' {
		return skipAs(dec, "a record item must be a JSON object")
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	rt := getRecordText()
	defer recordTexts.Put(rt)
	found, cursor, hasCursor := false, [2]int{}, false
	for dec.PeekKind() != '}' {
		raw, err := dec.ReadValue()
		if err != nil {
			return err
		}
		switch internName(raw) {
		case "data":
			if found, err = rt.object(dec); err != nil {
				return err
			}
		case "cursor":
			start := len(rt.text)
			if hasCursor, err = rt.str(dec); err != nil {
				return err
			}
			cursor = [2]int{start, len(rt.text)}
		default:
			if err := dec.SkipValue(); err != nil {
				return err
			}
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	all := string(rt.text)
	it.Data = rt.record(found, all)
	if hasCursor {
		it.Cursor = all[cursor[0]:cursor[1]]
	}
	return nil
}

// pageOptions read a page's record items into a slice of their exact
// number (the library would grow it, about twice the memory), through a
// scratch slice reused from page to page.
var pageOptions = json.WithUnmarshalers(json.UnmarshalFromFunc(func(dec *jsontext.Decoder, items *[]RecordItem) error {
	if dec.PeekKind() != '[' {
		return errors.ErrUnsupported // null, or the wrong kind: the library's own rules
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	scratch := itemScratch.Get().(*[]RecordItem)
	defer itemScratch.Put(scratch)
	list := (*scratch)[:0]
	for dec.PeekKind() != ']' {
		var it RecordItem
		if err := it.UnmarshalJSONFrom(dec); err != nil {
			return err
		}
		list = append(list, it)
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	*items = append(make([]RecordItem, 0, len(list)), list...)
	clear(list)
	if cap(list) <= 1<<16 {
		*scratch = list
	}
	return nil
}))

var itemScratch = sync.Pool{New: func() any { return new([]RecordItem) }}

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

// object reads a record object into rt's fields, or null (found false).
func (rt *recordText) object(dec *jsontext.Decoder) (found bool, err error) {
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		return false, err
	case '{':
	default:
		return false, skipAs(dec, "a record must be a JSON object of strings")
	}
	if _, err := dec.ReadToken(); err != nil {
		return false, err
	}
	rt.fields = rt.fields[:0]
	for dec.PeekKind() != '}' {
		raw, err := dec.ReadValue()
		if err != nil {
			return false, err
		}
		name, start := internName(raw), len(rt.text)
		if _, err := rt.str(dec); err != nil {
			return false, err
		}
		rt.fields = append(rt.fields, recordField{name, start, len(rt.text)})
	}
	_, err = dec.ReadToken()
	return true, err
}

// str reads a string value into rt's text, or null (ok false, nothing
// added); any other value is an error.
func (rt *recordText) str(dec *jsontext.Decoder) (ok bool, err error) {
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		return false, err
	case '"':
		v, err := dec.ReadValue()
		if err != nil {
			return false, err
		}
		rt.text, err = jsontext.AppendUnquote(rt.text, v)
		return true, err
	}
	return false, skipAs(dec, "a record value must be a JSON string")
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

// skipAs skips a value of the wrong kind and reports why.
func skipAs(dec *jsontext.Decoder, why string) error {
	if _, err := dec.ReadValue(); err != nil {
		return err
	}
	return errors.New(why)
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

// internName returns the unquoted member name raw (a JSON string, checked
// by the tokenizer) as a shared string.
func internName(raw jsontext.Value) string {
	in := raw[1 : len(raw)-1]
	for _, c := range in {
		if c == '\\' || c >= 0x80 {
			s, _ := jsontext.AppendUnquote(nil, raw) // escapes: not shared
			return string(s)
		}
	}
	if m := interned.m.Load(); m != nil {
		if s, ok := (*m)[string(in)]; ok {
			return s
		}
	}
	s := string(in)
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

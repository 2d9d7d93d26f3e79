package workflow

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// UnmarshalJSONFrom reads a record, a JSON object whose values are strings
// (or null, read as ""), for github.com/go-json-experiment/json, which the
// SDK reads every answer with. It costs the map and one string a record,
// whatever its number of fields: field names are shared with earlier
// records that have the same ones, and the values are slices of one
// string per record.
// A value kept from a record thus keeps that record's text alive (a few
// hundred bytes), never the page's. A value of another JSON type, invalid
// UTF-8 or escapes, and a repeated name are errors, whatever dec's
// options; the record is left as it was. Null makes it nil.
func (r *Record) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	raw, err := readValue(dec)
	if err != nil {
		return err
	}
	rt := getRecordText()
	defer recordTexts.Put(rt)
	found, err := (&text{b: raw, checked: true}).record(rt)
	if err == nil {
		*r = rt.record(found, string(rt.text))
	}
	return err
}

// UnmarshalJSON reads a record for encoding/json as UnmarshalJSONFrom
// does (which encoding/json calls itself from Go 1.27 on): a record
// decodes alike with either library, on every Go version, and in a page.
func (r *Record) UnmarshalJSON(data []byte) error { return json.Unmarshal(data, r) }

// UnmarshalJSONFrom reads a list item, {"data": {...}, "cursor": "..."},
// as Record's does: its cursor shares the record's string. Other members
// are skipped; null leaves the item as it was.
func (it *RecordItem) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return readItem(dec, it)
}

// UnmarshalJSON reads a list item for encoding/json as UnmarshalJSONFrom
// does.
func (it *RecordItem) UnmarshalJSON(data []byte) error { return json.Unmarshal(data, it) }

// readValue reads the next value, a record or a list item, from dec and
// holds it to the rules of the SDK's own reading (valid UTF-8 and
// escapes, no repeated name) when dec's options allow more, as
// encoding/json's do on Go 1.27.
func readValue(dec *jsontext.Decoder) (jsontext.Value, error) {
	raw, err := dec.ReadValue()
	utf, _ := json.GetOption(dec.Options(), jsontext.AllowInvalidUTF8)
	dup, _ := json.GetOption(dec.Options(), jsontext.AllowDuplicateNames)
	if err == nil && (utf || dup) && !raw.IsValid() {
		_, err = jsontext.NewDecoder(bytes.NewReader(raw)).ReadValue() // says what is wrong, and where
	}
	return raw, err
}

// fromText sets the item from its record's text (see text.item).
func (it *RecordItem) fromText(rt *recordText, found bool, all, cursor string, hasCursor bool) {
	it.Data = rt.record(found, all)
	if hasCursor {
		it.Cursor = cursor
	}
}

// textItem is a list item made from its record's text: RecordItem, and
// asItem[T] for the typed lists. Their pages take the fast path of
// scanPage.
type textItem interface {
	// fromText sets the item from the record's fields in rt, whose
	// values are slices of all, and its cursor when it has one; found is
	// false for a null record.
	fromText(rt *recordText, found bool, all, cursor string, hasCursor bool)
}

// readItem reads a list item from dec into it. The tokenizer checks the
// whole item at once (reading it member by member costs about twice as
// much), which text.item then walks. Null is no item.
func readItem(dec *jsontext.Decoder, it textItem) error {
	raw, err := readValue(dec)
	switch {
	case err != nil || raw.Kind() == 'n':
		return err
	case raw.Kind() != '{':
		return errors.New("a record item must be a JSON object")
	}
	return (&text{b: raw, checked: true}).item(it)
}

// scanPage reads a page of text items straight from the body data into w
// (its items into room, when that has size items of room), in one pass
// that checks the text as the tokenizer would. It reports false where it
// cannot (text the service does not send: a syntax error, a value of the
// wrong type, a repeated name, a null item, nesting deeper than 64), and the page is then read again by the general
// path, which says what is wrong. TestScanPageReads and
// FuzzRecordPageDecoder hold the two equal. Checking the text with the
// tokenizer first and then walking it took about half as long again.
func scanPage[T any](data []byte, size int, room []T, w *envelope[T]) bool {
	if _, ok := any(new(T)).(textItem); !ok {
		return false
	}
	seen, t := make(names, 0, 8), text{b: data}
	err := t.members(func(name []byte) error {
		if seen.has(name) {
			return errSyntax
		}
		seen = append(seen, name)
		switch string(name) {
		case "items":
			items := room
			if cap(items) < size {
				items = make([]T, 0, size)
			}
			if !t.next('[') {
				return errSyntax
			}
			err := t.elements(']', func() error {
				items = append(items, *new(T))
				return t.item(any(&items[len(items)-1]).(textItem))
			})
			w.Items = &items
			return err
		case "total":
			return json.Unmarshal(t.skip(), &w.Total)
		case "paging":
			return json.Unmarshal(t.skip(), &w.Paging)
		}
		if v := t.skip(); !jsontext.Value(v).IsValid() {
			return errSyntax
		}
		return nil
	})
	t.space()
	return err == nil && t.i == len(t.b)
}

// names are the member names of one object read so far: slices of the
// text, or unquoted copies.
type names [][]byte

// has reports whether name is among ns.
func (ns names) has(name []byte) bool {
	return slices.ContainsFunc(ns, func(s []byte) bool { return bytes.Equal(s, name) })
}

// errSyntax is the error of text that scanPage leaves to the general path.
var errSyntax = errors.New("not a record page's usual text")

// text is JSON text walked from b[i] on: a page's body, not yet checked,
// or (checked) a value the tokenizer has checked.
type text struct {
	b       []byte
	i       int
	checked bool
}

// space passes white space.
func (t *text) space() {
	for t.i < len(t.b) && (t.b[t.i] == ' ' || t.b[t.i] == '\t' || t.b[t.i] == '\n' || t.b[t.i] == '\r') {
		t.i++
	}
}

// next passes white space, and c if it comes next.
func (t *text) next(c byte) bool {
	t.space()
	if t.i < len(t.b) && t.b[t.i] == c {
		t.i++
		return true
	}
	return false
}

// members walks the object that comes next: member is called with each
// name (unquoted), and must pass its value.
func (t *text) members(member func(name []byte) error) error {
	if !t.next('{') {
		return errSyntax
	}
	return t.elements('}', func() error {
		lit, escaped, err := t.lit()
		if err != nil {
			return errSyntax
		}
		name := lit[1 : len(lit)-1]
		if escaped {
			name, err = jsontext.AppendUnquote(nil, lit)
		}
		if err != nil || !t.next(':') {
			return errSyntax
		}
		return member(name)
	})
}

// elements walks the elements of an object or array up to its end.
func (t *text) elements(end byte, element func() error) error {
	if t.next(end) {
		return nil
	}
	for {
		if err := element(); err != nil {
			return err
		}
		if t.next(end) {
			return nil
		}
		if !t.next(',') {
			return errSyntax
		}
	}
}

// str passes the string that comes next and appends it, unquoted, to dst.
func (t *text) str(dst []byte) ([]byte, error) {
	lit, escaped, err := t.lit()
	switch {
	case err != nil:
		return dst, err
	case escaped:
		return jsontext.AppendUnquote(dst, lit)
	}
	return append(dst, lit[1:len(lit)-1]...), nil
}

// lit passes the string that comes next and returns its text, quotes
// included, and whether it has escapes. A string with a control
// character or invalid UTF-8 is an error (a bad escape is unquoting's).
func (t *text) lit() (lit []byte, escaped bool, err error) {
	if !t.next('"') {
		return nil, false, errors.New("a record value must be a JSON string")
	}
	b := t.b
	for j := t.i; j < len(b); {
		switch c := b[j]; {
		case c == '"':
			lit, t.i = b[t.i-1:j+1], j+1
			return lit, escaped, nil
		case c == '\\':
			escaped, j = true, j+2
		case c < ' ':
			return nil, false, errSyntax
		case c < utf8.RuneSelf:
			j++
		default:
			r, n := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && n == 1 {
				return nil, false, errSyntax
			}
			j += n
		}
	}
	return nil, false, errSyntax
}

// null passes null if it comes next.
func (t *text) null() bool {
	t.space()
	if bytes.HasPrefix(t.b[t.i:], []byte("null")) {
		t.i += len("null")
		return true
	}
	return false
}

// skip passes the value that comes next and returns its text, which it
// does not check: the caller checks it, or it is checked text.
func (t *text) skip() []byte {
	t.space()
	start, depth := t.i, 0
	for t.i < len(t.b) {
		switch c := t.b[t.i]; {
		case c == '"':
			if _, _, err := t.lit(); err != nil || depth == 0 {
				return t.b[start:t.i]
			}
			continue
		case c == '{' || c == '[':
			if depth++; depth > 64 && !t.checked {
				return nil // deeper than answers go: left to the general path
			}
		case c == '}' || c == ']':
			if depth == 0 { // the end of the object or array around it
				return t.b[start:t.i]
			}
			if depth--; depth == 0 {
				t.i++
				return t.b[start:t.i]
			}
		case c == ',' && depth == 0:
			return t.b[start:t.i]
		}
		t.i++
	}
	return t.b[start:t.i]
}

// record reads the record that comes next, an object of strings and
// nulls, or null (found false), into rt's fields. In text not checked, a
// name that repeats is an error.
func (t *text) record(rt *recordText) (found bool, err error) {
	if t.null() {
		return false, nil
	}
	if t.space(); t.i < len(t.b) && t.b[t.i] != '{' {
		return false, errors.New("a record must be a JSON object of strings")
	}
	err = t.members(func(name []byte) error {
		if !t.checked && slices.ContainsFunc(rt.fields, func(f recordField) bool { return f.name == string(name) }) {
			return errSyntax
		}
		shared, start := rt.name(name), len(rt.text)
		if !t.null() {
			var err error
			if rt.text, err = t.str(rt.text); err != nil {
				return fmt.Errorf("record field %q: %w", shared, err)
			}
		}
		rt.fields = append(rt.fields, recordField{shared, start, len(rt.text)})
		return nil
	})
	return err == nil, err
}

// item reads the list item that comes next, {"data": {...}, "cursor":
// "..."}, into it. Other members are skipped.
func (t *text) item(it textItem) error {
	rt := getRecordText()
	defer recordTexts.Put(rt)
	var found, hasCursor bool
	seen, at := make(names, 0, 8), [2]int{}
	err := t.members(func(name []byte) (err error) {
		if !t.checked && seen.has(name) { // checked text has no repeated name (readValue)
			return errSyntax
		}
		seen = append(seen, name)
		switch string(name) {
		case "data":
			found, err = t.record(rt)
		case "cursor":
			if at[0] = len(rt.text); !t.null() {
				rt.text, err = t.str(rt.text)
				hasCursor = true
			}
			at[1] = len(rt.text)
		default: // skipped; in text not checked, it must be valid JSON
			if v := t.skip(); !t.checked && !jsontext.Value(v).IsValid() {
				return errSyntax
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	all := string(rt.text)
	it.fromText(rt, found, all, all[at[0]:at[1]], hasCursor)
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

package workflow

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/bits"
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
		return fmt.Errorf("a record item must be a JSON object, not %s", jsonKind(raw[0]))
	}
	rt := getRecordText()
	defer recordTexts.Put(rt)
	return (&text{b: raw, checked: true}).item(it, rt)
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
	rt := getRecordText()
	defer recordTexts.Put(rt)
	seen, t := make(names, 0, 8), text{b: data}
	if !t.next('{') {
		return false
	}
	err := t.elements('}', func() error {
		name, _, err := t.name()
		if err != nil || seen.has(name) {
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
			err = t.elements(']', func() error {
				items = append(items, *new(T))
				return t.item(any(&items[len(items)-1]).(textItem), rt)
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
func (t *text) space() { t.i = spaceAt(t.b, t.i) }

// spaceAt returns where the white space from b[i] on ends.
func spaceAt(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
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
		return nil, false, errNotString
	}
	end, escaped, ok := stringEnd(t.b, t.i)
	if !ok {
		return nil, false, errSyntax
	}
	lit, t.i = t.b[t.i-1:end+1], end+1
	return lit, escaped, nil
}

// stringEnd returns where the string whose text starts at b[j] (past its
// opening quote) ends (its closing quote), and whether it has escapes; ok
// is false if it has a control character or invalid UTF-8, or no end.
func stringEnd(b []byte, j int) (end int, escaped, ok bool) {
	for {
		for j+8 <= len(b) { // eight bytes at a time, up to the first that needs a look
			if m := special8(binary.LittleEndian.Uint64(b[j:])); m != 0 {
				j += bits.TrailingZeros64(m) / 8
				break
			}
			j += 8
		}
		if j >= len(b) {
			return 0, false, false
		}
		switch c := b[j]; {
		case c == '"':
			return j, escaped, true
		case c == '\\':
			escaped, j = true, j+2
		case c < ' ':
			return 0, false, false
		case c < utf8.RuneSelf:
			j++
		default:
			for j < len(b) && b[j] >= utf8.RuneSelf { // the rest of a run of text that is not ASCII
				r, n := utf8.DecodeRune(b[j:])
				if r == utf8.RuneError && n == 1 {
					return 0, false, false
				}
				j += n
			}
		}
	}
}

// errNotString is the error of a record value of another JSON type.
var errNotString = errors.New("a record value must be a JSON string")

// jsonKind names the kind of the JSON value whose text starts with c, for
// an error that must not quote the value.
func jsonKind(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a bool"
	case 'n':
		return "null"
	}
	return "a number"
}

// special8 returns the high bit of each of the eight bytes of w (the
// first in the lowest byte) that may not stand in a string as it is (a
// quote, a backslash, a control character, a byte of a character that is
// not ASCII), exact up to and including the first such byte; 0 when none
// is.
func special8(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, bs := w^(ones*'"'), w^(ones*'\\')
	// (x - ones) &^ x has the high bit of the lowest zero byte of x set,
	// and of none below it; (w - ones*' ') &^ w, that of the lowest byte
	// below ' '. Bytes above the lowest one found may be set wrongly.
	return ((q-ones)&^q | (bs-ones)&^bs | (w-ones*' ')&^w | w) & highs
}

// name passes the member name that comes next, and returns it unquoted
// (a slice of the text, or a copy when it has escapes) and whether it had
// escapes.
func (t *text) name() (name []byte, escaped bool, err error) {
	lit, escaped, err := t.lit()
	if err != nil {
		return nil, false, errSyntax
	}
	if name = lit[1 : len(lit)-1]; escaped {
		name, err = jsontext.AppendUnquote(nil, lit)
	}
	if err != nil || !t.next(':') {
		return nil, false, errSyntax
	}
	return name, escaped, nil
}

// sameName passes the member name that comes next, and its colon, if it
// is name, which was read without escapes (so that its text is
// quote, name, quote).
func (t *text) sameName(name string) bool {
	t.space()
	b, i := t.b, t.i
	if end := i + 1 + len(name); end < len(b) && b[i] == '"' && b[end] == '"' && string(b[i+1:end]) == name {
		if t.i = end + 1; t.next(':') {
			return true
		}
		t.i = i
	}
	return false
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
//
// Each name is first looked for at its place in the record before (the
// records of a list have the same names, mostly in the same order): while
// the names so far are those of the record before, in its order, none
// repeats, as none repeated there.
func (t *text) record(rt *recordText) (found bool, err error) {
	if t.null() {
		return false, nil
	}
	if t.i < len(t.b) && t.b[t.i] != '{' {
		return false, fmt.Errorf("a record must be a JSON object of strings, not %s", jsonKind(t.b[t.i]))
	}
	if !t.next('{') {
		return false, errSyntax
	}
	prevLen := rt.prevLen
	rt.prevLen = 0 // until this record is read whole
	fields, same := rt.fields[:0], true
	if t.next('}') {
		rt.fields = fields
		return true, nil
	}
	b, i := t.b, t.i // i is t.i, but for the slow paths
	for {
		// The name: the record before's at this place, unless this
		// record's fields have outgrown the array it was in.
		k, f, matched := len(fields), recordField{}, false
		i = spaceAt(b, i)
		if k < prevLen && k < cap(fields) {
			if prev := fields[:k+1][k]; prev.plain {
				if end := i + 1 + len(prev.name); end < len(b) && b[i] == '"' && b[end] == '"' && string(b[i+1:end]) == prev.name {
					if i = spaceAt(b, end+1); i < len(b) && b[i] == ':' {
						f, matched, i = recordField{name: prev.name, plain: true}, true, i+1
					} else {
						return false, errSyntax
					}
				}
			}
		}
		if !matched {
			t.i = i
			name, escaped, err := t.name()
			if err != nil {
				return false, err
			}
			i = t.i
			f, same = recordField{name: sharedName(fields, name), plain: !escaped}, false
		}
		if !same && !t.checked && slices.ContainsFunc(fields, func(g recordField) bool { return g.name == f.name }) {
			return false, errSyntax
		}
		// The value: a string, or null.
		f.off = len(rt.text)
		switch i = spaceAt(b, i); {
		case i < len(b) && b[i] == '"':
			end, escaped, ok := stringEnd(b, i+1)
			switch {
			case !ok:
				return false, fmt.Errorf("record field %q: %w", f.name, errSyntax)
			case escaped:
				if rt.text, err = jsontext.AppendUnquote(rt.text, b[i:end+1]); err != nil {
					return false, fmt.Errorf("record field %q: %w", f.name, err)
				}
			default:
				rt.text = append(rt.text, b[i+1:end]...)
			}
			i = end + 1
		case bytes.HasPrefix(b[i:], []byte("null")):
			i += len("null")
		default:
			if i >= len(b) {
				return false, errSyntax
			}
			return false, fmt.Errorf("record field %q: %w, not %s", f.name, errNotString, jsonKind(b[i]))
		}
		f.end = len(rt.text)
		fields = append(fields, f)
		if i = spaceAt(b, i); i < len(b) && b[i] == '}' {
			t.i = i + 1
			break
		}
		if i >= len(b) || b[i] != ',' {
			return false, errSyntax
		}
		i++
	}
	rt.fields, rt.prevLen = fields, len(fields)
	return true, nil
}

// item reads the list item that comes next, {"data": {...}, "cursor":
// "..."}, into it, with rt as scratch space. Other members are skipped.
func (t *text) item(it textItem, rt *recordText) error {
	rt.fields, rt.text = rt.fields[:0], rt.text[:0]
	var found, hasData, hasCursor, cursorSeen bool
	var at [2]int
	var others names // the names of other members, in text not checked
	if !t.next('{') {
		return errSyntax
	}
	if !t.next('}') {
		for {
			var name []byte
			var err error
			switch {
			case t.sameName("data"):
				name = nameData
			case t.sameName("cursor"):
				name = nameCursor
			default:
				if name, _, err = t.name(); err != nil {
					return err
				}
			}
			switch string(name) {
			case "data":
				if hasData && !t.checked { // checked text has no repeated name (readValue)
					return errSyntax
				}
				hasData = true
				found, err = t.record(rt)
			case "cursor":
				if cursorSeen && !t.checked {
					return errSyntax
				}
				cursorSeen = true
				if at[0] = len(rt.text); !t.null() {
					rt.text, err = t.str(rt.text)
					hasCursor = true
				}
				at[1] = len(rt.text)
			default:
				switch {
				case t.checked:
					t.skip()
				case others.has(name):
					return errSyntax
				default: // skipped; in text not checked, it must be valid JSON
					others = append(others, name)
					if v := t.skip(); !jsontext.Value(v).IsValid() {
						return errSyntax
					}
				}
			}
			if err != nil {
				return err
			}
			if t.next('}') {
				break
			}
			if !t.next(',') {
				return errSyntax
			}
		}
	}
	all := string(rt.text)
	it.fromText(rt, found, all, all[at[0]:at[1]], hasCursor)
	return nil
}

// The names of a list item's members that the SDK reads.
var nameData, nameCursor = []byte("data"), []byte("cursor")

// recordText collects the fields of a record and the unquoted text of
// their values (and of its item's cursor), which become one string. It is
// scratch space, reused from one record to the next.
type recordText struct {
	fields []recordField
	text   []byte
	// prevLen is the number of fields of the record read before, whose
	// fields are in the array of fields past the length of those of the
	// record being read; 0 after a record that was not read whole.
	prevLen int
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

// recordField is a field of a record: its name, whether the name was
// read without escapes, and its value's place in the record's text.
type recordField struct {
	name     string
	plain    bool
	off, end int
}

// sharedName returns a member name as a shared string: the name at the
// same place in the record before, whose fields are in the array of
// fields past its length (the same in the records of one list), or else
// internName's.
func sharedName(fields []recordField, name []byte) string {
	if k := len(fields); k < cap(fields) {
		if prev := fields[:k+1][k].name; prev == string(name) {
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

package workflow

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// decodeRecordPage decodes a record list page from a response body: the
// record page's reader (see page in reply.go).
//
// It gives exactly the result of encoding/json's Unmarshal into a zero
// RecordPage (FuzzRecordPageDecoder holds it to that), in less than half
// the time and with about a tenth of the allocations: the body is read as a
// stream of tokens by the jsontext tokenizer (the one behind
// encoding/json/v2) instead of being buffered whole and scanned twice;
// field names, which repeat in every record, are interned; and the string
// values of a record (its fields and cursor) are unquoted into one buffer
// and become one string per record, which the values are slices of. Maps
// are sized from the previous record.
//
// A value kept from a record thus keeps the text of that record's values
// alive (a few hundred bytes), never more: not the page's.

// The JSON names of the fields of RecordPage, RecordItem and PagingState,
// matched as encoding/json matches them (see isName).
var (
	nameItems           = []byte("items")
	nameTotal           = []byte("total")
	namePaging          = []byte("paging")
	nameData            = []byte("data")
	nameCursor          = []byte("cursor")
	nameHasNextPage     = []byte("has_next_page")
	nameHasPreviousPage = []byte("has_previous_page")
	nameStartCursor     = []byte("start_cursor")
	nameEndCursor       = []byte("end_cursor")
)

// decoderOptions make the tokenizer as lenient as encoding/json: duplicate
// names are allowed (the last one wins) and invalid UTF-8 is accepted
// (and replaced by U+FFFD when unquoted).
var decoderOptions = []jsontext.Options{
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(true),
}

// Bounds on what a pooled decoder state keeps between pages.
const (
	maxInterned    = 1024    // field names remembered
	maxInternedLen = 64      // longest field name remembered
	maxKeptBuffer  = 1 << 20 // bytes of the tokenizer's buffer
	maxKeptText    = 4 << 20 // bytes of the unquoted-text buffer
	maxKeptItems   = 4096    // entries of the item scratch slice
	maxKeptFills   = 1 << 16 // entries of the fill list
	maxMapSizeHint = 64      // largest pre-size of a record map
)

var pageStatePool = sync.Pool{New: func() any {
	return &pageState{names: make(map[string]string)}
}}

func decodeRecordPage(r io.Reader, p *RecordPage) error {
	st := pageStatePool.Get().(*pageState)
	err := st.decode(r, p)
	if err == nil {
		err = pageComplete(st.itemsState != itemsAbsent, st.totalSeen, st.pagingSeen)
	}
	st.release(err != nil)
	pageStatePool.Put(st)
	return err
}

// Items' list states, as encoding/json leaves the slice.
const (
	itemsAbsent = iota // no "items" member, or "items": null: nil
	itemsEmpty         // "items": []: empty, not nil
	itemsSome          // an array with at least one element
)

// pageState is the reusable state of one page decoding.
type pageState struct {
	dec   jsontext.Decoder
	names map[string]string // interned field names
	key   []byte            // scratch for a name that needs unquoting

	// text collects the unquoted string values of the page. At the end of
	// each item, the item's part becomes a string (a chunk), and each
	// value is a slice of its chunk.
	text   []byte
	chunks []chunk
	cut    int // end of the text already in chunks
	// fills are the members of every record map, in document order, and
	// runs say which map each consecutive group of fills belongs to.
	fills []fill
	runs  []mapRun
	inner []fill // the fields of a single record's "data" object
	// cursors are the item cursors to set, in document order.
	cursors []cursorFill

	// items is the backing array of the item list, reused across pages.
	// n is the list's length; entries [n, high) are elements of an earlier,
	// longer array under the same "items" key, which encoding/json exposes
	// again (and decodes into) when a later array is longer: reproduced
	// here so that both decoders agree on every input.
	items      []RecordItem
	n, high    int
	itemsState int
	// pagingSeen, totalSeen: the page had a "paging" object, a "total"
	// number (not null).
	pagingSeen, totalSeen bool

	hint int // number of fields of the last record, to size the next map
}

type fill struct {
	key      string
	off, end uint32 // the value is text[off:end]
}

type mapRun struct {
	m   Record
	end int // the run is fills[previous run's end:end]
}

type chunk struct {
	end uint32 // the chunk is text[previous chunk's end:end]
	s   string
}

type cursorFill struct {
	item     int
	off, end uint32
}

// release drops references to the page just decoded and trims buffers
// that grew beyond what is worth keeping. The tokenizer's buffer only
// grows for a single token longer than it (a huge string); after a
// failure its size is not known, so it is dropped then too.
func (st *pageState) release(failed bool) {
	clear(st.items[:st.high])
	clear(st.runs)
	clear(st.fills)
	clear(st.inner)
	clear(st.chunks)
	st.items, st.runs, st.fills, st.cursors = st.items[:0], st.runs[:0], st.fills[:0], st.cursors[:0]
	st.inner = st.inner[:0]
	st.text, st.chunks, st.cut = st.text[:0], st.chunks[:0], 0
	if cap(st.text) > maxKeptText {
		st.text = nil
	}
	if cap(st.items) > maxKeptItems {
		st.items = nil
	}
	if cap(st.fills) > maxKeptFills {
		st.fills = nil
	}
	if cap(st.inner) > maxKeptFills {
		st.inner = nil
	}
	if cap(st.cursors) > maxKeptItems {
		st.cursors = nil
	}
	if cap(st.chunks) > maxKeptItems {
		st.chunks = nil
	}
	st.n, st.high, st.itemsState = 0, 0, itemsAbsent
	if failed || cap(st.dec.UnreadBuffer()) > maxKeptBuffer {
		st.dec = jsontext.Decoder{}
	} else {
		st.dec.Reset(emptyReader{}) // let go of the body
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, io.EOF }

func (st *pageState) decode(r io.Reader, p *RecordPage) error {
	*p = RecordPage{}
	st.pagingSeen, st.totalSeen = false, false
	st.dec.Reset(r, decoderOptions...)
	d := &st.dec
	switch d.PeekKind() {
	case 'n':
		if _, err := d.ReadValue(); err != nil {
			return err
		}
	case '{':
		if err := st.page(p); err != nil {
			return err
		}
	case 0:
		_, err := d.ReadValue()
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF // an empty body is not a page
		}
		return err
	default:
		return st.typeError("page object")
	}
	// Like encoding/json, refuse anything but white space after the value.
	if k := d.PeekKind(); k != 0 {
		return fmt.Errorf("invalid character %q after top-level value", byte(k))
	}
	if _, err := d.ReadValue(); err != io.EOF {
		if err == nil {
			err = errors.New("invalid data after top-level value")
		}
		return err
	}
	st.finish(p)
	return nil
}

// typeError reports a value of the wrong JSON kind at the next position.
// A syntax error found while peeking takes precedence.
func (st *pageState) typeError(want string) error {
	d := &st.dec
	k := d.PeekKind()
	if k == 0 {
		_, err := d.ReadValue()
		return err
	}
	return fmt.Errorf("cannot decode JSON %s into %s at %q", kindName(k), want, d.StackPointer())
}

func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

// name reads an object member name and returns it unquoted. The result is
// valid until the next read.
func (st *pageState) name() ([]byte, error) {
	raw, err := st.dec.ReadValue()
	if err != nil {
		return nil, err
	}
	in := raw[1 : len(raw)-1]
	for _, c := range in {
		if c == '\\' || c >= 0x80 {
			// Escapes or non-ASCII: unquote. The tokenizer has checked
			// the syntax; what AppendUnquote may still report is invalid
			// UTF-8 or a lone surrogate escape, both replaced by U+FFFD
			// as encoding/json does.
			st.key, _ = jsontext.AppendUnquote(st.key[:0], raw)
			return st.key, nil
		}
	}
	return in, nil
}

// intern returns name as a string, shared with every earlier record that
// has the same field name.
func (st *pageState) intern(name []byte) string {
	if s, ok := st.names[string(name)]; ok {
		return s
	}
	s := string(name)
	if len(st.names) < maxInterned && len(s) <= maxInternedLen {
		st.names[s] = s
	}
	return s
}

// appendText unquotes the JSON string raw into the page's text and
// returns where it is.
func (st *pageState) appendText(raw []byte) (off, end uint32, err error) {
	start := len(st.text)
	st.text, _ = jsontext.AppendUnquote(st.text, raw) // see name
	if len(st.text) > math.MaxUint32 {
		return 0, 0, errors.New("page too large")
	}
	return uint32(start), uint32(len(st.text)), nil
}

// objectStart reads the '{' the caller has peeked.
func (st *pageState) objectStart() error {
	_, err := st.dec.ReadToken()
	return err
}

// more reports whether the current object or array has another member
// (and false at its end, whose delimiter it reads). A syntax error is
// returned as is.
func (st *pageState) more(end jsontext.Kind) (bool, error) {
	d := &st.dec
	switch d.PeekKind() {
	case end:
		_, err := d.ReadToken()
		return false, err
	case 0:
		_, err := d.ReadToken()
		return false, err
	}
	return true, nil
}

// members reads an object whose '{' has been peeked, calling member with
// each member's name; member reads (or skips) the value.
func (st *pageState) members(member func(name []byte) error) error {
	if err := st.objectStart(); err != nil {
		return err
	}
	for {
		if more, err := st.more('}'); !more {
			return err
		}
		name, err := st.name()
		if err != nil {
			return err
		}
		if err := member(name); err != nil {
			return err
		}
	}
}

// objectOrNull peeks at the next value: an object reports true (its '{'
// still unread), null is read and reports false, anything else is a type
// error naming what was wanted.
func (st *pageState) objectOrNull(want string) (bool, error) {
	d := &st.dec
	switch d.PeekKind() {
	case '{':
		return true, nil
	case 'n':
		_, err := d.ReadValue()
		return false, err
	}
	return false, st.typeError(want)
}

// page decodes the top-level object.
func (st *pageState) page(p *RecordPage) error {
	return st.members(func(name []byte) error {
		switch {
		case isName(name, nameItems):
			return st.itemList()
		case isName(name, nameTotal):
			return st.total(p)
		case isName(name, namePaging):
			return st.paging(&p.Paging)
		}
		return st.dec.SkipValue()
	})
}

// isName reports whether a member name selects the struct field whose
// JSON name is field: an exact match, or a match under Unicode simple
// case folding, which is how encoding/json matches names
// (bytes.EqualFold is the same relation).
func isName(name, field []byte) bool {
	return string(name) == string(field) || bytes.EqualFold(name, field)
}

func (st *pageState) total(p *RecordPage) error {
	d := &st.dec
	switch d.PeekKind() {
	case 'n':
		_, err := d.ReadValue()
		return err
	case '0':
		raw, err := d.ReadValue()
		if err != nil {
			return err
		}
		// Like encoding/json for an int: no fraction, no exponent, no
		// overflow.
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n < math.MinInt || n > math.MaxInt {
			return fmt.Errorf("cannot decode JSON number %s into an int at %q", raw, d.StackPointer())
		}
		p.Total, st.totalSeen = int(n), true
		return nil
	}
	return st.typeError("an int")
}

func (st *pageState) paging(ps *PagingState) error {
	if obj, err := st.objectOrNull("the paging object"); !obj {
		return err
	}
	st.pagingSeen = true
	return st.members(func(name []byte) error {
		switch {
		case isName(name, nameHasNextPage):
			return st.boolValue(&ps.HasNextPage)
		case isName(name, nameHasPreviousPage):
			return st.boolValue(&ps.HasPreviousPage)
		case isName(name, nameStartCursor):
			return st.stringValue(&ps.StartCursor)
		case isName(name, nameEndCursor):
			return st.stringValue(&ps.EndCursor)
		}
		return st.dec.SkipValue()
	})
}

// boolValue decodes a boolean; null leaves *b as it is.
func (st *pageState) boolValue(b *bool) error {
	d := &st.dec
	switch k := d.PeekKind(); k {
	case 'n', 't', 'f':
		if _, err := d.ReadValue(); err != nil {
			return err
		}
		if k != 'n' {
			*b = k == 't'
		}
		return nil
	}
	return st.typeError("a bool")
}

// stringValue decodes a string into its own allocation (for the few
// strings outside the records); null leaves *s as it is.
func (st *pageState) stringValue(s *string) error {
	d := &st.dec
	switch d.PeekKind() {
	case 'n':
		_, err := d.ReadValue()
		return err
	case '"':
		raw, err := d.ReadValue()
		if err != nil {
			return err
		}
		st.key, _ = jsontext.AppendUnquote(st.key[:0], raw) // see name
		*s = string(st.key)
		return nil
	}
	return st.typeError("a string")
}

// itemList decodes the "items" array with encoding/json's slice rules:
// null empties the list to nil; [] makes it empty but not nil; a non-empty
// array decodes element i into the existing element i, if any.
func (st *pageState) itemList() error {
	d := &st.dec
	switch d.PeekKind() {
	case 'n':
		if _, err := d.ReadValue(); err != nil {
			return err
		}
		st.newItemList(itemsAbsent)
		return nil
	case '[':
	default:
		return st.typeError("the items array")
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	i := 0
	for ; ; i++ {
		more, err := st.more(']')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if i >= st.n {
			// Extend the list by one; an element left over from an
			// earlier, longer array comes back as it was.
			if i >= st.high {
				st.items = append(st.items[:st.high], RecordItem{})
				st.high++
			}
			st.n = i + 1
		}
		if err := st.item(i); err != nil {
			return err
		}
		st.cutChunk()
	}
	if i == 0 {
		st.newItemList(itemsEmpty)
		return nil
	}
	st.n = i
	st.itemsState = itemsSome
	return nil
}

// cutChunk turns the text added since the last cut into a chunk.
func (st *pageState) cutChunk() {
	if len(st.text) > st.cut {
		st.chunks = append(st.chunks, chunk{end: uint32(len(st.text)), s: string(st.text[st.cut:])})
		st.cut = len(st.text)
	}
}

// newItemList replaces the item list by a new one, nil or empty: nothing
// of the old one can come back.
func (st *pageState) newItemList(state int) {
	clear(st.items[:st.high])
	st.items = st.items[:0]
	st.n, st.high, st.itemsState = 0, 0, state
	st.cursors = st.cursors[:0]
}

// item decodes one element of the items array into items[i]; null leaves
// it as it is.
func (st *pageState) item(i int) error {
	if obj, err := st.objectOrNull("a record item object"); !obj {
		return err
	}
	return st.members(func(name []byte) error {
		switch {
		case isName(name, nameData):
			return st.record(i)
		case isName(name, nameCursor):
			return st.cursor(i)
		}
		return st.dec.SkipValue()
	})
}

func (st *pageState) cursor(i int) error {
	d := &st.dec
	switch d.PeekKind() {
	case 'n':
		_, err := d.ReadValue()
		return err
	case '"':
		raw, err := d.ReadValue()
		if err != nil {
			return err
		}
		off, end, err := st.appendText(raw)
		if err != nil {
			return err
		}
		st.cursors = append(st.cursors, cursorFill{item: i, off: off, end: end})
		return nil
	}
	return st.typeError("a cursor string")
}

// record decodes the "data" object of items[i]: null sets the map to nil;
// an object adds its members to the existing map, or to a new one. Values
// are recorded as fills and stored when the page's text is complete.
func (st *pageState) record(i int) error {
	obj, err := st.objectOrNull("a record object")
	if err != nil {
		return err
	}
	if !obj {
		st.items[i].Data = nil
		return nil
	}
	m := st.items[i].Data
	if m == nil {
		m = make(Record, st.hint)
		st.items[i].Data = m
	}
	start := len(st.fills)
	err = st.members(func(name []byte) error {
		f, ok, err := st.fieldValue(st.intern(name))
		if err != nil {
			return err
		}
		if !ok {
			return st.typeError("a record field string")
		}
		st.fills = append(st.fills, f)
		return nil
	})
	if err != nil {
		return err
	}
	if n := len(st.fills) - start; n > 0 {
		st.runs = append(st.runs, mapRun{m: m, end: len(st.fills)})
		st.hint = min(n, maxMapSizeHint)
	}
	return nil
}

// finish stores the record values and cursors, slices of the chunks,
// then sets the item list.
func (st *pageState) finish(p *RecordPage) {
	// Fills and cursors are in document order, as is the text: each list
	// walks the chunks once.
	from, ch := 0, chunkWalker{chunks: st.chunks}
	for _, r := range st.runs {
		for _, f := range st.fills[from:r.end] {
			r.m[f.key] = ch.slice(f.off, f.end)
		}
		from = r.end
	}
	ch = chunkWalker{chunks: st.chunks}
	for _, c := range st.cursors {
		st.items[c.item].Cursor = ch.slice(c.off, c.end)
	}
	switch st.itemsState {
	case itemsEmpty:
		p.Items = []RecordItem{}
	case itemsSome:
		p.Items = make([]RecordItem, st.n)
		copy(p.Items, st.items[:st.n])
	}
}

// chunkWalker finds the chunk of text offsets that only increase.
type chunkWalker struct {
	chunks []chunk
	i      int
	start  uint32 // where chunks[i] begins in the text
}

func (w *chunkWalker) slice(off, end uint32) string {
	if off == end {
		return ""
	}
	for end > w.chunks[w.i].end {
		w.start = w.chunks[w.i].end
		w.i++
	}
	return w.chunks[w.i].s[off-w.start : end-w.start]
}

// fieldValue reads a record field's value if it is a string or null (ok),
// and leaves any other value unread.
func (st *pageState) fieldValue(key string) (f fill, ok bool, err error) {
	d := &st.dec
	switch d.PeekKind() {
	case '"':
		raw, err := d.ReadValue()
		if err != nil {
			return fill{}, false, err
		}
		off, end, err := st.appendText(raw)
		return fill{key: key, off: off, end: end}, err == nil, err
	case 'n':
		if _, err := d.ReadValue(); err != nil {
			return fill{}, false, err
		}
		at := uint32(len(st.text))
		return fill{key: key, off: at, end: at}, true, nil
	case 0:
		_, err := d.ReadValue()
		return fill{}, false, err
	}
	return fill{}, false, nil
}

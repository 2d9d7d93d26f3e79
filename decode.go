package workflow

import (
	"errors"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// UnmarshalJSONFrom reads a record, a JSON object whose values are strings
// (or null, read as ""), for github.com/go-json-experiment/json, which the
// SDK reads every answer with: the pages of a record list (thousands of
// records of the same fields) are read through it. It costs two
// allocations a record, whatever its number of fields: field names are
// shared with earlier records that have the same ones, and the values are
// slices of one string per record. A value kept from a record thus keeps
// that record's text alive (a few hundred bytes), never the page's. A
// value of another JSON type is an error; the record is left as it was.
func (r *Record) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		*r = nil
		return err
	case '{':
	default:
		_, err := dec.ReadValue()
		if err == nil {
			err = errors.New("a record must be a JSON object of strings")
		}
		return err
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	type field struct {
		name     string
		off, end int
	}
	var (
		fields []field
		local  [32]field
		text   []byte
		buf    [1024]byte
	)
	fields, text = local[:0], buf[:0]
	for dec.PeekKind() != '}' {
		raw, err := dec.ReadValue()
		if err != nil {
			return err
		}
		name := internName(raw)
		switch dec.PeekKind() {
		case '"':
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			start := len(text)
			if text, err = jsontext.AppendUnquote(text, v); err != nil {
				return err
			}
			fields = append(fields, field{name, start, len(text)})
		case 'n':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			fields = append(fields, field{name, len(text), len(text)})
		default:
			if _, err := dec.ReadValue(); err != nil {
				return err
			}
			return errors.New("record field " + name + " is not a string")
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	all := string(text)
	rec := make(Record, len(fields))
	for _, f := range fields {
		rec[f.name] = all[f.off:f.end]
	}
	*r = rec
	return nil
}

// Bounds of the shared field names.
const (
	maxInterned    = 4096 // names remembered
	maxInternedLen = 64   // longest name remembered
)

// interned holds the field names read so far, so that every record of a
// list shares one string per name.
var interned = struct {
	sync.RWMutex
	m map[string]string
}{m: map[string]string{}}

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
	interned.RLock()
	s, ok := interned.m[string(in)]
	interned.RUnlock()
	if ok {
		return s
	}
	s = string(in)
	if len(s) <= maxInternedLen {
		interned.Lock()
		if len(interned.m) < maxInterned {
			interned.m[s] = s
		}
		interned.Unlock()
	}
	return s
}

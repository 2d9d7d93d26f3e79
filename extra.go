package workflow

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"time"
)

// Types whose shape the spec does not show (comments, watchers, related
// items) model the likely fields and
// keep every other field the service sends in an Extra map, which is
// written back when the value is encoded again: no field is lost.

// unmarshalExtra decodes data into known (a pointer to a struct type with
// no JSON methods of its own) and returns the fields known does not name.
func unmarshalExtra(data []byte, known any) (map[string]json.RawMessage, error) {
	if err := json.Unmarshal(data, known); err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	names := jsonNames(reflect.TypeOf(known).Elem())
	var extra map[string]json.RawMessage
	for k, v := range all {
		if names[strings.ToLower(k)] {
			continue
		}
		if extra == nil {
			extra = make(map[string]json.RawMessage)
		}
		extra[k] = v
	}
	return extra, nil
}

// marshalExtra encodes known (a struct value with no JSON methods of its
// own) and adds the extra fields that known does not already hold.
func marshalExtra(known any, extra map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(known)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, ok := all[k]; !ok && json.Valid(v) {
			all[k] = v
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(all); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

var jsonNameCache sync.Map // reflect.Type -> map[string]bool

// jsonNames returns the lower-cased JSON names of t's fields, as
// encoding/json matches them.
func jsonNames(t reflect.Type) map[string]bool {
	if v, ok := jsonNameCache.Load(t); ok {
		return v.(map[string]bool)
	}
	names := map[string]bool{}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if tag, ok := f.Tag.Lookup("json"); ok {
			n, _, _ := strings.Cut(tag, ",")
			if n == "-" {
				continue
			}
			if n != "" {
				name = n
			}
		}
		names[strings.ToLower(name)] = true
	}
	jsonNameCache.Store(t, names)
	return names
}

// listBody decodes a list response of any of the shapes a list of the
// service may plausibly have, since only the record list's is shown:
//   - a bare JSON array of items;
//   - an object whose "items" holds the items (and maybe "total");
//   - the record list's paged shape: "items" of {"data": {...}, "cursor": ...}
//     with "total" and "paging".
//
// Total is the total the service reported, or the number of items when it
// reported none.
type listBody[T any] struct{ page Page[T] }

func (l *listBody[T]) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		if err := json.Unmarshal(data, &l.page.Items); err != nil {
			return err
		}
		l.page.Total = len(l.page.Items)
		return nil
	}
	var top struct {
		Items  []json.RawMessage `json:"items"`
		Total  *int              `json:"total"`
		Paging PagingState       `json:"paging"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return err
	}
	l.page.Items = make([]T, len(top.Items))
	for i, raw := range top.Items {
		if err := json.Unmarshal(unwrapData(raw), &l.page.Items[i]); err != nil {
			return err
		}
	}
	l.page.Paging = top.Paging
	l.page.Total = len(l.page.Items)
	if top.Total != nil {
		l.page.Total = *top.Total
	}
	return nil
}

// unwrapData returns the object under "data" when raw is a paged list item
// ({"data": {...}, "cursor": "..."}), and raw itself otherwise.
func unwrapData(raw json.RawMessage) json.RawMessage {
	var item map[string]json.RawMessage
	if json.Unmarshal(raw, &item) != nil {
		return raw
	}
	d, ok := item["data"]
	if !ok {
		return raw
	}
	if _, hasCursor := item["cursor"]; !hasCursor && len(item) != 1 {
		return raw
	}
	if t := bytes.TrimSpace(d); len(t) > 0 && t[0] == '{' {
		return t
	}
	return raw
}

// The functions below convert the modelled fields of the types whose
// shape is not shown (RelatedItem, Watcher, Comment) between their typed
// Go values and the raw JSON the service sends, so that nothing is lost.

// keeper collects the raw values that a typed field cannot hold exactly.
type keeper struct{ extra map[string]json.RawMessage }

func (k *keeper) keep(name string, raw json.RawMessage) {
	if raw == nil {
		return
	}
	if k.extra == nil {
		k.extra = make(map[string]json.RawMessage)
	}
	k.extra[name] = raw
}

// readString sets *dst from a JSON string (or, with number, a JSON number,
// as its text). It returns raw when raw must be kept (it was not a string),
// nil otherwise.
func readString(raw json.RawMessage, dst *string, number bool) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	if json.Unmarshal(raw, dst) == nil && raw[0] == '"' {
		return nil
	}
	*dst = ""
	if number {
		var n json.Number
		if json.Unmarshal(raw, &n) == nil && raw[0] != '"' {
			*dst = n.String()
		}
	}
	return raw
}

// writeString returns the JSON of v, or kept when v is zero or is what
// kept was read as.
func writeString(v string, kept json.RawMessage, number bool) json.RawMessage {
	if kept != nil && json.Valid(kept) {
		var was string
		readString(kept, &was, number)
		if v == "" || v == was {
			return kept
		}
	}
	b, _ := json.Marshal(v) // a string always encodes
	return b
}

// readTime sets *dst from a string in the API's time form. A string in
// another form that ParseTime reads (RFC 3339 with an offset or another
// precision, a bare date) is parsed too and kept, so its exact text is
// written back; anything else leaves *dst zero and is kept.
func readTime(raw json.RawMessage, dst *time.Time) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil || raw[0] != '"' {
		return raw
	}
	t, err := ParseTime(s)
	if err != nil {
		return raw
	}
	*dst = t
	if FormatTime(t) != s {
		return raw
	}
	return nil
}

// writeTime returns v in the API's time form (nil for the zero time, which
// omits the field), or kept when v is zero or is the time kept was read as.
func writeTime(v time.Time, kept json.RawMessage) json.RawMessage {
	if kept != nil && json.Valid(kept) {
		var was time.Time
		readTime(kept, &was)
		if v.IsZero() || v.Equal(was) {
			return kept
		}
	}
	if v.IsZero() {
		return nil
	}
	return json.RawMessage(`"` + FormatTime(v) + `"`)
}

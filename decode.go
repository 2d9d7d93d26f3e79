package workflow

import (
	"bytes"
	"encoding/json"
	"io"
)

// recordPageDecoder decodes a record list page from a response body.
type recordPageDecoder RecordPage

func (p *recordPageDecoder) decodeBody(r io.Reader) error {
	return json.NewDecoder(r).Decode((*RecordPage)(p))
}

// recordBody is a single record in a response: the flat field map, or the
// same wrapped as {"data": {...}} like the items of a list.
type recordBody struct{ rec Record }

func (b *recordBody) UnmarshalJSON(data []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return err
	}
	if raw, ok := top["data"]; ok {
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
			return json.Unmarshal(t, &b.rec)
		}
	}
	return json.Unmarshal(data, &b.rec)
}

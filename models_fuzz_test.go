package workflow

import (
	stdjson "encoding/json"
	"reflect"
	"testing"
)

// FuzzModelRoundTrip: whatever decodes into a User, Group or Attachment
// encodes again (with encoding/json) into JSON that decodes to the same
// value: the lossless round trip holds for any input, not only the seeds.
func FuzzModelRoundTrip(f *testing.F) {
	for _, s := range []string{
		adaJSON,
		`{"id":"g","name":"n","assignable":true,"watchable":false,"mentionable":true,"managed":false,"dynamic":true,"domains":[{"id":"d","domain":"a.com","x":[1]}],"z":{"a":null}}`,
		`{"id":"a","size":3,"state":"valid","createdAt":"2026-02-03T10:30:00.123+01:00","contentUrl":"/v1/x","viewState":"PUBLIC","e":"\u00e9"}`,
		`{}`, `null`, `{"Email":"case differs"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		roundTrip[User](t, in)
		roundTrip[Group](t, in)
		roundTrip[Attachment](t, in)
	})
}

func roundTrip[T any](t *testing.T, in string) {
	var v T
	if stdjson.Unmarshal([]byte(in), &v) != nil {
		return
	}
	out, err := stdjson.Marshal(v)
	if err != nil {
		t.Fatalf("%T from %q does not encode: %v", v, in, err)
	}
	var again T
	if err := stdjson.Unmarshal(out, &again); err != nil {
		t.Fatalf("%T: %q does not decode again: %v", v, out, err)
	}
	if !reflect.DeepEqual(normalize(v), normalize(again)) {
		t.Fatalf("%T changed in a round trip:\n in  %q\n out %q\n %#v\n %#v", v, in, out, v, again)
	}
}

// normalize makes values comparable: encoding writes Extra members
// compactly, so raw values are compared after re-encoding.
func normalize(v any) any {
	b, _ := stdjson.Marshal(v)
	var m any
	_ = stdjson.Unmarshal(b, &m)
	return m
}

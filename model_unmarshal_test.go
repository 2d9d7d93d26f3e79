package workflow

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModelsUnmarshalAlike: every model reads JSON the same way: a null
// leaves the value as it was (encoding/json's rule), a body that does not
// decode is an error that leaves it as it was too, and a new object
// replaces it whole.
func TestModelsUnmarshalAlike(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value func() (target any, id func() string)
	}{
		{"User", func() (any, func() string) { v := &User{ID: "old"}; return v, func() string { return v.ID } }},
		{"Group", func() (any, func() string) { v := &Group{ID: "old"}; return v, func() string { return v.ID } }},
		{"Attachment", func() (any, func() string) { v := &Attachment{ID: "old"}; return v, func() string { return v.ID } }},
		{"Comment", func() (any, func() string) { v := &Comment{ID: "old"}; return v, func() string { return v.ID } }},
		{"Watcher", func() (any, func() string) { v := &Watcher{ID: "old"}; return v, func() string { return v.ID } }},
		{"WatcherTarget", func() (any, func() string) { v := &WatcherTarget{ID: "old"}; return v, func() string { return v.ID } }},
		{"RelatedItem", func() (any, func() string) { v := &RelatedItem{ID: "old"}; return v, func() string { return v.ID } }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, id := tc.value()
			require.NoError(t, json.Unmarshal([]byte(`null`), v))
			assert.Equal(t, "old", id(), "null leaves the value")

			v, id = tc.value()
			require.Error(t, json.Unmarshal([]byte(`{"id": 7}`), v))
			assert.Equal(t, "old", id(), "a failed decoding leaves the value")

			v, id = tc.value()
			require.NoError(t, json.Unmarshal([]byte(`{"id": "new"}`), v))
			assert.Equal(t, "new", id())
		})
	}
}

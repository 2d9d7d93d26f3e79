package wire

import (
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/wire/internal/compile"
)

// smallForm is testdata/small.yaml compiled and read as the embedded form is.
func smallForm(t *testing.T) *Form {
	t.Helper()
	f, err := compile.Compile(readSmall(t))
	require.NoError(t, err)
	b, err := f.Marshal()
	require.NoError(t, err)
	var cf Form
	require.NoError(t, json.Unmarshal(b, &cf))
	require.Equal(t, 0, cf.Bodies["One"], "One is node 0")
	return &cf
}

func TestCheckOnASmallDocument(t *testing.T) {
	f := smallForm(t)
	tests := []struct {
		name, body string
		ptr, rule  string // "" rule: no problem
		prose      bool
	}{
		{name: "items of node 0 are checked", body: `{"list":[{"a":"x"},5]}`, ptr: "/list/1", rule: "must be an object"},
		{name: "items of node 0 are checked: the first", body: `{"list":[5]}`, ptr: "/list/0", rule: "must be an object"},
		{name: "items of node 0 hold", body: `{"list":[{"a":"x"},{"b":"y"}]}`},
		{name: "the prose rules of items: the second", body: `{"list":[{"a":"x"},{"a":"x","b":"y"}]}`, ptr: "/list/1", rule: "must have exactly one of a, b (got a, b)", prose: true},
		{name: "the prose rules of items: the first", body: `{"list":[{},{"a":"x"}]}`, ptr: "/list/0", rule: "must have exactly one of a, b (got none)", prose: true},
		{name: "undeclared members of node 0's schema are checked", body: `{"map":{"k":5}}`, ptr: "/map/k", rule: "must be an object"},
		{name: "undeclared members of node 0's schema hold", body: `{"map":{"k":{"a":"x"}}}`},
		{name: "minLength counts characters: too short", body: `{"code":"ab"}`, ptr: "/code", rule: "must be at least 3 characters long"},
		{name: "minLength counts characters: not bytes", body: `{"code":"äö"}`, ptr: "/code", rule: "must be at least 3 characters long"},
		{name: "minLength counts characters: exactly", body: `{"code":"äöü"}`},
		{name: "date-time", body: `{"when":"2026-02-03T10:30:00Z"}`},
		{name: "date-time with a fraction", body: `{"when":"2026-02-03T10:30:00.123+02:00"}`},
		{name: "date-time: a date alone", body: `{"when":"2026-02-03"}`, ptr: "/when", rule: "must be an RFC 3339 date-time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkBody(f, f.Bodies["Body"], []byte(tt.body), Options{})
			if tt.rule == "" {
				require.NoError(t, err)
				return
			}
			var p *Problem
			require.True(t, errors.As(err, &p), "%v", err)
			assert.Equal(t, Problem{Pointer: tt.ptr, Rule: tt.rule, Prose: tt.prose}, *p)
		})
	}
}

// readSmall reads the small contract document both wire's and shape's
// tests compile.
func readSmall(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/small.yaml")
	require.NoError(t, err)
	return b
}

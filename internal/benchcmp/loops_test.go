package benchcmp

import (
	"encoding/json"
	"io"

	gojson "github.com/goccy/go-json"

	"github.com/seed-a15e58aa/workflow-go/internal/listbench"
)

// loop is a hand-written listing loop: its name and the streaming decoder
// it decodes each page with.
type loop struct {
	name       string
	newDecoder func(io.Reader) listbench.Decoder
}

// loops are the baselines, encoding/json's first (the SDK's bytes and
// allocations are reported against it). sonic_test.go adds sonic's where
// it builds.
var loops = []loop{
	{"encoding-json", func(r io.Reader) listbench.Decoder { return json.NewDecoder(r) }},
	{"goccy-go-json", func(r io.Reader) listbench.Decoder { return gojson.NewDecoder(r) }},
}

// loopNames are the names of loops, in order.
func loopNames() []string {
	names := make([]string, len(loops))
	for i, l := range loops {
		names[i] = l.name
	}
	return names
}

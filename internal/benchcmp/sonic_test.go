//go:build amd64 || arm64

package benchcmp

import (
	"io"

	"github.com/bytedance/sonic"

	"github.com/seed-a15e58aa/workflow-go/internal/listbench"
)

// sonic compiles its decoders for amd64 and arm64 only.
func init() {
	loops = append(loops, loop{"sonic", func(r io.Reader) listbench.Decoder { return sonic.ConfigDefault.NewDecoder(r) }})
}

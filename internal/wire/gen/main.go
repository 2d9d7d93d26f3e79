// Command gen compiles the request-body schemas of the contract document
// into wire's embedded form: go generate in internal/wire runs it.
package main

import (
	"fmt"
	"os"

	"github.com/seed-a15e58aa/workflow-go/internal/wire/internal/compile"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen DOCUMENT OUTPUT")
		os.Exit(2)
	}
	doc, err := os.ReadFile(os.Args[1])
	if err == nil {
		var f *compile.Form
		if f, err = compile.Compile(doc); err == nil {
			var out []byte
			if out, err = f.Marshal(); err == nil {
				err = os.WriteFile(os.Args[2], out, 0o644)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

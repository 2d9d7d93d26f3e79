// Command gen writes package op's table of operations from the contract
// document: go generate in internal/op runs it.
package main

import (
	"fmt"
	"os"

	"github.com/seed-a15e58aa/workflow-go/internal/op/internal/opgen"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen DOCUMENT OUTPUT")
		os.Exit(2)
	}
	doc, err := os.ReadFile(os.Args[1])
	if err == nil {
		var out []byte
		if out, err = opgen.Generate(doc); err == nil {
			err = os.WriteFile(os.Args[2], out, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

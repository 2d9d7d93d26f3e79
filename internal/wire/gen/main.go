// Command gen compiles the request-body schemas of the contract document
// into wire's embedded form: go generate in internal/wire runs it.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/seed-a15e58aa/workflow-go/internal/wire/internal/compile"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run compiles the document args[0] into the file args[1] and returns
// the exit code: 0, 1 on an error (written to stderr), 2 on a usage error.
func run(args []string, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: gen DOCUMENT OUTPUT")
		return 2
	}
	if err := generate(args[0], args[1]); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

func generate(document, output string) error {
	doc, err := os.ReadFile(document)
	if err != nil {
		return err
	}
	f, err := compile.Compile(doc)
	if err != nil {
		return err
	}
	out, err := f.Marshal()
	if err != nil {
		return err
	}
	return os.WriteFile(output, out, 0o644)
}

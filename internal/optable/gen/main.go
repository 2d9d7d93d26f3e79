// Command gen writes the table of a package's operations (see package
// optable): go generate in admin runs it, in the package's directory, as
// gen PACKAGE ROOT.
package main

import (
	"fmt"
	"os"

	"github.com/seed-a15e58aa/workflow-go/internal/optable"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen PACKAGE ROOT")
		os.Exit(2)
	}
	out, err := optable.File(".", os.Args[1], os.Args[2])
	if err == nil {
		err = os.WriteFile(optable.Name, out, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Command gen writes package admin's generated models from the contract
// document: go generate in admin runs it, in admin's directory.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/seed-a15e58aa/workflow-go/internal/modelgen"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen DOCUMENT DIRECTORY")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(document, dir string) error {
	doc, err := os.ReadFile(document)
	if err != nil {
		return err
	}
	for _, f := range modelgen.Admin {
		out, err := modelgen.Generate(doc, f, modelgen.Admin, modelgen.AdminHand)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name), out, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Command gen writes a package's generated models from the contract
// document: go generate in admin and in workflowtest runs it, in the
// package's directory.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/seed-a15e58aa/workflow-go/internal/modelgen"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gen DOCUMENT DIRECTORY PACKAGE")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(document, dir, pkg string) error {
	set, ok := modelgen.Sets[pkg]
	if !ok {
		return fmt.Errorf("gen: no models for package %q", pkg)
	}
	doc, err := os.ReadFile(document)
	if err != nil {
		return err
	}
	for _, f := range set.Files {
		out, err := modelgen.Generate(doc, f, set.Files, set.Hand)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name), out, 0o644); err != nil {
			return err
		}
	}
	return nil
}

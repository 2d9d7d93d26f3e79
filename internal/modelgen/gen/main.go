// Command gen writes a package's generated models from the contract
// document: go generate in the root package, in admin and in workflowtest
// runs it, in the package's directory.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

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
	files, err := set.Resolve(doc)
	if err != nil {
		return err
	}
	for _, f := range files {
		out, err := modelgen.Generate(doc, f, files, set.Hand)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name), out, 0o644); err != nil {
			return err
		}
	}
	if set.Bodies != "" && !slices.ContainsFunc(files, func(f modelgen.File) bool { return f.Name == set.Bodies }) {
		// No body needs a default type: the file of those is gone.
		if err := os.Remove(filepath.Join(dir, set.Bodies)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

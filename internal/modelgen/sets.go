package modelgen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// Sets are the generated files of each package, by the package's name,
// with the Go types of the schemas written by hand in it.
var Sets = map[string]struct {
	Files []File
	Hand  map[string]string
}{
	"admin":        {Admin, AdminHand},
	"workflow":     {Root, nil},
	"workflowtest": {Fake, nil},
}

// Stale returns the generated files of package pkg, in dir, that differ
// from what Generate makes of doc now (go generate rewrites them).
func Stale(doc []byte, pkg, dir string) ([]string, error) {
	set, ok := Sets[pkg]
	if !ok || len(set.Files) == 0 {
		return nil, fmt.Errorf("modelgen: no models for package %q", pkg)
	}
	var stale []string
	for _, f := range set.Files {
		want, err := Generate(doc, f, set.Files, set.Hand)
		if err != nil {
			return nil, err
		}
		if got, err := os.ReadFile(filepath.Join(dir, f.Name)); err != nil || !bytes.Equal(got, want) {
			stale = append(stale, f.Name)
		}
	}
	return stale, nil
}

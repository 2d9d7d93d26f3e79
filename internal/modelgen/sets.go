package modelgen

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Set is the generated models of a package.
type Set struct {
	Files []File
	// Hand are the Go types of the schemas written by hand in the
	// package, by schema name.
	Hand map[string]string
	// Tags are the tags of the document's operations whose request bodies
	// the package sends. The JSON request body of such an operation that no
	// type of Files is made of needs no configuration: it is made into a
	// request body named after its schema (see DefaultName), in the file
	// Bodies (added to Files if they have no such file), and so is an
	// object schema it names that has no type either. A body that is not an
	// object with members (a free-form object, whose members the package
	// forwards as they are) and the bodies of Skip are left out.
	Tags   []string
	Bodies string
	// Skip are request-body schemas the package does not model (it writes
	// what it sends by hand).
	Skip []string
}

// Sets are the generated files of each package, by the package's name.
var Sets = map[string]Set{
	"admin": {Files: Admin, Hand: AdminHand, Bodies: "bodies_gen.go",
		Tags: []string{"Domains", "Automations", "Views", "Elements", "Apps", "Flows", "Agents", "Skills", "Tables", "Search Tables"}},
	"workflow": {Files: Root, Bodies: "models_gen.go", Skip: []string{"AccessTokenRequest"}, // sent as a form (auth.go)
		Tags: []string{"Access token", "Records", "Related items", "Attachments", "Watchers", "Comments", "Users", "Groups"}},
	"workflowtest": {Files: Fake}, // it decodes bodies into package workflow's and admin's types
}

// Resolve returns the files of the set for doc: Files, with the request
// bodies of the set's operations that no type is made of in the file
// Bodies.
func (s Set) Resolve(doc []byte) ([]File, error) {
	comps, err := components(doc)
	if err != nil {
		return nil, err
	}
	ops, err := bodies(doc)
	if err != nil {
		return nil, err
	}
	made, names := map[string]bool{}, map[string]bool{}
	for _, f := range s.Files {
		for _, t := range f.Types {
			names[t.Name] = true
			for _, p := range slices.Concat(t.From, t.Also) {
				made[p] = true
			}
		}
	}
	for name := range s.Hand {
		made[name] = true
	}
	var extra []Type
	var add func(name, of string) error // of: what the schema is, for its doc comment
	add = func(name, of string) error {
		c := comps[name]
		if c == nil || made[name] || c.free || len(c.props) == 0 || slices.Contains(s.Skip, name) {
			return nil
		}
		t := Type{Name: DefaultName(name), From: []string{name}, Body: true}
		t.Doc = t.Name + " is " + of + "."
		if names[t.Name] {
			return fmt.Errorf("modelgen: the default name of body schema %s, %s, is taken: name its type in the configuration", name, t.Name)
		}
		made[name], names[t.Name] = true, true
		extra = append(extra, t)
		for _, p := range c.props {
			ref := p.s.ref
			if p.s.items != nil {
				ref = p.s.items.ref
			}
			if err := add(ref, "a member of "+t.Name); err != nil {
				return err
			}
		}
		return nil
	}
	users := map[string][]string{} // operations by body schema
	var order []string
	for _, b := range ops {
		if !slices.ContainsFunc(b.tags, func(t string) bool { return slices.Contains(s.Tags, t) }) {
			continue
		}
		if b.schema == "" {
			return nil, fmt.Errorf("modelgen: the body of %s is an inline schema: make it a component", b.op)
		}
		if users[b.schema] == nil {
			order = append(order, b.schema)
		}
		users[b.schema] = append(users[b.schema], b.op)
	}
	for _, name := range order {
		if err := add(name, "the body of "+strings.Join(users[name], " and ")); err != nil {
			return nil, err
		}
	}
	files := slices.Clone(s.Files)
	if len(extra) == 0 {
		return files, nil
	}
	i := slices.IndexFunc(files, func(f File) bool { return f.Name == s.Bodies })
	if i < 0 {
		files = append(files, File{Package: files[0].Package, Name: s.Bodies})
		i = len(files) - 1
	}
	files[i].Types = slices.Concat(files[i].Types, extra)
	return files, nil
}

// initialisms match the words a Go name writes in capitals, followed by
// the next word or the end.
var initialisms = map[string]*regexp.Regexp{"ID": regexp.MustCompile(`Id(s?)([A-Z]|$)`), "URL": regexp.MustCompile(`Url(s?)([A-Z]|$)`)}

// DefaultName is the Go name of the schema name where the configuration
// gives none: name, exported, with Id and Url written as ID and URL
// ("GroupUserIdsInput" is GroupUserIDsInput).
func DefaultName(name string) string {
	r := []rune(name)
	r[0] = unicode.ToUpper(r[0])
	n := string(r)
	for word, re := range initialisms {
		n = re.ReplaceAllString(n, word+"${1}${2}")
	}
	return n
}

// Stale returns the generated files of package pkg, in dir, that differ
// from what Generate makes of doc now (go generate rewrites them).
func Stale(doc []byte, pkg, dir string) ([]string, error) {
	set, ok := Sets[pkg]
	if !ok || len(set.Files) == 0 {
		return nil, fmt.Errorf("modelgen: no models for package %q", pkg)
	}
	files, err := set.Resolve(doc)
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, f := range files {
		want, err := Generate(doc, f, files, set.Hand)
		if err != nil {
			return nil, err
		}
		if got, err := os.ReadFile(filepath.Join(dir, f.Name)); err != nil || !bytes.Equal(got, want) {
			stale = append(stale, f.Name)
		}
	}
	if gone := set.Bodies; gone != "" && !slices.ContainsFunc(files, func(f File) bool { return f.Name == gone }) {
		if _, err := os.Stat(filepath.Join(dir, gone)); !errors.Is(err, fs.ErrNotExist) {
			stale = append(stale, gone) // go generate removes it
		}
	}
	return stale, nil
}

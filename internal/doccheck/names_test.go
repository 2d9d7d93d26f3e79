package doccheck

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// docPackages are the packages whose doc comments name only what exists.
var docPackages = []string{".", "admin", "upsert", "rsql", "workflowtest"}

// TestDocNamesExist checks that every doc comment of the public packages
// names only identifiers its package has: each Xxx or Xxx.Yyy in
// backquotes, and each at the start of a sentence that is written like an
// identifier (a capital inside the word, or a dot between two names).
func TestDocNamesExist(t *testing.T) {
	tests := map[string]bool{} // a package's doc may name the tests of another
	sets := map[string]nameSet{}
	docs := map[string][]namedDoc{}
	for _, dir := range docPackages {
		sets[dir], docs[dir] = packageNames(t, filepath.Join("../..", dir))
		for n := range sets[dir].names {
			if strings.HasPrefix(n, "Test") {
				tests[n] = true
			}
		}
	}
	for _, dir := range docPackages {
		t.Run(dir, func(t *testing.T) {
			names := sets[dir]
			for _, d := range docs[dir] {
				for _, ref := range docRefs(d.text) {
					if !names.has(d.owner, ref) && !tests[ref] {
						t.Errorf("%s: the doc comment of %s names %s, which the package does not have", dir, d.of, ref)
					}
				}
			}
		})
	}
}

func TestDocRefs(t *testing.T) {
	text := "AddComment returns it. The JSON body. See `Client.Do` and `x`.\nOpenAPI is not a name. Records.All walks; use workflow.Record: NotAName.\nRetryPolicy.AttemptTimeout bounds it, as RemoveItem does. \n\nSaveTo writes."
	got := docRefs(text)
	want := []string{"AddComment", "Client.Do", "Records.All", "RetryPolicy.AttemptTimeout", "SaveTo"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("docRefs = %q, want %q", got, want)
	}
}

// namedDoc is one doc comment, what it documents, and the type it
// belongs to (a bare name in it may be one of that type's methods or
// fields).
type namedDoc struct{ of, owner, text string }

// nameSet is what a package names: its identifiers, Type.Method and
// Type.Field, and the type of each field.
type nameSet struct {
	names     map[string]bool
	fieldType map[string]string // "Client.Records": "RecordsService"
}

// has reports whether ref names something of the package, seen from a doc
// comment of owner: a name of the package or of owner, or Field.Name
// through a field of that name of any type.
func (s nameSet) has(owner, ref string) bool {
	if s.names[ref] || owner != "" && s.names[owner+"."+ref] {
		return true
	}
	field, member, ok := strings.Cut(ref, ".")
	if !ok {
		for k := range s.names { // a method or field of another type
			if strings.HasSuffix(k, "."+ref) {
				return true
			}
		}
		return false
	}
	for k, typ := range s.fieldType {
		if strings.HasSuffix(k, "."+field) && s.names[typ+"."+member] {
			return true
		}
	}
	return false
}

// packageNames returns the exported names of the package in dir (its
// identifiers, and Type.Method and Type.Field, promoted ones included)
// and its doc comments.
func packageNames(t *testing.T, dir string) (nameSet, []namedDoc) {
	t.Helper()
	fset, files, testFiles := parseDir(t, dir)
	names := map[string]bool{}
	for _, f := range testFiles {
		for _, d := range f.Decls { // the package doc may name its tests
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				names[fd.Name.Name] = true
			}
		}
	}
	p, err := doc.NewFromFiles(fset, files, "example.test/"+dir, doc.AllMethods)
	if err != nil {
		t.Fatal(err)
	}
	fieldType := map[string]string{}
	docs := []namedDoc{{"the package", "", p.Doc}}
	values := func(owner string, vs []*doc.Value) {
		for _, v := range vs {
			docs = append(docs, namedDoc{strings.Join(v.Names, ", "), owner, v.Doc})
			for _, n := range v.Names {
				names[n] = true
			}
			for _, spec := range v.Decl.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok && vs.Doc != nil {
					docs = append(docs, namedDoc{vs.Names[0].Name, owner, vs.Doc.Text()})
				}
			}
		}
	}
	funcs := func(owner string, fs []*doc.Func) {
		for _, f := range fs {
			name := f.Name
			if owner != "" && f.Recv != "" {
				name = owner + "." + f.Name
			}
			names[name] = true
			docs = append(docs, namedDoc{name, owner, f.Doc})
		}
	}
	values("", p.Consts)
	values("", p.Vars)
	funcs("", p.Funcs)
	for _, typ := range p.Types {
		names[typ.Name] = true
		docs = append(docs, namedDoc{typ.Name, typ.Name, typ.Doc})
		values(typ.Name, typ.Consts)
		values(typ.Name, typ.Vars)
		funcs("", typ.Funcs)
		funcs(typ.Name, typ.Methods)
		for _, spec := range typ.Decl.Specs {
			ts, ok := spec.(*ast.TypeSpec)
			if !ok {
				continue
			}
			var fields *ast.FieldList
			switch x := ts.Type.(type) {
			case *ast.StructType:
				fields = x.Fields
			case *ast.InterfaceType:
				fields = x.Methods
			}
			if fields == nil {
				continue
			}
			for _, f := range fields.List {
				ft := strings.TrimPrefix(types(f.Type), "*")
				for _, n := range f.Names {
					names[typ.Name+"."+n.Name] = true
					fieldType[typ.Name+"."+n.Name] = ft
				}
				if len(f.Names) == 0 { // embedded: its name is a field too
					names[typ.Name+"."+ft] = true
				}
				for _, c := range []*ast.CommentGroup{f.Doc, f.Comment} {
					if c != nil {
						docs = append(docs, namedDoc{typ.Name + " field", typ.Name, c.Text()})
					}
				}
			}
		}
	}
	return nameSet{names, fieldType}, docs
}

// parseDir parses the Go files of the package in dir, with comments: its
// own files, and its test files apart.
func parseDir(t *testing.T, dir string) (fset *token.FileSet, files, testFiles []*ast.File) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset = token.NewFileSet()
	for _, path := range paths {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(path, "_test.go") {
			testFiles = append(testFiles, f)
		} else {
			files = append(files, f)
		}
	}
	return fset, files, testFiles
}

// types prints the name of an embedded field's type.
func types(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.StarExpr:
		return "*" + types(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.IndexExpr:
		return types(x.X)
	}
	return ""
}

var (
	backquoted = regexp.MustCompile("`([A-Z][A-Za-z0-9]*(?:\\.[A-Z][A-Za-z0-9]*)?)`")
	// sentenceStart is a word that starts a sentence: after the start of
	// the text or a paragraph, or after ". ".
	sentenceStart = regexp.MustCompile(`(?:^|\n\n|[.?!]\s+)([A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)?)\b`)
)

// docRefs returns the identifiers a doc comment names, in order.
func docRefs(text string) []string {
	var out []string
	for _, m := range backquoted.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	for _, m := range sentenceStart.FindAllStringSubmatch(text, -1) {
		if w := m[1]; strings.Contains(w, ".") || identifierLike(w) {
			out = append(out, w)
		}
	}
	return dedupeSorted(out, text)
}

// identifierLike reports whether a word is written like an identifier:
// a capital after a lower-case letter (AddComment), not an acronym (JSON,
// URLs) or a product written in camel case (OpenAPI, OpenTelemetry,
// OpenTofu, GitHub).
func identifierLike(w string) bool {
	switch w {
	case "OpenAPI", "OpenTelemetry", "OpenTofu", "GitHub", "JavaScript", "PowerShell", "NaN":
		return false
	}
	for i := 1; i < len(w); i++ {
		if unicode.IsLower(rune(w[i-1])) && unicode.IsUpper(rune(w[i])) {
			return true
		}
	}
	return false
}

// dedupeSorted drops repeats and orders refs by their first place in text.
func dedupeSorted(refs []string, text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range refs {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	pos := func(r string) int { return strings.Index(text, r) }
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && pos(out[j]) < pos(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// TestListDocsNameTheirElementType: the List, Pages and All that a
// service has from an embedded generic list name, in their doc comments,
// the service's element type (go doc prints their signatures with T).
func TestListDocsNameTheirElementType(t *testing.T) {
	fset, files, _ := parseDir(t, "../..")
	p, err := doc.NewFromFiles(fset, files, "example.test/root", doc.AllMethods|doc.AllDecls)
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string][]*doc.Func{}
	for _, typ := range p.Types {
		methods[typ.Name] = typ.Methods
	}
	checked := 0
	for _, typ := range p.Types {
		st, ok := typ.Decl.Specs[0].(*ast.TypeSpec).Type.(*ast.StructType)
		if !ok {
			continue
		}
		for _, f := range st.Fields.List {
			ix, ok := f.Type.(*ast.IndexExpr)
			if !ok || len(f.Names) != 0 {
				continue
			}
			elem := types(ix.Index)
			for _, m := range methods[types(ix.X)] {
				if m.Name != "List" && m.Name != "Pages" && m.Name != "All" {
					continue
				}
				checked++
				if !regexp.MustCompile(`\b` + elem + `\b`).MatchString(m.Doc) {
					t.Errorf("%s.%s: the doc comment does not name the element type %s", typ.Name, m.Name, elem)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no list method of an embedded generic list found")
	}
}

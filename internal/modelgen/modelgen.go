// Package modelgen writes Go models from the schemas of the contract
// document: the read models and request bodies of package workflow (the
// records API) and of admin, and the fake's own. A File of the
// configuration (see Root and Admin) names, for each Go type, the schemas
// it is made of and says what the document cannot: its doc comment where
// the document has no description, member names that do not follow from
// the JSON names, and whether it is a read model or a request body. An
// operation's request body that the configuration does not name needs no
// entry: it is made into a body named after its schema (see Set).
//
// A read model's members are Opt values (absent, null or a value), but
// for objects the document leaves free-form, kept as raw JSON
// (jsontext.Value); the records API's read models keep plain values,
// whose zero value is left out (Plain). A request body's required members
// are plain values; its optional ones are pointers, slices or raw JSON,
// whose zero value leaves the member out. A type made of several schemas
// (a create and an update input of one shape) has the members of all, in
// the order they first appear, and requires a member only where all of
// them require it. Every type keeps the members it does not model in
// Extra, and has the JSON methods of package jsonmodel, but for plain
// structs whose every member is written (Reply): the replies the fake
// builds, and bodies the SDK sends as they are.
//
// It runs at generate time and in tests only.
package modelgen

import (
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"slices"
	"strings"
	"unicode"
)

// File is a generated file of Go models.
type File struct {
	Package string // the package the file is in
	Name    string // the file's name in that package's directory
	Types   []Type
}

// Type is a Go type made of one or more schemas of the document.
type Type struct {
	Name string
	// From are the schemas it is made of: a component's name, then
	// ".member" for an inline object schema of a member and "[]" for the
	// items of an array ("TableField.calculation",
	// "TableFieldsV3UpdateInput.creates[]").
	From []string
	// Also are schemas the type stands for without adding members (one
	// that is another's $ref, or the allOf of another and a member it
	// already has).
	Also []string
	// Body says that the type is a request body (or a member of one).
	Body bool
	// Reply says that the type is a plain struct, a reply the fake builds
	// or a body the SDK sends as it is: its members are plain values,
	// every one written, empty or not, and it has neither Extra nor JSON
	// methods (either JSON library writes it as it is).
	Reply bool
	// Plain says that the type is a read model of plain values (the
	// records API's): its members are not Opt values, and a member whose
	// value is zero is left out (omitzero), but where Tags says otherwise.
	Plain bool
	// Doc is the type's doc comment where the document cannot say it (what
	// uses the type, what the SDK makes of it); the first schema's
	// description follows it.
	Doc string
	// Extra is the doc comment of the Extra member, where the default
	// does not do.
	Extra string
	// Names are Go field names by JSON member name, where the member's
	// name with its first letter in upper case (and a final "Id" as "ID")
	// does not do.
	Names map[string]string
	// Notes are member comments by JSON member name, for what the
	// document's description of the member (which follows) does not say.
	// A short comment follows the member, a longer one comes before it.
	Notes map[string]string
	// GoTypes are the Go types of members by JSON member name (of their
	// elements, for arrays), where the document's type does not say which
	// (an int32, an inline enum's named type).
	GoTypes map[string]string
	// Tags are the options of members' json tags by JSON member name
	// ("omitempty", or "" for none), where the kind of type does not say
	// them.
	Tags map[string]string
	// Args are the names of the arguments members come from, by JSON
	// member name, for the errors that name them (an arg tag; see package
	// check).
	Args map[string]string
	// NotesOnly says that a member's note is its whole comment: the
	// document's description, which the note says in other words, does not
	// follow it.
	NotesOnly bool
	// Unmarshal is the function of package jsonmodel that UnmarshalJSON
	// calls, where the default (Unmarshal, or UnmarshalBody for a body)
	// does not do; "-" leaves UnmarshalJSON to be written by hand.
	Unmarshal string
	// Forwarded are members the document's properties do not list but its
	// description names as forwarded as they are: their JSON names and Go
	// types, after the document's members.
	Forwarded [][2]string
}

// Generate returns the Go source of f from doc, the contract document
// (YAML). Hand maps the names of schemas whose Go types are written by
// hand (the enums, with their constants) to those types; the other types
// the members name must be among those of files.
func Generate(doc []byte, f File, files []File, hand map[string]string) ([]byte, error) {
	comps, err := components(doc)
	if err != nil {
		return nil, err
	}
	g := &gen{comps: comps, byPath: map[string]string{}, hand: hand}
	for _, file := range files {
		for _, t := range file.Types {
			for _, p := range slices.Concat(t.From, t.Also) {
				if prev, dup := g.byPath[p]; dup {
					return nil, fmt.Errorf("modelgen: schema %s is made into %s and %s", p, prev, t.Name)
				}
				g.byPath[p] = t.Name
			}
		}
	}
	var body bytes.Buffer
	for _, t := range f.Types {
		for _, a := range t.Also {
			if name, _, _ := strings.Cut(a, "."); g.comps[strings.TrimSuffix(name, "[]")] == nil {
				return nil, fmt.Errorf("modelgen: %s stands for %s: no schema %s", t.Name, a, name)
			}
		}
		if err := g.write(&body, t); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go run ./internal/modelgen/gen from the contract document; DO NOT EDIT.\n\npackage %s\n\n", f.Package)
	var lib, std, mod []string // the imports the file uses: the standard library's, the JSON library's, this module's
	if g.usesTime {
		lib = append(lib, "\"time\"")
	}
	if bytes.Contains(body.Bytes(), []byte("jsontext.")) {
		std = append(std, "\"github.com/go-json-experiment/json/jsontext\"")
	}
	if f.Package != "workflow" && bytes.Contains(body.Bytes(), []byte("workflow.")) {
		mod = append(mod, "workflow \"github.com/seed-a15e58aa/workflow-go\"")
	}
	if bytes.Contains(body.Bytes(), []byte("jsonmodel.")) {
		mod = append(mod, "\"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel\"")
	}
	if len(lib)+len(std)+len(mod) > 0 {
		b.WriteString("import (\n")
		for _, group := range [][]string{lib, std, mod} {
			for _, imp := range group {
				b.WriteString("\t" + imp + "\n")
			}
			b.WriteString("\n")
		}
		b.WriteString(")\n")
	}
	b.Write(body.Bytes())
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("modelgen: formatting %s: %w", f.Name, err)
	}
	return out, nil
}

type gen struct {
	comps  map[string]*schema
	byPath map[string]string // Go type by schema path
	hand   map[string]string // Go types written by hand, by schema name
	// usesTime says that a member is of a type of package time.
	usesTime bool
}

// at returns the schema at path.
func (g *gen) at(path string) (*schema, error) {
	name, rest, _ := strings.Cut(path, ".")
	name, arr := strings.CutSuffix(name, "[]")
	s := g.comps[name]
	if s == nil {
		return nil, fmt.Errorf("modelgen: no schema %s", name)
	}
	steps := []string{}
	if arr {
		steps = append(steps, "[]")
	}
	for rest != "" {
		var step string
		step, rest, _ = strings.Cut(rest, ".")
		step, arr = strings.CutSuffix(step, "[]")
		steps = append(steps, "."+step)
		if arr {
			steps = append(steps, "[]")
		}
	}
	for _, st := range steps {
		switch {
		case st == "[]":
			s = s.items
		default:
			i := slices.IndexFunc(s.props, func(p prop) bool { return p.name == st[1:] })
			if i < 0 {
				return nil, fmt.Errorf("modelgen: %s: no member %s", path, st[1:])
			}
			s = s.props[i].s
		}
		if s == nil {
			return nil, fmt.Errorf("modelgen: %s: no such schema", path)
		}
	}
	if s.ref != "" || (s.typ != "object" && s.typ != "") {
		return nil, fmt.Errorf("modelgen: %s is not an inline object schema", path)
	}
	return s, nil
}

// member is a member of a generated type.
type member struct {
	json, goName, goType, note string
	required, raw, list        bool
}

// goType returns the Go type of s, found at path, and whether it is kept
// as raw JSON.
func (g *gen) goType(s *schema, path string) (string, bool, error) {
	if s.ref != "" {
		c := g.comps[s.ref]
		if c == nil {
			return "", false, fmt.Errorf("modelgen: %s: no schema %s", path, s.ref)
		}
		if n, ok := g.hand[s.ref]; ok {
			return n, false, nil
		}
		if c.enum {
			return "", false, fmt.Errorf("modelgen: %s: enum %s has no Go type", path, s.ref)
		}
		if c.typ != "object" && c.typ != "" {
			return g.goType(c, s.ref)
		}
		path = s.ref
		s = c
	}
	switch s.typ {
	case "string":
		return "string", false, nil
	case "integer":
		return "int", false, nil
	case "number":
		return "float64", false, nil
	case "boolean":
		return "bool", false, nil
	case "array":
		if s.items == nil {
			return "", false, fmt.Errorf("modelgen: %s: an array without items", path)
		}
		t, _, err := g.goType(s.items, path+"[]")
		return "[]" + t, false, err
	}
	if n, ok := g.byPath[path]; ok {
		return n, false, nil
	}
	if len(s.props) == 0 {
		return "jsontext.Value", true, nil
	}
	return "", false, fmt.Errorf("modelgen: %s has no Go type: name one in the configuration", path)
}

// members returns the members of t.
func (g *gen) members(t Type) ([]member, string, error) {
	var out []member
	desc := ""
	for i, path := range t.From {
		s, err := g.at(path)
		if err != nil {
			return nil, "", err
		}
		if i == 0 {
			desc = s.description
		}
		for _, p := range s.props {
			var typ string
			var raw bool
			if gt, ok := t.GoTypes[p.name]; ok {
				typ = gt
				if p.s.typ == "array" {
					typ = "[]" + gt
				}
			} else if typ, raw, err = g.goType(p.s, path+"."+p.name); err != nil {
				return nil, "", err
			}
			req := slices.Contains(s.required, p.name)
			j := slices.IndexFunc(out, func(m member) bool { return m.json == p.name })
			if j >= 0 {
				if out[j].goType != typ {
					return nil, "", fmt.Errorf("modelgen: %s: member %s is %s in one schema, %s in another", t.Name, p.name, out[j].goType, typ)
				}
				continue
			}
			m := member{json: p.name, goName: fieldName(p.name), goType: typ, required: req && i == 0, raw: raw, list: strings.HasPrefix(typ, "[]")}
			if n, ok := t.Names[p.name]; ok {
				m.goName = n
			}
			m.note = withDescription(t.Notes[p.name], p.s.description)
			if note, ok := t.Notes[p.name]; ok && t.NotesOnly {
				m.note = note
			}
			out = append(out, m)
		}
	}
	for _, f := range t.Forwarded {
		m := member{json: f[0], goName: fieldName(f[0]), goType: f[1], note: t.Notes[f[0]], list: strings.HasPrefix(f[1], "[]")}
		if n, ok := t.Names[f[0]]; ok {
			m.goName = n
		}
		out = append(out, m)
	}
	// A member is required only where every schema requires it.
	for i := range out {
		for _, path := range t.From[1:] {
			s, _ := g.at(path)
			if !slices.Contains(s.required, out[i].json) {
				out[i].required = false
			}
		}
	}
	return out, desc, nil
}

// withDescription returns the comment the configuration gives (what the
// document cannot say) followed by the document's description, which is
// left out where the comment says it already.
func withDescription(comment, description string) string {
	description = strings.Join(strings.Fields(description), " ")
	switch {
	case description == "":
		return comment
	case comment == "":
		return description
	case strings.Contains(strings.ToLower(strings.Join(strings.Fields(comment), " ")), strings.ToLower(strings.TrimSuffix(description, "."))):
		return comment
	}
	sep := " "
	if strings.Contains(comment, "\n\n") {
		sep = "\n\n"
	}
	return strings.TrimSuffix(comment, ".") + "." + sep + description
}

// fieldName is the Go name of a JSON member.
func fieldName(j string) string {
	r := []rune(strings.TrimLeft(j, "_"))
	r[0] = unicode.ToUpper(r[0])
	n := string(r)
	if n == "Id" || (strings.HasSuffix(n, "Id") && len(n) > 2) {
		n = strings.TrimSuffix(n, "Id") + "ID"
	}
	if strings.HasSuffix(n, "Url") {
		n = strings.TrimSuffix(n, "Url") + "URL"
	}
	if strings.HasSuffix(n, "Ids") {
		n = strings.TrimSuffix(n, "Ids") + "IDs"
	}
	return n
}

// maxTrailing is the longest member comment written after the member.
const maxTrailing = 48

func (g *gen) write(b *bytes.Buffer, t Type) error {
	ms, desc, err := g.members(t)
	if err != nil {
		return err
	}
	doc := withDescription(t.Doc, desc)
	if doc == "" && exported(t.Name) {
		return fmt.Errorf("modelgen: %s has no doc comment, in the document or the configuration", t.Name)
	}
	b.WriteString("\n")
	comment(b, "", doc)
	fmt.Fprintf(b, "type %s struct {\n", t.Name)
	for _, m := range ms {
		typ, tag := m.goType, m.json
		switch {
		case t.Reply:
		case t.Plain:
			tag += ",omitzero"
		case !t.Body && m.raw:
			tag += ",omitzero"
		case !t.Body:
			typ, tag = "Opt["+typ+"]", tag+",omitzero"
		case m.required:
		case m.raw || m.list:
			tag += ",omitzero"
		default:
			typ, tag = "*"+typ, tag+",omitzero"
		}
		if opts, ok := t.Tags[m.json]; ok {
			tag = strings.TrimSuffix(m.json+","+opts, ",")
		}
		tag = "json:\"" + tag + "\""
		if arg, ok := t.Args[m.json]; ok {
			tag += " arg:\"" + arg + "\""
		}
		g.usesTime = g.usesTime || strings.Contains(typ, "time.")
		note := strings.Join(strings.Fields(m.note), " ")
		above := len(note) > maxTrailing || strings.HasPrefix(note, m.goName+" ") || strings.HasPrefix(note, m.goName+":")
		if above {
			comment(b, "\t", note)
		}
		fmt.Fprintf(b, "\t%s %s `%s`", m.goName, typ, tag)
		if note != "" && !above {
			b.WriteString(" // " + note)
		}
		b.WriteString("\n")
	}
	if t.Reply {
		b.WriteString("}\n")
		return nil
	}
	extra := t.Extra
	if extra == "" && t.Body {
		extra = "Extra holds further members, forwarded as they are."
	} else if extra == "" {
		extra = "Extra holds the members the fields above do not model, as raw JSON."
	}
	comment(b, "\t", extra)
	b.WriteString("\tExtra map[string]jsontext.Value `json:\",embed\"`\n}\n\n")
	unmarshal := "Unmarshal"
	if t.Body {
		unmarshal = "UnmarshalBody"
	}
	unmarshal = cmp.Or(t.Unmarshal, unmarshal)
	comment(b, "", "MarshalJSON writes v as JSON, with its Extra members.")
	fmt.Fprintf(b, "func (v %s) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(v) }\n", t.Name)
	if unmarshal == "-" {
		return nil
	}
	reads := "unknown members go to Extra."
	if unmarshal == "UnmarshalBody" {
		reads = "unknown members go to Extra, and a null member is an error."
	}
	b.WriteString("\n")
	comment(b, "", "UnmarshalJSON reads v from JSON; "+reads)
	fmt.Fprintf(b, "func (v *%s) UnmarshalJSON(b []byte) error { return jsonmodel.%s(b, v) }\n", t.Name, unmarshal)
	return nil
}

// exported reports whether name is exported.
func exported(name string) bool { return unicode.IsUpper([]rune(name)[0]) }

// comment writes text as a comment, wrapped, each line indented by
// indent; a blank line separates paragraphs, and a paragraph whose lines
// begin with a tab (code) is written as it is.
func comment(b *bytes.Buffer, indent, text string) {
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if para == "" {
			continue
		}
		if i > 0 {
			b.WriteString(indent + "//\n")
		}
		if strings.HasPrefix(para, "\t") {
			for line := range strings.SplitSeq(para, "\n") {
				b.WriteString(indent + "//" + line + "\n")
			}
			continue
		}
		line := indent + "//"
		for _, w := range strings.Fields(para) {
			if len(line)+1+len(w) > 76 && line != indent+"//" {
				b.WriteString(line + "\n")
				line = indent + "//"
			}
			line += " " + w
		}
		b.WriteString(line + "\n")
	}
}

package imports

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"golang.org/x/text/unicode/norm"
)

// A resource's name is an identifier of the HCL native syntax: "_" or a
// character of Unicode's ID_Start, then characters of ID_Continue or "-"
// (hclsyntax's spec.md, "Identifiers"). Letters of every script are
// among them, so names keep the letters of the objects' names, "ü" and
// "ж" as "a": OpenTofu and Terraform check a name with
// hclsyntax.ValidIdentifier, which is asked here too, so that a name is
// valid for the Unicode version of their parser (9.0), not of Go's.

// identStart reports whether r may begin a name.
func identStart(r rune) bool { return hclsyntax.ValidIdentifier(string(r)) }

// identContinue reports whether r may follow the first character of a
// name.
func identContinue(r rune) bool { return hclsyntax.ValidIdentifier("a" + string(r)) }

// resourceName makes s a resource name that reads as s does:
//
//   - compatibility characters are folded first (Unicode's NFKC: "ﬁ" is
//     "fi", "²" is "2", full-width letters are ASCII ones), and the
//     result is put in lower case;
//   - letters, digits and combining marks are kept, of every script
//     ("Überprüfung" is "überprüfung");
//   - a letter or digit the parser does not know (of a Unicode version
//     newer than its) is written as its code point, "u" and hexadecimal
//     digits, a word of its own: never dropped;
//   - every run of anything else (spaces, punctuation, "-", symbols) is
//     one underscore, and none leads or trails;
//   - a name that would begin with a digit or a mark is prefixed with an
//     underscore; one left empty is "unnamed".
func resourceName(s string) string {
	var b strings.Builder
	sep := false // a separator is owed before the next word character
	word := func(w string) {
		if sep && b.Len() > 0 {
			b.WriteByte('_')
		}
		sep = false
		b.WriteString(w)
	}
	for _, r := range strings.ToLower(norm.NFKC.String(s)) {
		switch {
		case r == '_' || r == '-':
			sep = true
		case identContinue(r):
			word(string(r))
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			sep = true
			word("u" + strconv.FormatInt(int64(r), 16))
			sep = true
		default:
			sep = true
		}
	}
	n := b.String()
	switch {
	case n == "":
		return "unnamed"
	case !identStart([]rune(n)[0]):
		return "_" + n
	}
	return n
}

// namer makes the blocks' resource names: valid, and unique per type.
type namer struct {
	used   map[string]bool // the addresses (type.name) given
	blocks []Block
}

// add appends the block of the object name of type typ, importing id,
// with the note note: named after name, or, when another block of typ
// has that name, after name with the first suffix _2, _3, ... that none
// has.
func (n *namer) add(typ, name, id, note string) {
	if n.used == nil {
		n.used = map[string]bool{}
	}
	base := resourceName(name)
	r := base
	for k := 2; n.used[typ+"."+r]; k++ {
		r = fmt.Sprintf("%s_%d", base, k)
	}
	n.used[typ+"."+r] = true
	n.blocks = append(n.blocks, Block{Type: typ, Name: r, ID: id, Note: note})
}

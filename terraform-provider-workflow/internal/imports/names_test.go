package imports

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"golang.org/x/text/unicode/norm"
)

func TestResourceName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Welcome new accounts", "welcome_new_accounts"},
		{"by-tier", "by_tier"},
		{"  Gold  (VIP) ", "gold_vip"},
		{"x_-_y", "x_y"},
		{"_private", "private"},
		// a leading digit gets a prefix
		{"2024 review", "_2024_review"},
		{"٣ items", "_٣_items"}, // an Arabic-Indic digit is a digit
		// letters beyond ASCII are kept, in lower case
		{"Überprüfung", "überprüfung"},
		{"Ärger über Öl", "ärger_über_öl"},
		{"Straße", "straße"},
		{"Счета клиентов", "счета_клиентов"},
		{"Σίσυφος", "σίσυφος"},
		{"顧客一覧", "顧客一覧"},
		{"カスタマー", "カスタマー"},
		{"حساب العميل", "حساب_العميل"},
		{"Cafe\u0301", "caf\u00e9"}, // composed: the mark joins its letter
		{"\u0301abc", "_\u0301abc"}, // a mark cannot begin a name
		// compatibility characters are folded
		{"ﬁle x²", "file_x2"},
		{"２０２４ Plan", "_2024_plan"},
		{"Ⅻ legion", "xii_legion"},
		// a letter newer than the parser's Unicode is its code point
		{"\U00030000 table", "u30000_table"},
		{"a\U00030000b", "a_u30000_b"},
		// symbols are separators; nothing left is "unnamed"
		{"🚀 Launch", "launch"},
		{"", "unnamed"},
		{"!!!", "unnamed"},
		{"🚀", "unnamed"},
	} {
		got := resourceName(tc.in)
		if got != tc.want {
			t.Errorf("resourceName(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if !hclsyntax.ValidIdentifier(got) {
			t.Errorf("resourceName(%q) = %q: not an identifier", tc.in, got)
		}
		// a name is its own name (a join's mappings are named after the join's)
		if again := resourceName(got); again != got {
			t.Errorf("resourceName(%q) = %q, not %q", got, again, got)
		}
	}
}

// TestResourceNameKeepsLetters: for every letter and digit of the first
// planes, alone and between two words, the name is an identifier of
// HCL's, and holds the letter (folded and in lower case) or its code
// point: no letter is dropped.
func TestResourceNameKeepsLetters(t *testing.T) {
	checked := 0
	for r := rune(0); r < 0x40000; r++ {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			continue
		}
		folded := strings.ToLower(norm.NFKC.String(string(r)))
		for _, in := range []string{string(r), "x " + string(r) + " y"} {
			got := resourceName(in)
			if !hclsyntax.ValidIdentifier(got) {
				t.Fatalf("resourceName(%q) = %q: not an identifier", in, got)
			}
			for _, f := range folded {
				if (unicode.IsLetter(f) || unicode.IsNumber(f)) &&
					!strings.ContainsRune(got, f) && !strings.Contains(got, "u"+strconv.FormatInt(int64(f), 16)) {
					t.Fatalf("resourceName(%q) = %q: %U dropped", in, got, f)
				}
			}
		}
		checked++
	}
	if checked < 100000 {
		t.Errorf("only %d letters and digits checked", checked)
	}
}

// TestNamer: every block's address is unique, whatever names the objects
// have, one already looking like a suffixed other included; each type
// has names of its own.
func TestNamer(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"a", "a", "a"}, "a a_2 a_3"},
		{[]string{"a_2", "a", "a"}, "a_2 a a_3"},
		{[]string{"a", "a", "a_2"}, "a a_2 a_2_2"},
		{[]string{"a", "A", "a_3", "a", "a"}, "a a_2 a_3 a_4 a_5"},
		{[]string{"", "!", "unnamed"}, "unnamed unnamed_2 unnamed_3"},
		{[]string{"Über", "über", "ÜBER"}, "über über_2 über_3"},
		{[]string{"2024", "_2024", "2024"}, "_2024 _2024_2 _2024_3"},
	} {
		var n namer
		for i, name := range tc.names {
			n.add("workflow_view", name, strconv.Itoa(i), "")
		}
		n.add("workflow_agent", tc.names[0], "other", "") // another type: its own names
		var got []string
		for _, b := range n.blocks[:len(tc.names)] {
			got = append(got, b.Name)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("names of %q: %v, want %s", tc.names, got, tc.want)
		}
		if last := n.blocks[len(tc.names)]; last.Name != resourceName(tc.names[0]) {
			t.Errorf("names of %q: the agent is %s, want %s", tc.names, last.Name, resourceName(tc.names[0]))
		}
	}
}

func ExampleBlock_String() {
	fmt.Print(Block{Type: "workflow_table", Name: resourceName("Überprüfung"), ID: "t1", Note: "table \"Überprüfung\"\n(ueb)"})
	// Output:
	// # table "Überprüfung" (ueb)
	// import {
	//   to = workflow_table.überprüfung
	//   id = "t1"
	// }
}

package doccheck

import (
	"fmt"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// command is one documented shell command.
type command struct {
	// shell is the command as sh runs it from the repository's root, its
	// cd included and its comment left out.
	shell string
	// dir is the directory the command runs its program from, relative to
	// the root ("." for the root).
	dir string
	// notes are the texts next to the command: its # comment, or the rest
	// of its table cell or paragraph.
	notes []string
	// where are the places it is documented, as file:line.
	where []string
}

// program is what the rules read of the program a command runs.
type program struct {
	doc  string // its package documentation
	fake bool   // it has a -fake flag
}

// plan is what to do with a command.
type plan struct {
	skip string // why it is not run; empty if it is
	want []int  // the exit statuses that count as success
	// refuse: the command needs an account, and is run without one: it
	// must exit with a status other than 0, and its output must name a
	// WORKFLOW_ variable, and each of names.
	refuse bool
	names  []string
}

var (
	// statusNextTo is an exit status given next to a command.
	statusNextTo = regexp.MustCompile(`(?i)\bexits? with (?:exit )?status (\d+)`)
	// statusInDoc is an exit status given in a package documentation.
	statusInDoc = regexp.MustCompile(`(?i)\b(?:exits? with (?:exit )?status|exit status is(?: then)?) (\d+)`)
	// forever is how a package documentation says its program runs until
	// it is stopped.
	forever = regexp.MustCompile(`(?i)\b(?:serves|runs) until\b`)
	// refuses is how a package documentation says its program refuses to
	// start without the variables of an account.
	refuses = regexp.MustCompile(`(?i)\brefuses to start\b`)
	// variable is the name of a WORKFLOW_ variable.
	variable = regexp.MustCompile(`\bWORKFLOW_[A-Z0-9_]*[A-Z0-9]\b`)
	// fakeFlag is the definition of a flag named "fake" with the flag
	// package.
	fakeFlag = regexp.MustCompile(`\.(?:Bool|Int|Int64|Uint|Uint64|Float64|String|Duration|Func)(?:Var)?\((?:[^,()]+,\s*)?"fake"`)
	// inlineCode is a code span of a Markdown line.
	inlineCode = regexp.MustCompile("`([^`]+)`")
	// cdPrefix is a "cd DIR &&" before a command.
	cdPrefix = regexp.MustCompile(`^cd\s+(\S+)\s*&&\s*`)
)

// splitComment cuts line at a # that starts a shell comment (at the start
// or after a blank, outside quotes).
func splitComment(line string) (code, note string) {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimSpace(line[:i]), strings.TrimSpace(line[i+1:])
		}
	}
	return strings.TrimSpace(line), ""
}

// parseLine reads one line of a code block whose earlier "cd" lines moved
// to dir. It returns the command, if the line is a go run command, and the
// directory later lines of the block run from.
func parseLine(line, dir, where string) (*command, string) {
	code, note := splitComment(line)
	for {
		m := cdPrefix.FindStringSubmatch(code)
		if m == nil {
			break
		}
		dir = path.Join(dir, m[1])
		code = code[len(m[0]):]
	}
	if f := strings.Fields(code); len(f) == 2 && f[0] == "cd" {
		return nil, path.Join(dir, f[1])
	}
	if !strings.HasPrefix(code, "go run ") {
		return nil, dir
	}
	shell := strings.Join(strings.Fields(code), " ")
	if dir != "." {
		shell = "cd " + dir + " && " + shell
	}
	c := &command{shell: shell, dir: dir, where: []string{where}}
	if note != "" {
		c.notes = []string{note}
	}
	return c, dir
}

// readmeCommands returns the go run commands of a Markdown file: the lines
// of its fenced code blocks, and its code spans elsewhere, each with the
// rest of its table cell or paragraph as its note.
func readmeCommands(name, text string) []*command {
	var out []*command
	lines := strings.Split(text, "\n")
	fenced, dir := false, "."
	for i, line := range lines {
		where := fmt.Sprintf("%s:%d", name, i+1)
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced, dir = !fenced, "."
			continue
		}
		if fenced {
			var c *command
			if c, dir = parseLine(strings.TrimSpace(line), dir, where); c != nil {
				out = append(out, c)
			}
			continue
		}
		spans := inlineCode.FindAllStringSubmatchIndex(line, -1)
		for j, m := range spans {
			c, _ := parseLine(line[m[2]:m[3]], ".", where)
			if c == nil {
				continue
			}
			if note := spanNote(lines, i, line, m[1], spans[j+1:]); note != "" {
				c.notes = append(c.notes, note)
			}
			out = append(out, c)
		}
	}
	return out
}

// spanNote returns the text after a code span that ends at offset end of
// lines[i]: up to the end of its table cell, or, outside a table, of its
// paragraph; and before the next go run command.
func spanNote(lines []string, i int, line string, end int, later [][]int) string {
	rest := line[end:]
	for _, m := range later {
		if code := line[m[2]:m[3]]; strings.HasPrefix(code, "go run ") || strings.HasPrefix(code, "cd ") {
			rest = line[end:m[0]]
			break
		}
	}
	if strings.HasPrefix(strings.TrimSpace(line), "|") {
		rest, _, _ = strings.Cut(rest, "|")
		return strings.TrimSpace(rest)
	}
	for _, next := range lines[i+1:] {
		if strings.TrimSpace(next) == "" || strings.HasPrefix(next, "```") {
			break
		}
		rest += " " + next
	}
	return strings.TrimSpace(rest)
}

// docCommands returns the go run commands of the code blocks of a package
// documentation; line is the line of the file the documentation starts on.
func docCommands(name string, line int, doc string) []*command {
	var out []*command
	lines := strings.Split(doc, "\n")
	var p comment.Parser
	for _, b := range p.Parse(doc).Content {
		code, ok := b.(*comment.Code)
		if !ok {
			continue
		}
		dir := "."
		for l := range strings.SplitSeq(strings.TrimSuffix(code.Text, "\n"), "\n") {
			n := line + slices.IndexFunc(lines, func(s string) bool { return strings.TrimSpace(s) == strings.TrimSpace(l) })
			var c *command
			if c, dir = parseLine(l, dir, fmt.Sprintf("%s:%d", name, n)); c != nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// mainDocs returns the package documentation of every command (package
// main) under root, by directory relative to root, with the file and line
// each starts at.
func mainDocs(root string) (map[string]program, []*command, error) {
	progs := map[string]program{}
	var cmds []*command
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil || f.Name.Name != "main" {
			return nil // not a command; a file that does not parse is the compiler's to report
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		dir := path.Dir(rel)
		prog := progs[dir]
		prog.fake = prog.fake || fakeFlag.Match(src)
		if f.Doc != nil {
			prog.doc += f.Doc.Text()
			start := strings.Count(string(src[:f.Doc.Pos()-1]), "\n") + 1
			cmds = append(cmds, docCommands(rel, start, f.Doc.Text())...)
		}
		progs[dir] = prog
		return nil
	})
	return progs, cmds, err
}

// merge joins the commands that are the same, documented in several places.
func merge(cmds []*command) []*command {
	var out []*command
	byShell := map[string]*command{}
	for _, c := range cmds {
		if first := byShell[c.shell]; first != nil {
			first.notes = append(first.notes, c.notes...)
			first.where = append(first.where, c.where...)
			continue
		}
		byShell[c.shell] = c
		out = append(out, c)
	}
	return out
}

// programDir returns the directory, relative to the root, of the program c
// runs, and false if it is not a directory of the repository.
func programDir(c *command) (string, bool) {
	args := strings.Fields(strings.TrimPrefix(c.shell[strings.Index(c.shell, "go run "):], "go run "))
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue // a flag of go run
		}
		if a != "." && !strings.HasPrefix(a, "./") && !strings.HasPrefix(a, "../") {
			return "", false
		}
		if strings.HasSuffix(a, ".go") {
			a = path.Dir(a)
		}
		return path.Join(c.dir, a), true
	}
	return "", false
}

// decide applies the rules to c.
func decide(c *command, progs map[string]program) (plan, error) {
	dir, ok := programDir(c)
	if !ok {
		return plan{skip: "runs no program of this repository"}, nil
	}
	prog, ok := progs[dir]
	if !ok {
		return plan{}, fmt.Errorf("%s: no command (package main) in %s", strings.Join(c.where, ", "), dir)
	}
	text := c.shell + " " + strings.Join(c.notes, " ")
	args := strings.Fields(c.shell)
	account := "" // why the command needs an account
	switch {
	case strings.Contains(text, "WORKFLOW_"):
		account = "it names a WORKFLOW_ variable"
	case prog.fake && !slices.ContainsFunc(args, isFakeFlag):
		account = "its program has -fake, and it does not pass it"
	}
	switch {
	case forever.MatchString(prog.doc):
		return plan{skip: "runs until stopped, as its package documentation says"}, nil
	case account != "" && refuses.MatchString(prog.doc) && !strings.Contains(c.shell, "WORKFLOW_"):
		var names []string
		for _, n := range variable.FindAllString(strings.Join(c.notes, " "), -1) {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		return plan{refuse: true, names: names}, nil
	case account != "":
		return plan{skip: "needs an account: " + account}, nil
	}
	var next []int
	for _, n := range c.notes {
		for _, m := range statusNextTo.FindAllStringSubmatch(n, -1) {
			if s, _ := strconv.Atoi(m[1]); !slices.Contains(next, s) {
				next = append(next, s)
			}
		}
	}
	switch len(next) {
	case 0:
	case 1:
		return plan{want: next}, nil
	default:
		return plan{}, fmt.Errorf("%s: %q is documented with exit statuses %v", strings.Join(c.where, ", "), c.shell, next)
	}
	want := []int{0}
	for _, m := range statusInDoc.FindAllStringSubmatch(prog.doc, -1) {
		if s, _ := strconv.Atoi(m[1]); !slices.Contains(want, s) {
			want = append(want, s)
		}
	}
	return plan{want: want}, nil
}

// goRunStatus is the line go run ends its output with when its program
// exits with a status other than 0; go run itself then exits with
// status 1.
var goRunStatus = regexp.MustCompile(`(?:^|\n)exit status (\d+)\n?$`)

// programStatus returns the exit status of the program a command ran,
// from the command's exit status and output: the status go run reports,
// where it reports one.
func programStatus(status int, out string) int {
	if m := goRunStatus.FindStringSubmatch(out); m != nil && status == 1 {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return status
}

// refusal checks the run of a command planned to refuse: it returns ""
// when the command exited with a status other than 0 and its output
// names a WORKFLOW_ variable and each of names, and otherwise what is
// missing.
func refusal(status int, out string, names []string) string {
	var missing []string
	if status == 0 {
		missing = append(missing, "a status other than 0")
	}
	if !variable.MatchString(out) {
		missing = append(missing, "a WORKFLOW_ variable")
	}
	for _, n := range names {
		if !regexp.MustCompile(`\b` + n + `\b`).MatchString(out) {
			missing = append(missing, n)
		}
	}
	return strings.Join(missing, ", ")
}

// isFakeFlag reports whether arg is a -fake flag.
func isFakeFlag(arg string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	return strings.HasPrefix(arg, "-") && name == "fake"
}

// documented returns the commands of the README and the package
// documentation of every command under root, each with its plan.
func documented(root string) ([]*command, []plan, error) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return nil, nil, err
	}
	progs, docs, err := mainDocs(root)
	if err != nil {
		return nil, nil, err
	}
	cmds := merge(append(readmeCommands("README.md", string(readme)), docs...))
	plans := make([]plan, len(cmds))
	for i, c := range cmds {
		if plans[i], err = decide(c, progs); err != nil {
			return nil, nil, err
		}
	}
	return cmds, plans, nil
}

package workflow_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's Go code blocks (```go fences) must compile. Two kinds of
// block are checked:
//
//   - A block that starts with a package clause (after comments) is a
//     complete file. It is written alone to a package directory of its own
//     and must compile, tests included.
//   - Any other block is a fragment: statements that would sit inside a
//     function returning error. It may use ctx (a context.Context) and c
//     (a *workflow.Client) without declaring them; its imports are inferred
//     from the package names it uses (see readmeImports). It is wrapped in a
//     function of its own, with "return nil" added unless it ends with a
//     return.
//
// Every block is written to a temporary module that requires this one
// through a replace directive, and the whole module is checked with one
// "go vet ./..." (which compiles test files too, and holds the README to
// vet's checks).

// modulePath is this module's path.
const modulePath = "github.com/seed-a15e58aa/workflow-go"

// readmeImports maps the package names README fragments may use to their
// import paths.
var readmeImports = map[string]string{
	"context":      "context",
	"errors":       "errors",
	"fmt":          "fmt",
	"io":           "io",
	"log":          "log",
	"os":           "os",
	"signal":       "os/signal",
	"strings":      "strings",
	"time":         "time",
	"slog":         "log/slog",
	"http":         "net/http",
	"json":         "encoding/json",
	"filepath":     "path/filepath",
	"slices":       "slices",
	"testing":      "testing",
	"rate":         "golang.org/x/time/rate",
	"workflow":     modulePath,
	"rsql":         modulePath + "/rsql",
	"upsert":       modulePath + "/upsert",
	"workflowtest": modulePath + "/workflowtest",
	"admin":        modulePath + "/admin",
}

// codeBlock is one fenced block of a Markdown file.
type codeBlock struct {
	Lang string
	Line int // line of the opening fence, from 1
	Text string
}

// codeBlocks returns the fenced code blocks of a Markdown text.
func codeBlocks(md string) ([]codeBlock, error) {
	var blocks []codeBlock
	var cur *codeBlock
	var body strings.Builder
	sc := bufio.NewScanner(strings.NewReader(md))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fence := strings.HasPrefix(strings.TrimSpace(line), "```")
		switch {
		case cur == nil && fence:
			cur = &codeBlock{Lang: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "```")), Line: n}
			body.Reset()
		case cur != nil && fence:
			cur.Text = body.String()
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("line %d: code block not closed", cur.Line)
	}
	return blocks, sc.Err()
}

// isCompleteFile reports whether a Go block starts with a package clause.
func isCompleteFile(src string) bool {
	for line := range strings.Lines(src) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		return strings.HasPrefix(line, "package ")
	}
	return false
}

// lineDirective makes the compiler report the lines that follow it as
// lines of README.md from line on.
func lineDirective(line int) string { return "//line README.md:" + strconv.Itoa(line) + "\n" }

// wrapFragment returns the file that holds fragment src, which starts on
// README line line, as the body of function name in package pkg.
func wrapFragment(pkg, name string, line int, src string) ([]byte, error) {
	body := func(ret string) string {
		return "func " + name + "() error {\n" + lineDirective(line) + src + ret + "}\n"
	}
	// Parse once without imports: the unresolved identifiers name the
	// packages the fragment uses.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name+".go", "package "+pkg+"\n\n"+body(""), 0)
	if err != nil {
		return nil, err
	}
	ret := "\treturn nil\n"
	if fn, ok := f.Decls[0].(*ast.FuncDecl); ok && len(fn.Body.List) > 0 {
		if _, isReturn := fn.Body.List[len(fn.Body.List)-1].(*ast.ReturnStmt); isReturn {
			ret = ""
		}
	}
	var imports []string
	for _, id := range f.Unresolved {
		if path, ok := readmeImports[id.Name]; ok && !slices.Contains(imports, path) {
			imports = append(imports, path)
		}
	}
	slices.Sort(imports)
	var b bytes.Buffer
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	for _, path := range imports {
		if path == modulePath {
			fmt.Fprintf(&b, "import workflow %q\n", path)
		} else {
			fmt.Fprintf(&b, "import %q\n", path)
		}
	}
	b.WriteString("\n" + body(ret))
	return b.Bytes(), nil
}

// fragmentEnv declares what fragments may use without declaring it.
const fragmentEnv = `package fragments

import (
	"context"

	workflow "` + modulePath + `"
)

var (
	ctx = context.Background()
	c   *workflow.Client
)
`

// checkGoBlocks writes the Go blocks of md into a temporary module that
// uses the module at root, and vets it. When a block does not compile it
// returns go vet's output, whose positions are lines of README.md.
func checkGoBlocks(t *testing.T, md, root string) error {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	blocks, err := codeBlocks(md)
	if err != nil {
		return err
	}
	dir := t.TempDir()
	write := func(rel string, data []byte) {
		t.Helper()
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, data, 0o644))
	}
	gomod, err := readmeModule(root)
	require.NoError(t, err)
	write("go.mod", gomod)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	write("go.sum", sum)
	write("fragments/env.go", []byte(fragmentEnv))

	n := 0
	for _, b := range blocks {
		if b.Lang != "go" {
			continue
		}
		n++
		name := fmt.Sprintf("readme_line%d", b.Line)
		if isCompleteFile(b.Text) {
			file := name + ".go"
			if strings.Contains(b.Text, "\"testing\"") {
				file = name + "_test.go"
			}
			write(filepath.Join("files", name, file), []byte(lineDirective(b.Line+1)+b.Text))
			continue
		}
		src, err := wrapFragment("fragments", name, b.Line+1, b.Text)
		if err != nil {
			return fmt.Errorf("README line %d: %w", b.Line, err)
		}
		write(filepath.Join("fragments", name+".go"), src)
	}
	if n == 0 {
		return errors.New("no Go code block found")
	}

	cmd := exec.CommandContext(t.Context(), goTool, "vet", "./...")
	cmd.Dir = dir
	// The module's requirements and go.sum are this module's, so go vet
	// selects exactly the versions this module's own build uses, and
	// -mod=readonly keeps it from changing them. The module cache and
	// proxy settings are the caller's: what this module's build already
	// downloaded is reused, and on an empty cache whatever is missing is
	// fetched, as the go test that runs this test did.
	cmd.Env = append(os.Environ(),
		"GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=readonly"),
		"GOWORK=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}

// readmeModule returns the go.mod of the module that checks the README:
// this module's go.mod under another module path, requiring this module
// from root through a replace directive. Listing the same requirements
// as this module makes the check build with exactly this module's
// dependency versions, and lets the go command use them without loading
// the whole module graph (which would need the go.mod files of
// dependencies of dependencies that nothing here builds).
func readmeModule(root string) ([]byte, error) {
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	head := "module " + modulePath + "\n"
	if !bytes.HasPrefix(gomod, []byte(head)) {
		return nil, fmt.Errorf("go.mod does not start with %q", head)
	}
	var b bytes.Buffer
	b.WriteString("module readmecheck\n")
	b.Write(gomod[len(head):])
	fmt.Fprintf(&b, "\nrequire %s v0.0.0\n\nreplace %s => %s\n", modulePath, modulePath, root)
	return b.Bytes(), nil
}

// repoRoot is the directory of this module (the test's working directory).
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	return wd
}

func TestREADMEGoBlocksCompile(t *testing.T) {
	root := repoRoot(t)
	md, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	require.NoError(t, checkGoBlocks(t, string(md), root))
}

func TestREADMEStartsWithSetUpCommands(t *testing.T) {
	md, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	require.NoError(t, err)
	blocks, err := codeBlocks(string(md))
	require.NoError(t, err)
	require.NotEmpty(t, blocks)
	first := blocks[0].Text
	assert.Contains(t, first, "go run ./examples/quickstart")
	assert.Contains(t, first, "go test -race ./...")
	assert.Less(t, strings.Index(first, "go run ./examples/quickstart"), strings.Index(first, "go test -race ./..."))
	assert.Less(t, blocks[0].Line, 20, "the set-up commands come first")
}

// TestREADMEIsShortAndTrue: the README stays at 500 lines or fewer, says
// where the examples are read offline (go doc prints none), and shows the
// extra tag option it names.
func TestREADMEIsShortAndTrue(t *testing.T) {
	md, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	require.NoError(t, err)
	text := string(md)
	assert.LessOrEqual(t, strings.Count(text, "\n"), 500, "README.md lines")
	assert.Contains(t, text, "`go doc` prints no examples")
	assert.Contains(t, text, "`go list -m -f '{{.Dir}}' github.com/seed-a15e58aa/workflow-go`")
	assert.Contains(t, text, "`go test -run Example -v .`")
	assert.Regexp(t, "(?m)^\\t\\w+ +workflow\\.Record +`workflow:\",extra\"`", text, "a struct field with the extra option")
}

// The checker itself: a README whose Go block does not compile fails.
// go vet reports the first type error of each package, so blocks that
// land in different packages (a fragment, a complete file) share a README
// and one go vet run; the runs are parallel subtests. (One run per case,
// one after the other, took up to 9s under the race detector on a busy
// machine.)
func TestREADMECheckerCatchesBrokenBlocks(t *testing.T) {
	root := repoRoot(t)
	tests := []struct {
		name, md string
		want     []string
	}{
		{"fragment with an unused variable and complete file that does not compile",
			"```go\nx := 1\n```\n\n```go\npackage main\n\nfunc main() { undefinedCall() }\n```\n",
			[]string{"declared and not used", "undefined: undefinedCall"}},
		{"fragment with a type error", "```go\nvar n int = \"text\"\n_ = n\n```\n", []string{"cannot use"}},
		{"fragment calling a method that does not exist", "```go\n_, err := c.Records.Fetch(ctx)\nreturn err\n```\n", []string{"Fetch"}},
		{"no Go block at all", "```sh\nls\n```\n", []string{"no Go code block"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := checkGoBlocks(t, tt.md, root)
			require.Error(t, err)
			for _, want := range tt.want {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
	// And a good one passes, so the failures above are the blocks' fault.
	t.Run("good block", func(t *testing.T) {
		t.Parallel()
		require.NoError(t, checkGoBlocks(t, "```go\nfmt.Println(c)\n```\n", root))
	})
}

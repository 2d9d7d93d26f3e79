package op_test

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// No file of the repository's code outside the generated table names an
// operation by its id as a string literal: code names it by its constant
// (tests may write ids as data).
func TestNoOperationIDIsALiteral(t *testing.T) {
	ids := map[string]bool{}
	for _, o := range op.All() {
		ids[string(o.ID)] = true
	}
	root := filepath.Join("..", "..")
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == filepath.Join(root, "internal", "op", "ops.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for _, lit := range stringLiterals(src) {
			if ids[lit] {
				t.Errorf("%s: the operation id %q as a literal; use its constant in package op", path, lit)
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, files, 100, "the walk found the repository's code")
}

// stringLiterals returns the values of the string literals of a Go file.
func stringLiterals(src []byte) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", fset.Base(), len(src)), src, nil, 0)
	var out []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.STRING {
			if v, err := strconv.Unquote(lit); err == nil {
				out = append(out, v)
			}
		}
	}
}

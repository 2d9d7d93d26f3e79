package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const document = `openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /make:
    post:
      operationId: make
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Body'}}}}
      responses: {'204': {description: none}}
components:
  schemas:
    Body: {type: object, required: [a], properties: {a: {type: string}}}
`

const compiled = "{\"bodies\":{\"Body\":0},\n\"replies\":{},\n\"nodes\":[\n" +
	`{"t":"object","p":{"a":1},"r":["a"],"x":-1,"i":-1,"n":"Body"},` + "\n" +
	`{"t":"string","x":-1,"i":-1}` + "\n]}\n"

func TestRun(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(good, []byte(document), 0o644))
	require.NoError(t, os.WriteFile(bad, []byte(strings.Replace(document, "type: string", "type: string, format: hex", 1)), 0o644))
	tests := []struct {
		name   string
		args   []string // "OUT" is the output file
		code   int
		stderr string // a part of what is written there
	}{
		{name: "compiles the document into the output", args: []string{good, "OUT"}},
		{name: "no arguments", code: 2, stderr: "usage: gen DOCUMENT OUTPUT"},
		{name: "one argument", args: []string{good}, code: 2, stderr: "usage: gen DOCUMENT OUTPUT"},
		{name: "three arguments", args: []string{good, "OUT", "more"}, code: 2, stderr: "usage: gen DOCUMENT OUTPUT"},
		{name: "no document", args: []string{filepath.Join(dir, "none.yaml"), "OUT"}, code: 1, stderr: "none.yaml"},
		{name: "a document the compiler refuses", args: []string{bad, "OUT"}, code: 1, stderr: `compile: make/a: format "hex" is not known`},
		{name: "an output that cannot be written", args: []string{good, filepath.Join(dir, "no", "such", "dir")}, code: 1, stderr: "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "schemas.json")
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = strings.ReplaceAll(a, "OUT", out)
			}
			var stderr bytes.Buffer
			assert.Equal(t, tt.code, run(args, &stderr))
			got, err := os.ReadFile(out)
			if tt.code != 0 {
				assert.Contains(t, stderr.String(), tt.stderr)
				assert.True(t, os.IsNotExist(err), "an output was written")
				return
			}
			assert.Empty(t, stderr.String())
			require.NoError(t, err)
			assert.Equal(t, compiled, string(got))
		})
	}
}

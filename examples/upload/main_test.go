package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
	"github.com/seed-a15e58aa/workflow-go/internal/exampletest"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// check checks every exchange with the fake against the service's
// published contract.
var check *contract.FakeCheck

func TestMain(m *testing.M) {
	exampletest.RunMain(main) // for TestHelp
	check = contract.CheckFakes()
	goleak.VerifyTestMain(m, goleak.Cleanup(check.Exit))
}

// TestHelp checks -h exits with status 0 and a bad flag does not.
func TestHelp(t *testing.T) { exampletest.CheckHelp(t, "fake") }

// tempFile writes n random bytes to a file named name and returns its path
// and the hex SHA-256 of its content.
func tempFile(t *testing.T, name string, n int) (string, string) {
	t.Helper()
	b := make([]byte, n)
	_, _ = rand.Read(b)
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, b, 0o600))
	sum := sha256.Sum256(b)
	return path, hex.EncodeToString(sum[:])
}

func TestUploadOnFake(t *testing.T) {
	path, _ := tempFile(t, "scan.bin", 300_000)
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-fake", "-file", path, "-description", "a scan"}, &stdout, &stderr))
	assert.Equal(t, "uploading scan.bin (300000 bytes) to tasks/it-requests/1\n"+
		"attachment a1: scan.bin, 300000 bytes, application/octet-stream, state PROCESSING\n"+
		"waiting for processing ...\n"+
		"attachment a1: VALID\n", stdout.String())
	// The progress line reached the whole file, and was ended.
	assert.Contains(t, stderr.String(), "uploading  300.0 kB of 300.0 kB  100%")
	assert.True(t, strings.HasSuffix(stderr.String(), "\n"), "the line is ended: %q", stderr.String())
}

// TestSample runs the command of the package documentation as written,
// from the repository's root, on the sample file.
func TestSample(t *testing.T) {
	t.Chdir("../..")
	var stdout bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-fake", "-file", "examples/upload/testdata/report.pdf"}, &stdout, io.Discard))
	assert.Regexp(t, `^uploading report.pdf \(\d+ bytes\) to tasks/it-requests/1
attachment a1: report.pdf, \d+ bytes, application/pdf, state PROCESSING
waiting for processing ...
attachment a1: VALID
$`, stdout.String())
}

// TestUploadProgressRedirected checks that a stderr redirected to a file
// gets the progress as one plain line, without carriage returns.
func TestUploadProgressRedirected(t *testing.T) {
	path, _ := tempFile(t, "scan.bin", 300_000)
	stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr.txt"))
	require.NoError(t, err)
	defer stderr.Close()
	require.NoError(t, run(t.Context(), []string{"-fake", "-file", path}, io.Discard, stderr))
	got, err := os.ReadFile(stderr.Name())
	require.NoError(t, err)
	assert.NotContains(t, string(got), "\r")
	assert.Regexp(t, `^uploading  300.0 kB of 300.0 kB  100%.*\n$`, string(got))
}

func TestUploadToAccount(t *testing.T) {
	srv := workflowtest.Start(t, workflowtest.WithAttachmentPolicy(workflowtest.ReadyAfterPolls(1)))
	srv.Seed(workflow.Elements, "parts", workflow.Record{"id": "P-7", "Name": "Bolt"})
	exampletest.UseAccount(t, check, srv)
	path, sum := tempFile(t, "drawing.pdf", 70_000)

	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"-type", "elements", "-alias", "parts", "-id", "P-7", "-file", path,
		"-description", "Rev. B", "-quiet"}, &stdout, &stderr)
	require.NoError(t, err)
	assert.Contains(t, stdout.String(), "attachment a1: drawing.pdf, 70000 bytes, application/pdf, state PROCESSING\n")
	assert.Contains(t, stdout.String(), "attachment a1: VALID\n")
	assert.Empty(t, stderr.String(), "-quiet: no progress bar")

	atts := srv.Attachments(workflow.Elements, "parts", "P-7")
	require.Len(t, atts, 1)
	assert.Equal(t, sum, atts[0].SHA256, "the content arrived whole")
	assert.Equal(t, "Rev. B", atts[0].Description)
	assert.Equal(t, "application/pdf", atts[0].MediaType)
}

func TestUploadWaitTimesOut(t *testing.T) {
	srv := workflowtest.Start(t, workflowtest.WithAttachmentPolicy(workflowtest.Manually()))
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"id": "9"})
	exampletest.UseAccount(t, check, srv)
	path, _ := tempFile(t, "notes.txt", 10)

	err := run(t.Context(), []string{"-alias", "it-requests", "-id", "9", "-file", path, "-wait", "300ms", "-quiet"}, &bytes.Buffer{}, &bytes.Buffer{})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "still processing after 300ms")
}

func TestUploadErrors(t *testing.T) {
	srv := workflowtest.Start(t, workflowtest.WithMaxUploadSize(1000))
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"id": "1"})
	exampletest.UseAccount(t, check, srv)
	big, _ := tempFile(t, "big.bin", 2000)
	small, _ := tempFile(t, "small.bin", 10)

	t.Run("over the service's limit", func(t *testing.T) {
		err := run(t.Context(), []string{"-alias", "it-requests", "-id", "1", "-file", big, "-quiet"}, &bytes.Buffer{}, &bytes.Buffer{})
		require.ErrorIs(t, err, workflow.ErrTooLarge)
		assert.Contains(t, err.Error(), "the file is too large (the service's limit is 250 MB, 250000000 bytes)")
	})
	t.Run("no such record", func(t *testing.T) {
		err := run(t.Context(), []string{"-alias", "it-requests", "-id", "404", "-file", small, "-quiet"}, &bytes.Buffer{}, &bytes.Buffer{})
		require.ErrorIs(t, err, workflow.ErrNotFound)
	})
	t.Run("no such file", func(t *testing.T) {
		err := run(t.Context(), []string{"-alias", "it-requests", "-id", "1", "-file", filepath.Join(t.TempDir(), "nope")}, &bytes.Buffer{}, &bytes.Buffer{})
		require.ErrorIs(t, err, fs.ErrNotExist)
	})
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"-alias", "a", "-id", "1"}, "-file is required"},
		{"no id", []string{"-alias", "a", "-file", small}, "-alias and -id are required"},
		{"bad type", []string{"-type", "cases", "-file", small}, `-type "cases"`},
		{"bad wait", []string{"-wait", "0s", "-file", small}, "-wait must be positive"},
		{"a directory", []string{"-alias", "a", "-id", "1", "-file", t.TempDir()}, "is not a regular file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := run(t.Context(), tt.args, &bytes.Buffer{}, &bytes.Buffer{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	assert.Empty(t, srv.Attachments(workflow.Tasks, "it-requests", "1"))
}

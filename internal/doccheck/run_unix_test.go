//go:build unix

package doccheck

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runEnv is the environment variable that turns the run of the documented
// commands on.
const runEnv = "WORKFLOW_DOC_COMMANDS"

// commandTimeout bounds each command, its build included: wide, for a busy
// two-core machine building a program for the first time.
const commandTimeout = 5 * time.Minute

// TestDocumentedCommands runs every documented command that needs no
// account, as written, on a copy of the checkout's files, then checks
// that they left no file git does not ignore.
func TestDocumentedCommands(t *testing.T) {
	if os.Getenv(runEnv) != "1" {
		t.Skip("runs every documented command, building each program: set " + runEnv + "=1 to run it")
	}
	for _, tool := range []string{"sh", "git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("needs %s: %v", tool, err)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmds, plans, err := documented(root)
	if err != nil {
		t.Fatal(err)
	}
	clone := copyCheckout(t, root)
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "WORKFLOW_") })
	ran := 0
	for i, c := range cmds {
		p := plans[i]
		if p.skip != "" {
			t.Logf("skipped %q (%s): %s", c.shell, strings.Join(c.where, ", "), p.skip)
			continue
		}
		ran++
		status, out := runShell(t.Context(), clone, env, c.shell)
		status = programStatus(status, out)
		if p.refuse {
			if missing := refusal(status, out, p.names); missing != "" {
				t.Errorf("%q (%s), run without an account: exit status %d; missing: %s; its output ends:\n%s",
					c.shell, strings.Join(c.where, ", "), status, missing, tail(out))
			} else {
				t.Logf("ran %q (%s) without an account: exit status %d", c.shell, strings.Join(c.where, ", "), status)
			}
			continue
		}
		if !slices.Contains(p.want, status) {
			t.Errorf("%q (%s): exit status %d, want %v; its output ends:\n%s", c.shell, strings.Join(c.where, ", "), status, p.want, tail(out))
		} else {
			t.Logf("ran %q (%s): exit status %d", c.shell, strings.Join(c.where, ", "), status)
		}
	}
	if ran == 0 {
		t.Error("no documented command was run")
	}
	changed, err := git(clone, "diff", "--name-status")
	if err != nil {
		t.Fatal(err)
	}
	written, err := git(clone, "ls-files", "--others", "--exclude-standard")
	if err != nil {
		t.Fatal(err)
	}
	if changed+written != "" {
		t.Errorf("the documented commands changed or wrote files that git does not ignore:\n%s%s", changed, written)
	}
}

// runShell runs line with sh in dir and returns its exit status (-1 if it
// was stopped at its time limit) and its output, stdout and stderr mixed.
func runShell(ctx context.Context, dir string, env []string, line string) (int, string) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Its own process group, so that the time limit stops the program go
	// run started too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return -1, out.String() + "\n(stopped after " + commandTimeout.String() + ")"
	case err == nil:
		return 0, out.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String()
	}
	return -1, out.String() + "\n" + err.Error()
}

// copyCheckout copies the files git tracks in root to a new directory, a
// git repository of its own with every file added, as a fresh clone of
// them would be, and returns it.
func copyCheckout(t *testing.T, root string) string {
	t.Helper()
	files, err := git(root, "ls-files", "-z")
	if err != nil {
		t.Fatal(err)
	}
	clone := t.TempDir()
	for name := range strings.SplitSeq(strings.TrimRight(files, "\x00"), "\x00") {
		src := filepath.Join(root, filepath.FromSlash(name))
		fi, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(clone, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		if _, err := git(clone, args...); err != nil {
			t.Fatal(err)
		}
	}
	return clone
}

// git runs git with args in dir and returns its output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", errors.New("git " + strings.Join(args, " ") + ": " + err.Error() + ": " + stderr.String())
	}
	return string(out), nil
}

// tail returns the end of a command's output.
func tail(out string) string {
	const n = 3000
	if len(out) > n {
		return "..." + out[len(out)-n:]
	}
	return out
}

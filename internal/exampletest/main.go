package exampletest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// mainArgsEnv carries the arguments of a program run by ExitStatus to the
// new process of the test binary, JSON-encoded.
const mainArgsEnv = "EXAMPLETEST_MAIN_ARGS"

// RunMain, called first in TestMain, runs the program's main instead of
// the tests when the test binary was started by ExitStatus, then exits
// with status 0 if main returned. Otherwise it does nothing.
func RunMain(main func()) {
	v, ok := os.LookupEnv(mainArgsEnv)
	if !ok {
		return
	}
	var args []string
	if err := json.Unmarshal([]byte(v), &args); err != nil {
		panic(mainArgsEnv + ": " + err.Error())
	}
	os.Args = append([]string{os.Args[0]}, args...)
	main()
	os.Exit(0)
}

// ExitStatus runs the program's main, as a user would run the program
// with args, in a new process of the test binary (whose TestMain calls
// RunMain), and returns its exit status and what it wrote to stderr.
func ExitStatus(tb testing.TB, args ...string) (int, string) {
	tb.Helper()
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	enc, err := json.Marshal(args)
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.CommandContext(tb.Context(), exe)
	cmd.Env = append(os.Environ(), mainArgsEnv+"="+string(enc))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		tb.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// CheckHelp checks the flag package's convention for the program's main:
// -h prints the usage, which names the flag named flag, and exits with
// status 0; an unknown flag exits with a status other than 0.
func CheckHelp(tb testing.TB, flag string) {
	tb.Helper()
	if status, stderr := ExitStatus(tb, "-h"); status != 0 || !strings.Contains(stderr, "-"+flag) {
		tb.Errorf("-h: exit status %d, want 0, and a usage naming -%s; stderr:\n%s", status, flag, stderr)
	}
	if status, stderr := ExitStatus(tb, "-no-such-flag"); status == 0 {
		tb.Errorf("-no-such-flag: exit status 0, want another; stderr:\n%s", stderr)
	}
}

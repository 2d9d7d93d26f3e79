// Package testperf gates the test assertions that depend on the speed or
// the load of the machine: wall-clock bounds, throughputs, counts of
// connections opened under contention, process-wide allocation counts,
// and tests too slow for the default run under the race detector.
// They are skipped in the default go test run, which must pass on a busy
// laptop, and run when WORKFLOW_PERF=1 (as CI's performance step sets it).
package testperf

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the performance checks on.
const Env = "WORKFLOW_PERF"

// Enabled reports whether the performance checks run: Env is "1".
func Enabled() bool { return os.Getenv(Env) == "1" }

// Require skips the test unless the performance checks run.
func Require(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("a performance check: set " + Env + "=1 to run it")
	}
}

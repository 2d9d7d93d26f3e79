// Package doccheck runs every command the documentation shows that needs no
// account, as a new user would copy it, on a copy of the checkout. It has
// tests only; they run when WORKFLOW_DOC_COMMANDS=1 (CI sets it: each
// command builds a program, too slow for the default go test run).
//
// The commands are found, so that a new one is covered without a change
// here, in:
//
//   - README.md: the lines of its fenced code blocks and its inline code
//     spans;
//   - the package documentation of every command of the repository
//     (package main): the lines of its code blocks.
//
// Of those, the go run commands of a program of this repository are
// checked; "cd DIR && go run ..." and a "cd DIR" line before them in the
// same code block run them from DIR, relative to the repository's root,
// where every other command runs from.
//
// The rules, none of which names a command:
//
//   - A command needs an account, and is skipped, when it or its note (the
//     # comment after it, or the rest of its table cell or paragraph in
//     README.md) names a WORKFLOW_ variable, or when its program has a
//     -fake flag and the command does not pass it. The commands run with
//     no WORKFLOW_ variable set.
//   - Such a command is run all the same when its program's package
//     documentation says it "refuses to start" without an account, and the
//     command itself sets no WORKFLOW_ variable: it must then exit with a
//     status other than 0, and its output must name a WORKFLOW_ variable,
//     and every WORKFLOW_ variable its note names by its full name.
//   - A command runs until it is stopped, and is skipped, when its
//     program's package documentation says it "serves until" or "runs
//     until" something happens.
//   - A command's exit status is its program's: go run exits with status
//     1 when its program fails, and ends its output with the program's
//     "exit status N", which is the status the rules read.
//   - A command must exit with status 0, or with the status N its note
//     gives ("exits with status N"). When its note gives none but its
//     program's package documentation does ("the exit status is then N"),
//     0 and N are both accepted.
//   - Each command has a time limit, after which it fails.
//
// Once every command ran, the copy must be as clean as before: every file a
// documented command writes is git-ignored.
package doccheck

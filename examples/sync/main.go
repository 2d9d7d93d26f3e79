// Command sync makes the records of a definition match a CSV file: each
// row is a record, its columns the fields (the header row names them), and
// the column given by -key identifies a record in both places. Rows whose
// key no record has are created, rows that differ from their record update
// it (only the differing fields are sent), rows that match are left alone.
// Records no row names are never touched, and neither are the fields of a
// record that the CSV has no column for.
//
// It is a dry run unless -apply is given: it looks every row up and prints
// what it would do. At the end it prints a summary table.
//
//	go run ./examples/sync -fake -csv examples/sync/testdata/customers.csv               # dry run on an embedded fake
//	go run ./examples/sync -fake -csv examples/sync/testdata/customers.csv -apply        # the same, applied
//	go run ./examples/sync -type apps -alias customers -key Email -csv customers.csv     # on the WORKFLOW_* account
//
// The rows are streamed: memory stays bounded however long the file is (a
// few bytes per row, for its line number). Each row's outcome is printed
// in the file's order, numbered by its line (line 1 is the header). A row
// without a key, with an empty key, or repeating the key of an earlier
// row fails without stopping the others; the exit status is then 1. -v
// prints every row's outcome, not only failures and changes. The sync itself is upsert.Records: batched
// look-ups, concurrency that adapts to the service's rate limit, and no
// duplicate when the answer to a create is lost.
//
// -fake starts an in-process fake of the service (package workflowtest)
// holding an apps definition "customers" with four customers, keyed by
// "Email", which the sample CSV updates, leaves alone and adds to.
package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/upsert"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0) // -h: the flag package's convention
		}
		fmt.Fprintln(os.Stderr, "sync:", err)
		os.Exit(1)
	}
}

// run parses the flags, syncs the CSV and prints the outcome.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sync", flag.ContinueOnError)
	fs.SetOutput(stderr)
	csvPath := fs.String("csv", "", "CSV file with a header row (required)")
	rt := fs.String("type", string(workflow.Apps), "record type: apps, elements, tasks or transactions")
	alias := fs.String("alias", "customers", "definition alias")
	key := fs.String("key", "Email", "the column and field that identify a record")
	apply := fs.Bool("apply", false, "create and update records (default: a dry run that only looks them up)")
	fake := fs.Bool("fake", false, "run on an embedded fake server with a few customers")
	verbose := fs.Bool("v", false, "print every row's outcome")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if *csvPath == "" {
		return errors.New("-csv is required")
	}
	f, err := os.Open(*csvPath)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := newRows(f)
	if err != nil {
		return fmt.Errorf("%s: %w", *csvPath, err)
	}

	var c *workflow.Client
	if *fake {
		srv := workflowtest.NewServer()
		defer srv.Close()
		seedFake(srv)
		c = srv.Client()
	} else if c, err = workflow.NewClientFromEnv(); err != nil {
		return fmt.Errorf("%w (or try -fake)", err)
	}

	verb := map[upsert.Action]string{
		upsert.Created: "create", upsert.Updated: "update",
		upsert.Unchanged: "same", upsert.Failed: "FAILED", upsert.NotAttempted: "skipped",
	}
	if *apply {
		verb[upsert.Created], verb[upsert.Updated] = "created", "updated"
	}
	// Outcomes arrive as they become known; they are printed in input
	// order, each row numbered by its line in the file.
	fmt.Fprintf(stdout, "%s, in row order; line 1 is the header:\n", *csvPath)
	out := &printer{w: stdout, rows: rows, verb: verb, verbose: *verbose, pending: map[int]upsert.Result{}}
	sum, err := upsert.Records(ctx, c.Records, workflow.RecordType(*rt), *alias, rows.all, &upsert.Options{
		KeyField: *key,
		DryRun:   !*apply,
		OnResult: out.add,
	})
	if sum != nil {
		printSummary(stdout, sum)
	}
	if err != nil {
		return err
	}
	if rows.err != nil {
		return fmt.Errorf("%s: reading stopped: %w (the rows before were synced)", *csvPath, rows.err)
	}
	if sum.Failed > 0 {
		return fmt.Errorf("%d of %d rows failed", sum.Failed, sum.Read)
	}
	return nil
}

// rows streams the records of a CSV file whose first row names the fields.
type rows struct {
	r      *csv.Reader
	header []string
	lines  []int // line number of each row read, by input index
	err    error
}

func newRows(r io.Reader) (*rows, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 0 // every row as long as the header
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty file (a header row is required)")
		}
		return nil, err
	}
	for i, h := range header {
		header[i] = strings.TrimSpace(h)
		if header[i] == "" {
			return nil, fmt.Errorf("column %d of the header row has no name", i+1)
		}
	}
	return &rows{r: cr, header: header}, nil
}

// all yields the records, one per row; it stops at the first malformed
// row, keeping its error.
func (rs *rows) all(yield func(workflow.Record) bool) {
	for i := 0; ; i++ {
		cells, err := rs.r.Read()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			rs.err = err
			return
		}
		line, _ := rs.r.FieldPos(0)
		rs.lines = append(rs.lines, line)
		rec := make(workflow.Record, len(cells))
		for j, v := range cells {
			rec[rs.header[j]] = v
		}
		if !yield(rec) {
			return
		}
	}
}

// printer prints the outcomes of the rows in input order: OnResult gives
// them in the order they become known, so each waits in pending until the
// rows before it are printed (at most the sync's window of them). OnResult
// runs on the goroutine that reads the rows, so no lock is needed.
type printer struct {
	w       io.Writer
	rows    *rows
	verb    map[upsert.Action]string
	verbose bool
	pending map[int]upsert.Result
	next    int // the index of the next row to print
}

func (p *printer) add(r upsert.Result) {
	p.pending[r.Index] = r
	for {
		r, ok := p.pending[p.next]
		if !ok {
			return
		}
		delete(p.pending, p.next)
		p.next++
		p.print(r)
	}
}

func (p *printer) print(r upsert.Result) {
	line := p.rows.lines[r.Index]
	switch {
	case r.Action == upsert.Failed:
		fmt.Fprintf(p.w, "line %d  %-7s %s: %s\n", line, p.verb[r.Action], r.Key, p.describe(r.Err))
	case r.Action == upsert.Updated:
		fmt.Fprintf(p.w, "line %d  %-7s %s (%s): %s\n", line, p.verb[r.Action], r.Key, r.ID, strings.Join(r.Changed, ", "))
	case r.Action == upsert.Created || p.verbose:
		id := ""
		if r.ID != "" {
			id = " (" + r.ID + ")"
		}
		fmt.Fprintf(p.w, "line %d  %-7s %s%s\n", line, p.verb[r.Action], r.Key, id)
	}
}

// inputRef is how the library names an input: by its index from 0, and
// a field of it after a dot.
var inputRef = regexp.MustCompile(`records\[(\d+)\](\.?)`)

// describe returns err's text with the inputs it names by index named by
// their line instead, so that the output has one numbering: "records[4]"
// becomes "line 6", and "records[4].Email", the row's own field, "Email".
func (p *printer) describe(err error) string {
	return inputRef.ReplaceAllStringFunc(err.Error(), func(ref string) string {
		m := inputRef.FindStringSubmatch(ref)
		i, _ := strconv.Atoi(m[1])
		switch {
		case m[2] == ".":
			return ""
		case i < len(p.rows.lines):
			return "line " + strconv.Itoa(p.rows.lines[i])
		}
		return ref
	})
}

func printSummary(w io.Writer, s *upsert.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	mode := "applied"
	if s.DryRun {
		mode = "dry run"
	}
	fmt.Fprintf(tw, "\n%s\t rows\t\n", mode)
	for _, row := range []struct {
		name string
		n    int
	}{{"created", s.Created}, {"updated", s.Updated}, {"unchanged", s.Unchanged}, {"failed", s.Failed}, {"not attempted", s.NotAttempted}, {"total", s.Read}} {
		if row.n > 0 || row.name != "not attempted" {
			fmt.Fprintf(tw, "%s\t%d\t\n", row.name, row.n)
		}
	}
	fmt.Fprintf(tw, "requests\t%d\t\n", s.Requests)
	_ = tw.Flush()
	if s.DryRun && s.Created+s.Updated > 0 {
		fmt.Fprintln(w, "nothing was written; run again with -apply to make these changes")
	}
}

// seedFake defines the customers of the -fake server.
func seedFake(srv *workflowtest.Server) {
	srv.Define(workflow.Apps, "customers", "Email")
	srv.Seed(workflow.Apps, "customers",
		workflow.Record{"Email": "ada@example.com", "Name": "Ada Lovelace", "Plan": "pro"},
		workflow.Record{"Email": "alan@example.com", "Name": "Alan Turing", "Plan": "pro"},
		workflow.Record{"Email": "grace@example.com", "Name": "Grace Hopper", "Plan": "pro"},
		workflow.Record{"Email": "edsger@example.com", "Name": "Edsger Dijkstra", "Plan": "basic"},
	)
}

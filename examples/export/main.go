// Command export writes every record of a definition to JSON Lines or CSV,
// with a progress bar, and can resume an export that was interrupted.
//
//	cd examples/export
//	go run . -fake 5000 -out tasks.jsonl                         # on an embedded fake with 5,000 records
//	go run . -alias it-requests -format csv -out requests.csv    # on the account of WORKFLOW_*
//	go run . -alias it-requests -filter 'Status==Open' -out open.jsonl
//
// The command is a module of its own (its progress bar,
// github.com/schollz/progressbar/v3, is no dependency of the SDK), built
// against the SDK of the same checkout through a replace directive; run it
// from its directory.
//
// Records are read a page at a time (-page-size, 500 by default), the next
// page being fetched while the current one is written (ListOptions.Prefetch).
// A progress bar on stderr shows the records written of the total the
// service reports (after -resume: of the records left), the rate and the
// time left. It is drawn only when stderr is a terminal (a redirected
// stderr gets no carriage returns, only the closing summary line); -quiet
// turns it off. For a log instead of a terminal (a cron job), -progress 30s
// prints a line "progress: N of T records (P%)" at most every 30 seconds,
// and once at the end: T is the total of the list as the service reports it
// with every page (a Pages walk; All yields items and no total), so P is
// the share of the list written, earlier runs resumed from included.
//
// The export ends with a line giving the records written, the time taken
// and the rate (records written by this run, per second). Interrupted
// (Ctrl-C), it saves its position and exits with status 130 (128 + SIGINT,
// the shell's convention), so a wrapper script can tell an interruption
// from a failure (status 1).
//
// # Formats
//
// jsonl (the default) writes one JSON object per record, its fields sorted by
// name. csv writes a header row and one row per record. Its columns are the
// "id" field followed by every other field name found on the first page,
// sorted; -columns A,B,C sets them instead. A CSV file cannot grow a column
// half way down, so a field that first appears after the header was written
// is left out, with a warning on stderr naming it; use jsonl, or -columns,
// to keep such fields. A column a record does not have is an empty cell.
//
// # Resuming
//
// After every page, and when the export is interrupted (Ctrl-C), the export
// saves its position in a small JSON state file (-state, export-state.json
// by default): the cursor of the last record written, how many records and
// how many bytes of the output that is. Run the same command again with
// -resume to carry on after that record: the output file is cut back to the
// saved size (dropping anything written after the last save, for instance
// by a process that was killed) and appended to, so every record is in it
// exactly once. -resume needs the same -type, -alias, -filter, -format and
// -out as the state file; without -resume an export starts over and
// overwrites both files. Writing to stdout (-out -, the default) can be
// resumed too, but then the earlier part is wherever you sent it.
//
// # Typed exports
//
// -typed (tasks only) reads each record into the Task struct of typed.go
// with workflow.AllItemsAs, whose items carry the decoded value and its
// cursor, and writes the struct's fields: a record whose Priority is not a
// number or whose Due Date is not a time stops the export with an error
// naming it, and -resume carries on from the cursor saved before it, like
// an untyped export.
//
// # Running without an account
//
// -fake N starts an in-process fake of the service (package workflowtest)
// seeded with N task records, the same ones on every run, so -resume works
// across runs of -fake too.
package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func main() {
	// Ctrl-C cancels ctx; the export then saves its state and stops.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h: the usage was printed; status 0, as the flag package's own
		}
		fmt.Fprintln(os.Stderr, "export:", err)
		os.Exit(exitStatus(err))
	}
}

// exitStatus is the status of a failed run: 130 (128 + SIGINT, as a shell
// reports a command ended by Ctrl-C) when it was interrupted, 1 otherwise.
// Only the interrupt cancels run's context.
func exitStatus(err error) int {
	if errors.Is(err, context.Canceled) {
		return 130
	}
	return 1
}

// idField is the record field that holds a record's id, as the SDK and
// workflowtest read it (the README's "What is still assumed" says why).
const idField = "id"

// config is what the flags say.
type config struct {
	rt        workflow.RecordType
	alias     string
	format    string
	filter    string
	columns   []string
	out       string
	statePath string
	resume    bool
	pageSize  int
	fake      int
	quiet     bool
	typed     bool
	progress  time.Duration
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	rt := fs.String("type", string(workflow.Tasks), "record type: apps, elements, tasks or transactions")
	fs.StringVar(&cfg.alias, "alias", "", "definition alias (required, except with -fake, where it is "+workflowtest.DemoTasks+")")
	fs.StringVar(&cfg.format, "format", "jsonl", "output format: jsonl or csv")
	fs.StringVar(&cfg.filter, "filter", "", "RSQL filter, e.g. 'Status==Open;Priority=ge=4'")
	columns := fs.String("columns", "", "csv: the columns, comma-separated (default: id, then the fields of the first page, sorted)")
	fs.StringVar(&cfg.out, "out", "-", "output file; - is stdout")
	fs.StringVar(&cfg.statePath, "state", "export-state.json", "state file, saved after every page and on Ctrl-C")
	fs.BoolVar(&cfg.resume, "resume", false, "continue the export the state file describes")
	fs.IntVar(&cfg.pageSize, "page-size", 500, "records per request, 1 to 1000")
	fs.IntVar(&cfg.fake, "fake", 0, "export from an embedded fake server seeded with this many records")
	fs.BoolVar(&cfg.quiet, "quiet", false, "no progress bar")
	fs.DurationVar(&cfg.progress, "progress", 0, "without a terminal, print the progress as a percentage to stderr at most this often, e.g. 30s (0: never)")
	fs.BoolVar(&cfg.typed, "typed", false, "tasks only: read records into the typed Task struct and write its fields")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	cfg.rt = workflow.RecordType(*rt)
	if !cfg.rt.Valid() {
		return nil, fmt.Errorf("-type %q: want apps, elements, tasks or transactions", *rt)
	}
	if cfg.typed && cfg.rt != workflow.Tasks {
		return nil, errors.New("-typed is for -type tasks")
	}
	if cfg.fake < 0 {
		return nil, errors.New("-fake: want a number of records, 0 or more")
	}
	if cfg.alias == "" {
		if cfg.fake == 0 {
			return nil, errors.New("-alias is required")
		}
		cfg.alias = workflowtest.DemoTasks
	}
	if cfg.format != "jsonl" && cfg.format != "csv" {
		return nil, fmt.Errorf("-format %q: want jsonl or csv", cfg.format)
	}
	if cfg.pageSize < workflow.MinPageSize || cfg.pageSize > workflow.MaxPageSize {
		return nil, fmt.Errorf("-page-size %d: want 1 to 1000", cfg.pageSize)
	}
	if *columns != "" {
		if cfg.format != "csv" {
			return nil, errors.New("-columns is for -format csv")
		}
		for col := range strings.SplitSeq(*columns, ",") {
			if col = strings.TrimSpace(col); col == "" || slices.Contains(cfg.columns, col) {
				return nil, fmt.Errorf("-columns %q: empty or repeated column", *columns)
			}
			cfg.columns = append(cfg.columns, col)
		}
	}
	if cfg.statePath == "" {
		return nil, errors.New("-state must not be empty")
	}
	if cfg.progress < 0 {
		return nil, errors.New("-progress: want a duration, 0 or more")
	}
	return &cfg, nil
}

// state is the content of the state file.
type state struct {
	Type   string `json:"type"`
	Alias  string `json:"alias"`
	Filter string `json:"filter,omitempty"`
	Format string `json:"format"`
	Out    string `json:"out"`
	// Columns are the CSV columns, fixed by the header.
	Columns []string `json:"columns,omitempty"`
	// Cursor is the list cursor of the last record written; empty before
	// the first.
	Cursor string `json:"cursor,omitempty"`
	// Done is the number of records written.
	Done int64 `json:"done"`
	// Offset is the size of the output file once they were written (0 for
	// stdout).
	Offset int64 `json:"offset"`
	// Complete is set when every record was written.
	Complete bool `json:"complete"`
	// Typed is set for a -typed export.
	Typed bool `json:"typed,omitempty"`
}

// matches reports how st differs from the export cfg asks for.
func (st *state) matches(cfg *config) error {
	var diffs []string
	check := func(flag, saved, now string) {
		if saved != now {
			diffs = append(diffs, fmt.Sprintf("%s %q (now %q)", flag, saved, now))
		}
	}
	check("-type", st.Type, string(cfg.rt))
	check("-alias", st.Alias, cfg.alias)
	check("-filter", st.Filter, cfg.filter)
	check("-format", st.Format, cfg.format)
	check("-out", st.Out, cfg.out)
	check("-typed", strconv.FormatBool(st.Typed), strconv.FormatBool(cfg.typed))
	if cfg.columns != nil && !slices.Equal(cfg.columns, st.Columns) {
		diffs = append(diffs, fmt.Sprintf("-columns %q (now %q)", strings.Join(st.Columns, ","), strings.Join(cfg.columns, ",")))
	}
	if len(diffs) > 0 {
		return fmt.Errorf("the state file is for another export: %s; run without -resume to start over", strings.Join(diffs, ", "))
	}
	return nil
}

func loadState(path string) (*state, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-resume: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("-resume: state file %s: %w", path, err)
	}
	return &st, nil
}

// save writes st to path atomically: a crash leaves the old state or the
// new one, never half of one.
func (st *state) save(path string) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".export-state-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// run exports the records cfg names.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	var filter rsql.Expr
	if cfg.filter != "" {
		filter = rsql.Raw(cfg.filter)
		if err := filter.Validate(); err != nil { // before any request
			return fmt.Errorf("-filter: %w", err)
		}
	}

	st := &state{Type: string(cfg.rt), Alias: cfg.alias, Filter: cfg.filter, Format: cfg.format, Out: cfg.out, Columns: cfg.columns, Typed: cfg.typed}
	if cfg.resume {
		if st, err = loadState(cfg.statePath); err != nil {
			return err
		}
		if err := st.matches(cfg); err != nil {
			return err
		}
		if st.Complete {
			fmt.Fprintf(stderr, "the export is already complete (%d records); nothing to do\n", st.Done)
			return nil
		}
	}

	var c *workflow.Client
	if cfg.fake > 0 {
		srv := workflowtest.NewServer()
		defer srv.Close()
		seed(srv, cfg.rt, cfg.alias, cfg.fake)
		c = srv.Client()
	} else {
		if c, err = workflow.NewClientFromEnv(); err != nil {
			return fmt.Errorf("%w (or try -fake 1000 for a fake server)", err)
		}
	}

	// The output: stdout, a new file, or the resumed file cut back to the
	// size the state file records.
	var out io.Writer = stdout
	var file *os.File
	if cfg.out != "-" {
		if cfg.resume {
			fi, serr := os.Stat(cfg.out)
			if serr != nil {
				return fmt.Errorf("-resume: %w", serr)
			}
			if fi.Size() < st.Offset {
				return fmt.Errorf("-resume: %s has %d bytes, fewer than the %d the state file records; was it changed?", cfg.out, fi.Size(), st.Offset)
			}
			if err := os.Truncate(cfg.out, st.Offset); err != nil {
				return fmt.Errorf("-resume: %w", err)
			}
			file, err = os.OpenFile(cfg.out, os.O_WRONLY|os.O_APPEND, 0)
		} else {
			file, err = os.Create(cfg.out)
		}
		if err != nil {
			return err
		}
		defer file.Close()
		out = file
	}
	cw := &countingWriter{w: out, n: st.Offset}
	bw := bufio.NewWriterSize(cw, 64<<10)
	enc := newEncoder(cfg.format, bw, stderr)

	// checkpoint makes everything written so far durable, then records it in
	// the state file.
	checkpoint := func() error {
		if err := enc.flush(); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if file != nil {
			if err := file.Sync(); err != nil {
				return err
			}
			st.Offset = cw.n
		}
		return st.save(cfg.statePath)
	}
	if !cfg.resume {
		if err := checkpoint(); err != nil { // a fresh state file: resumable from the start
			return err
		}
	}
	var bar *progressbar.ProgressBar
	started, startDone := time.Now(), st.Done
	// took is the time taken and rate of this run.
	took := func() string {
		d := time.Since(started)
		return fmt.Sprintf("%d records in %s, %.0f records/s", st.Done-startDone, d.Round(time.Millisecond), float64(st.Done-startDone)/d.Seconds())
	}
	interrupted := func() error {
		return fmt.Errorf("interrupted after %d records (this run: %s); the position is saved in %s: run the same command with -resume to continue: %w",
			st.Done, took(), cfg.statePath, ctx.Err())
	}
	var reported time.Time
	shown := int64(-1) // the count of the last line: the end does not repeat it
	total := 0
	// report prints the progress line of -progress, at most every
	// cfg.progress, or now.
	report := func(now bool) {
		if cfg.progress <= 0 || bar != nil || total <= 0 || st.Done == shown || !now && time.Since(reported) < cfg.progress {
			return
		}
		reported, shown = time.Now(), st.Done
		fmt.Fprintf(stderr, "progress: %d of %d records (%.1f%%)\n", st.Done, total, 100*float64(st.Done)/float64(max(total, int(st.Done))))
	}

	defer func() {
		if bar != nil {
			_ = bar.Exit()
		}
	}()
	opts := &workflow.ListOptions{First: cfg.pageSize, After: st.Cursor, Filter: filter, Prefetch: true}
	pages := c.Records.Pages(ctx, cfg.rt, cfg.alias, opts)
	if cfg.typed {
		pages = typedPages(ctx, c, cfg.alias, opts)
	}
	for page, err := range pages {
		if err != nil {
			if ctx.Err() != nil {
				return errors.Join(interrupted(), checkpoint())
			}
			return errors.Join(fmt.Errorf("after %d records: %w (run again with -resume to continue)", st.Done, err), checkpoint())
		}
		if ctx.Err() != nil { // a page fetched ahead before Ctrl-C is not written
			return errors.Join(interrupted(), checkpoint())
		}
		total = page.Total
		if bar == nil && !cfg.quiet && page.Total > 0 && isTerminal(stderr) {
			bar = newBar(int64(page.Total), st.Done, stderr)
		}
		if bar != nil && int64(page.Total)-st.Done > bar.GetMax64() {
			bar.ChangeMax64(int64(page.Total) - st.Done) // records were added meanwhile
		}
		if cfg.format == "csv" && st.Columns == nil && len(page.Items) > 0 {
			st.Columns = columnsOf(page.Items)
		}
		for _, it := range page.Items {
			if err := enc.write(st, it.Data); err != nil {
				return err
			}
			st.Done++
			st.Cursor = it.Cursor
			if bar != nil {
				_ = bar.Add(1)
			}
			if ctx.Err() != nil { // Ctrl-C: stop at this record
				return errors.Join(interrupted(), checkpoint())
			}
		}
		if err := checkpoint(); err != nil {
			return err
		}
		report(false)
	}
	st.Complete = true
	if err := checkpoint(); err != nil {
		return err
	}
	if bar != nil {
		_ = bar.Finish()
		bar = nil
	}
	where := cfg.out
	if where == "-" {
		where = "stdout"
	}
	report(true)
	fmt.Fprintf(stderr, "exported %d records of %s/%s to %s (%s); this run: %s\n", st.Done, cfg.rt, cfg.alias, where, cfg.format, took())
	return nil
}

// isTerminal reports whether w is a terminal: the progress bar redraws its
// line with carriage returns, which only a terminal shows as intended.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newBar returns a progress bar of the records left to write.
func newBar(total, done int64, w io.Writer) *progressbar.ProgressBar {
	desc := "exporting"
	if done > 0 {
		desc = fmt.Sprintf("resumed after %d, exporting", done)
	}
	return progressbar.NewOptions64(max(total-done, 1),
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionShowTotalBytes(true), // "done/total" counts records here
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("records"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
	)
}

// columnsOf returns the CSV columns for a first page: "id" first, then the
// other field names, sorted.
func columnsOf(items []workflow.RecordItem) []string {
	names := map[string]bool{}
	for _, it := range items {
		for k := range it.Data {
			names[k] = true
		}
	}
	hasID := names[idField]
	delete(names, idField)
	cols := slices.Sorted(maps.Keys(names))
	if hasID {
		cols = append([]string{idField}, cols...)
	}
	return cols
}

// encoder writes records in one format.
type encoder struct {
	format string
	w      io.Writer
	csv    *csv.Writer
	warn   io.Writer
	warned map[string]bool
}

func newEncoder(format string, w, warn io.Writer) *encoder {
	e := &encoder{format: format, w: w, warn: warn, warned: map[string]bool{}}
	if format == "csv" {
		e.csv = csv.NewWriter(w)
	}
	return e
}

// write writes one record; the first CSV record is preceded by the header.
func (e *encoder) write(st *state, r workflow.Record) error {
	if e.format == "jsonl" {
		b, err := json.Marshal(r) // map keys come out sorted
		if err != nil {
			return err
		}
		_, err = e.w.Write(append(b, '\n'))
		return err
	}
	if st.Done == 0 {
		if err := e.csv.Write(st.Columns); err != nil {
			return err
		}
	}
	row := make([]string, len(st.Columns))
	for i, col := range st.Columns {
		row[i] = r[col]
	}
	for k := range r {
		if !slices.Contains(st.Columns, k) && !e.warned[k] {
			e.warned[k] = true
			fmt.Fprintf(e.warn, "\nwarning: field %q (first in record %s) is not a CSV column and is left out; use -format jsonl or -columns to keep it\n", k, r[idField])
		}
	}
	return e.csv.Write(row)
}

// flush pushes buffered CSV rows to the underlying writer.
func (e *encoder) flush() error {
	if e.csv == nil {
		return nil
	}
	e.csv.Flush()
	return e.csv.Error()
}

// countingWriter counts the bytes written through it, from n.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// seed stores n deterministic records in the fake, the same on every run.
func seed(srv *workflowtest.Server, rt workflow.RecordType, alias string, n int) {
	statuses := []string{"Open", "In Progress", "Waiting", "Done"}
	base := time.Date(2025, 1, 6, 8, 0, 0, 0, time.UTC)
	recs := make([]workflow.Record, n)
	for i := range recs {
		recs[i] = workflow.Record{
			"Title":    fmt.Sprintf("Request %05d", i+1),
			"Status":   statuses[i%len(statuses)],
			"Priority": strconv.Itoa(i%5 + 1),
			"Due Date": workflow.FormatTime(base.Add(time.Duration(i) * time.Hour)),
			"Notes":    fmt.Sprintf("line one of %d, \"quoted\"\nline two", i+1),
		}
	}
	srv.Seed(rt, alias, recs...)
}

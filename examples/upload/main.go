// Command upload attaches a file to a record, showing the upload's progress,
// then waits until the service has processed it.
//
//	go run ./examples/upload -fake -file examples/upload/testdata/report.pdf   # on an embedded fake
//	go run ./examples/upload -alias it-requests -id 42 -file report.pdf -description Q3
//
// The file is streamed (memory use does not grow with its size); a file over
// the service's 250 MB limit (250,000,000 bytes) is refused before anything
// is sent. A progress line on stderr shows the bytes sent and the rate,
// redrawn in place on a terminal; a stderr redirected to a file or a pipe
// gets only its last state, as one plain line. -quiet turns it off.
// After the upload (202 Accepted, state PROCESSING) the command waits with
// AttachmentsService.WaitProcessed, for at most -wait, and prints the final
// state: VALID when the service has processed the file; ERROR makes the
// command fail (workflow.ErrAttachmentFailed). When the service answers the
// upload without a body, there is no attachment id to wait on: the command
// says so and stops (list the record's attachments to find the file).
//
// Without -fake it uses the account of the WORKFLOW_* environment variables.
// -fake starts an in-process fake of the service (package workflowtest) with
// one task record to attach to. testdata/report.pdf is a one-page sample
// file to upload.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h: the usage was printed; status 0, as the flag package's own
		}
		fmt.Fprintln(os.Stderr, "upload:", err)
		os.Exit(1)
	}
}

// run uploads the file the flags name and waits for it to be processed.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("upload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("file", "", "the file to upload (required)")
	rt := fs.String("type", string(workflow.Tasks), "record type: apps, elements, tasks or transactions")
	alias := fs.String("alias", "", "definition alias of the record (required, except with -fake)")
	id := fs.String("id", "", "id of the record (required, except with -fake)")
	description := fs.String("description", "", "description of the attachment")
	mediaType := fs.String("media-type", "", "media type of the file (default: from its extension or content)")
	wait := fs.Duration("wait", 5*time.Minute, "how long to wait for processing")
	quiet := fs.Bool("quiet", false, "no progress line")
	fake := fs.Bool("fake", false, "upload to an embedded fake server")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if *path == "" {
		return errors.New("-file is required")
	}
	if !workflow.RecordType(*rt).Valid() {
		return fmt.Errorf("-type %q: want apps, elements, tasks or transactions", *rt)
	}
	if *wait <= 0 {
		return errors.New("-wait must be positive")
	}
	t := workflow.RecordType(*rt)
	fi, err := os.Stat(*path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", *path)
	}

	var c *workflow.Client
	if *fake {
		srv := workflowtest.NewServer(workflowtest.WithAttachmentPolicy(workflowtest.ReadyAfterPolls(2)))
		defer srv.Close()
		if *alias == "" {
			*alias = workflowtest.DemoTasks
		}
		if *id == "" {
			*id = srv.Seed(t, *alias, workflow.Record{"Title": "A record to attach files to"})[0]
		} else {
			srv.Seed(t, *alias, workflow.Record{"id": *id, "Title": "A record to attach files to"})
		}
		c = srv.Client()
	} else {
		if *alias == "" || *id == "" {
			return errors.New("-alias and -id are required (or try -fake)")
		}
		if c, err = workflow.NewClientFromEnv(); err != nil {
			return fmt.Errorf("%w (or try -fake)", err)
		}
	}

	opts := &workflow.UploadOptions{Description: *description, MediaType: *mediaType}
	var bar *progress
	if !*quiet {
		bar = newProgress(stderr)
		opts.Progress = bar.update
	}

	fmt.Fprintf(stdout, "uploading %s (%d bytes) to %s/%s/%s\n", filepath.Base(*path), fi.Size(), t, *alias, *id)
	att, err := c.Attachments.UploadFile(ctx, t, *alias, *id, *path, opts)
	bar.finish() // ends the line, after a failure too
	if err != nil {
		if errors.Is(err, workflow.ErrTooLarge) {
			return fmt.Errorf("the file is too large (the service's limit is 250 MB, %d bytes): %w", workflow.MaxUploadSize, err)
		}
		return err
	}
	fmt.Fprintf(stdout, "attachment %s: %s, %d bytes, %s, state %s\n", att.ID, att.Name, att.Size, att.MediaType, att.State)
	if att.ID == "" {
		// The service accepted the file but sent no attachment back.
		fmt.Fprintln(stdout, "the service sent no attachment id: list the record's attachments to find it")
		return nil
	}
	if !att.State.IsProcessing() {
		return nil
	}

	fmt.Fprintln(stdout, "waiting for processing ...")
	wctx, cancel := context.WithTimeout(ctx, *wait)
	defer cancel()
	att, err = c.Attachments.WaitProcessed(wctx, t, *alias, *id, att.ID, nil)
	if errors.Is(err, workflow.ErrAttachmentFailed) {
		return fmt.Errorf("the service could not process the file (state %s): %w", att.State, err)
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return fmt.Errorf("still processing after %s (-wait): %w", *wait, err)
		}
		return err
	}
	fmt.Fprintf(stdout, "attachment %s: %s\n", att.ID, att.State)
	return nil
}

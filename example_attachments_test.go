package workflow_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// ExampleAttachmentsService_Upload uploads the content of any io.Reader.
// A reader that tells its size (Len, Seek or Stat) is sent with an exact
// Content-Length, and one that can seek is sent again from its start after
// a 429; a size over MaxUploadSize is refused before anything is sent.
func ExampleAttachmentsService_Upload() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"id": "T-1", "Title": "Printer jammed"})
	c := srv.Client()
	ctx := context.Background()

	att, err := c.Attachments.Upload(ctx, workflow.Tasks, "it-requests", "T-1", "printer.log",
		strings.NewReader("paper jam at tray 2\n"), &workflow.UploadOptions{Description: "printer log", MediaType: "text/plain"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(att.ID, att.Name, att.MediaType, att.Size, "bytes:", att.State)

	_, err = c.Attachments.Upload(ctx, workflow.Tasks, "it-requests", "T-1", "huge.bin",
		strings.NewReader("..."), &workflow.UploadOptions{Size: workflow.MaxUploadSize + 1})
	fmt.Println(errors.Is(err, workflow.ErrTooLarge), err)
	// Output:
	// a1 printer.log text/plain 20 bytes: PROCESSING
	// true workflow: invalid file: must be at most 250000000 bytes (got 250000001): file too large
}

// ExampleAttachmentsService_UploadFile uploads a file to a task, waits
// until the service has processed it, and downloads it again.
func ExampleAttachmentsService_UploadFile() {
	// This fake answers the first poll PROCESSING and the second VALID.
	processing := workflowtest.ReadyAfterPolls(1)
	srv := workflowtest.NewServer(workflowtest.WithAttachmentPolicy(processing)) // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"id": "T-1", "Title": "Quarterly report"})
	c := srv.Client()
	ctx := context.Background()

	dir, err := os.MkdirTemp("", "upload-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "report.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.7 quarterly numbers"), 0o600); err != nil {
		log.Fatal(err)
	}

	att, err := c.Attachments.UploadFile(ctx, workflow.Tasks, "it-requests", "T-1", path,
		&workflow.UploadOptions{Description: "Q3"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(att.Name, att.MediaType, att.Size, "bytes:", att.State)

	// Bound the wait; the poll interval starts at 250ms by default.
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	att, err = c.Attachments.WaitProcessed(ctx, workflow.Tasks, "it-requests", "T-1", att.ID,
		&workflow.WaitOptions{PollInterval: 10 * time.Millisecond, MaxPollInterval: time.Second})
	if errors.Is(err, workflow.ErrAttachmentFailed) {
		log.Fatalf("the service could not process %s", att.Name)
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(att.Name, "is", att.State, "ready:", att.State.IsReady())

	// Stream the content back into a file, following the attachment's
	// contentUrl.
	dl, err := c.Attachments.DownloadAttachment(ctx, workflow.Tasks, "it-requests", "T-1", att)
	if err != nil {
		log.Fatal(err)
	}
	n, err := dl.SaveFile(filepath.Join(dir, "copy.pdf"), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("downloaded", dl.Name, dl.MediaType, n, "bytes")
	// Output:
	// report.pdf application/pdf 26 bytes: PROCESSING
	// report.pdf is VALID ready: true
	// downloaded report.pdf application/octet-stream 26 bytes
}

// ExampleAttachmentsService_Download streams an attachment's content to
// an io.Writer, reporting progress.
func ExampleAttachmentsService_Download() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"id": "T-1", "Title": "Quarterly report"})
	c := srv.Client()
	ctx := context.Background()
	att, err := c.Attachments.Upload(ctx, workflow.Tasks, "it-requests", "T-1", "notes.txt",
		strings.NewReader("printer jams on duplex\n"), nil)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := c.Attachments.WaitProcessed(ctx, workflow.Tasks, "it-requests", "T-1", att.ID, nil); err != nil {
		log.Fatal(err)
	}

	dl, err := c.Attachments.Download(ctx, workflow.Tasks, "it-requests", "T-1", att.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(dl.Name, dl.MediaType, dl.Size, "bytes")
	_, err = dl.SaveTo(os.Stdout, func(written, total int64) {
		// Called after each chunk written; total is -1 when unknown.
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// notes.txt application/octet-stream 23 bytes
	// printer jams on duplex
}

package workflow

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// AttachmentState is the processing state of a file attachment. The
// service publishes AttachmentProcessing, AttachmentValid and
// AttachmentError, in capitals; compare with the methods below, which
// ignore case, rather than with ==. The value is kept as the service sent
// it, including a state the SDK does not know.
type AttachmentState string

// The attachment states the service publishes.
const (
	// AttachmentProcessing: the upload was accepted (202) and the service
	// is still handling the file.
	AttachmentProcessing AttachmentState = "PROCESSING"
	// AttachmentValid: processing ended and the file is ready.
	AttachmentValid AttachmentState = "VALID"
	// AttachmentError: processing failed; the file is not usable.
	AttachmentError AttachmentState = "ERROR"
)

// IsProcessing reports whether s is PROCESSING, in any case.
func (s AttachmentState) IsProcessing() bool {
	return strings.EqualFold(string(s), string(AttachmentProcessing))
}

// IsReady reports whether s is VALID, in any case: processing ended well.
func (s AttachmentState) IsReady() bool { return strings.EqualFold(string(s), string(AttachmentValid)) }

// IsFailed reports whether s is ERROR, in any case: processing failed.
func (s AttachmentState) IsFailed() bool {
	return strings.EqualFold(string(s), string(AttachmentError))
}

// ErrAttachmentFailed is matched (errors.Is) by the error WaitProcessed
// returns when processing ends in the ERROR state.
var ErrAttachmentFailed = errors.New("workflow: attachment processing failed")

// UnmarshalJSON reads an attachment; unknown members go to Extra and
// CreatedAt is converted to UTC. A createdAt whose year in UTC is outside
// 0000 to 9999 (0000-01-01T00:00:00+01:00) is an error: RFC 3339 cannot
// write it, so the attachment could not be written back.
func (a *Attachment) UnmarshalJSON(data []byte) error {
	if err := jsonmodel.Unmarshal(data, a); err != nil {
		return err
	}
	a.CreatedAt = a.CreatedAt.UTC() // the zero time stays zero
	if y := a.CreatedAt.Year(); y < 0 || y > 9999 {
		return errors.New("attachment createdAt is outside the years 0000 to 9999 in UTC")
	}
	return nil
}

// resourceID is the attachment's id: an answer without one holds no
// attachment.
func (a *Attachment) resourceID() string { return a.ID }

// attachmentPath returns the target of the operation id on one attachment
// of a record.
func attachmentPath(id op.ID, t RecordType, alias, recordID, attachmentID string) target {
	return recordPath(id, t, alias, "id", recordID, "attachmentID", attachmentID)
}

// AttachmentsService is the part of the API about attachments of records:
// Client.Attachments. The service does not page them: List returns them
// all.
type AttachmentsService struct{ client *Client }

// List returns the attachments of a record:
// GET /{recordType}/{alias}/{id}/attachments. The service answers with a
// bare JSON array and no paging: every attachment is returned at once.
// An answer that is not an array is an error.
func (s *AttachmentsService) List(ctx context.Context, t RecordType, alias, id string, reqOpts ...RequestOption) ([]Attachment, error) {
	list, err := fetchOne[[]Attachment](ctx, s.client, recordPath(op.ListRecordAttachments, t, alias, "id", id), nil, "attachment list", false, reqOpts)
	if err != nil {
		return nil, err
	}
	return *list, nil
}

// Get returns one attachment of a record:
// GET /{recordType}/{alias}/{id}/attachments/{attachmentId}.
func (s *AttachmentsService) Get(ctx context.Context, t RecordType, alias, id, attachmentID string, reqOpts ...RequestOption) (*Attachment, error) {
	return fetchOne[Attachment](ctx, s.client, attachmentPath(op.GetRecordAttachment, t, alias, id, attachmentID), nil, "attachment", false, reqOpts)
}

// Delete removes an attachment from a record:
// DELETE /{recordType}/{alias}/{id}/attachments/{attachmentId} (200, no
// body).
func (s *AttachmentsService) Delete(ctx context.Context, t RecordType, alias, id, attachmentID string, reqOpts ...RequestOption) error {
	return s.client.call(ctx, attachmentPath(op.DeleteRecordAttachments, t, alias, id, attachmentID), nil, nil, reqOpts, reply{})
}

// AddLink attaches a link (a URL) to a record:
// POST /{recordType}/{alias}/{id}/attachments/url-links with
// {"url", "description"}, and returns the link the service answers (201,
// {"url", "description"}). link.URL must be an absolute URL. Should the
// service answer without a body, AddLink returns the link it sent.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have added the link; it is retried after a 429.
func (s *AttachmentsService) AddLink(ctx context.Context, t RecordType, alias, id string, link Link, reqOpts ...RequestOption) (*Link, error) {
	r := recordPath(op.CreateRecordLink, t, alias, "id", id)
	if r.err != nil {
		return nil, r.err
	}
	if link.URL == "" {
		return nil, invalid("Link.URL", "must not be empty")
	}
	// The rule, not the URL: the URL is the request's data (it may carry a
	// signed query).
	if u, err := url.Parse(link.URL); err != nil || !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") || u.Host == "" {
		return nil, invalid("Link.URL", "must be an absolute http or https URL")
	}
	out, err := fetchOne[Link](ctx, s.client, r, link, "link", true, reqOpts)
	if err == nil && out == nil {
		out = &link // an answer without a body: the link sent
	}
	return out, err
}

// MaxUploadSize is the largest file the service accepts, in bytes: the
// spec's "250 MB", read as 250,000,000 bytes (the SI megabyte). Of the two
// readings of "MB" this is the smaller, so the SDK never sends a file that
// either reading would refuse; a file between 250,000,001 and 262,144,000
// bytes (250 MiB) is refused too.
const MaxUploadSize int64 = 250_000_000

// UploadOptions are the optional settings of Upload and UploadFile.
type UploadOptions struct {
	// Description is sent as the "description" part; empty sends none.
	Description string
	// MediaType is the media type of the file part, e.g. "application/pdf".
	// Empty means: the type of the file name's extension
	// (mime.TypeByExtension), else the type its first 512 bytes look like
	// (http.DetectContentType), else application/octet-stream.
	MediaType string
	// Size is the number of bytes Upload will read from its reader, for a
	// reader that cannot tell (with Len, Seek or Stat). When set, the
	// request has an exact Content-Length, a size over MaxUploadSize is
	// refused before sending, and the reader must hold exactly Size bytes
	// (the upload fails otherwise). Zero means unknown unless the reader
	// tells. UploadFile ignores it and uses the file's size.
	Size int64
	// Progress, if set, is called as the file's content is sent, with the
	// content bytes sent so far in this attempt and the total (-1 when
	// unknown). A retry starts again from 0. It is called from the
	// goroutine that writes the request (not the caller's), never
	// concurrently, never after the upload has returned, and should
	// return quickly.
	Progress func(sent, total int64)
}

// check validates the options and returns a copy with the media type
// normalised (the caller's struct is never written).
func (o *UploadOptions) check() (*UploadOptions, error) {
	c := valueOf(o)
	if c.Size < 0 {
		return nil, invalid("UploadOptions.Size", "must not be negative")
	}
	if c.Size > MaxUploadSize {
		return nil, tooLarge(c.Size)
	}
	if c.MediaType != "" {
		t, params, err := mime.ParseMediaType(c.MediaType)
		if err != nil {
			return nil, &ValidationError{Field: "UploadOptions.MediaType", Rule: "must be a media type such as application/pdf", Err: err}
		}
		c.MediaType = mime.FormatMediaType(t, params)
	}
	return &c, nil
}

// Upload uploads the content of r as a file attachment named name and
// returns the attachment: POST /{recordType}/{alias}/{id}/attachments,
// multipart/form-data with a "file" part (file name name, media type as
// UploadOptions.MediaType says) and, when opts has a Description, a
// "description" part. The service answers 202 Accepted with the attachment
// in State PROCESSING; processing goes on after the answer, and
// WaitProcessed waits for it to end.
//
// The service's published document shows the 202 without a body. When
// the answer has none, Upload still succeeds (the file was accepted) and
// returns an attachment that holds only what was sent: Name, Description,
// MediaType, Size (the bytes sent) and State PROCESSING, with an empty ID
// and ContentURL. Without an ID the attachment cannot be read, waited on,
// downloaded or deleted by id: list the record's attachments (List) to
// find it, for example by name. Do not upload again, which would attach
// the file twice.
// opts may be nil.
//
// The content is streamed: memory use does not grow with its size. Its
// size is taken from opts.Size, else from r when r can tell (Len, as
// bytes.Reader and strings.Reader have; Seek; or Stat, as fs.File has, in
// which case r is taken to be unread). With a known size the request has
// an exact Content-Length, and a size over MaxUploadSize is refused before
// anything is sent, with a *ValidationError for the field "file" that
// matches ErrTooLarge. With an unknown size the request is sent in chunks
// and cut off as soon as the content passes MaxUploadSize; the error then
// matches ErrTooLarge too. A 413 from the service matches ErrTooLarge;
// a 400 (an invalid file) or a 404 (no such record) is an *APIError with
// the service's message.
//
// r is read from its current position. When r is an io.ReadSeeker, the
// upload can be retried (after a 429, or a refused connection) and each
// retry seeks r back to where it started. Any other reader is read once
// and a failed upload is not retried; the caller sees the 429. A read
// error of r ends the upload with that error.
//
// When ctx ends, Upload returns at once with ctx's error, even while a
// read of r is blocked (a pipe, a socket): r is then closed if it is an
// io.Closer, which ends such a read. A reader that cannot be closed is
// read from a goroutine of the upload's own, which Upload stops waiting
// for; a blocked read is left to finish on its own (its goroutine ends
// when the read returns), and r is not read again.
func (s *AttachmentsService) Upload(ctx context.Context, t RecordType, alias, id, name string, r io.Reader, opts *UploadOptions, reqOpts ...RequestOption) (*Attachment, error) {
	at := recordPath(op.CreateRecordAttachment, t, alias, "id", id)
	if err := cmp.Or(checkCtx(ctx), at.err, checkFileName("name", name)); err != nil {
		return nil, err
	}
	if r == nil {
		return nil, invalid("r", "must not be nil")
	}
	o, err := opts.check()
	if err != nil {
		return nil, err
	}
	src, err := sourceFromReader(r, o.Size)
	if err != nil {
		return nil, err
	}
	return s.upload(ctx, at, name, src, o, reqOpts)
}

// UploadFile uploads the file at path as a file attachment and returns the
// attachment, as Upload does (POST /{recordType}/{alias}/{id}/attachments);
// the file name sent is the last element of path. opts may be nil; its Size is ignored.
//
// A file over MaxUploadSize is refused before any request, with a
// *ValidationError for the field "file" that matches ErrTooLarge. The
// request has an exact Content-Length, and a retry (after a 429, or a
// refused connection) sends the whole file again from its start. A path
// that cannot be opened is an error naming the operation and the path
// ("workflow: upload file: open report.pdf: no such file or directory")
// that wraps the *fs.PathError (errors.Is(err, fs.ErrNotExist) for a
// missing file); a directory or other non-regular
// file is a *ValidationError.
func (s *AttachmentsService) UploadFile(ctx context.Context, t RecordType, alias, id, path string, opts *UploadOptions, reqOpts ...RequestOption) (*Attachment, error) {
	r := recordPath(op.CreateRecordAttachment, t, alias, "id", id)
	if err := cmp.Or(checkCtx(ctx), r.err); err != nil {
		return nil, err
	}
	if path == "" {
		return nil, invalid("path", "must not be empty")
	}
	name := filepath.Base(path)
	if err := checkFileName("path", name); err != nil {
		return nil, err
	}
	c := valueOf(opts)
	c.Size = 0 // the file's size is used
	o, err := c.check()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("workflow: upload file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("workflow: upload file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, invalid("path", "must name a regular file (got "+st.Mode().Type().String()+")")
	}
	return s.upload(ctx, r, name, &uploadSource{at: f, size: st.Size()}, o, reqOpts)
}

// Default polling intervals of WaitProcessed.
const (
	DefaultPollInterval    = 250 * time.Millisecond
	DefaultMaxPollInterval = 5 * time.Second
)

// WaitOptions are the optional settings of WaitProcessed.
type WaitOptions struct {
	// PollInterval is the wait after the first answer; it doubles after
	// each answer up to MaxPollInterval. Zero means DefaultPollInterval;
	// negative is a *ValidationError.
	PollInterval time.Duration
	// MaxPollInterval caps the wait between two requests. Zero means
	// DefaultMaxPollInterval (or PollInterval, if that is larger);
	// otherwise it must not be less than PollInterval.
	MaxPollInterval time.Duration
}

// intervals returns the checked first and maximal waits.
func (o *WaitOptions) intervals() (first, most time.Duration, err error) {
	w := valueOf(o)
	switch {
	case w.PollInterval < 0:
		return 0, 0, invalid("WaitOptions.PollInterval", "must not be negative")
	case w.MaxPollInterval < 0:
		return 0, 0, invalid("WaitOptions.MaxPollInterval", "must not be negative")
	case w.MaxPollInterval > 0 && w.PollInterval > w.MaxPollInterval:
		return 0, 0, invalid("WaitOptions.MaxPollInterval", "must not be less than PollInterval")
	}
	first = cmp.Or(w.PollInterval, DefaultPollInterval)
	return first, max(first, cmp.Or(w.MaxPollInterval, DefaultMaxPollInterval)), nil
}

// WaitProcessed waits until processing of an attachment ends and returns
// it: it asks for the attachment with Get (GET
// /{recordType}/{alias}/{id}/attachments/{attachmentId}) at once, then
// again after a wait that starts at 250ms and doubles up to 5s (see
// WaitOptions; opts may be nil), as long as its State is PROCESSING (in
// any case).
//
// How it ends:
//   - State VALID (ready): the attachment and a nil error.
//   - State ERROR (failed): the attachment and an error that matches
//     ErrAttachmentFailed.
//   - Any other state (one the service does not publish): the attachment
//     and an error naming the state, which matches no sentinel: the SDK
//     cannot tell whether the file is usable.
//   - An error of Get: nil and that error, at once (Get's own retries
//     have run by then).
//   - ctx ends first: nil and ctx's error. Give ctx a deadline to bound
//     the wait.
//
// An empty attachmentID is a *ValidationError. An upload answered without
// a body gives an attachment without ID, which cannot be waited on: find
// it with List.
func (s *AttachmentsService) WaitProcessed(ctx context.Context, t RecordType, alias, id, attachmentID string, opts *WaitOptions, reqOpts ...RequestOption) (*Attachment, error) {
	if attachmentID == "" {
		return nil, invalid("attachmentID", "must not be empty (an upload answered without a body has no id to wait on: find the attachment with List)")
	}
	r := attachmentPath(op.GetRecordAttachment, t, alias, id, attachmentID)
	wait, most, err := opts.intervals()
	if err := cmp.Or(r.err, err, checkCtx(ctx)); err != nil {
		return nil, err
	}
	for {
		att, err := fetchOne[Attachment](ctx, s.client, r, nil, "attachment", false, reqOpts)
		if err != nil {
			return nil, err
		}
		switch {
		case att.State.IsReady():
			return att, nil
		case att.State.IsFailed():
			return att, fmt.Errorf("%w: attachment %s ended in state %s", ErrAttachmentFailed, att.ID, att.State)
		case !att.State.IsProcessing():
			return att, fmt.Errorf("workflow: attachment %s: processing ended in state %q, which the SDK does not know", att.ID, att.State)
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return nil, err
		}
		wait = min(wait*2, most)
	}
}

package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// AttachmentState is the processing state of an attachment.
//
// The spec names one state, AttachmentProcessing, reported when an upload
// is accepted; the others, and the transitions, are not shown. Compare
// with AttachmentProcessing rather than with any other value.
type AttachmentState string

// AttachmentProcessing is the state of a file attachment whose upload was
// accepted (202) and is still being handled by the service.
const AttachmentProcessing AttachmentState = "processing"

// Attachment is a file or link attached to a record.
//
// Its JSON fields are the spec's Attachment: "id", "name", "description",
// "mediaType", "size" (bytes), "state" and "createdAt" (the API's time
// form). A link attachment is assumed (not shown) to have the same fields
// plus "url". Every other field the service sends is kept in Extra and
// written back when the attachment is encoded again; a modelled field
// whose value the typed field cannot hold exactly (a null, a string where
// a number is expected, a time in another form) is kept verbatim in Extra
// under its own name, as for User.
type Attachment struct {
	// ID identifies the attachment within its record.
	ID string
	// Name is the file name (for a link, the name given to AddLink).
	Name string
	// Description is the description given at upload.
	Description string
	// MediaType is the media type of the file, e.g. "application/pdf".
	MediaType string
	// Size is the size of the file in bytes.
	Size int64
	// State is the processing state; AttachmentProcessing right after an
	// upload. See WaitProcessed.
	State AttachmentState
	// CreatedAt is when the attachment was added (UTC), zero if not sent or
	// not a time.
	CreatedAt time.Time
	// URL is the address of a link attachment (assumed field "url"),
	// empty for a file.
	URL string
	// Extra holds every field of the service's JSON that the typed fields
	// do not model, and modelled fields whose value they cannot hold
	// exactly, as raw JSON.
	Extra map[string]json.RawMessage
}

// attachmentWire is the JSON object of an attachment.
type attachmentWire struct {
	ID          json.RawMessage `json:"id,omitempty"`
	Name        json.RawMessage `json:"name,omitempty"`
	Description json.RawMessage `json:"description,omitempty"`
	MediaType   json.RawMessage `json:"mediaType,omitempty"`
	Size        json.RawMessage `json:"size,omitempty"`
	State       json.RawMessage `json:"state,omitempty"`
	CreatedAt   json.RawMessage `json:"createdAt,omitempty"`
	URL         json.RawMessage `json:"url,omitempty"`
}

// UnmarshalJSON reads an attachment; see Attachment for how unexpected
// values of the modelled fields are kept.
func (a *Attachment) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var w attachmentWire
	extra, err := unmarshalExtra(data, &w)
	if err != nil {
		return err
	}
	*a = Attachment{}
	k := keeper{extra: extra}
	k.keep("id", readString(w.ID, &a.ID, true))
	k.keep("name", readString(w.Name, &a.Name, false))
	k.keep("description", readString(w.Description, &a.Description, false))
	k.keep("mediaType", readString(w.MediaType, &a.MediaType, false))
	k.keep("size", readInt64(w.Size, &a.Size))
	k.keep("state", readString(w.State, (*string)(&a.State), false))
	k.keep("createdAt", readTime(w.CreatedAt, &a.CreatedAt))
	k.keep("url", readString(w.URL, &a.URL, false))
	a.Extra = k.extra
	return nil
}

// MarshalJSON writes the attachment with its Extra fields. "url" is
// written only for a link (URL set, or kept in Extra).
func (a Attachment) MarshalJSON() ([]byte, error) {
	w := attachmentWire{
		ID:          writeString(a.ID, a.Extra["id"], true),
		Name:        writeString(a.Name, a.Extra["name"], false),
		Description: writeString(a.Description, a.Extra["description"], false),
		MediaType:   writeString(a.MediaType, a.Extra["mediaType"], false),
		Size:        writeInt64(a.Size, a.Extra["size"]),
		State:       writeString(string(a.State), a.Extra["state"], false),
		CreatedAt:   writeTime(a.CreatedAt, a.Extra["createdAt"]),
	}
	if a.URL != "" || a.Extra["url"] != nil {
		w.URL = writeString(a.URL, a.Extra["url"], false)
	}
	return marshalExtra(w, a.Extra)
}

// Link is a link attachment to add with AddLink.
//
// The spec does not show the body of POST .../attachments/url-links; it is
// assumed to be this struct's JSON: {"url": "...", "name": "...",
// "description": "..."}, with empty name and description left out.
type Link struct {
	// URL is the absolute address the attachment points to. Required.
	URL string `json:"url"`
	// Name is the attachment's display name; the service chooses one when
	// it is empty.
	Name string `json:"name,omitempty"`
	// Description describes the link.
	Description string `json:"description,omitempty"`
}

// attachmentsPath returns the path of a record's attachments, with the
// attachment id when one is given.
func attachmentsPath(t RecordType, alias, id string, attachmentID ...string) (string, error) {
	if len(attachmentID) > 0 {
		return recordPath(t, alias, "id", id, "", "attachments", "attachmentID", attachmentID[0])
	}
	return recordPath(t, alias, "id", id, "", "attachments")
}

// List returns the attachments of a record:
// GET /{recordType}/{alias}/{id}/attachments.
//
// The spec does not show the response; it is assumed to be a list of
// attachments, sent as a bare JSON array or as an object whose "items"
// holds them. The spec shows no paging for this list: every attachment of
// the response is returned.
func (s *AttachmentsService) List(ctx context.Context, t RecordType, alias, id string) ([]Attachment, error) {
	path, err := attachmentsPath(t, alias, id)
	if err != nil {
		return nil, err
	}
	return listSubresource[Attachment](ctx, s.client, path)
}

// Get returns one attachment of a record:
// GET /{recordType}/{alias}/{id}/attachments/{attachmentId}. The response
// is assumed (not shown) to be the attachment, or the same wrapped as
// {"data": {...}}.
func (s *AttachmentsService) Get(ctx context.Context, t RecordType, alias, id, attachmentID string) (*Attachment, error) {
	path, err := attachmentsPath(t, alias, id, attachmentID)
	if err != nil {
		return nil, err
	}
	return s.get(ctx, path)
}

func (s *AttachmentsService) get(ctx context.Context, path string) (*Attachment, error) {
	req, err := s.client.newRequest(ctx, http.MethodGet, path, nil, nil)
	if err != nil {
		return nil, err
	}
	var out attachmentResource
	if _, err := s.client.do(req, &out); err != nil {
		return nil, err
	}
	return &out.v, nil
}

// Delete removes an attachment from a record:
// DELETE /{recordType}/{alias}/{id}/attachments/{attachmentId}. Any success
// status (assumed 204) is accepted, its body ignored.
func (s *AttachmentsService) Delete(ctx context.Context, t RecordType, alias, id, attachmentID string) error {
	path, err := attachmentsPath(t, alias, id, attachmentID)
	if err != nil {
		return err
	}
	req, err := s.client.newRequest(ctx, http.MethodDelete, path, nil, nil)
	if err != nil {
		return err
	}
	_, err = s.client.do(req, nil)
	return err
}

// AddLink attaches a link (a URL) to a record and returns the attachment:
// POST /{recordType}/{alias}/{id}/attachments/url-links. link.URL must be
// an absolute URL.
//
// The spec does not show the body or the response. The body is assumed to
// be Link's JSON ({"url", "name", "description"}) and the response
// (assumed 201) the attachment, with its URL in the "url" field.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have added the link; it is retried after a 429.
func (s *AttachmentsService) AddLink(ctx context.Context, t RecordType, alias, id string, link Link) (*Attachment, error) {
	path, err := recordPath(t, alias, "id", id, "", "attachments", "", "url-links")
	if err != nil {
		return nil, err
	}
	if link.URL == "" {
		return nil, invalid("Link.URL", "must not be empty")
	}
	if u, err := url.Parse(link.URL); err != nil {
		return nil, &ValidationError{Field: "Link.URL", Rule: "must be an absolute URL", Err: err}
	} else if !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") || u.Host == "" {
		return nil, invalid("Link.URL", "must be an absolute http or https URL (got "+strconv.Quote(link.URL)+")")
	}
	req, err := s.client.newRequest(ctx, http.MethodPost, path, nil, link)
	if err != nil {
		return nil, err
	}
	out := oneBody[Attachment]{v: Attachment{Name: link.Name, Description: link.Description, URL: link.URL}}
	if _, err := s.client.do(req, &out); err != nil {
		return nil, err
	}
	return &out.v, nil
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
	var c UploadOptions
	if o != nil {
		c = *o
	}
	if c.Size < 0 {
		return nil, invalid("UploadOptions.Size", "must not be negative")
	}
	if c.Size > MaxUploadSize {
		return nil, tooLarge(c.Size)
	}
	if c.MediaType != "" {
		mt, err := checkMediaType(c.MediaType)
		if err != nil {
			return nil, err
		}
		c.MediaType = mt
	}
	return &c, nil
}

// Upload uploads the content of r as a file attachment named name and
// returns the attachment: POST /{recordType}/{alias}/{id}/attachments,
// multipart/form-data with a "file" part (file name name, media type as
// UploadOptions.MediaType says) and, when opts has a Description, a
// "description" part. The service answers 202 Accepted with the attachment
// in State AttachmentProcessing; processing goes on after the answer, and
// WaitProcessed waits for it to end. (Should the service answer without a
// body, the returned attachment holds what was sent, with an empty ID.)
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
func (s *AttachmentsService) Upload(ctx context.Context, t RecordType, alias, id, name string, r io.Reader, opts *UploadOptions) (*Attachment, error) {
	path, err := attachmentsPath(t, alias, id)
	if err != nil {
		return nil, err
	}
	if err := checkFileName("name", name); err != nil {
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
	return s.upload(ctx, path, name, src, o)
}

// UploadFile uploads the file at path as a file attachment and returns the
// attachment, as Upload does; the file name sent is the last element of
// path. opts may be nil; its Size is ignored.
//
// A file over MaxUploadSize is refused before any request, with a
// *ValidationError for the field "file" that matches ErrTooLarge. The
// request has an exact Content-Length, and a retry (after a 429, or a
// refused connection) sends the whole file again from its start. A path
// that cannot be opened returns the *fs.PathError (errors.Is(err,
// fs.ErrNotExist) for a missing file); a directory or other non-regular
// file is a *ValidationError.
func (s *AttachmentsService) UploadFile(ctx context.Context, t RecordType, alias, id, path string, opts *UploadOptions) (*Attachment, error) {
	apiPath, err := attachmentsPath(t, alias, id)
	if err != nil {
		return nil, err
	}
	if path == "" {
		return nil, invalid("path", "must not be empty")
	}
	name := filepath.Base(path)
	if err := checkFileName("path", name); err != nil {
		return nil, err
	}
	o, err := opts.check()
	if err != nil {
		return nil, err
	}
	o.Size = 0
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, invalid("path", "must name a regular file (got "+st.Mode().Type().String()+")")
	}
	return s.upload(ctx, apiPath, name, &uploadSource{at: f, size: st.Size()}, o)
}

// Default polling intervals of WaitProcessed.
const (
	DefaultPollInterval    = 250 * time.Millisecond
	DefaultMaxPollInterval = 5 * time.Second
)

// WaitOption configures WaitProcessed.
type WaitOption func(*waitConfig)

type waitConfig struct {
	first, max time.Duration
}

// PollInterval sets how often WaitProcessed asks for the attachment: first
// after the first answer, doubling after each answer up to max. Both must
// be positive and max at least first. The defaults are
// DefaultPollInterval and DefaultMaxPollInterval.
func PollInterval(first, max time.Duration) WaitOption {
	return func(c *waitConfig) { c.first, c.max = first, max }
}

// WaitProcessed waits until an attachment is no longer being processed and
// returns it: it asks for the attachment with Get (GET
// /{recordType}/{alias}/{id}/attachments/{attachmentId}) at once, then
// again after a wait that starts at 250ms and doubles up to 5s (see
// PollInterval), as long as its State is AttachmentProcessing.
//
// The spec names no state after processing, so any other state (whatever
// the service reports, e.g. a success or a failure) ends the wait and is
// returned as it is: check State. An error of Get is returned at once
// (Get's own retries have run by then). When ctx ends first, ctx's error
// is returned; give ctx a deadline to bound the wait.
func (s *AttachmentsService) WaitProcessed(ctx context.Context, t RecordType, alias, id, attachmentID string, opts ...WaitOption) (*Attachment, error) {
	path, err := attachmentsPath(t, alias, id, attachmentID)
	if err != nil {
		return nil, err
	}
	cfg := waitConfig{first: DefaultPollInterval, max: DefaultMaxPollInterval}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.first <= 0 {
		return nil, invalid("PollInterval", "first interval must be positive")
	}
	if cfg.max < cfg.first {
		return nil, invalid("PollInterval", "max interval must not be less than the first")
	}
	if ctx == nil {
		return nil, invalid("ctx", "must not be nil")
	}
	wait := cfg.first
	for {
		att, err := s.get(ctx, path)
		if err != nil {
			return nil, err
		}
		if att.State != AttachmentProcessing {
			return att, nil
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return nil, err
		}
		wait = min(wait*2, cfg.max)
	}
}

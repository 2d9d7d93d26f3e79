package workflow

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// How an upload is streamed.
//
// The request body is the multipart frame's head (the optional
// "description" part and the headers of the "file" part), then the file's
// content read straight from the caller's file or reader, then the frame's
// tail. Nothing but the head, the tail and the first 512 bytes (to detect
// the media type when needed) is held in memory, whatever the file's size,
// and no goroutine is started: the HTTP transport pulls the content as it
// writes the request.
//
// When the content's size is known the request has an exact Content-Length
// and an over-size file is refused before anything is sent. When it is not
// known the request is sent in chunks and cut off as soon as the content
// passes MaxUploadSize. When the content can be read again (a file, an
// io.ReadSeeker), the request's GetBody rewinds it, so the retry layer and
// the 401 refresh can send the same bytes again.

// sniffLen is how many leading bytes http.DetectContentType looks at.
const sniffLen = 512

// Errors that end an attempt's body without being the upload's cause.
var (
	errUploadOver    = errors.New("workflow: upload finished; content no longer readable")
	errUploadRetried = errors.New("workflow: upload superseded by a newer attempt")
)

// uploadSource is the content of one upload: where it is read from, its
// size when known, and how to read it again for a retry.
type uploadSource struct {
	size   int64 // bytes of content; -1 when unknown
	strict bool  // size was announced by the caller: the reader must end there

	at     io.ReaderAt   // a file opened by UploadFile: each attempt reads its own section
	seeker io.ReadSeeker // a seekable reader: each attempt seeks back to start
	start  int64         // seeker's offset when the upload began
	plain  io.Reader     // any other reader: read once (sniff puts back what it read)

	progress func(sent, total int64)
	lastSent int64 // content bytes the latest attempt has read

	// mu serialises reads of the caller's reader with the rewinds of a new
	// attempt, so a body the transport has given up on never reads into
	// the next attempt's bytes.
	mu      sync.Mutex
	attempt int         // number of the current attempt, from 1
	err     error       // why the current attempt's content failed, if it did
	over    atomic.Bool // the upload has returned: no more reads of the caller's reader

	// closer is the caller's reader when it is an io.Closer: it is closed
	// when the context ends, which unblocks a read waiting on it.
	closer    io.Closer
	closeOnce sync.Once
	// aborted is closed when the upload is aborted or returns; it is nil
	// for readers whose reads cannot block for long (in memory, or a file
	// opened by UploadFile) or that abort closes (an io.Closer). A read of a
	// caller's reader that cannot be closed runs in a goroutine of its
	// own (one per upload, started with the first such read), so that the
	// upload can stop waiting for it: net/http does not return from a
	// request while its body is being read.
	aborted   chan struct{}
	abortOnce sync.Once
	pumpReq   chan pumpRead
	pumpRes   chan pumpResult
	buf       []byte
}

type pumpRead struct {
	r io.Reader
	p []byte
}

type pumpResult struct {
	n   int
	err error
}

// readAbortable reads r into p, but returns errUploadOver as soon as the
// upload is aborted, leaving a blocked read to finish on its own (into
// s.buf, which no later read uses: the upload is over). s.mu is held.
func (s *uploadSource) readAbortable(r io.Reader, p []byte) (int, error) {
	if s.aborted == nil {
		return r.Read(p) // in memory, or closing the reader ends a blocked read
	}
	if s.pumpReq == nil {
		s.pumpReq, s.pumpRes = make(chan pumpRead), make(chan pumpResult, 1)
		go func(req <-chan pumpRead, res chan<- pumpResult, stop <-chan struct{}) {
			for {
				select {
				case rd := <-req:
					n, err := rd.r.Read(rd.p)
					res <- pumpResult{n, err}
				case <-stop:
					return
				}
			}
		}(s.pumpReq, s.pumpRes, s.aborted)
	}
	s.buf = slices.Grow(s.buf[:0], len(p))
	buf := s.buf[:len(p)]
	select {
	case s.pumpReq <- pumpRead{r, buf}:
	case <-s.aborted:
		return 0, errUploadOver
	}
	select {
	case res := <-s.pumpRes:
		copy(p, buf[:res.n])
		return res.n, res.err
	case <-s.aborted:
		return 0, errUploadOver
	}
}

// endReads stops the reading goroutine, if any, once the upload returns.
func (s *uploadSource) endReads() {
	if s.aborted != nil {
		s.abortOnce.Do(func() { close(s.aborted) })
	}
}

// abort ends the upload because its context ended: no more reads, and the
// caller's reader is closed if it can be, so that a read blocked in it
// returns.
func (s *uploadSource) abort() {
	s.over.Store(true)
	s.endReads()
	if s.closer != nil {
		s.closeOnce.Do(func() { _ = s.closer.Close() })
	}
}

// sourceFromReader works out what can be known of r: its size (from size
// when positive, else Len, Seek or Stat) and whether it can be read again
// (an io.Seeker). A reader whose Seek fails is read once.
func sourceFromReader(r io.Reader, size int64) (*uploadSource, error) {
	src := &uploadSource{size: -1, plain: r}
	switch r := r.(type) {
	case *bytes.Reader, *strings.Reader, *bytes.Buffer: // in memory: reads never block
	case io.Closer:
		src.closer = r
	default:
		src.aborted = make(chan struct{})
	}
	if size > 0 {
		src.size, src.strict = size, true
	}
	if rs, ok := r.(io.ReadSeeker); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			if end, err := rs.Seek(0, io.SeekEnd); err == nil {
				src.seeker, src.start, src.plain = rs, start, nil
				if err := src.rewind(); err != nil {
					return nil, err
				}
				if !src.strict {
					src.size = max(end-start, 0)
				}
				return src, nil
			}
		}
	}
	if src.strict {
		return src, nil
	}
	switch r := r.(type) {
	case interface{ Len() int }:
		src.size = int64(r.Len())
	case interface{ Stat() (fs.FileInfo, error) }:
		// An fs.File that cannot seek (a zip entry, say) is taken as unread.
		if st, err := r.Stat(); err == nil && st.Mode().IsRegular() {
			src.size = st.Size()
		}
	}
	return src, nil
}

// replayable reports whether each attempt can read the content again.
func (s *uploadSource) replayable() bool { return s.at != nil || s.seeker != nil }

// sniff returns up to the first 512 bytes of the content, leaving the
// content to be read from its start.
func (s *uploadSource) sniff(ctx context.Context) ([]byte, error) {
	buf := make([]byte, sniffLen)
	if s.size >= 0 && s.size < sniffLen {
		buf = buf[:s.size]
	}
	var r pumpResult
	switch {
	case s.at != nil:
		r.n, r.err = s.at.ReadAt(buf, 0)
	case s.seeker != nil:
		r.n, r.err = io.ReadFull(s.seeker, buf)
	default:
		// The caller's reader may block: wait for it only as long as the
		// context lasts (its end closes the reader, see abort; a reader
		// that cannot be closed is left to its read).
		ch := make(chan pumpResult, 1)
		go func() {
			n, err := io.ReadFull(s.plain, buf)
			ch <- pumpResult{n, err}
		}()
		select {
		case r = <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if r.err != nil && !errors.Is(r.err, io.EOF) && !errors.Is(r.err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("workflow: upload: reading content: %w", r.err)
	}
	switch {
	case s.seeker != nil:
		if err := s.rewind(); err != nil {
			return nil, err
		}
	case s.at == nil:
		s.plain = io.MultiReader(bytes.NewReader(buf[:r.n]), s.plain)
	}
	return buf[:r.n], nil
}

// rewind seeks the caller's reader back to where the upload started.
func (s *uploadSource) rewind() error {
	if _, err := s.seeker.Seek(s.start, io.SeekStart); err != nil {
		return fmt.Errorf("workflow: upload: rewinding the reader: %w", err)
	}
	return nil
}

// open returns the content for a new attempt, rewound to its start. An
// earlier attempt's content stops reading.
func (s *uploadSource) open() (io.Reader, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.over.Load() {
		return nil, errUploadOver
	}
	s.attempt++
	s.err = nil
	c := &contentReader{src: s, attempt: s.attempt}
	switch {
	case s.at != nil:
		c.r = io.NewSectionReader(s.at, 0, s.size)
	case s.seeker != nil:
		if s.attempt > 1 {
			if err := s.rewind(); err != nil {
				return nil, err
			}
		}
		c.r = s.seeker
	default:
		if s.attempt > 1 {
			return nil, errors.New("workflow: upload: a plain io.Reader cannot be sent twice")
		}
		c.r = s.plain
	}
	return c, nil
}

// finish ends the upload: from now on no body reads the caller's reader,
// even one the transport is still holding. It returns the size of the
// content (known in advance, or what the latest attempt read) and why the
// last attempt's content failed, if it did.
func (s *uploadSource) finish() (sent int64, err error) {
	s.over.Store(true)
	s.endReads()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.size >= 0 {
		return s.size, s.err
	}
	return s.lastSent, s.err
}

// contentReader is one attempt's view of the content. It enforces the size:
// exactly size bytes when known (the caller's announced size is checked
// against the reader's end), at most MaxUploadSize when not.
type contentReader struct {
	src     *uploadSource
	attempt int
	r       io.Reader
	sent    int64
	err     error // sticky: once failed, every read fails the same way
}

func (c *contentReader) Read(p []byte) (int, error) {
	s := c.src
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := c.read(p)
	if c.attempt == s.attempt {
		s.lastSent = c.sent
	}
	if n > 0 && s.progress != nil {
		// Under the lock: calls are never concurrent, and none comes
		// after Upload has returned.
		s.progress(c.sent, s.size)
	}
	return n, err
}

// read does Read's work with src.mu held.
func (c *contentReader) read(p []byte) (int, error) {
	s := c.src
	switch {
	case c.err != nil:
		return 0, c.err
	case s.over.Load():
		return 0, errUploadOver
	case c.attempt != s.attempt:
		return 0, errUploadRetried
	}
	limit := s.size
	if limit < 0 {
		limit = MaxUploadSize
	}
	n, err := 0, error(nil)
	if c.sent >= limit {
		if s.size >= 0 && !s.strict {
			return 0, io.EOF // the size came from the reader itself
		}
		// Is there more than the limit? Probe for one more byte, as any
		// read is: a read that blocks still ends with the upload. The
		// probe's end (io.EOF) or failure is handled below, as a read's.
		var one [1]byte
		for n == 0 && err == nil {
			n, err = s.readAbortable(c.r, one[:])
		}
		switch {
		case n > 0 && s.size < 0:
			return 0, c.fail(fmt.Errorf("%w: upload content is over the %d-byte limit; the request was cut off there",
				ErrTooLarge, MaxUploadSize))
		case n > 0:
			return 0, c.fail(fmt.Errorf("%w: upload content is longer than UploadOptions.Size (%d bytes)", ErrTooLarge, s.size))
		}
	} else {
		if rest := limit - c.sent; int64(len(p)) > rest {
			p = p[:rest]
		}
		n, err = s.readAbortable(c.r, p)
		c.sent += int64(n)
	}
	switch {
	case err == nil:
		return n, nil
	case errors.Is(err, io.EOF):
		if s.size >= 0 && c.sent < s.size {
			return n, c.fail(fmt.Errorf("workflow: upload: content ended after %d of %d bytes: %w",
				c.sent, s.size, io.ErrUnexpectedEOF))
		}
		return n, io.EOF
	default:
		return n, c.fail(fmt.Errorf("workflow: upload: reading content: %w", err))
	}
}

// fail records err as this attempt's failure (and the upload's, if this is
// still the current attempt).
func (c *contentReader) fail(err error) error {
	c.err = err
	if c.attempt == c.src.attempt && c.src.err == nil {
		c.src.err = err
	}
	return err
}

// uploadFrame is the multipart framing around the content.
type uploadFrame struct {
	contentType string // of the request: multipart/form-data with the boundary
	head, tail  []byte
	carried     []string // the file name and description, for redaction
}

// newUploadFrame builds the head (optional "description" part, then the
// headers of the "file" part) and the tail of the multipart body. The
// multipart writer writes into a bytes.Buffer, which takes every write,
// so its errors are always nil.
func newUploadFrame(name, mediaType, description string) *uploadFrame {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if description != "" {
		_ = mw.WriteField("description", description)
	}
	h := make(textproto.MIMEHeader, 2)
	h.Set("Content-Disposition", multipart.FileContentDisposition("file", name))
	h.Set("Content-Type", mediaType)
	_, _ = mw.CreatePart(h)
	head := bytes.Clone(buf.Bytes())
	buf.Reset()
	_ = mw.Close()
	return &uploadFrame{contentType: mw.FormDataContentType(), head: head, tail: bytes.Clone(buf.Bytes()),
		carried: []string{name, description}}
}

// body returns one attempt's request body: head, content, tail.
func (f *uploadFrame) body(src *uploadSource) (io.ReadCloser, error) {
	content, err := src.open()
	if err != nil {
		return nil, err
	}
	return framedBody{io.MultiReader(bytes.NewReader(f.head), content, bytes.NewReader(f.tail)), f}, nil
}

// framedBody is one attempt's request body. It says what its frame
// carries, so that an error's text leaves out the file name and the
// description (sentValues), which a multipart body is not read again for.
type framedBody struct {
	io.Reader
	frame *uploadFrame
}

// Close does nothing: the source is closed by the upload (endReads).
func (framedBody) Close() error { return nil }

func (b framedBody) carries() []string { return b.frame.carried }

// checkFileName rejects names that cannot go into the part's header.
func checkFileName(field, name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return invalid(field, "must be a file name")
	case strings.ContainsAny(name, `/\`):
		return invalid(field, `must be a file name without "/" or "\" (the service keeps no folders; pass the path's last element)`)
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return invalid(field, "must not contain control characters")
	}
	return nil
}

// mediaTypeOf chooses the file part's media type: the caller's, else the
// one of the name's extension, else the one the first 512 bytes look like,
// else application/octet-stream.
func mediaTypeOf(ctx context.Context, name, given string, src *uploadSource) (string, error) {
	if given != "" {
		return given, nil
	}
	if mt := mime.TypeByExtension(filepath.Ext(name)); mt != "" {
		return mt, nil
	}
	peek, err := src.sniff(ctx)
	if err != nil {
		return "", err
	}
	if len(peek) == 0 {
		return "application/octet-stream", nil
	}
	return http.DetectContentType(peek), nil
}

// tooLarge is the error for content whose known size is over the limit.
func tooLarge(size int64) error {
	return &ValidationError{
		Field: "file",
		Rule:  fmt.Sprintf("must be at most %d bytes (got %d)", MaxUploadSize, size),
		Err:   ErrTooLarge,
	}
}

// upload sends the content of src as the file part of a multipart POST to
// r and decodes the attachment of the answer.
func (s *AttachmentsService) upload(ctx context.Context, r target, name string, src *uploadSource, o *UploadOptions, reqOpts []RequestOption) (_ *Attachment, err error) {
	if src.size > MaxUploadSize {
		return nil, tooLarge(src.size)
	}
	req, err := s.client.newRequest(ctx, r, nil, nil) // its body is set below
	if err != nil {
		return nil, err
	}
	// When the context ends, the upload stops reading at once and closes
	// the caller's reader if it is an io.Closer: a read blocked in it
	// (a pipe, a socket) would otherwise keep Upload from returning.
	stop := context.AfterFunc(ctx, src.abort)
	defer func() {
		stop()
		defer src.endReads()
		if ctxErr := ctx.Err(); ctxErr != nil {
			src.abort() // at once, not when the AfterFunc gets to run
			if err != nil && !errors.Is(err, ctxErr) {
				// The cause, whatever step noticed it (the abort may
				// fail the body first), named as every call names it.
				err = s.client.wrap(req, ctxErr)
			}
		}
	}()
	mt, err := mediaTypeOf(ctx, name, o.MediaType, src)
	if err != nil {
		return nil, err
	}
	frame := newUploadFrame(name, mt, o.Description)
	src.progress = o.Progress

	if req.Body, err = frame.body(src); err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", frame.contentType)
	req.ContentLength = -1 // chunked
	if src.size >= 0 {
		req.ContentLength = int64(len(frame.head)) + src.size + int64(len(frame.tail))
	}
	if src.replayable() {
		req.GetBody = func() (io.ReadCloser, error) { return frame.body(src) }
	}

	var out *Attachment
	_, err = s.client.send(req, reqOpts, optional(&out, "attachment"))
	if ctxErr := ctx.Err(); ctxErr != nil {
		// A read may still be blocked in the caller's reader, holding
		// the source: the deferred cleanup aborts it without waiting,
		// and names the context's end as the cause.
		if err == nil {
			err = s.client.wrap(req, ctxErr) // the answer came, too late
		}
		return nil, err
	}
	// When the content failed (too large, a read error, a size mismatch),
	// that is the cause, whatever the transport made of it.
	sent, contentErr := src.finish()
	if err := cmp.Or(contentErr, err); err != nil {
		return nil, err
	}
	if out == nil {
		// An answer without a body: what was sent, with no ID.
		return &Attachment{
			Name: name, Description: o.Description, MediaType: mt, Size: sent, State: AttachmentProcessing,
		}, nil
	}
	return out, nil
}

package workflow

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// ErrForeignHost is matched (errors.Is) by the *ValidationError of a
// download whose content URL is not on the API's own host. The SDK sends
// its bearer token only to that host, and does not fetch from anywhere
// else on its own: fetch such a URL with an http.Client of your choosing,
// if you trust it.
var ErrForeignHost = errors.New("workflow: URL is not on the API's host")

// Download is the content of an attachment as the service streams it: an
// io.ReadCloser over the response body, which is never held in memory.
// Read it to the end (or use SaveTo or SaveFile), then Close it; Close
// before the end stops the transfer.
//
// The request is retried (by the client's retry policy) only until the
// answer's headers arrive: once the body has started, nothing is sent
// again, and a broken transfer is an error of Read. For WithResponseInto
// and observers (Observer.CallEnd), the call ends when those headers
// arrive, before the content is read.
type Download struct {
	// Name is the file name of the Content-Disposition header (its last
	// path element only, so it never names a directory), empty when the
	// service sent none.
	Name string
	// MediaType is the Content-Type header as sent; the service publishes
	// "application/octet-stream" for every file, so the file's own type is
	// the Attachment's MediaType. Empty when the service sent none.
	MediaType string
	// Size is the Content-Length in bytes, or -1 when unknown (a chunked
	// answer, or one the transport decompressed).
	Size int64

	body io.ReadCloser
}

// Read reads the content.
func (d *Download) Read(p []byte) (int, error) { return d.body.Read(p) }

// Close ends the download; it stops the transfer if the content was not
// read to the end.
func (d *Download) Close() error { return d.body.Close() }

// SaveTo copies the content to w and closes d. progress, if not nil, is
// called after each chunk written, with the bytes written so far and Size
// (-1 when unknown), from the calling goroutine. It returns the number of
// bytes written. A transfer that ends before Size bytes is an error
// (io.ErrUnexpectedEOF).
func (d *Download) SaveTo(w io.Writer, progress func(written, total int64)) (int64, error) {
	defer d.Close()
	buf := make([]byte, 32<<10)
	var n int64
	for {
		m, rerr := d.body.Read(buf)
		if m > 0 {
			k, werr := w.Write(buf[:m])
			n += int64(k)
			if werr != nil || k < m {
				return n, cmp.Or(werr, io.ErrShortWrite)
			}
			if progress != nil {
				progress(n, d.Size)
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return n, fmt.Errorf("workflow: download: %w", rerr)
		}
	}
	if d.Size >= 0 && n != d.Size {
		return n, fmt.Errorf("workflow: download: %d of %d bytes: %w", n, d.Size, io.ErrUnexpectedEOF)
	}
	return n, nil
}

// SaveFile writes the content to the file at path and closes d, calling
// progress as SaveTo does. The content goes to a temporary file in the
// same directory (mode 0600, as os.CreateTemp makes it), which is renamed
// to path only once complete, replacing any file there: a failed download
// leaves no partial file at path.
func (d *Download) SaveFile(path string, progress func(written, total int64)) (int64, error) {
	if path == "" {
		d.Close()
		return 0, invalid("path", "must not be empty")
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.part")
	if err != nil {
		d.Close()
		return 0, err
	}
	n, err := d.SaveTo(f, progress)
	if err = cmp.Or(err, f.Close()); err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return n, err
}

// Download starts the download of a file attachment's content:
// GET /{recordType}/{alias}/{id}/attachments/{attachmentId}/content
// (200, application/octet-stream). The caller must Close the returned
// Download. See Download for retries; DownloadAttachment follows an
// attachment's ContentURL instead.
func (s *AttachmentsService) Download(ctx context.Context, t RecordType, alias, id, attachmentID string, reqOpts ...RequestOption) (*Download, error) {
	return s.client.download(ctx, attachmentPath(op.DownloadRecordAttachment, t, alias, id, attachmentID), nil, reqOpts)
}

// DownloadAttachment starts the download of att's content from
// att.ContentURL, the path the service gives for it (for example
// "/v1/apps/ns/REC-001/attachments/abc/content"), resolved against the
// API's base URL: a path starting with "/" is taken on the API's host.
// When att.ContentURL is empty it downloads from the default path of
// att.ID, as Download does with t, alias and id (GET
// /{recordType}/{alias}/{id}/attachments/{attachmentId}/content).
//
// A ContentURL that is an absolute URL on another host (or another scheme
// or port) is refused with a *ValidationError matching ErrForeignHost,
// and nothing is sent: the bearer token goes only to the API's host, and
// the SDK does not fetch from a host the caller has not chosen. The
// error does not repeat the URL's query, which may hold a signature.
func (s *AttachmentsService) DownloadAttachment(ctx context.Context, t RecordType, alias, id string, att *Attachment, reqOpts ...RequestOption) (*Download, error) {
	if att == nil {
		return nil, invalid("att", "must not be nil")
	}
	if att.ContentURL == "" {
		if att.ID == "" {
			return nil, invalid("Attachment.ID", "must not be empty when ContentURL is (an upload answered without a body has neither: find the attachment with List)")
		}
		return s.Download(ctx, t, alias, id, att.ID, reqOpts...)
	}
	contentURL, err := s.client.onAPIHost("Attachment.ContentURL", att.ContentURL)
	if err != nil {
		return nil, err
	}
	return s.client.download(ctx, target{op: op.DownloadRecordAttachment, method: http.MethodGet}, contentURL, reqOpts)
}

// onAPIHost resolves raw against the base URL and checks that the result
// is on the API's own origin (scheme, host and port).
func (c *Client) onAPIHost(field, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, invalid(field, "must be a URL or a path, and does not parse as one") // url.Parse's error quotes the URL
	}
	if u.User != nil {
		return nil, &ValidationError{Field: field, Rule: "must not carry user information", Err: ErrForeignHost}
	}
	abs := c.baseURL.ResolveReference(u)
	abs.Fragment, abs.RawFragment = "", ""
	if abs.Scheme != c.baseURL.Scheme || !strings.EqualFold(abs.Host, c.baseURL.Host) {
		return nil, &ValidationError{
			Field: field,
			Rule:  "must be on the API's host " + c.baseURL.Scheme + "://" + c.baseURL.Host + " (got " + abs.Scheme + "://" + abs.Host + ")",
			Err:   ErrForeignHost,
		}
	}
	return abs, nil
}

// download sends the request of r (to u instead of r's path, when u is
// not nil) through the one request path and returns the body unread, as a
// Download. As with Client.Do, an error status is an *APIError with known
// secrets removed, and the call ends for the observers and
// WithResponseInto when the response headers arrive.
func (c *Client) download(ctx context.Context, r target, u *url.URL, reqOpts []RequestOption) (*Download, error) {
	if r.err != nil {
		return nil, r.err
	}
	req, err := c.newRequest(ctx, r, nil, nil)
	if err != nil {
		return nil, err
	}
	if u != nil {
		req.URL, req.Host = u, u.Host
	}
	req.Header.Set("Accept", "*/*")
	var d *Download
	_, err = c.send(req, reqOpts, reply{stream: func(resp *http.Response) error {
		if resp.StatusCode == http.StatusNoContent {
			return fmt.Errorf("%w: 204 where the content was expected", errMalformed)
		}
		d = &Download{MediaType: resp.Header.Get("Content-Type"), Size: resp.ContentLength, body: resp.Body}
		if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
			d.Name = baseName(params["filename"])
		}
		return nil
	}})
	return d, err
}

// baseName returns the last element of a file name that may carry a
// path (with "/" or "\"), or "" for none, "." or "..".
func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if name == "." || name == ".." {
		return ""
	}
	return name
}

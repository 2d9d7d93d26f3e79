package workflow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contentServer is an API test server whose handler sees every request
// under /v1 (path and Authorization recorded).
type contentServer struct {
	mu    sync.Mutex
	paths []string
	auths []string
}

func (s *contentServer) record(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.paths = append(s.paths, r.URL.Path)
	s.auths = append(s.auths, r.Header.Get("Authorization"))
}

func (s *contentServer) seen() ([]string, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...), append([]string(nil), s.auths...)
}

func TestDownloadHeaders(t *testing.T) {
	content := bytes.Repeat([]byte("0123456789"), 1000)
	for _, tc := range []struct {
		name, disposition, wantName string
	}{
		{"plain file name", `attachment; filename="report.pdf"`, "report.pdf"},
		{"RFC 5987 name", `attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`, "résumé.pdf"},
		{"a path is cut to its last element", `attachment; filename="../../etc/passwd"`, "passwd"},
		{"windows path", `attachment; filename="C:\\temp\\a.txt"`, "a.txt"},
		{"dot dot", `attachment; filename=".."`, ""},
		{"no header", "", ""},
		{"malformed header", `attachment; filename="unterminated`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				assert.Equal(t, "/tasks/it/1/attachments/a%3F1/content", r.URL.EscapedPath())
				assert.Equal(t, "Bearer "+testToken, r.Header.Get("Authorization"))
				if tc.disposition != "" {
					w.Header().Set("Content-Disposition", tc.disposition)
				}
				w.Header().Set("Content-Type", "application/pdf")
				w.Header().Set("Content-Length", strconv.Itoa(len(content)))
				_, _ = w.Write(content)
			}))
			dl, err := c.Attachments.Download(t.Context(), Tasks, "it", "1", "a?1")
			require.NoError(t, err)
			defer dl.Close()
			assert.Equal(t, tc.wantName, dl.Name)
			assert.Equal(t, "application/pdf", dl.MediaType)
			assert.Equal(t, int64(len(content)), dl.Size)
			got, err := io.ReadAll(dl)
			require.NoError(t, err)
			assert.Equal(t, content, got)
		})
	}
}

func TestDownloadUnknownSizeAndErrors(t *testing.T) {
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/tasks/it/1/attachments/chunked/content":
			w.Header().Set("Content-Type", "application/octet-stream")
			_, _ = w.Write([]byte("part one, "))
			w.(http.Flusher).Flush()
			_, _ = w.Write([]byte("part two"))
		case "/tasks/it/1/attachments/empty/content":
			w.WriteHeader(http.StatusNoContent)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message":"no such attachment"}`))
		}
	}))
	dl, err := c.Attachments.Download(t.Context(), Tasks, "it", "1", "chunked")
	require.NoError(t, err)
	var got []int64
	var buf bytes.Buffer
	n, err := dl.SaveTo(&buf, func(written, total int64) {
		assert.Equal(t, int64(-1), total)
		got = append(got, written)
	})
	require.NoError(t, err)
	assert.Equal(t, "part one, part two", buf.String())
	assert.Equal(t, int64(18), n)
	require.NotEmpty(t, got)
	assert.Equal(t, int64(18), got[len(got)-1])

	_, err = c.Attachments.Download(t.Context(), Tasks, "it", "1", "empty")
	assert.ErrorIs(t, err, errMalformed)
	_, err = c.Attachments.Download(t.Context(), Tasks, "it", "1", "gone")
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorContains(t, err, "no such attachment")
}

// TestDownloadRetriesOnlyBeforeTheBody: a 503 before the answer is
// retried; a connection lost in the middle of the body is an error of
// Read, and nothing is sent again.
func TestDownloadRetriesOnlyBeforeTheBody(t *testing.T) {
	var cs contentServer
	c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.record(r)
		if n, _ := cs.seen(); len(n) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Length", "1000")
		_, _ = w.Write(make([]byte, 100))
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection drops mid-body
	}))
	dl, err := c.Attachments.Download(t.Context(), Tasks, "it", "1", "a1")
	require.NoError(t, err, "the 503 was retried")
	n, err := dl.SaveTo(io.Discard, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, int64(100), n)
	paths, _ := cs.seen()
	assert.Len(t, paths, 2, "no request after the body started")
}

// TestDownloadAttachmentFollowsContentURL: a content URL on the API's host
// is followed with the bearer; one elsewhere is refused before anything is
// sent, and the other host sees nothing, not even through a redirect.
func TestDownloadAttachmentFollowsContentURL(t *testing.T) {
	var foreignHits int
	var fmu sync.Mutex
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmu.Lock()
		foreignHits++
		fmu.Unlock()
		_, _ = w.Write([]byte("foreign"))
	}))
	defer foreign.Close()

	var cs contentServer
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.record(r)
		if r.URL.Path == "/redirect/content" {
			http.Redirect(w, r, foreign.URL+"/x", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("content of " + r.URL.Path))
	}))
	c := ts.client(t)
	ctx := t.Context()

	for _, tc := range []struct {
		name, contentURL, id, wantPath string
	}{
		{"the default path", "", "a1", "/tasks/it/1/attachments/a1/content"},
		{"a path on the API host", "/v1/files/abc-123/content", "a1", "/files/abc-123/content"},
		{"an absolute URL on the API host", ts.URL + "/v1/apps/ns/REC-001/attachments/abc/content", "", "/apps/ns/REC-001/attachments/abc/content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dl, err := c.Attachments.DownloadAttachment(ctx, Tasks, "it", "1", &Attachment{ID: tc.id, ContentURL: tc.contentURL})
			require.NoError(t, err)
			b, err := io.ReadAll(dl)
			require.NoError(t, err)
			require.NoError(t, dl.Close())
			assert.Equal(t, "content of "+tc.wantPath, string(b))
			paths, auths := cs.seen()
			assert.Equal(t, tc.wantPath, paths[len(paths)-1])
			assert.Equal(t, "Bearer "+testToken, auths[len(auths)-1])
		})
	}

	before, _ := cs.seen()
	for _, bad := range []string{
		foreign.URL + "/content?sig=SECRET-SIGNATURE",
		strings.Replace(ts.URL, "http://", "https://", 1) + "/v1/a/content", // another scheme
		"//" + strings.TrimPrefix(foreign.URL, "http://") + "/a",            // scheme-relative, another host
		"http://user:pw@" + strings.TrimPrefix(ts.URL, "http://") + "/v1/a", // user information
	} {
		_, err := c.Attachments.DownloadAttachment(ctx, Tasks, "it", "1", &Attachment{ID: "a1", ContentURL: bad})
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, bad)
		assert.Equal(t, "Attachment.ContentURL", ve.Field)
		assert.ErrorIs(t, err, ErrForeignHost)
		assert.NotContains(t, err.Error(), "SECRET")
		assert.NotContains(t, err.Error(), "pw")
	}
	after, _ := cs.seen()
	assert.Equal(t, before, after, "nothing was sent for a refused URL")

	// A redirect to another host is not followed: the bearer stays home.
	_, err := c.Attachments.DownloadAttachment(ctx, Tasks, "it", "1", &Attachment{ContentURL: "/v1/redirect/content"})
	var re *RedirectError
	require.ErrorAs(t, err, &re)
	fmu.Lock()
	defer fmu.Unlock()
	assert.Zero(t, foreignHits)
}

func TestDownloadSaveFile(t *testing.T) {
	content := bytes.Repeat([]byte("abc"), 50_000)
	c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(content)))
		if strings.Contains(r.URL.Path, "broken") {
			_, _ = w.Write(content[:1000])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		_, _ = w.Write(content)
	}))
	dir := t.TempDir()
	path := filepath.Join(dir, "out.bin")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))

	dl, err := c.Attachments.Download(t.Context(), Tasks, "it", "1", "broken")
	require.NoError(t, err)
	_, err = dl.SaveFile(path, nil)
	require.Error(t, err)
	old, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old", string(old), "a failed download leaves the file as it was")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "and no partial file behind")

	dl, err = c.Attachments.Download(t.Context(), Tasks, "it", "1", "good")
	require.NoError(t, err)
	n, err := dl.SaveFile(path, nil)
	require.NoError(t, err)
	assert.Equal(t, int64(len(content)), n)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, content, got)
	entries, _ = os.ReadDir(dir)
	assert.Len(t, entries, 1)
}

// TestDownloadStreams: a 64 MiB download allocates a small fraction of its
// size: the body is never held in memory.
func TestDownloadStreams(t *testing.T) {
	const size = 64 << 20
	chunk := make([]byte, 1<<20)
	c := newServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(size))
		for range size / len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	dl, err := c.Attachments.Download(t.Context(), Tasks, "it", "1", "big")
	require.NoError(t, err)
	n, err := dl.SaveTo(io.Discard, nil)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, int64(size), n)
	// The server's own writes allocate nothing per chunk; the bound is
	// far below the content's size.
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(size/8), "bytes allocated during the download")
}

// TestDownloadGoesThroughTheOneRequestPath: a download's error answer is
// redacted like any other call's, and WithResponseInto sees its response.
func TestDownloadGoesThroughTheOneRequestPath(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
	}{
		{"error status echoing the token", http.StatusForbidden},
		{"204 without content", http.StatusNoContent},
		{"content", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Request-Id", "rq-7")
				w.WriteHeader(tc.status)
				if tc.status >= 400 {
					_, _ = fmt.Fprintf(w, `{"message":"token %s refused"}`, r.Header.Get("Authorization"))
				} else if tc.status == http.StatusOK {
					_, _ = w.Write([]byte("content"))
				}
			}))
			var resp Response
			d, err := c.Attachments.Download(t.Context(), RecordType("tasks"), "it", "1", "a1", WithResponseInto(&resp))
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, "rq-7", resp.RequestID)
			assert.Equal(t, 1, resp.Attempts)
			switch tc.status {
			case http.StatusOK:
				require.NoError(t, err)
				require.NoError(t, d.Close())
			case http.StatusNoContent:
				require.ErrorIs(t, err, ErrUnexpectedResponse)
				assert.Contains(t, err.Error(), "GET ")
				assert.Contains(t, err.Error(), "/attachments/a1/content")
			default:
				var ae *APIError
				require.ErrorAs(t, err, &ae)
				assert.Contains(t, ae.Message, "token Bearer "+redacted)
				assert.NotContains(t, string(ae.Body), testToken)
				assert.NotContains(t, err.Error(), testToken)
			}
		})
	}
}

// TestDownloadAttachmentQueryKeyOfBoth: a WithQuery key that the
// ContentURL's own query already has is refused before sending, never
// sent twice.
func TestDownloadAttachmentQueryKeyOfBoth(t *testing.T) {
	var sent []string
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent = append(sent, r.URL.RawQuery)
		_, _ = w.Write([]byte("content"))
	}))
	att := &Attachment{ID: "a1", ContentURL: "/v1/tasks/it/1/attachments/a1/content?sig=s3cr3t&v=1"}
	_, err := c.Attachments.DownloadAttachment(t.Context(), Tasks, "it", "1", att, WithQuery("v", "2"))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, `WithQuery("v")`, ve.Field)
	assert.NotContains(t, err.Error(), "s3cr3t")
	assert.Empty(t, sent)

	d, err := c.Attachments.DownloadAttachment(t.Context(), Tasks, "it", "1", att, WithQuery("w", "2"))
	require.NoError(t, err)
	require.NoError(t, d.Close())
	assert.Equal(t, []string{"sig=s3cr3t&v=1&w=2"}, sent)
}

// TestDownloadWire: every download method sends its exact request (see checkWire).
func TestDownloadWire(t *testing.T) {
	checkWire(t, []wireCase{
		{name: "Attachments.Download", method: "GET", path: wireRec + "/attachments/" + oddEsc + "/content", accept: "*/*",
			reply: func(mockCall) *http.Response {
				r := mockResponse(200, "file bytes")
				r.Header.Set("Content-Type", "application/octet-stream")
				return r
			},
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				dl, err := c.Attachments.Download(ctx, Tasks, "it-requests", odd, odd, o...)
				if err != nil {
					return err
				}
				_, err = io.Copy(io.Discard, dl)
				return errors.Join(err, dl.Close())
			}},
		{name: "Attachments.DownloadAttachment", method: "GET", path: "/tasks/it-requests/R%201/attachments/a%2F1/content", accept: "*/*",
			query: url.Values{"sig": {"s 1"}},
			reply: func(mockCall) *http.Response {
				r := mockResponse(200, "file bytes")
				r.Header.Set("Content-Type", "application/octet-stream")
				return r
			},
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				dl, err := c.Attachments.DownloadAttachment(ctx, Tasks, "it-requests", "R 1",
					&Attachment{ID: "a/1", ContentURL: "/v1/tasks/it-requests/R%201/attachments/a%2F1/content?sig=s+1"}, o...)
				if err != nil {
					return err
				}
				_, err = io.Copy(io.Discard, dl)
				return errors.Join(err, dl.Close())
			}},

		// Users.
	})
}

// countedBody is a download body that counts its Close calls.
type countedBody struct {
	io.Reader
	closed int
}

func (c *countedBody) Close() error { c.closed++; return nil }

// writerFunc is an io.Writer of a function.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestDownloadSaveFailures: SaveTo reports a failed or short write, and a
// failed read wrapped, with the bytes written so far; SaveFile refuses an
// empty path and reports a file it cannot create. Each closes the body.
func TestDownloadSaveFailures(t *testing.T) {
	boom := errors.New("disk full")
	lost := errors.New("connection reset")
	tests := []struct {
		name  string
		body  io.Reader
		save  func(d *Download) (int64, error)
		n     int64
		is    error
		field string // a *ValidationError for this field
	}{
		{"write fails", strings.NewReader("abcdef"), func(d *Download) (int64, error) {
			return d.SaveTo(writerFunc(func(p []byte) (int, error) { return 2, boom }), nil)
		}, 2, boom, ""},
		{"short write", strings.NewReader("abcdef"), func(d *Download) (int64, error) {
			return d.SaveTo(writerFunc(func(p []byte) (int, error) { return len(p) - 1, nil }), nil)
		}, 5, io.ErrShortWrite, ""},
		{"read fails", io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(lost)), func(d *Download) (int64, error) {
			return d.SaveTo(io.Discard, nil)
		}, 3, lost, ""},
		{"empty path", strings.NewReader("abc"), func(d *Download) (int64, error) { return d.SaveFile("", nil) }, 0, nil, "path"},
		{"no such directory", strings.NewReader("abc"), func(d *Download) (int64, error) {
			return d.SaveFile(filepath.Join(t.TempDir(), "missing", "out.bin"), nil)
		}, 0, fs.ErrNotExist, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := &countedBody{Reader: tc.body}
			n, err := tc.save(&Download{Size: -1, body: body})
			require.Error(t, err)
			assert.Equal(t, tc.n, n)
			if tc.field != "" {
				assert.Equal(t, tc.field, requireAs[*ValidationError](t, err).Field)
			} else {
				assert.ErrorIs(t, err, tc.is)
			}
			if errors.Is(err, lost) {
				assert.True(t, strings.HasPrefix(err.Error(), "workflow: download: "), err.Error())
			}
			assert.Equal(t, 1, body.closed, "the body is closed once")
		})
	}
}

package workflowtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/testperf"
)

// upload sends the spec's multipart upload by hand: a "file" part and an
// optional "description" part.
func (a *api) upload(path, name string, content io.Reader, description string) *result {
	a.t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := func() error {
			if description != "" {
				if err := mw.WriteField("description", description); err != nil {
					return err
				}
			}
			fw, err := mw.CreateFormFile("file", name)
			if err != nil {
				return err
			}
			if _, err := io.Copy(fw, content); err != nil {
				return err
			}
			return mw.Close()
		}()
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequestWithContext(a.t.Context(), http.MethodPost, a.srv.BaseURL()+path, pr)
	require.NoError(a.t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+a.token)
	return a.send(req)
}

// rawUpload sends a ready-made multipart body.
func (a *api) rawUpload(path, contentType string, body []byte) *result {
	a.t.Helper()
	req, err := http.NewRequestWithContext(a.t.Context(), http.MethodPost, a.srv.BaseURL()+path, bytes.NewReader(body))
	require.NoError(a.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	return a.send(req)
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

type attachmentWire struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	MediaType   string `json:"mediaType"`
	Size        int64  `json:"size"`
	State       string `json:"state"`
	CreatedAt   string `json:"createdAt"`
	ContentURL  string `json:"contentUrl"`
	ViewState   string `json:"viewState"`
}

// TestUploadCurlFlow is the spec's upload, done by hand.
func TestUploadCurlFlow(t *testing.T) {
	a := newAPI(t, WithClock(fixedClock()))
	seedTasks(a.srv, 1)
	content := bytes.Repeat([]byte("report "), 1000)
	res := a.upload("/tasks/it/1/attachments", "report.pdf", bytes.NewReader(content), "Q3")
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	var att attachmentWire
	res.decode(&att)
	assert.Equal(t, attachmentWire{
		ID: "a1", Name: "report.pdf", Description: "Q3", MediaType: "application/pdf",
		Size: int64(len(content)), State: "PROCESSING", CreatedAt: "2024-03-01T09:00:00.000Z",
		ContentURL: "/v1/tasks/it/1/attachments/a1/content", ViewState: "PRIVATE",
	}, att)

	infos := a.srv.Attachments(workflow.Tasks, "it", "1")
	require.Len(t, infos, 1)
	assert.Equal(t, sha(content), infos[0].SHA256)
	assert.Equal(t, int64(len(content)), infos[0].Size)

	// The default policy: ready at the next read.
	res = a.get("/tasks/it/1/attachments/a1")
	require.Equal(t, http.StatusOK, res.status)
	res.decode(&att)
	assert.Equal(t, "VALID", att.State)

	var all []attachmentWire
	res = a.get("/tasks/it/1/attachments")
	require.Equal(t, http.StatusOK, res.status)
	res.decode(&all)
	require.Len(t, all, 1)
	assert.Equal(t, att, all[0])

	// The content, at contentUrl: the uploaded bytes as
	// application/octet-stream (as published), their length and name.
	res = a.get(strings.TrimPrefix(att.ContentURL, "/v1"))
	require.Equal(t, http.StatusOK, res.status)
	assert.Equal(t, content, res.body)
	assert.Equal(t, "application/octet-stream", res.header.Get("Content-Type"))
	assert.Equal(t, strconv.Itoa(len(content)), res.header.Get("Content-Length"))
	assert.Equal(t, `attachment; filename=report.pdf`, res.header.Get("Content-Disposition"))

	del := a.do(http.MethodDelete, "/tasks/it/1/attachments/a1", nil)
	require.Equal(t, http.StatusOK, del.status)
	assert.Empty(t, del.body)
	expectError(t, a.get("/tasks/it/1/attachments/a1"), 404)
	expectError(t, a.do(http.MethodDelete, "/tasks/it/1/attachments/a1", nil), 404)
	res = a.get("/tasks/it/1/attachments")
	res.decode(&all)
	assert.Empty(t, all)
	assert.Equal(t, "[]\n", string(res.body), "an empty list is an empty array")
}

func TestUploadMediaType(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	// A part with its own Content-Type keeps it.
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="notes"`)
	h.Set("Content-Type", "text/plain; charset=utf-8")
	w, err := mw.CreatePart(h)
	require.NoError(t, err)
	_, _ = w.Write([]byte("hello"))
	require.NoError(t, mw.Close())
	res := a.rawUpload("/tasks/it/1/attachments", mw.FormDataContentType(), buf.Bytes())
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	var att attachmentWire
	res.decode(&att)
	assert.Equal(t, "text/plain; charset=utf-8", att.MediaType)
	assert.Equal(t, "notes", att.Name)

	// No type and an unknown extension: application/octet-stream.
	res = a.upload("/tasks/it/1/attachments", "blob.zzz-unknown", bytes.NewReader([]byte{1, 2}), "")
	res.decode(&att)
	assert.Equal(t, "application/octet-stream", att.MediaType)
	assert.Equal(t, "a2", att.ID)
}

func TestUploadErrors(t *testing.T) {
	a := newAPI(t, WithMaxUploadSize(1000))
	seedTasks(a.srv, 1)
	other := a.srv.AddUser("d@example.com", "D", "D")
	a.srv.Deny(other.UserID, workflow.Tasks, "it")

	multi := func(parts func(*multipart.Writer)) (string, []byte) {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		parts(mw)
		require.NoError(t, mw.Close())
		return mw.FormDataContentType(), buf.Bytes()
	}
	noFile, noFileBody := multi(func(mw *multipart.Writer) { _ = mw.WriteField("description", "d") })
	empty, emptyBody := multi(func(mw *multipart.Writer) { _, _ = mw.CreateFormFile("file", "e.txt") })
	noName, noNameBody := multi(func(mw *multipart.Writer) {
		w, _ := mw.CreateFormField("file")
		_, _ = w.Write([]byte("x"))
	})
	withName := func(name string) (string, []byte) {
		return multi(func(mw *multipart.Writer) {
			w, _ := mw.CreateFormFile("file", name)
			_, _ = w.Write([]byte("x"))
		})
	}
	slash, slashBody := withName("a/b.txt")
	backslash, backslashBody := withName(`a\b.txt`)
	two, twoBody := multi(func(mw *multipart.Writer) {
		for range 2 {
			w, _ := mw.CreateFormFile("file", "f.txt")
			_, _ = w.Write([]byte("x"))
		}
	})

	tests := []struct {
		name        string
		contentType string
		body        []byte
		status      int
		msg         string
	}{
		{"no file part", noFile, noFileBody, 400, `part named "file" is required`},
		{"empty file", empty, emptyBody, 400, "empty"},
		{"file without a name", noName, noNameBody, 400, "no file name"},
		{"two files", two, twoBody, 400, "only one"},
		{"a path as the name", slash, slashBody, 400, `file name "a/b.txt" is a path`},
		{"a Windows path as the name", backslash, backslashBody, 400, `is a path`},
		{"not multipart", "application/json", []byte(`{}`), 400, "multipart/form-data"},
		{"no boundary", "multipart/form-data", []byte("x"), 400, "multipart/form-data"},
		{"truncated body", noFile, noFileBody[:len(noFileBody)-10], 400, "multipart"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a.t = t
			assert.Contains(t, expectError(t, a.rawUpload("/tasks/it/1/attachments", tc.contentType, tc.body), tc.status), tc.msg)
		})
	}
	a.t = t

	assert.Contains(t, expectError(t, a.upload("/tasks/it/1/attachments", "big.bin", bytes.NewReader(make([]byte, 1001)), ""), 413), "size limit")
	assert.Equal(t, 202, a.upload("/tasks/it/1/attachments", "ok.bin", bytes.NewReader(make([]byte, 1000)), "").status)
	expectError(t, a.upload("/tasks/it/9/attachments", "f.txt", bytes.NewReader([]byte("x")), ""), 404)
	expectError(t, a.as(other).upload("/tasks/it/1/attachments", "f.txt", bytes.NewReader([]byte("x")), ""), 403)
	b := &api{t: t, srv: a.srv}
	expectError(t, b.upload("/tasks/it/1/attachments", "f.txt", bytes.NewReader([]byte("x")), ""), 401)
	expectError(t, a.get("/tasks/it/1/attachments/a99"), 404)
	expectError(t, a.get("/tasks/it/9/attachments"), 404)
	expectError(t, a.as(other).get("/tasks/it/1/attachments"), 403)
	assert.Len(t, a.srv.Attachments(workflow.Tasks, "it", "1"), 1)
}

// TestUploadOverTheRealLimit sends 250 MB + 1 byte through the real limit
// (the limit's handling is tested with small limits in the default run):
// over 5 s under the race detector, so it runs with WORKFLOW_PERF=1.
func TestUploadOverTheRealLimit(t *testing.T) {
	testperf.Require(t)
	if testing.Short() {
		t.Skip("sends 250 MB")
	}
	a := newAPI(t)
	seedTasks(a.srv, 1)
	res := a.upload("/tasks/it/1/attachments", "huge.bin", io.LimitReader(zeros{}, maxUploadSize+1), "")
	assert.Contains(t, expectError(t, res, http.StatusRequestEntityTooLarge), "size limit")
	assert.Empty(t, a.srv.Attachments(workflow.Tasks, "it", "1"))
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestUploadIsKeptAndGivenBack: by default a 30 MB upload is kept whole
// and its download gives it back byte for byte, while the server holds it
// in a temporary file, not in memory: the upload allocates less than a
// fixed 12 MB (a buffered one would take at least 30 MB). Deleting the
// attachment removes the file, and closing the server the directory.
func TestUploadIsKeptAndGivenBack(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	const size = 30 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := a.upload("/tasks/it/1/attachments", "big.bin", io.LimitReader(&counting{}, size), "")
	runtime.ReadMemStats(&after)
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(12<<20), "bytes allocated during the upload")
	info := a.srv.Attachments(workflow.Tasks, "it", "1")[0]
	assert.Equal(t, int64(size), info.Size)
	assert.Len(t, spilled(a.srv), 1, "the upload is in a temporary file")

	got := a.get("/tasks/it/1/attachments/" + info.ID + "/content")
	require.Equal(t, http.StatusOK, got.status)
	assert.Equal(t, strconv.Itoa(size), got.header.Get("Content-Length"))
	want, err := io.ReadAll(io.LimitReader(&counting{}, size))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, got.body), "the download gives back the uploaded bytes")

	requireNoBody(t, a.do(http.MethodDelete, "/tasks/it/1/attachments/"+info.ID, nil), http.StatusOK)
	assert.Empty(t, spilled(a.srv), "deleting the attachment removes its file")

	res = a.upload("/tasks/it/1/attachments", "again.bin", io.LimitReader(&counting{}, 2<<20), "")
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	a.srv.Close()
	_, err = os.Stat(a.srv.files.dir)
	assert.ErrorIs(t, err, fs.ErrNotExist, "Close removes the temporary directory")
}

// TestSmallUploadsStayInMemory: a file of up to the spill threshold
// makes no temporary file, nor does Reset leave one behind.
func TestSmallUploadsStayInMemory(t *testing.T) {
	a := newAPI(t)
	a.srv.cfg.spillAt = 1 << 10
	seedTasks(a.srv, 1)
	res := a.upload("/tasks/it/1/attachments", "small.bin", io.LimitReader(&counting{}, 1<<10), "")
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	assert.Empty(t, a.srv.files.dir, "no temporary directory for a small file")
	res = a.upload("/tasks/it/1/attachments", "big.bin", io.LimitReader(&counting{}, 1<<10+1), "")
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	assert.Len(t, spilled(a.srv), 1)
	a.srv.Reset()
	assert.Empty(t, spilled(a.srv), "Reset removes the files of the attachments it forgets")
}

// TestUploadIsStreamed: a 32 MB upload over a lowered stored-content
// limit makes the server allocate less than a fixed 12 MB, and its
// download is refused as not kept, naming the option and the flag that
// set the limit.
func TestUploadIsStreamed(t *testing.T) {
	a := newAPI(t, WithStoredContentLimit(1<<20))
	seedTasks(a.srv, 1)
	const size = 32 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := a.upload("/tasks/it/1/attachments", "big.bin", io.LimitReader(zeros{}, size), "")
	runtime.ReadMemStats(&after)
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(12<<20), "bytes allocated during the upload")
	info := a.srv.Attachments(workflow.Tasks, "it", "1")[0]
	assert.Equal(t, int64(size), info.Size)
	assert.Equal(t, sha(make([]byte, size)), info.SHA256)
	msg := expectError(t, a.get("/tasks/it/1/attachments/"+info.ID+"/content"), 501)
	for _, want := range []string{"not kept", "limit of 1048576 bytes", "WithStoredContentLimit", "-stored-content-limit"} {
		assert.Contains(t, msg, want)
	}
	assert.Empty(t, spilled(a.srv), "no file is left of an upload over the limit")
}

// spilled lists the server's temporary files of uploads.
func spilled(srv *Server) []string {
	if srv.files.dir == "" {
		return nil
	}
	out, _ := filepath.Glob(filepath.Join(srv.files.dir, "*"))
	return out
}

// counting is an endless reader of the bytes 0, 1, ..., 250, 0, 1, ...
// (a period that no power of two divides, so that a block out of place
// shows).
type counting struct{ n int }

func (c *counting) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c.n % 251)
		c.n++
	}
	return len(p), nil
}

func TestAttachmentPolicies(t *testing.T) {
	state := func(a *api, id string) string {
		t.Helper()
		res := a.get("/tasks/it/1/attachments/" + id)
		require.Equal(t, http.StatusOK, res.status)
		var att attachmentWire
		res.decode(&att)
		return att.State
	}
	up := func(a *api) string {
		res := a.upload("/tasks/it/1/attachments", "f.txt", bytes.NewReader([]byte("x")), "")
		require.Equal(t, http.StatusAccepted, res.status)
		var att attachmentWire
		res.decode(&att)
		assert.Equal(t, "PROCESSING", att.State, "the 202 answer always says processing")
		return att.ID
	}

	t.Run("after polls", func(t *testing.T) {
		a := newAPI(t, WithAttachmentPolicy(ReadyAfterPolls(2)))
		seedTasks(a.srv, 1)
		id := up(a)
		// Listing is not a poll.
		a.get("/tasks/it/1/attachments")
		assert.Equal(t, "PROCESSING", state(a, id))
		assert.Equal(t, "PROCESSING", state(a, id))
		assert.Equal(t, "VALID", state(a, id))
		assert.Equal(t, "VALID", state(a, id))
	})
	t.Run("after a duration on the clock", func(t *testing.T) {
		a := newAPI(t, WithClock(fixedClock()), WithAttachmentPolicy(ReadyAfter(time.Minute)))
		seedTasks(a.srv, 1)
		id := up(a)
		assert.Equal(t, "PROCESSING", state(a, id))
		a.srv.Advance(59 * time.Second)
		assert.Equal(t, "PROCESSING", state(a, id))
		a.srv.Advance(time.Second)
		var all []attachmentWire
		a.get("/tasks/it/1/attachments").decode(&all)
		assert.Equal(t, "VALID", all[0].State, "the list shows the final state too")
	})
	t.Run("manual", func(t *testing.T) {
		a := newAPI(t, WithAttachmentPolicy(Manually()))
		seedTasks(a.srv, 1)
		id := up(a)
		for range 5 {
			assert.Equal(t, "PROCESSING", state(a, id))
		}
		assert.True(t, a.srv.SetAttachmentState(id, StateError))
		assert.Equal(t, "ERROR", state(a, id))
		assert.False(t, a.srv.SetAttachmentState("a99", StateValid))
	})
	t.Run("failing", func(t *testing.T) {
		a := newAPI(t, WithAttachmentPolicy(AttachmentPolicy{Polls: 1, FinalState: StateError}))
		seedTasks(a.srv, 1)
		id := up(a)
		assert.Equal(t, "PROCESSING", state(a, id))
		assert.Equal(t, "ERROR", state(a, id))
	})
}

func TestLinkAttachments(t *testing.T) {
	a := newAPI(t, WithClock(fixedClock()))
	seedTasks(a.srv, 1)
	res := a.do(http.MethodPost, "/tasks/it/1/attachments/url-links",
		map[string]string{"url": "https://example.com/spec", "description": "the spec"})
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	assert.JSONEq(t, `{"url":"https://example.com/spec","description":"the spec"}`, string(res.body))
	res = a.do(http.MethodPost, "/tasks/it/1/attachments/url-links", map[string]string{"url": "http://example.com/x"})
	require.Equal(t, http.StatusCreated, res.status)
	assert.JSONEq(t, `{"url":"http://example.com/x","description":""}`, string(res.body))
	assert.Equal(t, "http://example.com/x", a.srv.Attachments(workflow.Tasks, "it", "1")[1].URL)
	assert.Equal(t, "http://example.com/x", a.srv.Attachments(workflow.Tasks, "it", "1")[1].Name, "the name is the URL")

	other := a.srv.AddUser("d@example.com", "D", "D")
	a.srv.Deny(other.UserID, workflow.Tasks, "it")
	for _, body := range []any{
		map[string]string{"link": "https://example.com"},
		[]byte(`{"url": 5}`),
		[]byte(`{"url": null}`),
		[]byte(`{"url": "https://example.com", "description": null}`),
	} {
		expectError(t, a.do(http.MethodPost, "/tasks/it/1/attachments/url-links", body), 400)
	}
	// The fake's rule: a link is an absolute http or https URL.
	for _, u := range []string{"", "ftp://example.com", "/relative"} {
		assert.Contains(t, expectError(t, a.do(http.MethodPost, "/tasks/it/1/attachments/url-links", map[string]string{"url": u}), 422), "invalid /url")
	}
	link := map[string]string{"url": "https://example.com"}
	expectError(t, a.do(http.MethodPost, "/tasks/it/7/attachments/url-links", link), 404)
	expectError(t, a.as(other).do(http.MethodPost, "/tasks/it/1/attachments/url-links", link), 403)
	expectError(t, (&api{t: t, srv: a.srv}).do(http.MethodPost, "/tasks/it/1/attachments/url-links", link), 401)
	// An attachment is found only under its own record.
	a.srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "2"})
	expectError(t, a.get("/tasks/it/2/attachments/a1"), 404)
	expectError(t, a.get("/tasks/it/1/attachments/a1/content"), 404)
}

// TestProcessingErrorFault: the fault makes the one upload it hits end in
// ERROR (answered 202 PROCESSING as usual), and cannot be combined with
// effects that keep the request from being handled.
func TestProcessingErrorFault(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	in := a.srv.Inject(Fault{Route: "POST /v1/tasks/it/1/attachments", Count: 1, ProcessingError: true})
	res := a.upload("/tasks/it/1/attachments", "bad.txt", strings.NewReader("x"), "")
	require.Equal(t, http.StatusAccepted, res.status)
	res = a.upload("/tasks/it/1/attachments", "good.txt", strings.NewReader("y"), "")
	require.Equal(t, http.StatusAccepted, res.status)
	assert.Equal(t, 1, in.Fired())
	for id, want := range map[string]string{"a1": "ERROR", "a2": "VALID"} {
		var att attachmentWire
		a.get("/tasks/it/1/attachments/" + id).decode(&att)
		assert.Equal(t, want, att.State, id)
	}
	expectError(t, a.get("/tasks/it/1/attachments/a1/content"), http.StatusUnprocessableEntity)

	for _, f := range []Fault{
		{Route: "/v1/**", ProcessingError: true, Status: 500},
		{Route: "/v1/**", ProcessingError: true, Drop: true},
		{Route: "/v1/**", ProcessingError: true, DropAfter: true},
		{Route: "/v1/**", ProcessingError: true, Malformed: true},
	} {
		assert.Panics(t, func() { a.srv.Inject(f) }, "%+v", f)
	}
}

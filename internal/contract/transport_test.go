package contract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// roundTripFunc lets a function serve as the next transport.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingReader) Close() error { return nil }

func reply(req *http.Request, status int, contentType string, body io.ReadCloser) *http.Response {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	return &http.Response{StatusCode: status, Header: h, Body: body, Request: req}
}

func newRequest(t *testing.T, method, url string, body io.Reader, contentType string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, body)
	require.NoError(t, err)
	req.Header.Set("Authorization", bearer)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req
}

// bigUpload writes a multipart body whose file part holds size bytes,
// with the given part names before the file.
func bigUpload(size int, fileName string, before ...string) ([]byte, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, name := range before {
		_ = w.WriteField(name, "words")
	}
	fw, _ := w.CreateFormFile("file", fileName)
	_, _ = fw.Write(bytes.Repeat([]byte("0123456789abcdef"), size/16))
	_ = w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

// TestTransportLargeUploadIsStreamed sends uploads larger than the
// multipart limit: only the limit is read before sending, the server gets
// every byte, and the part headers in the first bytes are still checked.
func TestTransportLargeUploadIsStreamed(t *testing.T) {
	const limit = 4 << 10
	tests := []struct {
		name     string
		fileName string
		before   []string
		want     []string
	}{
		{name: "valid", fileName: "big.bin", before: []string{"description"}},
		{name: "file without a name", fileName: "", want: []string{`the "file" part has no filename`}},
		{name: "unpublished part", fileName: "big.bin", before: []string{"folder"}, want: []string{`part "folder" is not published`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body, ct := bigUpload(256<<10, tc.fileName, tc.before...)
			src := &countingReader{r: bytes.NewReader(body)}
			var readBeforeSend int64
			var received []byte
			next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				readBeforeSend = src.n.Load()
				b, err := io.ReadAll(r.Body)
				if err != nil {
					return nil, err
				}
				received = b
				return reply(r, 202, "", http.NoBody), nil
			})
			rec := &recorder{TB: t}
			v, err := New(WithMaxMultipart(limit))
			require.NoError(t, err)
			req := newRequest(t, "POST", "https://api.example.test/v1/apps/a/REC-1/attachments", src, ct)
			resp, err := v.Transport(rec, next).RoundTrip(req)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())

			assert.LessOrEqual(t, readBeforeSend, int64(limit+1), "at most the limit is held before sending")
			assert.True(t, bytes.Equal(body, received), "the server receives the whole upload (%d of %d bytes)", len(received), len(body))
			checkFindings(t, tc.want, rec.messages())
		})
	}
}

// TestTransportDoesNotReadDownloads: a body the document gives no schema
// is handed to the caller unread.
func TestTransportDoesNotReadDownloads(t *testing.T) {
	content := bytes.Repeat([]byte{0xff, 0x00}, 1<<15)
	body := &countingReader{r: bytes.NewReader(content)}
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return reply(r, 200, "application/octet-stream", body), nil
	})
	rec := &recorder{TB: t}
	req := newRequest(t, "GET", "https://api.example.test/v1/apps/a/REC-1/attachments/x/content", nil, "")
	resp, err := NewTransport(rec, next).RoundTrip(req)
	require.NoError(t, err)
	assert.Zero(t, body.n.Load(), "the download was read before the caller got it")
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(content, got))
	assert.Empty(t, rec.messages())
}

// TestTransportSendErrorStillChecksRequest: when sending fails, the
// request is still checked and the error reaches the caller unchanged.
func TestTransportSendErrorStillChecksRequest(t *testing.T) {
	sendErr := errors.New("connection refused")
	next := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, sendErr })
	rec := &recorder{TB: t}
	req := newRequest(t, "POST", "https://api.example.test/v1/apps/a/REC-1/watchers", strings.NewReader(`{"users":["x"]}`), "application/json")
	resp, err := NewTransport(rec, next).RoundTrip(req)
	require.ErrorIs(t, err, sendErr)
	assert.Nil(t, resp)
	checkFindings(t, []string{`at "/users/0"`}, rec.messages())
}

// brokenBody gives some bytes, then fails.
type brokenBody struct {
	data []byte
	err  error
}

func (b *brokenBody) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		return 0, b.err
	}
	n := copy(p, b.data)
	b.data = b.data[n:]
	return n, nil
}

func (b *brokenBody) Close() error { return nil }

// TestTransportBrokenReplyIsNotAFinding: a reply whose body cannot be
// read is the caller's to see (a dropped connection is not the
// contract's business), with the same bytes and the same error.
func TestTransportBrokenReplyIsNotAFinding(t *testing.T) {
	readErr := errors.New("connection reset")
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return reply(r, 200, "application/json", &brokenBody{data: []byte(`{"Title":`), err: readErr}), nil
	})
	rec := &recorder{TB: t}
	req := newRequest(t, "GET", "https://api.example.test/v1/apps/a/REC-1", nil, "")
	resp, err := NewTransport(rec, next).RoundTrip(req)
	require.NoError(t, err)
	got, err := io.ReadAll(resp.Body)
	assert.ErrorIs(t, err, readErr)
	assert.Equal(t, `{"Title":`, string(got))
	assert.Empty(t, rec.messages())
}

// TestFindingsNeverHoldSecrets: credentials and tokens that a request or
// a reply carries never appear in a finding, even where the validator's
// own message would quote them.
func TestFindingsNeverHoldSecrets(t *testing.T) {
	const token = "tok-123456"
	const issued = "issued-token-987654"
	tests := []struct {
		name   string
		req    func(t *testing.T) *http.Request
		status int
		ct     string
		body   string
	}{
		{
			name: "bearer token in a query value",
			req: func(t *testing.T) *http.Request {
				return newRequest(t, "GET", "https://api.example.test/v1/users?first="+token, nil, "")
			},
			status: 200, ct: "application/json", body: paged(userJSON),
		},
		{
			name: "bearer token in the path",
			req: func(t *testing.T) *http.Request {
				return newRequest(t, "GET", "https://api.example.test/v1/users/"+token+"/tokens", nil, "")
			},
			status: 200, ct: "application/json", body: userJSON,
		},
		{
			name: "client secret as a form field name",
			req: func(t *testing.T) *http.Request {
				r := newRequest(t, "POST", "https://auth.example.test/oauth/token", strings.NewReader("grant_type=client_credentials&s3cr3t-value=1"), "application/x-www-form-urlencoded")
				r.SetBasicAuth("fake-client", "s3cr3t-value")
				return r
			},
			status: 200, ct: "application/json", body: `{"access_token":"abc","expires_in":1,"token_type":"Bearer"}`,
		},
		{
			name: "issued token in a broken token reply",
			req: func(t *testing.T) *http.Request {
				r := newRequest(t, "POST", "https://auth.example.test/oauth/token", strings.NewReader("grant_type=client_credentials&client_secret=s3cr3t-value"), "application/x-www-form-urlencoded")
				r.SetBasicAuth("fake-client", "s3cr3t-value")
				return r
			},
			status: 200, ct: "application/json", body: `{"access_token":"` + issued + `","expires_in":"` + issued + `","token_type":{"t":"` + issued + `"}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				return reply(r, tc.status, tc.ct, io.NopCloser(strings.NewReader(tc.body))), nil
			})
			rec := &recorder{TB: t}
			resp, err := NewTransport(rec, next, WithStrictRequests()).RoundTrip(tc.req(t))
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())
			msgs := rec.messages()
			require.NotEmpty(t, msgs, "the exchange is wrong and must be reported")
			for _, m := range msgs {
				for _, secret := range []string{token, issued, "s3cr3t-value"} {
					assert.NotContains(t, m, secret)
				}
			}
		})
	}
}

func TestWithBases(t *testing.T) {
	v, err := New(WithBases("https://eu.example.test/api/v1/", "https://login.example.test/auth"))
	require.NoError(t, err)
	tests := []struct {
		method, url string
		body, ct    string
		status      int
		want        string
	}{
		{method: "GET", url: "https://eu.example.test/api/v1/users/" + uuidA, status: 200},
		{method: "POST", url: "https://login.example.test/auth/oauth/token", body: "grant_type=client_credentials", ct: "application/x-www-form-urlencoded", status: 200},
		{method: "GET", url: "https://eu.example.test/v1/users/" + uuidA, status: 200, want: `neither under the API base "/api/v1/" nor the token endpoint "/auth/oauth/token"`},
		{method: "POST", url: "https://login.example.test/oauth/token", body: "grant_type=client_credentials", ct: "application/x-www-form-urlencoded", status: 200, want: "neither under"},
		{method: "GET", url: "https://login.example.test/auth/oauth/token", status: 200, want: "the token endpoint takes POST, not GET"},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.url, func(t *testing.T) {
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			req := newRequest(t, tc.method, tc.url, body, tc.ct)
			respBody := userJSON
			if strings.HasSuffix(tc.url, "/token") {
				req.SetBasicAuth("id", "secret")
				respBody = `{"access_token":"abc","expires_in":3600,"token_type":"Bearer"}`
			}
			resp := reply(req, tc.status, "application/json", io.NopCloser(strings.NewReader(respBody)))
			err := v.Validate(req, resp)
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestWithIgnoredResponses(t *testing.T) {
	v, err := New(WithIgnoredResponses(func(_ *http.Request, r *http.Response) bool {
		return r.Header.Get("Fault") != ""
	}))
	require.NoError(t, err)
	check := func(req *http.Request, fault bool) error {
		resp := reply(req, 503, "application/json", io.NopCloser(strings.NewReader(`{"x`)))
		if fault {
			resp.Header.Set("Fault", "status")
		}
		return v.Validate(req, resp)
	}
	ok := newRequest(t, "GET", "https://api.example.test/v1/users", nil, "")
	assert.NoError(t, check(ok, true), "an injected fault's reply is skipped")
	assert.ErrorContains(t, check(newRequest(t, "GET", "https://api.example.test/v1/users", nil, ""), false), "reply status 503 is not published")
	bad := newRequest(t, "GET", "https://api.example.test/v1/groups?filter=x", nil, "")
	assert.ErrorContains(t, check(bad, true), `query parameter "filter"`, "the request is still checked")
}

// TestValidateUsesGetBody: with GetBody set, Validate reads a fresh copy
// and leaves req.Body alone.
func TestValidateUsesGetBody(t *testing.T) {
	req := newRequest(t, "POST", "https://api.example.test/v1/users", strings.NewReader(`{"email":"jane@example.com"}`), "application/json")
	require.NotNil(t, req.GetBody)
	orig := req.Body
	err := Validate(req, nil)
	assert.ErrorContains(t, err, `property "firstName" is missing`)
	assert.True(t, orig == req.Body, "req.Body is left alone")
	b, err := io.ReadAll(req.Body)
	require.NoError(t, err)
	assert.JSONEq(t, `{"email":"jane@example.com"}`, string(b))
}

// TestTransportConcurrent checks many exchanges at once through one
// transport and a real server (run with -race).
func TestTransportConcurrent(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(201)
		}
		_, _ = io.WriteString(w, recordJSON)
	}))
	t.Cleanup(ts.Close)
	rec := &recorder{TB: t}
	hc := &http.Client{Transport: NewTransport(rec, ts.Client().Transport)}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			method, body := "GET", ""
			if i%2 == 1 {
				method, body = "POST", fmt.Sprintf(`{"Title":"t%d"}`, i)
			}
			path := "/v1/tasks/it/REC-1"
			if method == "POST" {
				path = "/v1/tasks/it"
			}
			req, err := http.NewRequestWithContext(t.Context(), method, ts.URL+path, strings.NewReader(body))
			if err != nil {
				rec.Errorf("%v", err)
				return
			}
			req.Header.Set("Authorization", bearer)
			if body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			resp, err := hc.Do(req)
			if err != nil {
				rec.Errorf("%v", err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		})
	}
	wg.Wait()
	assert.Empty(t, rec.messages())
}

// TestDocumentIsEmbedded: the document served to tools is the one the
// validator loads.
func TestDocumentIsEmbedded(t *testing.T) {
	d := Document()
	require.True(t, bytes.HasPrefix(d, []byte("openapi: 3.0.")))
	d[0] = 'X'
	assert.Equal(t, byte('o'), Document()[0], "Document returns a copy")
}

package workflowtest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// api talks to a fake server with plain net/http, as a user of curl would.
type api struct {
	t     *testing.T
	srv   *Server
	token string
}

// newAPI starts a server and obtains a token for the default user.
func newAPI(t *testing.T, opts ...Option) *api {
	t.Helper()
	srv := Start(t, opts...)
	a := &api{t: t, srv: srv}
	id, secret := srv.Credentials()
	a.token = a.fetchToken(id, secret)
	return a
}

// as returns a view of a that uses the token of another account.
func (a *api) as(acct Account) *api {
	a.t.Helper()
	b := &api{t: a.t, srv: a.srv}
	b.token = a.fetchToken(acct.ClientID, acct.ClientSecret)
	return b
}

// tokenRequest sends a token request with the id and secret form-encoded
// inside the Basic header (RFC 6749 section 2.3.1).
func (a *api) tokenRequest(id, secret string) *result {
	a.t.Helper()
	req, err := http.NewRequestWithContext(a.t.Context(), http.MethodPost, a.srv.AuthURL()+"/oauth/token",
		strings.NewReader("grant_type=client_credentials"))
	require.NoError(a.t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	return a.send(req)
}

func (a *api) fetchToken(id, secret string) string {
	a.t.Helper()
	res := a.tokenRequest(id, secret)
	require.Equal(a.t, http.StatusOK, res.status, "token request: %s", res.body)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	res.decode(&tok)
	require.NotEmpty(a.t, tok.AccessToken)
	return tok.AccessToken
}

// result is an answer of the server.
type result struct {
	t      *testing.T
	status int
	header http.Header
	body   []byte
}

func (r *result) decode(v any) {
	r.t.Helper()
	require.NoError(r.t, json.Unmarshal(r.body, v), "body: %s", r.body)
}

// message returns the message of an error body, checking its shape.
func (r *result) message() string {
	r.t.Helper()
	var e struct {
		Status  *int    `json:"status"`
		Message *string `json:"message"`
	}
	r.decode(&e)
	require.NotNil(r.t, e.Status, "error body without status: %s", r.body)
	require.NotNil(r.t, e.Message, "error body without message: %s", r.body)
	require.Equal(r.t, r.status, *e.Status, "status in the body")
	require.Equal(r.t, "application/json", r.header.Get("Content-Type"))
	return *e.Message
}

func (a *api) send(req *http.Request) *result {
	a.t.Helper()
	resp, err := a.srv.ts.Client().Do(req)
	require.NoError(a.t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(a.t, err)
	return &result{t: a.t, status: resp.StatusCode, header: resp.Header, body: body}
}

// do sends an API request; path is relative to the base URL and already
// escaped; body, when not nil, is sent as JSON (or as is when []byte).
func (a *api) do(method, path string, body any) *result {
	a.t.Helper()
	var rdr io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rdr = bytes.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		require.NoError(a.t, err)
		rdr = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(a.t.Context(), method, a.srv.BaseURL()+path, rdr)
	require.NoError(a.t, err)
	if rdr != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	return a.send(req)
}

func (a *api) get(path string) *result { a.t.Helper(); return a.do(http.MethodGet, path, nil) }

// list is a decoded paged list of records.
type list struct {
	Items []struct {
		Data   map[string]string `json:"data"`
		Cursor string            `json:"cursor"`
	} `json:"items"`
	Total  int          `json:"total"`
	Paging pagingStatus `json:"paging"`
}

func (l *list) ids() []string {
	out := make([]string, len(l.Items))
	for i, it := range l.Items {
		out[i] = it.Data["id"]
	}
	return out
}

// list fetches a list with the given query and requires a 200.
func (a *api) list(path string, q url.Values) *list {
	a.t.Helper()
	res := a.get(path + "?" + q.Encode())
	require.Equal(a.t, http.StatusOK, res.status, "GET %s?%s: %s", path, q.Encode(), res.body)
	var l list
	res.decode(&l)
	return &l
}

// expectError requires an error status and returns the message.
func expectError(t *testing.T, res *result, status int) string {
	t.Helper()
	require.Equal(t, status, res.status, "body: %s", res.body)
	return res.message()
}

// uid, gid and did are the ids the fake gives its n-th user, group and
// domain.
func uid(n uint64) string { return seqUUID(uuidUser, n) }
func gid(n uint64) string { return seqUUID(uuidGroup, n) }
func did(n uint64) string { return seqUUID(uuidDomain, n) }

// subPage is a decoded Paged<X> list: the items are the objects themselves.
type subPage[T any] struct {
	Items  []T          `json:"items"`
	Total  int          `json:"total"`
	Paging pagingStatus `json:"paging"`
}

// getPage fetches a Paged<X> list and requires a 200 with a JSON body.
func getPage[T any](a *api, path string, q url.Values) subPage[T] {
	a.t.Helper()
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	res := a.get(path)
	require.Equal(a.t, http.StatusOK, res.status, "GET %s: %s", path, res.body)
	require.Equal(a.t, "application/json", res.header.Get("Content-Type"))
	var p subPage[T]
	res.decode(&p)
	require.NotNil(a.t, p.Items, "items is [] when empty, never null or absent")
	return p
}

// doText sends an API request with a text body and the given Content-Type
// (none when empty).
func (a *api) doText(method, path, contentType, body string) *result {
	a.t.Helper()
	req, err := http.NewRequestWithContext(a.t.Context(), method, a.srv.BaseURL()+path, strings.NewReader(body))
	require.NoError(a.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	return a.send(req)
}

// requireNoBody requires a status and an empty body.
func requireNoBody(t *testing.T, res *result, status int) {
	t.Helper()
	require.Equal(t, status, res.status, "body: %s", res.body)
	assert.Empty(t, res.body)
}

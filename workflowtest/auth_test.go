package workflowtest

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// fixedClock is a clock that stays where it is put.
func fixedClock() func() time.Time {
	t0 := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	return func() time.Time { return t0 }
}

// TestTokenCurlFlow is the spec's token request, done by hand: Basic
// authentication with the form-encoded id and secret, a form body with
// grant_type=client_credentials.
func TestTokenCurlFlow(t *testing.T) {
	srv := Start(t)
	id, secret := srv.Credentials()
	a := &api{t: t, srv: srv}
	res := a.tokenRequest(id, secret)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	assert.Equal(t, "application/json", res.header.Get("Content-Type"))
	assert.Equal(t, "no-store", res.header.Get("Cache-Control"))
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		ExpiresIn   int    `json:"expires_in"`
	}
	res.decode(&tok)
	assert.NotEmpty(t, tok.AccessToken)
	assert.Equal(t, "Bearer", tok.TokenType)
	assert.Equal(t, 86400, tok.ExpiresIn)

	a.token = tok.AccessToken
	srv.Define(workflow.Tasks, "it")
	assert.Equal(t, http.StatusOK, a.get("/tasks/it").status)
	assert.Equal(t, DefaultUserID, srv.Requests()[1].UserID)
}

func TestTokenSecretEncoding(t *testing.T) {
	// The secret holds every character that form encoding changes.
	srv := Start(t, WithUser("", "client id+1", "s e+c/r=e%t&"))
	a := &api{t: t, srv: srv}
	id, secret := srv.Credentials()
	require.Equal(t, http.StatusOK, a.tokenRequest(id, secret).status)

	// Sent raw (not form-encoded), "+" would mean a space: refused.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.AuthURL()+"/oauth/token",
		strings.NewReader("grant_type=client_credentials"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(id, secret)
	res := a.send(req)
	assert.Equal(t, http.StatusUnauthorized, res.status)

	// The default secret contains "%1", which is not a valid escape: a
	// client that does not encode gets 401 with an explanation.
	srv2 := Start(t)
	a2 := &api{t: t, srv: srv2}
	req, err = http.NewRequestWithContext(t.Context(), http.MethodPost, srv2.AuthURL()+"/oauth/token",
		strings.NewReader("grant_type=client_credentials"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(DefaultClientID, DefaultClientSecret)
	assert.Contains(t, expectError(t, a2.send(req), http.StatusUnauthorized), "RFC 6749")
}

func TestTokenErrors(t *testing.T) {
	srv := Start(t)
	a := &api{t: t, srv: srv}
	id, secret := srv.Credentials()
	basic := func(u, p string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(u+":"+p))
	}
	const good = "(the right credentials, form-encoded)"
	tests := []struct {
		name        string
		method      string
		contentType string
		auth        string
		body        string
		status      int
		code        string
	}{
		{"wrong secret", "POST", "application/x-www-form-urlencoded", basic(id, "nope"), "grant_type=client_credentials", 401, "invalid_client"},
		{"unknown client", "POST", "application/x-www-form-urlencoded", basic("who", "x"), "grant_type=client_credentials", 401, "invalid_client"},
		{"no basic auth", "POST", "application/x-www-form-urlencoded", "", "grant_type=client_credentials", 401, "invalid_client"},
		{"bearer instead of basic", "POST", "application/x-www-form-urlencoded", "Bearer x", "grant_type=client_credentials", 401, "invalid_client"},
		{"no grant type", "POST", "application/x-www-form-urlencoded", good, "", 400, "invalid_request"},
		{"wrong grant type", "POST", "application/x-www-form-urlencoded", good, "grant_type=password", 400, "unsupported_grant_type"},
		{"json body", "POST", "application/json", good, `{"grant_type":"client_credentials"}`, 400, "invalid_request"},
		// JSON answers another grant type as a form does.
		{"json, wrong grant type", "POST", "application/json", "", `{"client_id":"` + id + `","client_secret":"` + secret + `","grant_type":"password"}`, 400, "unsupported_grant_type"},
		{"json, empty grant type", "POST", "application/json", "", `{"client_id":"` + id + `","client_secret":"` + secret + `","grant_type":""}`, 400, "invalid_request"},
		{"json, grant type not a string", "POST", "application/json", "", `{"client_id":"` + id + `","client_secret":"` + secret + `","grant_type":1}`, 400, "invalid_request"},
		{"json, wrong grant type, wrong secret", "POST", "application/json", "", `{"client_id":"` + id + `","client_secret":"nope","grant_type":"password"}`, 400, "unsupported_grant_type"},
		{"GET", "GET", "", good, "", 405, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tc.method, srv.AuthURL()+"/oauth/token", strings.NewReader(tc.body))
			require.NoError(t, err)
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			if tc.auth != "" {
				if tc.auth == good {
					req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
				} else {
					req.Header.Set("Authorization", tc.auth)
				}
			}
			res := a.send(req)
			expectError(t, res, tc.status)
			if tc.code != "" {
				var body struct {
					Error string `json:"error"`
				}
				res.decode(&body)
				assert.Equal(t, tc.code, body.Error)
			}
			if tc.status == 405 {
				assert.Equal(t, "POST", res.header.Get("Allow"))
			}
		})
	}
}

func TestBearerRequired(t *testing.T) {
	a := newAPI(t)
	a.srv.Define(workflow.Tasks, "it")
	for _, h := range []string{"", "Bearer", "Bearer ", "Basic abc", "Bearer unknown-token", "bearer nope"} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, a.srv.BaseURL()+"/tasks/it", nil)
		require.NoError(t, err)
		if h != "" {
			req.Header.Set("Authorization", h)
		}
		res := a.send(req)
		expectError(t, res, http.StatusUnauthorized)
		assert.Contains(t, res.header.Get("WWW-Authenticate"), "Bearer", "header %q", h)
	}
	// The scheme is case-insensitive.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, a.srv.BaseURL()+"/tasks/it", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "bearer "+a.token)
	assert.Equal(t, http.StatusOK, a.send(req).status)
	// Every route needs the token, even unknown ones.
	b := &api{t: t, srv: a.srv}
	for _, p := range []string{"/tasks/it", "/tasks/it/1", "/users", "/groups/g1/users", "/nothing/here"} {
		expectError(t, b.get(p), http.StatusUnauthorized)
	}
}

func TestTokenExpiresWithTheClock(t *testing.T) {
	a := newAPI(t, WithClock(fixedClock()))
	a.srv.Define(workflow.Tasks, "it")
	a.srv.Advance(TokenLifetime - time.Second)
	assert.Equal(t, http.StatusOK, a.get("/tasks/it").status)
	a.srv.Advance(time.Second)
	msg := expectError(t, a.get("/tasks/it"), http.StatusUnauthorized)
	assert.Contains(t, msg, "expired")

	// A new token works again.
	id, secret := a.srv.Credentials()
	a.token = a.fetchToken(id, secret)
	assert.Equal(t, http.StatusOK, a.get("/tasks/it").status)
}

func TestTokenExpiryWithInjectedClock(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	a := newAPI(t, WithClock(func() time.Time { return time.Unix(0, now.Load()) }))
	a.srv.Define(workflow.Tasks, "it")
	assert.Equal(t, http.StatusOK, a.get("/tasks/it").status)
	now.Add(int64(25 * time.Hour))
	expectError(t, a.get("/tasks/it"), http.StatusUnauthorized)
}

func TestDeactivatedUserTokenStopsWorking(t *testing.T) {
	a := newAPI(t)
	a.srv.Define(workflow.Tasks, "it")
	acct := a.srv.AddUser("bob@example.com", "Bob", "B")
	b := a.as(acct)
	require.Equal(t, http.StatusOK, b.get("/tasks/it").status)

	res := a.do(http.MethodPost, "/users/"+acct.UserID+"/deactivate", nil)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	assert.Contains(t, expectError(t, b.get("/tasks/it"), http.StatusUnauthorized), "deactivated")
	assert.Equal(t, http.StatusUnauthorized, a.tokenRequest(acct.ClientID, acct.ClientSecret).status)
	// Others are not affected.
	assert.Equal(t, http.StatusOK, a.get("/tasks/it").status)
}

func TestSeveralUsersHaveTheirOwnCredentials(t *testing.T) {
	a := newAPI(t)
	a.srv.Define(workflow.Tasks, "it")
	acct := a.srv.AddUser("carol@example.com", "Carol", "C")
	assert.Equal(t, Account{UserID: uid(2), ClientID: "client-2", ClientSecret: "secret-2"}, acct)
	c := a.as(acct)
	res := c.do(http.MethodPost, "/tasks/it", map[string]string{"Title": "x"})
	require.Equal(t, http.StatusCreated, res.status)
	created, updated := a.srv.Attribution(workflow.Tasks, "it", "1")
	assert.Equal(t, uid(2), created)
	assert.Equal(t, uid(2), updated)
	res = a.do(http.MethodPut, "/tasks/it/1", map[string]string{"Title": "y"})
	require.Equal(t, http.StatusOK, res.status)
	created, updated = a.srv.Attribution(workflow.Tasks, "it", "1")
	assert.Equal(t, uid(2), created)
	assert.Equal(t, uid(1), updated)
	// Credentials of one user do not work with the secret of another.
	assert.Equal(t, http.StatusUnauthorized, a.tokenRequest(acct.ClientID, DefaultClientSecret).status)
}

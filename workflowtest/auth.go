package workflowtest

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
)

// maxFormBody bounds the token request's body.
const maxFormBody = 64 << 10

// handleToken is POST /oauth/token: the OAuth 2.0 client-credentials
// grant (RFC 6749 section 4.4), form-encoded or as the published JSON
// AccessTokenRequest, the client authenticated by HTTP Basic (section
// 2.3.1) or by client_id and client_secret in the body. The answer is
// 200, as RFC 6749 section 5.1 says (the published document says 201).
func (s *Server) handleToken(rq *request) response {
	id, secret, grant, refused := readTokenRequest(rq.r)
	if refused != nil {
		return *refused
	}
	if grant != "client_credentials" {
		if grant == "" {
			return tokenError(http.StatusBadRequest, "invalid_request", "grant_type is required")
		}
		return tokenError(http.StatusBadRequest, "unsupported_grant_type", "grant_type must be client_credentials")
	}

	now := s.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	cred, ok := st.creds[id]
	if !ok || subtle.ConstantTimeCompare([]byte(cred.ClientSecret), []byte(secret)) != 1 {
		return tokenError(http.StatusUnauthorized, "invalid_client", "unknown client id or wrong secret")
	}
	u := st.usersByID[cred.UserID]
	if u == nil || !u.active {
		return tokenError(http.StatusUnauthorized, "invalid_client", "the user of these credentials is deactivated")
	}
	rq.user, rq.clientID, rq.log.UserID = u, id, u.id
	if resp, limited := s.limit(id); limited {
		return resp
	}
	if len(st.tokens) >= 10_000 {
		maps.DeleteFunc(st.tokens, func(_ string, t *token) bool { return !now.Before(t.expires) })
	}
	tok := st.next.id("fake-token-", &st.next.token) + "-" + u.id
	st.tokens[tok] = &token{userID: u.id, clientID: id, expires: now.Add(TokenLifetime)}
	resp := reply(http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": int64(TokenLifetime / time.Second)})
	resp.header = http.Header{"Cache-Control": {"no-store"}}
	return resp
}

// readTokenRequest reads the client's credentials and the grant of a
// token request, in either form the fake takes: form-encoded (RFC 6749
// section 4.4.2) or the JSON AccessTokenRequest the service publishes.
// The credentials come from the HTTP Basic header or from the body's
// client_id and client_secret: one method per request (RFC 6749 section
// 2.3), so both are 400 invalid_request and neither 401 invalid_client.
func readTokenRequest(r *http.Request) (id, secret, grant string, fail *response) {
	refuse := func(status int, code, msg string) (string, string, string, *response) {
		resp := tokenError(status, code, msg)
		if status == http.StatusUnauthorized {
			resp.header = http.Header{"Www-Authenticate": {`Basic realm="token"`}}
		}
		return "", "", "", &resp
	}
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	form := url.Values{}
	switch {
	case err == nil && ct == "application/x-www-form-urlencoded":
		r.Body = http.MaxBytesReader(nil, r.Body, maxFormBody)
		if err := r.ParseForm(); err != nil {
			return refuse(http.StatusBadRequest, "invalid_request", "malformed form body: "+err.Error())
		}
		form = r.PostForm
	case err == nil && ct == "application/json":
		// Read as the form would be: its string members (the schema
		// requires client_id and client_secret, so both are there).
		var b map[string]any
		body, e := readJSONBody(r)
		if e == nil {
			err := wire.Check(op.RequestAccessToken, body, wire.Options{})
			_ = json.Unmarshal(body, &b)
			// A string grant_type outside the enum is the grant check's
			// (unsupported_grant_type, RFC 6749 section 5.2), as in a form.
			_, isString := b["grant_type"].(string)
			if p := (*wire.Problem)(nil); errors.As(err, &p) && p.Pointer == "/grant_type" && isString {
				err = nil
			}
			e = problem(err)
		}
		if e != nil {
			return refuse(e.status, "invalid_request", e.msg)
		}
		for k, v := range b {
			if s, ok := v.(string); ok {
				form.Set(k, s)
			}
		}
	default:
		return refuse(http.StatusBadRequest, "invalid_request", "Content-Type must be application/x-www-form-urlencoded or application/json")
	}
	id, secret, grant = form.Get("client_id"), form.Get("client_secret"), form.Get("grant_type")
	rawID, rawSecret, hasBasic := r.BasicAuth()
	switch {
	case hasBasic && (form.Has("client_id") || form.Has("client_secret")):
		return refuse(http.StatusBadRequest, "invalid_request", "client credentials in both the Basic header and the body: use one method (RFC 6749 section 2.3)")
	case hasBasic:
		// RFC 6749 section 2.3.1: the client id and secret are encoded
		// with application/x-www-form-urlencoded before being used as the
		// Basic user name and password.
		var err1, err2 error
		id, err1 = url.QueryUnescape(rawID)
		secret, err2 = url.QueryUnescape(rawSecret)
		if err1 != nil || err2 != nil {
			return refuse(http.StatusUnauthorized, "invalid_client", "client id and secret must be form-urlencoded inside the Basic header (RFC 6749 section 2.3.1)")
		}
	case !form.Has("client_id") || !form.Has("client_secret"):
		return refuse(http.StatusUnauthorized, "invalid_client", "client authentication is required: HTTP Basic, or client_id and client_secret in the body")
	}
	return id, secret, grant, nil
}

func tokenError(status int, code, msg string) response {
	return response{status: status, body: errorBody{Status: status, Message: msg, Error: code}}
}

// authenticate checks the bearer token of an API request.
func (s *Server) authenticate(rq *request) *httpError {
	h := rq.r.Header.Get("Authorization")
	scheme, tok, found := strings.Cut(h, " ")
	if h == "" {
		return errf(http.StatusUnauthorized, "missing bearer token (Authorization: Bearer <access token>)")
	}
	if !found || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
		return errf(http.StatusUnauthorized, "the Authorization header must be \"Bearer <access token>\"")
	}
	tok = strings.TrimSpace(tok)
	now := s.Now()
	s.mu.RLock()
	defer s.mu.RUnlock()
	t := s.st.tokens[tok]
	if t == nil {
		return errf(http.StatusUnauthorized, "unknown access token")
	}
	if !now.Before(t.expires) {
		return errf(http.StatusUnauthorized, "access token expired at %s", formatTime(t.expires))
	}
	u := s.st.usersByID[t.userID]
	if u == nil || !u.active {
		return errf(http.StatusUnauthorized, "the user of this access token is deactivated")
	}
	rq.user, rq.clientID, rq.log.UserID = u, t.clientID, u.id
	return nil
}

package workflow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// apiErrorOf is the *APIError of a response with status, header and body
// to a GET the client sent.
func apiErrorOf(status int, h http.Header, body []byte) *APIError {
	req := httptest.NewRequest(http.MethodGet, "https://api.example.test/v1/users", nil)
	return (&Client{}).apiError(req, &http.Response{StatusCode: status, Header: h}, body)
}

func TestErrorMessageShapes(t *testing.T) {
	tests := []struct{ body, want string }{
		{`{"status":404,"message":"record not found"}`, "record not found"},
		{`{"error":"invalid_request","error_description":"first must be <= 1000"}`, "first must be <= 1000"},
		{`{"error":"bad filter"}`, "bad filter"},
		{`{"error":{"code":7,"message":"nested"}}`, "nested"},
		{`{"errors":[{"message":"a"},{"detail":"b"}]}`, "a; b"},
		{`{"title":"Unprocessable","detail":"field X"}`, "field X"},
		{`{"nothing":"here"}`, ""},
		{`plain text failure` + "\nsecond line", "plain text failure"},
		{`<html><body>502</body></html>`, ""},
		{``, ""},
		{`{"message":`, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, apiErrorOf(400, http.Header{}, []byte(tt.body)).Message, tt.body)
	}
}

func TestAPIErrorMatchesSentinels(t *testing.T) {
	sentinels := []error{ErrUnauthorized, ErrForbidden, ErrNotFound, ErrTooLarge, ErrRateLimited, ErrUnprocessable}
	for status, want := range map[int]error{401: ErrUnauthorized, 403: ErrForbidden, 404: ErrNotFound, 413: ErrTooLarge, 422: ErrUnprocessable, 429: ErrRateLimited, 400: nil, 409: nil, 500: nil} {
		err := fmt.Errorf("wrapped: %w", &APIError{StatusCode: status, Method: "GET", URL: "https://x/v1/y"})
		for _, s := range sentinels {
			assert.Equal(t, s == want, errors.Is(err, s), "status %d vs %v", status, s)
		}
	}
}

func TestAPIErrorIsOneLineAndBounded(t *testing.T) {
	c := newHandlerClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "5")
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = w.Write([]byte(`{"message":"bad"}` + strings.Repeat(" ", 100<<10)))
	}))
	err := get(t.Context(), c)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 422, ae.StatusCode)
	assert.ErrorIs(t, err, ErrUnprocessable, "a 422 from the service matches ErrUnprocessable")
	assert.Equal(t, "bad", ae.Message)
	assert.Len(t, ae.Body, maxErrorBody)
	assert.Equal(t, "5", ae.Header.Get("Retry-After"))
	assert.Equal(t, "GET", ae.Method)
	assert.Contains(t, ae.URL, "/v1/ping")
	assert.NotContains(t, ae.Error(), "\n")
	assert.True(t, strings.HasSuffix(ae.Error(), "422 Unprocessable Entity: bad (retry after 5s)"), ae.Error())
}

func TestValidationErrorNamesFieldAndRule(t *testing.T) {
	err := &ValidationError{Field: "file", Rule: "must be at most 250 MB", Err: ErrTooLarge}
	assert.Equal(t, "workflow: invalid file: must be at most 250 MB: file too large", err.Error())
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.True(t, bytes.Contains([]byte(invalid("alias", "must not be empty").Error()), []byte("alias")))
}

// TestTemporaryAndOutcomeUnknown: the two questions the client's retries
// (and package upsert) ask of a failed request.
func TestTemporaryAndOutcomeUnknown(t *testing.T) {
	refused := &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}
	tests := []struct {
		name               string
		err                error
		temporary, unknown bool
	}{
		{"nil", nil, false, false},
		{"429", &APIError{StatusCode: 429}, true, false},
		{"500", &APIError{StatusCode: 500}, true, true},
		{"503", &APIError{StatusCode: 503}, true, true},
		{"501", &APIError{StatusCode: 501}, false, true},
		{"404", &APIError{StatusCode: 404}, false, false},
		{"token endpoint down", &AuthError{StatusCode: 503}, true, false},
		{"credentials refused", &AuthError{StatusCode: 401}, false, false},
		{"validation", invalid("alias", "must not be empty"), false, false},
		{"redirect", &RedirectError{From: "a", To: "b"}, false, false},
		{"limiter past the deadline", fmt.Errorf("x: %w", &limiterDeadlineError{}), false, false},
		{"connection refused", fmt.Errorf("workflow: POST x: %w", refused), true, false},
		{"connection lost", fmt.Errorf("workflow: POST x: %w", io.ErrUnexpectedEOF), true, true},
		{"attempt timeout", &timeoutError{what: "no headers"}, true, true},
		{"canceled", fmt.Errorf("workflow: POST x: %w", context.Canceled), false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.temporary, Temporary(tt.err), "Temporary")
			assert.Equal(t, tt.unknown, OutcomeUnknown(tt.err), "OutcomeUnknown")
		})
	}
}

func TestAPIErrorTruncatesOnARuneBoundary(t *testing.T) {
	for _, n := range []int{1, 2, 3, 199, 200, 201} {
		s := strings.Repeat("é", 150) + strings.Repeat("€", 100)
		got := truncate(s, n)
		assert.True(t, utf8.ValidString(got), "n=%d", n)
		assert.LessOrEqual(t, len(got), n+len("…"))
	}
	body := []byte(`{"message":"` + strings.Repeat("€", 400) + `"}`)
	e := apiErrorOf(400, http.Header{}, body)
	assert.True(t, utf8.ValidString(e.Error()))
	assert.True(t, strings.HasSuffix(e.Message, "…"))
}

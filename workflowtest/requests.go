package workflowtest

import (
	"context"
	"log/slog"
	"net/url"
	"slices"
	"time"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// The request log: every request the server received, for assertions.

// RequestRecord is a request the server received, for assertions.
type RequestRecord struct {
	Time       time.Time  // arrival, on the server's clock
	Method     string     // HTTP method
	Path       string     // the request path, unescaped
	Query      url.Values // the query parameters
	Route      string     // the route, e.g. "GET /v1/{recordType}/{alias}"; empty when none matched
	Operation  string     // the operation's id in the service's document, e.g. recordList; empty when none matched
	Filter     rsql.Expr  // the parsed filter of a list request, nil when none or unparsable
	FilterText string     // the filter as sent
	UserID     string     // the authenticated user, empty when authentication failed
	Status     int        // the status answered; 0 when the connection was dropped or the client left
	Fault      bool       // whether an injected fault fired
	RequestID  string     // the X-Request-Id the server sent back ("req-1", "req-2", ... in arrival order)
}

func (s *Server) logRequest(rq *request) {
	rq.log.Operation = string(rq.op)
	rec := rq.log
	if s.cfg.logger != nil {
		s.cfg.logger.LogAttrs(context.Background(), slog.LevelInfo, "workflow-fake: request",
			slog.String("method", rec.Method), slog.String("path", rec.Path),
			slog.String("query", rq.r.URL.RawQuery), slog.Int("status", rec.Status),
			slog.String("user", rec.UserID), slog.Bool("fault", rec.Fault))
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	s.log = append(s.log, rec)
	if limit := s.cfg.logLimit; len(s.log) > limit+limit/2 {
		s.log = append(s.log[:0:0], s.log[len(s.log)-limit:]...)
	}
}

// Requests returns the requests received so far (the most recent
// WithRequestLogLimit of them), oldest first, token requests included.
func (s *Server) Requests() []RequestRecord {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return slices.Clone(s.log[max(0, len(s.log)-s.cfg.logLimit):])
}

// ResetRequests forgets the requests received so far.
func (s *Server) ResetRequests() {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	s.log = nil
}

package workflowtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// benchServer seeds 100,000 tasks and returns the server and a token.
func benchServer(b *testing.B) (*Server, string) {
	srv := NewServer()
	b.Cleanup(srv.Close)
	srv.Define(workflow.Tasks, "bench")
	recs := make([]workflow.Record, 100_000)
	statuses := []string{"Open", "In Progress", "Done", "Closed"}
	for i := range recs {
		recs[i] = workflow.Record{
			"Title":    "Task " + strconv.Itoa(i),
			"Status":   statuses[i%len(statuses)],
			"Priority": strconv.Itoa(i % 5),
			"Due Date": fmt.Sprintf("2024-%02d-%02dT12:00:00.000Z", i%12+1, i%28+1),
			"Assignee": fmt.Sprintf("user%d@example.com", i%50),
		}
	}
	srv.Seed(workflow.Tasks, "bench", recs...)
	srv.mu.Lock()
	srv.st.next.token++
	srv.st.tokens["bench-token"] = &token{userID: DefaultUserID, clientID: DefaultClientID, expires: srv.Now().Add(TokenLifetime)}
	srv.mu.Unlock()
	return srv, "bench-token"
}

// BenchmarkListFiltered100k measures one filtered list request over
// 100,000 records, handled in process (no network).
func BenchmarkListFiltered100k(b *testing.B) {
	srv, tok := benchServer(b)
	filters := map[string]string{
		"eq-and-num":  "Status==Open;Priority=ge=3",
		"time-or-lki": "Due Date=lt=2024-03-01T00:00:00.000Z,Assignee=lki=USER7",
		"none-match":  "Status==Nope",
		"no-filter":   "",
	}
	for name, f := range filters {
		b.Run(name, func(b *testing.B) {
			q := url.Values{"first": {"100"}}
			if f != "" {
				q.Set("filter", f)
			}
			req := httptest.NewRequest(http.MethodGet, "/v1/tasks/bench?"+q.Encode(), nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			for b.Loop() {
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}

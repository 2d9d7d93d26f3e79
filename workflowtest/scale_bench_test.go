package workflowtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"testing"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// wideRecord is record i of the scale benchmarks: 12 fields, as an
// export of a real definition has.
func wideRecord(i int) workflow.Record {
	s := strconv.Itoa(i)
	statuses := []string{"Open", "In Progress", "Waiting", "Done"}
	return workflow.Record{"Title": "Task " + s, "Status": statuses[i%4], "Priority": strconv.Itoa(i%5 + 1),
		"Owner": "owner-" + strconv.Itoa(i%50), "Team": "ops", "Due Date": "2026-12-01T08:00:00.000Z",
		"Amount": s, "Region": "eu", "Source": "import", "Category": "hardware", "Ref": "R-" + s}
}

// scaleServer holds n wide records in tasks/scale, and a token.
func scaleServer(b *testing.B, n int) (*Server, string) {
	srv := NewServer()
	b.Cleanup(srv.Close)
	const chunk = 10_000
	for i := 0; i < n; i += chunk {
		recs := make([]workflow.Record, min(chunk, n-i))
		for j := range recs {
			recs[j] = wideRecord(i + j)
		}
		srv.Seed(workflow.Tasks, "scale", recs...)
	}
	srv.mu.Lock()
	srv.st.tokens["bench-token"] = &token{userID: DefaultUserID, clientID: DefaultClientID, expires: srv.Now().Add(TokenLifetime)}
	srv.mu.Unlock()
	return srv, "bench-token"
}

// BenchmarkFakeFilteredWalk measures the time per page of a walk of a
// filtered list (a quarter of the records match, 100 a page), handled in
// process, at 10k, 100k and 1M records. Each iteration is one page, the
// walk starting over at the end of the list; first-page-ms is the first
// page of the first walk.
func BenchmarkFakeFilteredWalk(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(strconv.Itoa(n/1000)+"k", func(b *testing.B) {
			srv, tok := scaleServer(b, n)
			page := func(after string) (string, bool) {
				q := url.Values{"first": {"100"}, "filter": {"Status==Open"}}
				if after != "" {
					q.Set("after", after)
				}
				req := httptest.NewRequest(http.MethodGet, "/v1/tasks/scale?"+q.Encode(), nil)
				req.Header.Set("Authorization", "Bearer "+tok)
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
				var l struct {
					Paging pagingStatus `json:"paging"`
				}
				if err := json.Unmarshal(w.Body.Bytes(), &l); err != nil {
					b.Fatal(err)
				}
				return l.Paging.EndCursor, l.Paging.HasNextPage
			}
			start := time.Now()
			cursor, more := page("")
			firstPage := time.Since(start)
			for b.Loop() {
				if !more {
					cursor = ""
				}
				cursor, more = page(cursor)
			}
			b.ReportMetric(float64(firstPage.Microseconds())/1000, "first-page-ms")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/page")
		})
	}
}

// BenchmarkFakeHeapPerRecord measures the heap the fake holds per 12-field
// record, 100,000 of them seeded.
func BenchmarkFakeHeapPerRecord(b *testing.B) {
	const n = 100_000
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		srv, _ := scaleServer(b, n)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/record")
		runtime.KeepAlive(srv)
	}
}

// Package listbench holds what the listing benchmarks of the SDK (its own
// package) and of the comparison with other JSON libraries (a module of
// its own, so that the SDK's go.mod does not hold them) share: the local
// server with its token endpoint, the pages it serves, the hand-written
// listing loop and the measuring of a benchmark against its baselines.
package listbench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// Token is the access token the server's token endpoint hands out.
const Token = "bench-access-token"

var tokenBody = []byte(`{"access_token":"` + Token + `","token_type":"bearer","expires_in":86400}`)

// Server is a local API server for benchmarks: the API under /v1
// (requests without the bearer token are refused) and, as in production,
// the token endpoint on a host of its own (Auth), with counts of token
// requests and of new TCP connections to the API.
type Server struct {
	*httptest.Server
	Auth          *httptest.Server
	TokenRequests atomic.Int64
	NewConns      atomic.Int64
}

// StartServer starts a server of api, closed when tb ends.
func StartServer(tb testing.TB, api http.Handler) *Server {
	tb.Helper()
	s := &Server{}
	s.Auth = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/oauth/token" {
			http.NotFound(w, r)
			return
		}
		s.TokenRequests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(tokenBody)
	}))
	tb.Cleanup(s.Auth.Close)
	mux := http.NewServeMux()
	mux.Handle("/v1/", http.StripPrefix("/v1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+Token {
			http.Error(w, `{"status":401,"message":"no token"}`, http.StatusUnauthorized)
			return
		}
		api.ServeHTTP(w, r)
	})))
	s.Server = httptest.NewUnstartedServer(mux)
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.NewConns.Add(1)
		}
	}
	s.Start()
	tb.Cleanup(s.Close)
	return s
}

// BaselineClient is what hand-written code uses: an http.Client on a
// transport with Go's default settings, and a token fetched once.
func (s *Server) BaselineClient(tb testing.TB) (*http.Client, string) {
	tb.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tb.Cleanup(tr.CloseIdleConnections)
	hc := &http.Client{Transport: tr}
	resp, err := hc.PostForm(s.Auth.URL+"/oauth/token", url.Values{"grant_type": {"client_credentials"}})
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil {
		tb.Fatal(err)
	}
	return hc, tok.AccessToken
}

// Fixture serves pre-encoded pages at GET /tasks/bench, following the
// "after" cursor (the Cursor of a page's last record).
type Fixture struct {
	Pages   [][]byte
	PerPage int
	Bytes   int64          // of all pages
	byAfter map[string]int // after cursor -> page index
}

// NewFixture makes pages pages of perPage records each with page (Page
// or MixedPage).
func NewFixture(pages, perPage int, page func(first, n int, more bool) []byte) *Fixture {
	f := &Fixture{PerPage: perPage, byAfter: map[string]int{"": 0}}
	for i := range pages {
		first := i * perPage
		body := page(first, perPage, i < pages-1)
		f.Pages = append(f.Pages, body)
		f.byAfter[Cursor(first+perPage-1)] = i + 1
		f.Bytes += int64(len(body))
	}
	return f
}

// Records is the number of records of all pages.
func (f *Fixture) Records() int { return len(f.Pages) * f.PerPage }

func (f *Fixture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i, ok := f.byAfter[r.URL.Query().Get("after")]
	if !ok || i >= len(f.Pages) || r.URL.Path != "/tasks/bench" {
		http.Error(w, `{"status":404,"message":"no such page"}`, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(f.Pages[i])))
	_, _ = w.Write(f.Pages[i])
}

// BaselinePage is what the hand-written loops decode a page into: items
// of plain maps, the total, and the paging members a loop needs.
type BaselinePage struct {
	Items []struct {
		Data   map[string]string `json:"data"`
		Cursor string            `json:"cursor"`
	} `json:"items"`
	Total  int `json:"total"`
	Paging struct {
		HasNextPage bool   `json:"has_next_page"`
		EndCursor   string `json:"end_cursor"`
	} `json:"paging"`
}

// Decoder is a JSON library's streaming decoder.
type Decoder interface{ Decode(v any) error }

// Sink keeps a value of each record, so that no loop's work is optimized
// away.
var Sink string

// List is the hand-written loop: GET each page of perPage records with
// the token, decode it with a JSON library's streaming decoder (newDecoder
// makes one a page) into a BaselinePage, follow end_cursor. It returns
// the number of records.
func List(ctx context.Context, hc *http.Client, base, token string, perPage int, newDecoder func(io.Reader) Decoder) (int, error) {
	n, after := 0, ""
	for {
		u := base + "/tasks/bench?first=" + strconv.Itoa(perPage)
		if after != "" {
			u += "&after=" + url.QueryEscape(after)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return n, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Accept", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			return n, err
		}
		var p BaselinePage
		err = newDecoder(resp.Body).Decode(&p)
		_, _ = io.Copy(io.Discard, resp.Body) // so the connection is reused
		_ = resp.Body.Close()
		if err != nil {
			return n, err
		}
		if resp.StatusCode != http.StatusOK {
			return n, fmt.Errorf("status %d", resp.StatusCode)
		}
		for _, it := range p.Items {
			Sink = it.Data["id"]
			n++
		}
		if !p.Paging.HasNextPage {
			return n, nil
		}
		after = p.Paging.EndCursor
	}
}

// Floor reads the pages of f as List does and discards them: the
// transport's share of a listing, which no decoder can go below.
func Floor(ctx context.Context, hc *http.Client, base, token string, f *Fixture) (int, error) {
	after := ""
	for i := range f.Pages {
		u := base + "/tasks/bench?first=" + strconv.Itoa(f.PerPage)
		if after != "" {
			u += "&after=" + url.QueryEscape(after)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return 0, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := hc.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		after = Cursor((i+1)*f.PerPage - 1)
	}
	return f.Records(), nil
}

// PerOp is what one operation of a benchmark cost, measured like
// -benchmem measures (the whole process, server included).
type PerOp struct{ NS, Allocs, Bytes float64 }

var measures sync.Map // benchmark group and name -> PerOp

// TimeOps runs op b.N times with the timer and memory statistics around
// the loop only.
func TimeOps(b *testing.B, op func()) PerOp {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for range b.N {
		op()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	n := float64(b.N)
	return PerOp{
		NS:     float64(b.Elapsed().Nanoseconds()) / n,
		Allocs: float64(after.Mallocs-before.Mallocs) / n,
		Bytes:  float64(after.TotalAlloc-before.TotalAlloc) / n,
	}
}

// Measure measures op as name in group (such as "encoding-json" in
// "list"), and reports its ratios to the measures of group named against,
// taken before it in the same run: the time, bytes and allocations to the
// first (x-baseline-time, x-baseline-bytes, x-baseline-allocs), and where
// there are more, the time to each (x-<name>-time).
func Measure(b *testing.B, group, name string, op func(), against ...string) PerOp {
	r := TimeOps(b, op)
	measures.Store(group+"\x00"+name, r)
	for i, other := range against {
		v, ok := measures.Load(group + "\x00" + other)
		if !ok {
			continue
		}
		base := v.(PerOp)
		if i == 0 {
			b.ReportMetric(r.NS/base.NS, "x-baseline-time")
			b.ReportMetric(r.Allocs/base.Allocs, "x-baseline-allocs")
			b.ReportMetric(r.Bytes/base.Bytes, "x-baseline-bytes")
		}
		if len(against) > 1 {
			b.ReportMetric(r.NS/base.NS, "x-"+other+"-time")
		}
	}
	return r
}

package upsert_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/errcheck"
	"github.com/seed-a15e58aa/workflow-go/upsert"
)

// canary marks every key and field value a sync sends; no error text may
// hold it.
const canary = "cnry7Q"

// TestNoRequestDataInErrors runs syncs whose look-ups, creates and updates
// fail against a server that echoes what each request sent, and checks
// the returned error and every Result.Err: no canary in any text, an
// exported type or sentinel reachable.
func TestNoRequestDataInErrors(t *testing.T) {
	refuseCreates := func(w http.ResponseWriter, r *http.Request, echo []byte) {
		if r.Method == http.MethodGet {
			_, _ = w.Write([]byte(`{"items":[],"total":0,"paging":{"has_next_page":false,"has_previous_page":false}}`))
			return
		}
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = w.Write(echo)
	}
	tests := map[string]func(w http.ResponseWriter, r *http.Request, echo []byte){
		"look-up refused": func(w http.ResponseWriter, r *http.Request, echo []byte) {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write(echo)
		},
		"look-up dropped": func(w http.ResponseWriter, r *http.Request, _ []byte) {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				_ = conn.Close()
			}
		},
		"create refused": refuseCreates,
		"create outcome unknown": func(w http.ResponseWriter, r *http.Request, echo []byte) {
			if r.Method == http.MethodGet && !strings.Contains(r.URL.RawQuery, "first=1000") {
				w.WriteHeader(http.StatusBadGateway)
				_, _ = w.Write(echo)
				return
			}
			if r.Method == http.MethodGet {
				_, _ = w.Write([]byte(`{"items":[],"total":0,"paging":{"has_next_page":false,"has_previous_page":false}}`))
				return
			}
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write(echo)
		},
		"duplicate key in the input": refuseCreates, // with the one record twice
		"duplicate key": func(w http.ResponseWriter, r *http.Request, _ []byte) {
			rec := `{"data":{"id":"A-1","Email":"` + canary + `@example.com","Plan":"old"}}`
			_, _ = w.Write([]byte(`{"items":[` + rec + `,` + strings.Replace(rec, "A-1", "A-2", 1) + `],"total":2,"paging":{"has_next_page":false,"has_previous_page":false}}`))
		},
	}
	for name, answer := range tests {
		t.Run(name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				q, _ := url.QueryUnescape(r.URL.RawQuery)
				echo, _ := json.Marshal(map[string]string{"message": "echo " + r.URL.RawQuery + " " + q + " " + string(body)})
				w.Header().Set("Content-Type", "application/json")
				answer(w, r, echo)
			}))
			defer ts.Close()
			c, err := workflow.NewClient(workflow.WithEndpoint(ts.URL+"/v1", ts.URL),
				workflow.WithTokenSource(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "tok-test"})),
				workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 2, Sleep: func(context.Context, time.Duration) error { return nil }}))
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			var (
				mu   sync.Mutex
				errs []error
			)
			in := []workflow.Record{{"Email": canary + "@example.com", "Plan": "pro " + canary}}
			if name == "duplicate key in the input" {
				in = append(in, in[0])
			}
			_, err = upsert.Records(t.Context(), c.Records, workflow.Apps, "customers", slices.Values(in), &upsert.Options{
				KeyField: "Email", MaxCreates: 1,
				OnResult: func(r upsert.Result) {
					mu.Lock()
					defer mu.Unlock()
					if r.Err != nil {
						errs = append(errs, r.Err)
					}
				},
			})
			if err != nil {
				errs = append(errs, err)
			}
			if len(errs) == 0 {
				t.Fatal("no error")
			}
			for _, e := range errs {
				if ok, chain := errcheck.Reachable(e, upsert.ErrDuplicateKey, workflow.ErrUnexpectedResponse, context.Canceled); !ok {
					t.Errorf("no exported type or sentinel reachable: %s", chain)
				}
				for _, s := range errcheck.Texts(e) {
					if strings.Contains(s, canary) {
						t.Errorf("a text holds a value the sync sent: %s", s)
					}
				}
				if n := strings.Count(e.Error(), "workflow: "); n > 1 {
					t.Errorf("the package is named %d times: %s", n, e)
				}
			}
		})
	}
}

package admin_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/errcheck"
)

// canary marks every value the failing calls below send; no error text
// may hold it.
const canary = "cnry7Q"

// TestNoRequestDataInErrors sends operations with a query or a body to a
// server that answers each with an error echoing what it got, and checks
// every error: no canary in any text, an exported type or sentinel
// reachable, the package named once.
func TestNoRequestDataInErrors(t *testing.T) {
	calls := map[string]func(ctx context.Context, ws *admin.Workspace) error{
		"Automations.Create": func(ctx context.Context, ws *admin.Workspace) error {
			a, err := admin.Canonical([]byte(`{"name":"` + canary + ` rule","steps":[{"note":"` + canary + `"}]}`))
			if err != nil {
				return err
			}
			_, err = ws.Automations.Create(ctx, workflow.Apps, "crm", a)
			return err
		},
		"Views.All from a cursor": func(ctx context.Context, ws *admin.Workspace) error {
			for _, err := range ws.Views.All(ctx, "crm", &workflow.ListOptions{After: canary + "cursor"}, workflow.WithQuery("note", canary)) {
				return err
			}
			return nil
		},
	}
	for _, status := range []int{http.StatusUnprocessableEntity, http.StatusServiceUnavailable, 0} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			q, _ := url.QueryUnescape(r.URL.RawQuery)
			echo, _ := json.Marshal(map[string]string{"message": "echo " + r.URL.RawQuery + " " + q + " " + string(body)})
			if status == 0 { // the connection is lost
				if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
					_ = conn.Close()
				}
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write(echo)
		}))
		c, err := workflow.NewClient(workflow.WithEndpoint(ts.URL+"/v1", ts.URL),
			workflow.WithTokenSource(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "tok-test"})),
			workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 2, Sleep: func(context.Context, time.Duration) error { return nil }}))
		if err != nil {
			t.Fatal(err)
		}
		ws := admin.New(c)
		for name, call := range calls {
			err := call(t.Context(), ws)
			if err == nil {
				t.Errorf("%d %s: no error", status, name)
				continue
			}
			if ok, chain := errcheck.Reachable(err, workflow.ErrUnexpectedResponse, context.Canceled); !ok {
				t.Errorf("%d %s: no exported type or sentinel reachable: %s", status, name, chain)
			}
			var ve *workflow.ValidationError
			if errors.As(err, &ve) {
				t.Errorf("%d %s: refused before sending: %v", status, name, err)
			}
			for _, s := range errcheck.Texts(err) {
				if strings.Contains(s, canary) {
					t.Errorf("%d %s: a text holds a value the call sent: %s", status, name, s)
				}
			}
			if n := strings.Count(err.Error(), "workflow: "); n > 1 {
				t.Errorf("%d %s: the package is named %d times: %s", status, name, n, err)
			}
		}
		c.CloseIdleConnections()
		ts.Close()
	}
}

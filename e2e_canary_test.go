package workflow_test

// End-to-end privacy canaries against the workflowtest fake: a filter that
// does not parse and a record that does not decode are refused with texts
// that say where and what was expected, and hold none of the users' data
// they carry (errors_canary_test.go has the same over every failure path
// with a service that echoes the request).

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/errcheck"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// canaryOwner is an owner's e-mail address, users' data a filter holds.
const canaryOwner = "alice.anders@example.com"

func TestE2EFilterErrorsHoldNoFilterText(t *testing.T) {
	long := strings.Repeat("cnryQ", 80) + "@example.com"
	tests := []struct {
		name, filter string
		list         func(c *workflow.Client, f rsql.Expr) error
		text         string // the ParseError's text
		data         []string
	}{
		{"a single = before an e-mail address", "Owner=" + canaryOwner,
			func(c *workflow.Client, f rsql.Expr) error {
				_, err := c.Records.List(t.Context(), workflow.Tasks, "it", &workflow.ListOptions{Filter: f})
				return err
			},
			"rsql: at offset 5: expected operator, found '=' without a closing '='",
			[]string{"alice", "anders", "example.com"}},
		{"a single = before a long value", "email=" + long,
			func(c *workflow.Client, f rsql.Expr) error {
				_, err := c.Users.List(t.Context(), &workflow.ListOptions{Filter: f})
				return err
			},
			"rsql: at offset 5: expected operator, found '=' without a closing '='",
			[]string{"cnryQ", "example.com"}},
		{"an unknown operator made of the value", "Owner=alice=anders@example.com",
			func(c *workflow.Client, f rsql.Expr) error {
				for _, err := range c.Records.All(t.Context(), workflow.Tasks, "it", &workflow.ListOptions{Filter: f}) {
					return err
				}
				return nil
			},
			"rsql: at offset 5: expected operator, found an unknown operator",
			[]string{"alice", "anders", "example.com"}},
		{"a word after a quoted value", `Owner=="` + canaryOwner + `" ` + long,
			func(c *workflow.Client, f rsql.Expr) error {
				_, err := c.Records.List(t.Context(), workflow.Tasks, "it", &workflow.ListOptions{Filter: f})
				return err
			},
			"rsql: at offset 34: expected ';', ',' or end of input, found a word",
			[]string{"alice", "cnryQ", "'c'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := workflowtest.Start(t)
			var logs syncBuffer
			c := srv.Client(workflow.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			err := tt.list(c, rsql.Raw(tt.filter))
			require.Error(t, err)
			assert.Equal(t, 0, countRequests(srv, http.MethodGet, "/v1/tasks/it")+countRequests(srv, http.MethodGet, "/v1/users"), "nothing sent")
			var ve *workflow.ValidationError
			require.ErrorAs(t, err, &ve)
			var pe *rsql.ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.filter, pe.Input, "the filter stays on the error for a caller who asks")
			assert.EqualError(t, pe, tt.text)
			assert.EqualError(t, err, "workflow: invalid ListOptions.Filter: must be a valid RSQL filter: "+tt.text)
			texts := append(errcheck.Texts(err), logs.String())
			for _, s := range texts {
				for _, d := range tt.data {
					assert.NotContains(t, s, d)
				}
			}
		})
	}
}

func TestE2EDecodeErrorsHoldNoRecordValue(t *testing.T) {
	type request struct {
		Title    string `workflow:"Title"`
		Priority int    `workflow:"Priority"`
	}
	const value = "Request 0001: hardware issue, call " + canaryOwner
	srv := workflowtest.Start(t)
	ids := srv.Seed(workflow.Tasks, "it", workflow.Record{"Title": "ok", "Priority": "1"}, workflow.Record{"Title": value, "Priority": value})
	c := srv.Client()
	calls := map[string]func() error{
		"GetAs": func() error {
			_, err := workflow.GetAs[request](t.Context(), c.Records, workflow.Tasks, "it", ids[1])
			return err
		},
		"AllAs": func() error {
			for _, err := range workflow.AllAs[request](t.Context(), c.Records, workflow.Tasks, "it", nil) {
				if err != nil {
					return err
				}
			}
			return nil
		},
		"GetAs of a pointer": func() error {
			_, err := workflow.GetAs[*request](t.Context(), c.Records, workflow.Tasks, "it", ids[1])
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			var de *workflow.DecodeError
			require.True(t, errors.As(err, &de), "%T %v", err, err)
			assert.Equal(t, value, de.Value, "the value stays on the error for a caller who asks")
			assert.EqualError(t, err, `workflow: cannot decode record field "Priority" into request.Priority (int): not a base-10 int`)
			for _, s := range errcheck.Texts(err) {
				for _, d := range []string{"Request 0001", "hardware", "alice"} {
					assert.NotContains(t, s, d)
				}
			}
		})
	}
}

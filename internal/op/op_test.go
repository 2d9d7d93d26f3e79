package op_test

import (
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/op/internal/opgen"
)

// The table is what the generator makes of the contract document now:
// run go generate ./internal/op after changing the document.
func TestTableIsTheDocuments(t *testing.T) {
	doc, err := os.ReadFile("../contract/openapi.yaml")
	require.NoError(t, err)
	want, err := opgen.Generate(doc)
	require.NoError(t, err)
	got, err := os.ReadFile("ops.go")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "ops.go is stale: run go generate ./internal/op")
}

func TestTable(t *testing.T) {
	all := op.All()
	require.Len(t, all, 72)
	v := op.UpdateView.Op()
	assert.Equal(t, op.Operation{ID: "updateView", Method: "PUT", Path: "/apps/{alias}/views/{id}",
		PathParams: []op.Param{{Name: "alias"}, {Name: "id"}}, Body: "AspectViewUpdateRequest", Media: []string{"application/json"}, Success: []int{200}}, *v)
	l := op.RecordList.Op()
	assert.True(t, l.Paged)
	assert.Equal(t, []string{"first", "after", "last", "before", "filter"}, l.Query)
	assert.Equal(t, []string{"apps", "elements", "tasks", "transactions"}, l.PathParams[0].Enum)
	tok := op.RequestAccessToken.Op()
	assert.True(t, tok.AuthHost)
	assert.Equal(t, "/oauth/token", tok.Path)
	assert.Equal(t, []int{2}, tok.Success)
	assert.False(t, op.GetRecord.Op().Paged)
	assert.Nil(t, op.Lookup("noSuchOperation"))
	assert.Panics(t, func() { op.ID("noSuchOperation").Op() })
	for _, o := range all {
		assert.Same(t, o, op.Lookup(o.ID))
		assert.Equal(t, o.ID.String(), string(o.ID))
	}
}

// Every operation under the API base is found by Match from a path of its
// template, and none other is.
func TestMatchFindsEveryOperation(t *testing.T) {
	for _, o := range op.All() {
		if o.AuthHost {
			continue
		}
		var args []string
		for _, p := range o.PathParams {
			v := "x-" + p.Name
			if len(p.Enum) > 0 {
				v = p.Enum[len(p.Enum)-1] // "transactions": no word of a template
			}
			args = append(args, p.Name, v)
		}
		path, err := o.Fill(func(_, v string) (string, error) { return url.PathEscape(v), nil }, args...)
		require.NoError(t, err)
		got, allow := op.Match(o.Method, strings.Split(path, "/"))
		if assert.NotNil(t, got, path) {
			assert.Equal(t, o.ID, got.ID, path)
		}
		assert.Nil(t, allow)
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		method, path string
		want         op.ID
		allow        []string
	}{
		{"GET", "apps/a/views", op.ListViews, nil}, // a word beats {id}
		{"GET", "apps/a/r1", op.GetRecord, nil},    // apps is a record type
		{"GET", "elements/a", op.GetElement, nil},  // a word beats {recordType}
		{"GET", "tasks/a", op.RecordList, nil},     //
		{"GET", "widgets/a", "", nil},              // not a record type
		{"POST", "tasks/a/automations/validate", op.ValidateAutomation, nil},
		{"GET", "tasks/a/automations/validate", op.GetAutomation, nil}, // {id} holds "validate"
		{"PATCH", "users", "", []string{"GET", "POST"}},
		{"GET", "oauth/token", "", nil}, // not under the API base
	}
	for _, tt := range tests {
		got, allow := op.Match(tt.method, strings.Split(tt.path, "/"))
		if tt.want == "" {
			assert.Nil(t, got, tt.path)
		} else if assert.NotNil(t, got, tt.path) {
			assert.Equal(t, tt.want, got.ID, tt.path)
		}
		assert.ElementsMatch(t, tt.allow, allow, tt.path)
	}
}

func TestFill(t *testing.T) {
	check := func(field, v string) (string, error) {
		if v == "" {
			return "", &url.Error{Op: field, Err: os.ErrInvalid}
		}
		return url.PathEscape(v), nil
	}
	p, err := op.UpdateView.Op().Fill(check, "alias", "my app", "handle", "v?1")
	require.NoError(t, err)
	assert.Equal(t, "apps/my%20app/views/v%3F1", p)
	_, err = op.UpdateView.Op().Fill(check, "alias", "a", "handle", "")
	var ue *url.Error
	require.ErrorAs(t, err, &ue)
	assert.Equal(t, "handle", ue.Op)
	p, err = op.ListTables.Op().Fill(check)
	require.NoError(t, err)
	assert.Equal(t, "tables", p)
	assert.Panics(t, func() { _, _ = op.UpdateView.Op().Fill(check, "alias", "a") })
}

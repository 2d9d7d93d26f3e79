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
	require.NotEmpty(t, all)
	for _, o := range all {
		assert.Same(t, o, op.Lookup(o.ID), "Lookup(%s)", o.ID)
	}
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

// The three records operations whose ids the service's document writes in
// the plural are named so here, and their routes are found by those names.
func TestPublishedPluralIDs(t *testing.T) {
	tests := []struct {
		id           op.ID
		want         string
		method, path string
	}{
		{op.DeleteRecordAttachments, "deleteRecordAttachments", "DELETE", "/{recordType}/{alias}/{id}/attachments/{attachmentId}"},
		{op.CreateRecordRelatedItems, "createRecordRelatedItems", "POST", "/{recordType}/{alias}/{id}/related-items"},
		{op.DeleteRecordRelatedItems, "deleteRecordRelatedItems", "DELETE", "/{recordType}/{alias}/{id}/related-items/{itemId}"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, string(tt.id))
			o := op.Lookup(op.ID(tt.want))
			require.NotNil(t, o)
			assert.Equal(t, tt.method, o.Method)
			assert.Equal(t, tt.path, o.Path)
			assert.Nil(t, op.Lookup(op.ID(strings.TrimSuffix(tt.want, "s"))), "the singular id is gone")
		})
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
		{"GET", "oauth/token", "", nil},                                // not under the API base
		// The methods of the other operations: of one template in the
		// order GET, POST, PUT, PATCH, DELETE; the most specific
		// template's first.
		{"PATCH", "users", "", []string{"GET", "POST"}},
		{"PATCH", "tables/t1", "", []string{"GET", "PUT", "DELETE"}},
		{"PATCH", "groups/g1/users", "", []string{"GET", "POST", "DELETE"}},
		{"PATCH", "tables/t1/join-fields/j1/mappings", "", []string{"POST", "PUT", "DELETE"}},
		{"PATCH", "apps/a/views/comment", "", []string{"GET", "PUT", "POST"}},                 // views/{id}, then {id}/comment
		{"PATCH", "apps/a/automations/comment", "", []string{"GET", "PUT", "DELETE", "POST"}}, // automations/{id}, then {id}/comment
	}
	for _, tt := range tests {
		got, allow := op.Match(tt.method, strings.Split(tt.path, "/"))
		if tt.want == "" {
			assert.Nil(t, got, tt.path)
		} else if assert.NotNil(t, got, tt.path) {
			assert.Equal(t, tt.want, got.ID, tt.path)
		}
		assert.Equal(t, tt.allow, allow, tt.path)
	}
}

// Fill puts each value, through check, in the place of its parameter, and
// stops at the first value check refuses, with check's error.
func TestFill(t *testing.T) {
	check := func(field, v string) (string, error) {
		if v == "" {
			return "", &url.Error{Op: field, Err: os.ErrInvalid}
		}
		return url.PathEscape(v), nil
	}
	tests := []struct {
		id      op.ID
		args    []string
		want    string
		refused string // the field of the error
	}{
		{op.UpdateView, []string{"alias", "my app", "handle", "v?1"}, "apps/my%20app/views/v%3F1", ""},
		{op.UpdateView, []string{"alias", "a", "handle", ""}, "", "handle"},
		{op.ListTables, nil, "tables", ""},
		{op.GetRecordAttachment, []string{"type", "tasks", "alias", "a", "id", "r 1", "attachment", "f/1"}, "tasks/a/r%201/attachments/f%2F1", ""},
		{op.GetRecordAttachment, []string{"type", "tasks", "alias", "a", "id", "", "attachment", ""}, "", "id"},
		{op.GetRecordAttachment, []string{"type", "tasks", "alias", "a", "id", "r1", "attachment", ""}, "", "attachment"},
	}
	for _, tt := range tests {
		p, err := tt.id.Op().Fill(check, tt.args...)
		if tt.refused == "" {
			require.NoError(t, err, tt.id)
			assert.Equal(t, tt.want, p, tt.id)
			continue
		}
		var ue *url.Error
		require.ErrorAs(t, err, &ue, tt.id)
		assert.Equal(t, tt.refused, ue.Op, tt.id)
		assert.Empty(t, p, tt.id)
	}
	assert.Panics(t, func() { _, _ = op.UpdateView.Op().Fill(check, "alias", "a") }, "a pair short")
}

// Fits tells a request of the operation: its method, a path of its
// template (a parameter with an enum takes only its values), and never one
// off the API base.
func TestFits(t *testing.T) {
	tests := []struct {
		id           op.ID
		method, path string
		want         bool
	}{
		{op.UpdateView, "PUT", "apps/a/views/v1", true},
		{op.UpdateView, "GET", "apps/a/views/v1", false},
		{op.UpdateView, "PUT", "apps/a/views", false},
		{op.UpdateView, "PUT", "apps/a/views/v1/x", false},
		{op.UpdateView, "PUT", "apps/a/agents/v1", false},
		{op.RecordList, "GET", "tasks/a", true},
		{op.RecordList, "GET", "widgets/a", false}, // not a record type
		{op.RequestAccessToken, "POST", "oauth/token", false},
	}
	for _, tt := range tests {
		o := tt.id.Op()
		assert.Equal(t, tt.want, o.Fits(tt.method, strings.Split(tt.path, "/")), "%s %s %s", tt.id, tt.method, tt.path)
	}
}

package admin_test

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestViewsThroughTheFake(t *testing.T) {
	ctx := t.Context()
	srv := workflowtest.Start(t)
	srv.Define(workflow.Apps, "itm")
	srv.AddGroup("IT")
	ws := admin.New(srv.Client())

	r := openList()
	r.Share = &admin.ViewShareInput{Groups: []string{"IT"}}
	created, err := ws.Views.Create(ctx, "itm", "open", r)
	require.NoError(t, err)
	assert.Equal(t, "open", created.ClientHandle.Value())
	assert.Equal(t, admin.ViewTypeList, created.Type.Value())
	assert.Equal(t, 25, created.Rows.Value())
	assert.JSONEq(t, `{"status":"OPEN"}`, string(created.Filter))
	require.Len(t, created.Share.Value().Groups.Value(), 1)
	assert.Equal(t, "IT", created.Share.Value().Groups.Value()[0].Name)

	_, err = ws.Views.Create(ctx, "itm", "open", openList())
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a handle names one view")
	for i, h := range []string{"b", "c"} {
		_, err := ws.Views.Create(ctx, "itm", h, admin.ViewRequest{View: admin.ViewInput{Dashboard: &admin.ViewConfig{Name: new(h), DashboardID: new("d" + h)}}})
		require.NoError(t, err, i)
	}

	var handles []string
	for v, err := range ws.Views.All(ctx, "itm", &workflow.ListOptions{First: 2}) {
		require.NoError(t, err)
		handles = append(handles, v.ClientHandle.Value())
	}
	assert.Equal(t, []string{"open", "b", "c"}, handles, "every view, two per page")

	updated, err := ws.Views.Update(ctx, "itm", "open", admin.ViewRequest{
		View:  admin.ViewInput{Kanban: &admin.ViewConfig{Name: new("Board"), Sort: jsontext.Value(`{"by":"due"}`)}},
		Share: &admin.ViewShareInput{Users: []string{workflowtest.DefaultUserEmail}},
	})
	require.NoError(t, err)
	assert.Equal(t, admin.ViewTypeKanban, updated.Type.Value())
	got, err := ws.Views.Get(ctx, "itm", created.ID.Value())
	require.NoError(t, err)
	assert.Equal(t, updated, got)
	assert.Empty(t, got.Share.Value().Groups.Value())
	assert.Equal(t, workflowtest.DefaultUserID, got.Share.Value().Users.Value()[0].ID)

	_, err = ws.Views.Get(ctx, "itm", "nope")
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	_, err = ws.Views.Update(ctx, "itm", "open", admin.ViewRequest{View: admin.ViewInput{List: &admin.ViewConfig{}}, Share: &admin.ViewShareInput{Groups: []string{"Nobody"}}})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable)
	_, err = ws.Views.List(ctx, "other", nil)
	assert.ErrorIs(t, err, workflow.ErrNotFound)
}

package admin_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// apiStatus returns the status of an *workflow.APIError, 0 for any other
// error.
func apiStatus(err error) int {
	var e *workflow.APIError
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}

func TestElementsThroughTheFake(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()

	created, err := ws.Elements.Create(ctx, admin.NewElement{
		Name: "Spare Parts", CategoryID: catID, Description: new("what we stock"),
		Fields: []admin.ElementField{{Name: "Weight", Type: admin.FieldDecimal}},
	})
	require.NoError(t, err)
	assert.Equal(t, "spareparts", created.Namespace.Value(), "derived from the name's letters")
	assert.Equal(t, "SPAREPARTS", created.Handle.Value())
	assert.Equal(t, admin.SourceElementum, created.SourceType.Value())
	assert.Equal(t, "AspectElement", created.TypeName.Value())
	assert.Equal(t, catID, created.Category.Value().ID.Value())

	imported, err := ws.Elements.Create(ctx, admin.NewElement{
		Name: "Assets", Namespace: new("assets"), Handle: new("AST"), CategoryID: catID,
		CloudLinkID: new(linkID), Database: new("DB"), Schema: new("S"), Table: new("ASSETS"),
	})
	require.NoError(t, err)
	assert.Equal(t, admin.SourceSnowflake, imported.SourceType.Value())
	assert.NotEqual(t, created.ID, imported.ID)

	for _, alias := range []string{"spareparts", created.ID.Value()} {
		got, err := ws.Elements.Get(ctx, alias)
		require.NoError(t, err)
		assert.Equal(t, created, got, "read by namespace and by id")
	}

	updated, err := ws.Elements.Update(ctx, "spareparts", admin.ElementUpdate{Name: new("Parts"), Color: new("#123456")})
	require.NoError(t, err)
	assert.Equal(t, "Parts", updated.Name.Value())
	assert.Equal(t, "#123456", updated.Color.Value())
	assert.Equal(t, "what we stock", updated.Description.Value(), "what the update leaves out is kept")
	got, err := ws.Elements.Get(ctx, created.ID.Value())
	require.NoError(t, err)
	assert.Equal(t, updated, got)

	// Errors of the service.
	_, err = ws.Elements.Get(ctx, "nothing")
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	_, err = ws.Elements.Update(ctx, "nothing", admin.ElementUpdate{Name: new("X")})
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	_, err = ws.Elements.Create(ctx, admin.NewElement{Name: "Assets", Namespace: new("assets"), Handle: new("A"), CategoryID: catID})
	assert.Equal(t, http.StatusUnprocessableEntity, apiStatus(err), "a namespace is unique: %v", err)
	_, err = ws.Elements.Create(ctx, admin.NewElement{Name: "123", CategoryID: catID})
	assert.Equal(t, http.StatusUnprocessableEntity, apiStatus(err), "no namespace can be derived: %v", err)
}

// TestElementsBesideTheRecordList: GET /elements/{alias} stays the record
// list for an alias that has records and no element definition, and for
// any request with a paging parameter.
func TestElementsBesideTheRecordList(t *testing.T) {
	srv := workflowtest.Start(t)
	c := srv.Client()
	ws := admin.New(c)
	ctx := t.Context()
	srv.Seed(workflow.Elements, "racks", workflow.Record{"Name": "R1"})

	page, err := c.Records.List(ctx, workflow.Elements, "racks", nil)
	require.NoError(t, err)
	assert.Len(t, page.Items, 1)
	_, err = ws.Elements.Get(ctx, "racks")
	assert.ErrorIs(t, err, workflow.ErrUnexpectedResponse, "the record list is not taken for a definition")
	assert.Contains(t, err.Error(), "record list")

	_, err = ws.Elements.Create(ctx, admin.NewElement{Name: "Racks", Namespace: new("racks"), Handle: new("RCK"), CategoryID: catID})
	require.NoError(t, err)
	def, err := ws.Elements.Get(ctx, "racks")
	require.NoError(t, err)
	assert.Equal(t, "Racks", def.Name.Value())
	page, err = c.Records.List(ctx, workflow.Elements, "racks", &workflow.ListOptions{First: 10})
	require.NoError(t, err, "a paging parameter reaches the record list")
	assert.Len(t, page.Items, 1)

	var routes []string
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet {
			routes = append(routes, r.Route)
		}
	}
	assert.Equal(t, []string{"GET /v1/{recordType}/{alias}", "GET /v1/{recordType}/{alias}", "GET /v1/elements/{alias}", "GET /v1/{recordType}/{alias}"}, routes)
}

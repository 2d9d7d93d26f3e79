package admin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestSearchTablesThroughTheFake: created search tables can be read and
// changed under their aspect; the fake's rules answer 404 and 422.
func TestSearchTablesThroughTheFake(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()
	const other = "5f0e8400-e29b-41d4-a716-446655440009"

	sf, err := ws.SearchTables.Create(ctx, e2eSource, admin.SnowflakeSearchTableRequest{AttributeFieldIDs: []string{e2eCategory},
		Duration: admin.TimeUnitMinutes, TargetLag: 5, Warehouse: new("WH"),
		VectorIndexes: []admin.VectorIndexInput{{FieldID: e2eCategory, AIProviderConnectorID: other}}})
	require.NoError(t, err)
	assert.Equal(t, "AspectSearchSnowflakeTable", sf.Typename.Value())
	assert.Equal(t, admin.SearchTableReady, sf.Status.Value())
	assert.Equal(t, e2eCategory, sf.AttributeFields.Value()[0].ID.Value())
	assert.Equal(t, other, sf.VectorIndexes.Value()[0].AIProviderConnector.Value().ID.Value())

	up, err := ws.SearchTables.Update(ctx, e2eSource, sf.ID.Value(), admin.SearchTableUpdate{Snowflake: &admin.SnowflakeSearchTableUpdate{
		TargetLag: new(2), Duration: new(admin.TimeUnitHours)}})
	require.NoError(t, err)
	assert.Equal(t, 2, up.TargetLag.Value())
	assert.Equal(t, admin.TimeUnitHours, up.Duration.Value())
	assert.Equal(t, "WH", up.Warehouse.Value(), "what the update leaves out is kept")
	got, err := ws.SearchTables.Get(ctx, e2eSource, sf.ID.Value())
	require.NoError(t, err)
	assert.Equal(t, up, got)

	_, err = ws.SearchTables.Get(ctx, other, sf.ID.Value())
	assert.ErrorIs(t, err, workflow.ErrNotFound, "a search table is found under its own aspect")

	linked := admin.LinkedSearchTableRequest{CloudLinkID: other, Database: "DB", Schema: "S", ServiceName: "SVC"}
	ln, err := ws.SearchTables.CreateLinked(ctx, e2eSource, linked)
	require.NoError(t, err)
	assert.Equal(t, "AspectLinkedSearchTable", ln.Typename.Value())
	assert.Equal(t, "SVC", ln.LinkedServiceName.Value())
	_, err = ws.SearchTables.CreateLinked(ctx, e2eSource, linked)
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a service is linked once per aspect")
	_, err = ws.SearchTables.Update(ctx, e2eSource, ln.ID.Value(), admin.SearchTableUpdate{Snowflake: &admin.SnowflakeSearchTableUpdate{Warehouse: new("W2")}})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a linked table has no Snowflake settings")
}

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

const (
	e2eSource   = "5f0e8400-e29b-41d4-a716-446655440000"
	e2eCategory = "5f0e8400-e29b-41d4-a716-446655440001"
)

func newTable(name, handle string) admin.TableCreateRequest {
	return admin.TableCreateRequest{
		Name: name, Handle: handle, Source: e2eSource, CategoryID: e2eCategory, Description: new(name + " table"),
		Fields: []admin.TableFieldInput{
			{Cloud: &admin.TableCloudField{Name: "Status", Snowflake: &admin.TableColumn{ColumnName: "STATUS", Type: admin.FieldText}}},
			{Reference: &admin.TableReferenceField{Name: new("Owner"), Field: new(e2eSource), Expanded: new(admin.ExpandedUserEmail)}},
		},
	}
}

// TestTablesThroughTheFake: what is created can be read, listed, changed
// and deleted, with the published statuses, and the fake's rules answer
// 404 and 422.
func TestTablesThroughTheFake(t *testing.T) {
	// Generous replies only: it asserts that a table's description, which
	// the document's Table does not have, is kept in Extra when a service
	// sends it.
	srv := workflowtest.Start(t, workflowtest.WithReplies(workflowtest.Generous))
	ws := admin.New(srv.Client())
	ctx := t.Context()

	orders, err := ws.Tables.Create(ctx, newTable("Orders", "ORD"))
	require.NoError(t, err)
	assert.Equal(t, "ORD", orders.Handle.Value())
	require.Len(t, orders.Fields.Value(), 2)
	assert.Equal(t, "TableFieldCloud", orders.Fields.Value()[0].Typename.Value())
	assert.Equal(t, admin.ExpandedUserEmail, orders.Fields.Value()[1].Expanded.Value())
	assert.JSONEq(t, `"Orders table"`, string(orders.Extra["description"]), "members the SDK does not model are kept")

	_, err = ws.Tables.Create(ctx, newTable("Again", "ORD"))
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a handle is unique")

	// A second table, joined in when it is created.
	custReq := newTable("Customers", "CUS")
	custReq.Joins = []admin.TableJoinInput{{Source: orders.ID.Ptr(), Type: new(admin.JoinLeft),
		JoinOn: []admin.TableJoinOn{{LeftFieldID: orders.Fields.Value()[0].ID.Value(), RightFieldID: orders.Fields.Value()[0].ID.Value()}}}}
	customers, err := ws.Tables.Create(ctx, custReq)
	require.NoError(t, err)
	require.Len(t, customers.Joins.Value(), 1)
	assert.Equal(t, orders.ID, customers.Joins.Value()[0].Source.Value().ID)

	// Listed in creation order, page by page.
	var handles []string
	for tb, err := range ws.Tables.All(ctx, &workflow.ListOptions{First: 1}) {
		require.NoError(t, err)
		handles = append(handles, tb.Handle.Value())
	}
	assert.Equal(t, []string{"ORD", "CUS"}, handles)

	// Update: what the body leaves out is kept; fields change by id.
	up, err := ws.Tables.Update(ctx, orders.ID.Value(), admin.TableUpdateRequest{Name: new("Orders 2"), Fields: &admin.TableFieldChanges{
		Creates: []admin.TableFieldCreate{{Field: admin.TableFieldInput{Calculation: &admin.TableCalculationField{Name: new("Twice"), Text: new("Total*2")}}, Index: new(0)}},
		Updates: []admin.TableFieldUpdate{{ID: orders.Fields.Value()[1].ID.Value(), Field: admin.TableFieldInput{Reference: &admin.TableReferenceField{Aggregation: new(admin.AggregationCount)}}}},
	}, DataView: &admin.TableDataViewInput{Snowflake: &admin.TableDataViewName{Name: new("ORDERS_V")}}, OrderBy: jsontext.Value(`{"by":"Status"}`)})
	require.NoError(t, err)
	assert.Equal(t, "Orders 2", up.Name.Value())
	assert.Equal(t, "ORD", up.Handle.Value())
	require.Len(t, up.Fields.Value(), 3)
	assert.Equal(t, "Twice", up.Fields.Value()[0].Name.Value())
	assert.Equal(t, admin.AggregationCount, up.Fields.Value()[2].Aggregation.Value())
	assert.Equal(t, "Owner", up.Fields.Value()[2].Name.Value())
	assert.Equal(t, "ORDERS_V", up.DataView.Value().Name.Value())
	got, err := ws.Tables.Get(ctx, orders.ID.Value())
	require.NoError(t, err)
	assert.Equal(t, up, got)

	_, err = ws.Tables.Update(ctx, orders.ID.Value(), admin.TableUpdateRequest{Fields: &admin.TableFieldChanges{Deletes: []admin.TableFieldDelete{{ID: customers.ID.Value()}}}})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "an unknown field id")
	_, err = ws.Tables.Update(ctx, orders.ID.Value(), admin.TableUpdateRequest{Fields: &admin.TableFieldChanges{
		Updates: []admin.TableFieldUpdate{{ID: orders.Fields.Value()[0].ID.Value(), Field: admin.TableFieldInput{Calculation: &admin.TableCalculationField{Text: new("1")}}}}}})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a cloud field is not changed as a calculation")

	// Joins.
	onStatus := []admin.TableJoinOn{{LeftFieldID: orders.Fields.Value()[0].ID.Value(), RightFieldID: customers.Fields.Value()[0].ID.Value()}}
	_, err = ws.Tables.Joins.Create(ctx, orders.ID.Value(), admin.TableJoinInput{Source: new(e2eSource), Type: new(admin.JoinInner), JoinOn: onStatus})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "the source must be a table")
	_, err = ws.Tables.Joins.Create(ctx, orders.ID.Value(), admin.TableJoinInput{Source: customers.ID.Ptr(), Type: new(admin.JoinInner),
		JoinOn: []admin.TableJoinOn{{LeftFieldID: customers.Fields.Value()[0].ID.Value(), RightFieldID: customers.Fields.Value()[0].ID.Value()}}})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "the left field must be the table's")
	join, err := ws.Tables.Joins.Create(ctx, orders.ID.Value(), admin.TableJoinInput{Source: customers.ID.Ptr(), Type: new(admin.JoinInner), JoinOn: onStatus})
	require.NoError(t, err)
	require.Len(t, join.OnFields.Value(), 1)
	pair := join.OnFields.Value()[0].ID
	join, err = ws.Tables.Joins.Update(ctx, orders.ID.Value(), join.ID.Value(), admin.TableJoinInput{Type: new(admin.JoinFull)})
	require.NoError(t, err)
	assert.Equal(t, admin.JoinFull, join.Type.Value())
	assert.Equal(t, pair, join.OnFields.Value()[0].ID, "pairs are kept when the body leaves them out")

	// Mappings of the pair.
	m := ws.Tables.JoinMappings
	require.NoError(t, m.Create(ctx, orders.ID.Value(), pair.Value(), []admin.JoinMapping{{Source: "open", Target: "OPEN"}, {Source: "done", Target: "DONE"}}))
	assert.ErrorIs(t, m.Create(ctx, orders.ID.Value(), pair.Value(), []admin.JoinMapping{{Source: "open", Target: "X"}}), workflow.ErrUnprocessable)
	require.NoError(t, m.Update(ctx, orders.ID.Value(), pair.Value(), []admin.JoinMapping{{Source: "open", Target: "Open"}, {Source: "new", Target: "NEW"}}))
	require.NoError(t, m.Delete(ctx, orders.ID.Value(), pair.Value(), []string{"done", "never-mapped"}))
	info, ok := srv.Table(orders.ID.Value())
	require.True(t, ok)
	assert.Equal(t, []string{"open=Open", "new=NEW"}, info.Mappings[pair.Value()])
	got, err = ws.Tables.Get(ctx, orders.ID.Value())
	require.NoError(t, err)
	assert.JSONEq(t, `{"edges":[{"node":{"source":"open","target":"Open"}},{"node":{"source":"new","target":"NEW"}}]}`,
		string(got.Joins.Value()[0].OnFields.Value()[0].JoinMappings))
	assert.ErrorIs(t, m.Delete(ctx, orders.ID.Value(), customers.ID.Value(), []string{"open"}), workflow.ErrNotFound, "an unknown pair")

	// Deletes: a joined table stays; a join and a table go with 204.
	assert.ErrorIs(t, ws.Tables.Delete(ctx, customers.ID.Value()), workflow.ErrUnprocessable, "orders joins customers")
	require.NoError(t, ws.Tables.Joins.Delete(ctx, orders.ID.Value(), join.ID.Value()))
	assert.ErrorIs(t, ws.Tables.Joins.Delete(ctx, orders.ID.Value(), join.ID.Value()), workflow.ErrNotFound)
	assert.ErrorIs(t, ws.Tables.Delete(ctx, orders.ID.Value()), workflow.ErrUnprocessable, "customers joins orders")
	require.NoError(t, ws.Tables.Delete(ctx, customers.ID.Value()))
	require.NoError(t, ws.Tables.Delete(ctx, orders.ID.Value()))
	_, err = ws.Tables.Get(ctx, orders.ID.Value())
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	page, err := ws.Tables.List(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, page.Items)
	assert.Zero(t, page.Total)
}

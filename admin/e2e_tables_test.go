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
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()

	orders, err := ws.Tables.Create(ctx, newTable("Orders", "ORD"))
	require.NoError(t, err)
	assert.Equal(t, "ORD", orders.Handle)
	require.Len(t, orders.Fields, 2)
	assert.Equal(t, "TableFieldCloud", orders.Fields[0].Typename)
	assert.Equal(t, admin.ExpandedUserEmail, orders.Fields[1].Expanded)
	assert.JSONEq(t, `"Orders table"`, string(orders.Extra["description"]), "members the SDK does not model are kept")

	_, err = ws.Tables.Create(ctx, newTable("Again", "ORD"))
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a handle is unique")

	// A second table, joined in when it is created.
	custReq := newTable("Customers", "CUS")
	custReq.Joins = []admin.TableJoinInput{{Source: new(orders.ID), Type: new(admin.JoinLeft),
		JoinOn: []admin.TableJoinOn{{LeftFieldID: orders.Fields[0].ID, RightFieldID: orders.Fields[0].ID}}}}
	customers, err := ws.Tables.Create(ctx, custReq)
	require.NoError(t, err)
	require.Len(t, customers.Joins, 1)
	assert.Equal(t, orders.ID, customers.Joins[0].Source.ID)

	// Listed in creation order, page by page.
	var handles []string
	for tb, err := range ws.Tables.All(ctx, &workflow.ListOptions{First: 1}) {
		require.NoError(t, err)
		handles = append(handles, tb.Handle)
	}
	assert.Equal(t, []string{"ORD", "CUS"}, handles)

	// Update: what the body leaves out is kept; fields change by id.
	up, err := ws.Tables.Update(ctx, orders.ID, admin.TableUpdateRequest{Name: new("Orders 2"), Fields: &admin.TableFieldChanges{
		Creates: []admin.TableFieldCreate{{Field: admin.TableFieldInput{Calculation: &admin.TableCalculationField{Name: new("Twice"), Text: new("Total*2")}}, Index: new(0)}},
		Updates: []admin.TableFieldUpdate{{ID: orders.Fields[1].ID, Field: admin.TableFieldInput{Reference: &admin.TableReferenceField{Aggregation: new(admin.AggregationCount)}}}},
	}, DataView: &admin.TableDataViewInput{Snowflake: &admin.TableDataViewName{Name: new("ORDERS_V")}}, OrderBy: jsontext.Value(`{"by":"Status"}`)})
	require.NoError(t, err)
	assert.Equal(t, "Orders 2", up.Name)
	assert.Equal(t, "ORD", up.Handle)
	require.Len(t, up.Fields, 3)
	assert.Equal(t, "Twice", up.Fields[0].Name)
	assert.Equal(t, admin.AggregationCount, up.Fields[2].Aggregation)
	assert.Equal(t, "Owner", up.Fields[2].Name)
	assert.Equal(t, "ORDERS_V", up.DataView.Name)
	got, err := ws.Tables.Get(ctx, orders.ID)
	require.NoError(t, err)
	assert.Equal(t, up, got)

	_, err = ws.Tables.Update(ctx, orders.ID, admin.TableUpdateRequest{Fields: &admin.TableFieldChanges{Deletes: []admin.TableFieldDelete{{ID: customers.ID}}}})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "an unknown field id")
	_, err = ws.Tables.Update(ctx, orders.ID, admin.TableUpdateRequest{Fields: &admin.TableFieldChanges{
		Updates: []admin.TableFieldUpdate{{ID: orders.Fields[0].ID, Field: admin.TableFieldInput{Calculation: &admin.TableCalculationField{Text: new("1")}}}}}})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a cloud field is not changed as a calculation")

	// Joins.
	onStatus := []admin.TableJoinOn{{LeftFieldID: orders.Fields[0].ID, RightFieldID: customers.Fields[0].ID}}
	_, err = ws.Tables.Joins.Create(ctx, orders.ID, admin.TableJoinInput{Source: new(e2eSource), Type: new(admin.JoinInner), JoinOn: onStatus})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "the source must be a table")
	_, err = ws.Tables.Joins.Create(ctx, orders.ID, admin.TableJoinInput{Source: new(customers.ID), Type: new(admin.JoinInner),
		JoinOn: []admin.TableJoinOn{{LeftFieldID: customers.Fields[0].ID, RightFieldID: customers.Fields[0].ID}}})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "the left field must be the table's")
	join, err := ws.Tables.Joins.Create(ctx, orders.ID, admin.TableJoinInput{Source: new(customers.ID), Type: new(admin.JoinInner), JoinOn: onStatus})
	require.NoError(t, err)
	require.Len(t, join.OnFields, 1)
	pair := join.OnFields[0].ID
	join, err = ws.Tables.Joins.Update(ctx, orders.ID, join.ID, admin.TableJoinInput{Type: new(admin.JoinFull)})
	require.NoError(t, err)
	assert.Equal(t, admin.JoinFull, join.Type)
	assert.Equal(t, pair, join.OnFields[0].ID, "pairs are kept when the body leaves them out")

	// Mappings of the pair.
	m := ws.Tables.JoinMappings
	require.NoError(t, m.Create(ctx, orders.ID, pair, []admin.JoinMapping{{Source: "open", Target: "OPEN"}, {Source: "done", Target: "DONE"}}))
	assert.ErrorIs(t, m.Create(ctx, orders.ID, pair, []admin.JoinMapping{{Source: "open", Target: "X"}}), workflow.ErrUnprocessable)
	require.NoError(t, m.Update(ctx, orders.ID, pair, []admin.JoinMapping{{Source: "open", Target: "Open"}, {Source: "new", Target: "NEW"}}))
	require.NoError(t, m.Delete(ctx, orders.ID, pair, []string{"done", "never-mapped"}))
	info, ok := srv.Table(orders.ID)
	require.True(t, ok)
	assert.Equal(t, []string{"open=Open", "new=NEW"}, info.Mappings[pair])
	got, err = ws.Tables.Get(ctx, orders.ID)
	require.NoError(t, err)
	assert.JSONEq(t, `{"edges":[{"node":{"source":"open","target":"Open"}},{"node":{"source":"new","target":"NEW"}}]}`,
		string(got.Joins[0].OnFields[0].JoinMappings))
	assert.ErrorIs(t, m.Delete(ctx, orders.ID, customers.ID, []string{"open"}), workflow.ErrNotFound, "an unknown pair")

	// Deletes: a joined table stays; a join and a table go with 204.
	assert.ErrorIs(t, ws.Tables.Delete(ctx, customers.ID), workflow.ErrUnprocessable, "orders joins customers")
	require.NoError(t, ws.Tables.Joins.Delete(ctx, orders.ID, join.ID))
	assert.ErrorIs(t, ws.Tables.Joins.Delete(ctx, orders.ID, join.ID), workflow.ErrNotFound)
	assert.ErrorIs(t, ws.Tables.Delete(ctx, orders.ID), workflow.ErrUnprocessable, "customers joins orders")
	require.NoError(t, ws.Tables.Delete(ctx, customers.ID))
	require.NoError(t, ws.Tables.Delete(ctx, orders.ID))
	_, err = ws.Tables.Get(ctx, orders.ID)
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	page, err := ws.Tables.List(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, page.Items)
	assert.Zero(t, page.Total)
}

package workflowtest_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestTablesContractCoverage drives every operation of the tables and
// search tables families through the fake with the SDK, checking each
// exchange against the contract document, and asserts that each
// operation was seen.
func TestTablesContractCoverage(t *testing.T) {
	srv := workflowtest.Start(t)
	v, err := contract.New()
	require.NoError(t, err)
	id, secret := srv.Credentials()
	c, err := workflow.NewClient(workflow.WithCredentials(id, secret), workflow.WithEndpoint(srv.BaseURL(), srv.AuthURL()),
		workflow.WithHTTPClient(&http.Client{Transport: v.Transport(t, srv.HTTPClient().Transport)}))
	require.NoError(t, err)
	ws, ctx := admin.New(c), t.Context()

	tb, err := ws.Tables.Create(ctx, admin.TableCreateRequest{Name: "T", Handle: "T",
		Source: "50000000-0000-4000-8000-000000000001", CategoryID: "50000000-0000-4000-8000-000000000002",
		Fields: []admin.TableFieldInput{{Calculation: &admin.TableCalculationField{Name: new("One"), Text: new("1")}}}})
	require.NoError(t, err)
	_, err = ws.Tables.List(ctx, nil)
	require.NoError(t, err)
	_, err = ws.Tables.Get(ctx, tb.ID.Value())
	require.NoError(t, err)
	_, err = ws.Tables.Update(ctx, tb.ID.Value(), admin.TableUpdateRequest{Color: new("red")})
	require.NoError(t, err)
	j, err := ws.Tables.Joins.Create(ctx, tb.ID.Value(), admin.TableJoinInput{Source: tb.ID.Ptr(), Type: new(admin.JoinInner),
		JoinOn: []admin.TableJoinOn{{LeftFieldID: tb.Fields.Value()[0].ID.Value(), RightFieldID: tb.Fields.Value()[0].ID.Value()}}})
	require.NoError(t, err)
	_, err = ws.Tables.Joins.Update(ctx, tb.ID.Value(), j.ID.Value(), admin.TableJoinInput{Type: new(admin.JoinRight)})
	require.NoError(t, err)
	pair, m := j.OnFields.Value()[0].ID, []admin.JoinMapping{{Source: "a", Target: "b"}}
	require.NoError(t, ws.Tables.JoinMappings.Create(ctx, tb.ID.Value(), pair.Value(), m))
	require.NoError(t, ws.Tables.JoinMappings.Update(ctx, tb.ID.Value(), pair.Value(), m))
	require.NoError(t, ws.Tables.JoinMappings.Delete(ctx, tb.ID.Value(), pair.Value(), []string{"a"}))
	require.NoError(t, ws.Tables.Joins.Delete(ctx, tb.ID.Value(), j.ID.Value()))
	require.NoError(t, ws.Tables.Delete(ctx, tb.ID.Value()))

	const aspect = "50000000-0000-4000-8000-000000000003"
	st, err := ws.SearchTables.Create(ctx, aspect, admin.SnowflakeSearchTableRequest{Duration: admin.TimeUnitSeconds, TargetLag: 30})
	require.NoError(t, err)
	_, err = ws.SearchTables.Get(ctx, aspect, st.ID.Value())
	require.NoError(t, err)
	_, err = ws.SearchTables.Update(ctx, aspect, st.ID.Value(), admin.SearchTableUpdate{Snowflake: &admin.SnowflakeSearchTableUpdate{Warehouse: new("WH")}})
	require.NoError(t, err)
	_, err = ws.SearchTables.CreateLinked(ctx, aspect, admin.LinkedSearchTableRequest{CloudLinkID: aspect, Database: "D", Schema: "S", ServiceName: "N"})
	require.NoError(t, err)

	seen := v.Seen()
	for _, op := range []string{"listTables", "createTable", "getTable", "updateTable", "deleteTable", "createTableJoin",
		"updateTableJoin", "deleteTableJoin", "createTableJoinMapping", "updateTableJoinMapping", "deleteTableJoinMapping",
		"createSnowflakeSearchTable", "createLinkedSearchTable", "getSearchTable", "updateSearchTable"} {
		assert.True(t, slices.Contains(seen, op), "operation %s is exercised", op)
	}
}

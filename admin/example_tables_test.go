package admin_test

import (
	"context"
	"fmt"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// The ids of the source aspect and the category a table is filed under,
// as a workspace would have them.
const (
	ordersAspect = "5f0e8400-e29b-41d4-a716-446655440000"
	reports      = "5f0e8400-e29b-41d4-a716-446655440001"
)

func ExampleTablesService_Create() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	ws := admin.New(srv.Client())
	ctx := context.Background()

	t, err := ws.Tables.Create(ctx, admin.TableCreateRequest{
		Name: "Open orders", Handle: "OPN", Source: ordersAspect, CategoryID: reports,
		Fields: []admin.TableFieldInput{
			{Cloud: &admin.TableCloudField{Name: "Status", Snowflake: &admin.TableColumn{ColumnName: "STATUS", Type: admin.FieldText}}},
			{Calculation: &admin.TableCalculationField{Name: new("Net"), Text: new("Total - Tax")}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Handle, t.Fields.Value()[0].Typename, t.Fields.Value()[1].Typename)

	// A rule broken before sending: the field is named, nothing is sent.
	_, err = ws.Tables.Create(ctx, admin.TableCreateRequest{Name: "Bad category", Handle: "BAD", Source: ordersAspect, CategoryID: "reports",
		Fields: []admin.TableFieldInput{{Calculation: &admin.TableCalculationField{Name: new("Net"), Text: new("Total - Tax")}}}})
	fmt.Println(err)
	// Output:
	// OPN TableFieldCloud TableFieldCalculation
	// workflow: invalid TableCreateRequest.CategoryID: must be a UUID
}

func ExampleTablesService_All() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	ws := admin.New(srv.Client())
	ctx := context.Background()
	for _, h := range []string{"AAA", "BBB", "CCC"} {
		_, err := ws.Tables.Create(ctx, admin.TableCreateRequest{Name: h, Handle: h, Source: ordersAspect, CategoryID: reports,
			Fields: []admin.TableFieldInput{{Calculation: &admin.TableCalculationField{Name: new("One"), Text: new("1")}}}})
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	// Two tables a page; the iterator follows the cursors.
	for t, err := range ws.Tables.All(ctx, &workflow.ListOptions{First: 2}) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(t.Handle)
	}
	// Output:
	// AAA
	// BBB
	// CCC
}

func ExampleTableJoinsService_Create() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	ws := admin.New(srv.Client())
	ctx := context.Background()
	status := admin.TableFieldInput{Cloud: &admin.TableCloudField{Name: "Status", Snowflake: &admin.TableColumn{ColumnName: "STATUS", Type: admin.FieldText}}}
	orders, err := ws.Tables.Create(ctx, admin.TableCreateRequest{Name: "Orders", Handle: "ORD", Source: ordersAspect, CategoryID: reports,
		Fields: []admin.TableFieldInput{status}})
	if err != nil {
		fmt.Println(err)
		return
	}
	codes, err := ws.Tables.Create(ctx, admin.TableCreateRequest{Name: "Status codes", Handle: "STC", Source: ordersAspect, CategoryID: reports,
		Fields: []admin.TableFieldInput{status}})
	if err != nil {
		fmt.Println(err)
		return
	}

	// Join the codes in on the status, then map the orders' values to the
	// codes' values on that field pair.
	join, err := ws.Tables.Joins.Create(ctx, orders.ID.Value(), admin.TableJoinInput{Source: codes.ID.Ptr(), Type: new(admin.JoinLeft),
		JoinOn: []admin.TableJoinOn{{LeftFieldID: orders.Fields.Value()[0].ID.Value(), RightFieldID: codes.Fields.Value()[0].ID.Value()}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	pair := join.OnFields.Value()[0].ID
	err = ws.Tables.JoinMappings.Create(ctx, orders.ID.Value(), pair.Value(), []admin.JoinMapping{{Source: "open", Target: "OPEN"}, {Source: "shipped", Target: "DONE"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	t, err := ws.Tables.Get(ctx, orders.ID.Value())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Joins.Value()[0].Type, string(t.Joins.Value()[0].OnFields.Value()[0].JoinMappings))
	// Output:
	// LEFT {"edges":[{"node":{"source":"open","target":"OPEN"}},{"node":{"source":"shipped","target":"DONE"}}]}
}

func ExampleSearchTablesService_Create() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	ws := admin.New(srv.Client())
	ctx := context.Background()

	st, err := ws.SearchTables.Create(ctx, ordersAspect, admin.SnowflakeSearchTableRequest{
		AttributeFieldIDs: []string{reports}, Duration: admin.TimeUnitMinutes, TargetLag: 15,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err = ws.SearchTables.Update(ctx, ordersAspect, st.ID.Value(), admin.SearchTableUpdate{
		Snowflake: &admin.SnowflakeSearchTableUpdate{TargetLag: new(1), Duration: new(admin.TimeUnitHours)},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Status, st.TargetLag, st.Duration)
	// Output:
	// READY 1 HOURS
}

// A table as read is created again, in this workspace or another, with
// the body its Request method returns; the document's Table has no
// category, so the caller supplies one when the service sends none.
func ExampleTable_Request() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	ws := admin.New(srv.Client())
	ctx := context.Background()

	orders, err := ws.Tables.Create(ctx, admin.TableCreateRequest{
		Name: "Open orders", Handle: "OPN", Source: ordersAspect, CategoryID: reports,
		Fields: []admin.TableFieldInput{
			{Cloud: &admin.TableCloudField{Name: "Status", Snowflake: &admin.TableColumn{ColumnName: "STATUS", Type: admin.FieldText}}},
			{Calculation: &admin.TableCalculationField{Name: new("Net"), Text: new("Total - Tax")}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	body, err := orders.Request()
	if err != nil {
		fmt.Println(err)
		return
	}
	body.Handle = "OP2" // a record-handle prefix is unique in a workspace
	if body.CategoryID == "" {
		body.CategoryID = reports
	}
	copied, err := ws.Tables.Create(ctx, body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(copied.Name, copied.Handle, copied.Fields.Value()[0].Name, copied.Fields.Value()[1].Name)
	// Output:
	// Open orders OP2 Status Net
}

// A table kept in a file (as read, with either JSON library) is restored
// over the table the workspace holds now: UpdateRequest turns the saved
// state into the changes to today's fields, matched by clientHandle or
// id, so a renamed field is renamed back, not deleted and created again.
func ExampleTable_UpdateRequest() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	ws := admin.New(srv.Client())
	ctx := context.Background()

	saved, err := ws.Tables.Create(ctx, admin.TableCreateRequest{
		Name: "Open orders", Handle: "OPN", Source: ordersAspect, CategoryID: reports,
		Fields: []admin.TableFieldInput{
			{Calculation: &admin.TableCalculationField{Name: new("Net"), Text: new("Total - Tax")}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	// Someone renames the field in the workspace.
	renamed := *saved
	renamed.Name = admin.Some("Orders (old)")
	renamed.Fields = admin.Some([]admin.TableField{saved.Fields.Value()[0]})
	renamed.Fields.Value()[0].Name = admin.Some("Net amount")
	body, err := renamed.UpdateRequest(*saved)
	if err != nil {
		fmt.Println(err)
		return
	}
	now, err := ws.Tables.Update(ctx, saved.ID.Value(), body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(now.Name.Value(), now.Fields.Value()[0].Name.Value())

	// The saved state is put back: the same field, renamed back.
	body, err = saved.UpdateRequest(*now)
	if err != nil {
		fmt.Println(err)
		return
	}
	back, err := ws.Tables.Update(ctx, saved.ID.Value(), body)
	if err != nil {
		fmt.Println(err)
		return
	}
	f := back.Fields.Value()[0]
	fmt.Println(back.Name.Value(), f.Name.Value(), f.ID.Value() == saved.Fields.Value()[0].ID.Value())
	// Output:
	// Orders (old) Net amount
	// Open orders Net true
}

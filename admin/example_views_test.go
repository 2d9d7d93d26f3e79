package admin_test

import (
	"context"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// A view is created under a handle, its portable identifier: Update
// addresses the view by the same handle in every workspace.
func ExampleViewsService_Create() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	srv.Define(workflow.Apps, "itmanagement")
	srv.AddGroup("IT Support")
	ws := admin.New(srv.Client())
	ctx := context.Background()

	v, err := ws.Views.Create(ctx, "itmanagement", "open-requests", admin.ViewRequest{
		View: admin.ViewInput{List: &admin.ViewConfig{
			Name:   new("Open requests"),
			Filter: jsontext.Value(`{"Status":"Open"}`),
			Rows:   new(50),
		}},
		Share: &admin.ViewShareInput{Groups: []string{"IT Support"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.ClientHandle, v.Type, v.Rows, v.Share.Value().Groups.Value()[0].Name)

	v, err = ws.Views.Update(ctx, "itmanagement", "open-requests", admin.ViewRequest{
		View: admin.ViewInput{Kanban: &admin.ViewConfig{Name: new("Open requests by stage")}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.ClientHandle, v.Type, v.Name)
	// Output:
	// open-requests AspectViewList 50 IT Support
	// open-requests AspectViewKanban Open requests by stage
}

// All walks every view of an app, page after page.
func ExampleViewsService_All() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	srv.AddView("itmanagement", "open-requests", "list", map[string]any{"name": "Open requests"})
	srv.AddView("itmanagement", "by-stage", "kanban", map[string]any{"name": "By stage"})
	ws := admin.New(srv.Client())

	for v, err := range ws.Views.All(context.Background(), "itmanagement", nil) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d %s (%s)\n", v.DisplayOrder.Value(), v.Name.Value(), v.ClientHandle.Value())
	}
	// Output:
	// 1 Open requests (open-requests)
	// 2 By stage (by-stage)
}

// A view as read is written back, here or in another workspace, with the
// body its Request method returns: the promotion of a view from staging
// to production.
func ExampleView_Request() {
	staging, production := workflowtest.NewServer(), workflowtest.NewServer()
	defer staging.Close()
	defer production.Close()
	staging.Define(workflow.Apps, "itmanagement")
	production.Define(workflow.Apps, "itmanagement")
	src, dst := admin.New(staging.Client()), admin.New(production.Client())
	ctx := context.Background()

	_, err := src.Views.Create(ctx, "itmanagement", "open-requests", admin.ViewRequest{View: admin.ViewInput{List: &admin.ViewConfig{
		Name: new("Open requests"), Filter: jsontext.Value(`{"Status":"Open"}`), Rows: new(50),
	}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := src.Views.Get(ctx, "itmanagement", "open-requests")
	if err != nil {
		fmt.Println(err)
		return
	}
	body, err := v.Request()
	if err != nil {
		fmt.Println(err)
		return
	}
	copied, err := dst.Views.Create(ctx, "itmanagement", v.ClientHandle.Value(), body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(copied.ClientHandle, copied.Type, copied.Name, copied.Rows, string(copied.Filter))
	// Output:
	// open-requests AspectViewList Open requests 50 {"Status":"Open"}
}

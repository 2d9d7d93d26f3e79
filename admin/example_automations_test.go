package admin_test

import (
	"context"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// An automation is a JSON object whose members the service does not
// publish: check it with Validate, then create it.
func ExampleAutomationsService_Create() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	srv.Define(workflow.Apps, "itmanagement")
	ws := admin.New(srv.Client())
	ctx := context.Background()

	def := admin.Automation{
		"name":     jsontext.Value(`"Escalate urgent requests"`),
		"triggers": jsontext.Value(`[{"type":"RECORD_CREATED"}]`),
	}
	verdict, err := ws.Automations.Validate(ctx, workflow.Apps, "itmanagement", def)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("valid:", string(verdict["valid"]))

	a, err := ws.Automations.Create(ctx, workflow.Apps, "itmanagement", def)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("created:", string(a["name"]))
	// Output:
	// valid: true
	// created: "Escalate urgent requests"
}

// List reads every automation of an app; each encodes to the same bytes
// every time (members in sorted order), ready for version control.
func ExampleAutomationsService_List() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	srv.AddAutomation(workflow.Apps, "itmanagement", map[string]any{"name": "Notify the team"})
	ws := admin.New(srv.Client())

	list, err := ws.Automations.List(context.Background(), workflow.Apps, "itmanagement")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range list {
		delete(a, "id") // the id differs from one workspace to another
		b, _ := a.MarshalJSON()
		fmt.Println(string(b))
	}
	// Output:
	// {"name":"Notify the team"}
}

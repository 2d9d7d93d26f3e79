package admin_test

import (
	"context"
	"fmt"

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

	def := admin.Automation(`{"name": "Escalate urgent requests", "triggers": [{"type": "RECORD_CREATED"}]}`)
	verdict, err := ws.Automations.Validate(ctx, workflow.Apps, "itmanagement", def)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("verdict:", string(verdict))

	a, err := ws.Automations.Create(ctx, workflow.Apps, "itmanagement", def)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("created:", a.Name())
	// Output:
	// verdict: {"errors":[],"valid":true}
	// created: Escalate urgent requests
}

// List reads every automation of an app, each in its canonical form (the
// same bytes every time, members sorted at every depth), ready for
// version control.
func ExampleAutomationsService_List() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	srv.AddAutomation(workflow.Apps, "itmanagement", map[string]any{"name": "Notify the team", "tasks": []any{map[string]any{"to": "ops", "kind": "email"}}})
	ws := admin.New(srv.Client())

	list, err := ws.Automations.List(context.Background(), workflow.Apps, "itmanagement")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range list {
		fmt.Println(a.Name(), string(a.Member("tasks")))
	}
	// Output:
	// Notify the team [{"kind":"email","to":"ops"}]
}

// Get answers every version of an automation: its active version and its
// draft, when it has one.
func ExampleAutomationsService_Get() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	id := srv.AddAutomation(workflow.Apps, "itmanagement", map[string]any{"name": "Notify the team"})
	srv.SetAutomationDraft(workflow.Apps, "itmanagement", id, map[string]any{"name": "Notify the team and the lead"})
	ws := admin.New(srv.Client())

	v, err := ws.Automations.Get(context.Background(), workflow.Apps, "itmanagement", id)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("active:", v.Active().Name())
	fmt.Println("draft:", v.Draft().Name())
	// Output:
	// active: Notify the team
	// draft: Notify the team and the lead
}

package workflow_test

import (
	"context"
	"fmt"
	"log"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// ExampleWatchersService_Add makes two users watch a task, by e-mail
// address, then lists who watches it: users and groups.
func ExampleWatchersService_Add() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"id": "T-1", "Title": "New laptop"})
	ann := srv.AddUser("ann@example.com", "Ann", "Lee")
	srv.AddUser("bo@example.com", "Bo", "Berg")
	srv.WatchGroup(workflow.Tasks, "it-requests", "T-1", srv.AddGroup("IT Support", ann.UserID))
	c := srv.Client()
	ctx := context.Background()

	err := c.Records.Watchers.Add(ctx, workflow.Tasks, "it-requests", "T-1",
		[]string{"ann@example.com", "bo@example.com"})
	if err != nil {
		log.Fatal(err)
	}
	for w, err := range c.Records.Watchers.All(ctx, workflow.Tasks, "it-requests", "T-1", nil) {
		if err != nil {
			log.Fatal(err)
		}
		if w.Target.IsGroup() {
			fmt.Println("group:", w.Target.Name)
			continue
		}
		fmt.Println("user: ", w.Target.DisplayName(), w.Target.Email)
	}

	// An address is checked before anything is sent.
	err = c.Records.Watchers.Add(ctx, workflow.Tasks, "it-requests", "T-1", []string{"Ann <ann@example.com>"})
	fmt.Println(err)
	// Output:
	// group: IT Support
	// user:  Ann Lee ann@example.com
	// user:  Bo Berg bo@example.com
	// workflow: invalid emails[0]: must be an e-mail address
}

// ExampleCommentsService_Add posts a plain-text comment and reads the
// comments back, newest first.
func ExampleCommentsService_Add() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"id": "T-1", "Title": "New laptop"})
	c := srv.Client()
	ctx := context.Background()

	for _, text := range []string{"Ordered.", "Delivered on Tuesday."} {
		// The reply is the service's text/plain answer, returned as sent.
		if _, err := c.Records.Comments.Add(ctx, workflow.Tasks, "it-requests", "T-1", text); err != nil {
			log.Fatal(err)
		}
	}
	// Last/Before page backward: the iterator starts at the newest.
	opts := &workflow.ListOptions{Last: 50}
	for cm, err := range c.Records.Comments.All(ctx, workflow.Tasks, "it-requests", "T-1", opts) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s via %s: %s\n", cm.CreatedBy.Email, cm.Source, cm.Contents)
	}
	// Output:
	// admin@example.com via API: Delivered on Tuesday.
	// admin@example.com via API: Ordered.
}

// ExampleRelatedService_Add relates an element record to an app
// record, then lists the app record's related items.
func ExampleRelatedService_Add() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "A-1", "Name": "Acme Corp"})
	srv.Seed(workflow.Elements, "parts", workflow.Record{"id": "E-7", "Name": "Hinge"})
	c := srv.Client()
	ctx := context.Background()

	// The service adds one related item per call, by the related record's
	// id and (optionally) its definition alias; it answers 201 without a body.
	part := workflow.RelatedRef{ID: "E-7", Alias: new("parts")}
	if err := c.Records.Related.Add(ctx, workflow.Apps, "crm", "A-1", part); err != nil {
		log.Fatal(err)
	}
	fmt.Println("related", part, "to A-1")

	for it, err := range c.Records.Related.All(ctx, workflow.Apps, "crm", "A-1", nil) {
		if err != nil {
			log.Fatal(err)
		}
		rt, _ := it.RecordType()
		fmt.Println(it.ID, it.Type, it.Alias, "->", rt)
	}

	// An item is removed by its id: the related record's id.
	if err := c.Records.Related.Remove(ctx, workflow.Apps, "crm", "A-1", "E-7"); err != nil {
		log.Fatal(err)
	}
	page, err := c.Records.Related.List(ctx, workflow.Apps, "crm", "A-1", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(page.Items), "related items left")
	// Output:
	// related parts/E-7 to A-1
	// E-7 ELEMENT parts -> elements
	// 0 related items left
}

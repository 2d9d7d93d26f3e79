package admin_test

import (
	"context"
	"fmt"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func ExampleAppsService_Compose() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	ws := admin.New(srv.Client())
	ctx := context.Background()

	// An app's definition is a JSON object the SDK sends as it is.
	def := jsontext.Value(`{"name": "IT Management", "namespace": "itmanagement"}`)
	app, err := ws.Apps.Compose(ctx, def)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Decode the answer into a type of your own.
	var got struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	if err := json.Unmarshal(app, &got); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(got.Name, got.ID != "")
	// Output:
	// IT Management true
}

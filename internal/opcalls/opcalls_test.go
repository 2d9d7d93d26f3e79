package opcalls

import (
	"testing"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// Every override names a method of the services, so that none is left
// behind by a rename.
func TestOverridesNameMethods(t *testing.T) {
	c, err := workflow.NewClient(workflow.WithCredentials("id", "secret"), workflow.WithEndpoint("http://127.0.0.1/v1", "http://127.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]bool{}
	for _, call := range Calls(Env{Client: c, Workspace: admin.New(c)}) {
		methods[call.Method] = true
	}
	for name := range overrides {
		if !methods[name] {
			t.Errorf("the override %s names no method", name)
		}
	}
}

// Command workflow-imports writes the OpenTofu import blocks of every
// automation, view, agent and skill of an app, for
// `tofu plan -generate-config-out`:
//
//	go run ./cmd/workflow-imports -app crm-accounts > imports.tf
//	tofu plan -generate-config-out=generated.tf
//
// It reads the workspace the WORKFLOW_CLIENT_ID, WORKFLOW_CLIENT_SECRET,
// WORKFLOW_BASE_URL and WORKFLOW_AUTH_URL variables name, as the provider
// does.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/terraform-provider-workflow/internal/imports"
)

func main() {
	app := flag.String("app", "", "the alias of the app whose objects to import (required)")
	flag.Parse()
	if *app == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: workflow-imports -app ALIAS > imports.tf")
		os.Exit(2)
	}
	c, err := workflow.NewClientFromEnv()
	if err == nil {
		var blocks []imports.Block
		blocks, err = imports.App(context.Background(), admin.New(c), *app)
		if err == nil {
			err = imports.Write(os.Stdout, blocks)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "workflow-imports:", err)
		os.Exit(1)
	}
}

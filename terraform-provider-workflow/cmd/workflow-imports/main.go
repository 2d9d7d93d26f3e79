// Command workflow-imports writes the OpenTofu import blocks of every
// automation, view, agent and skill of an app (and, with -tables, of every
// table of the workspace), for
// `tofu plan -generate-config-out`, which then writes the configuration of
// each:
//
//	cd terraform-provider-workflow
//	go run ./cmd/workflow-imports -fake -app crm-accounts          # the demo workspace's blocks
//	go run ./cmd/workflow-imports -app crm-accounts > imports.tf   # the workspace of WORKFLOW_CLIENT_ID
//
// Without -fake it reads the workspace the WORKFLOW_CLIENT_ID,
// WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL and WORKFLOW_AUTH_URL
// variables name, as the provider does; with -fake, an embedded fake
// seeded with the demo workspace (cmd/workflow-fake's). Each block is
// named after its object (a view after its handle), in lower case with
// underscores, and its id is the import id of its resource.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/terraform-provider-workflow/internal/imports"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func main() {
	app := flag.String("app", "", "the alias of the app whose objects to import (required)")
	fake := flag.Bool("fake", false, "read an embedded fake seeded with the demo workspace")
	tables := flag.Bool("tables", false, "also write the blocks of every table of the workspace")
	flag.Parse()
	if *app == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: workflow-imports [-fake] [-tables] -app ALIAS > imports.tf")
		os.Exit(2)
	}
	if err := run(*app, *fake, *tables); err != nil {
		fmt.Fprintln(os.Stderr, "workflow-imports:", err)
		os.Exit(1)
	}
}

func run(app string, fake, tables bool) error {
	var c *workflow.Client
	if fake {
		srv := workflowtest.NewServer()
		defer srv.Close()
		srv.SeedDemo()
		c = srv.Client()
	} else {
		var err error
		if c, err = workflow.NewClientFromEnv(); err != nil {
			return err
		}
	}
	ctx, ws := context.Background(), admin.New(c)
	blocks, err := imports.App(ctx, ws, app)
	if err == nil && tables {
		var more []imports.Block
		more, err = imports.Tables(ctx, ws)
		blocks = append(blocks, more...)
	}
	if err != nil {
		return err
	}
	return imports.Write(os.Stdout, blocks)
}

// Command terraform-provider-workflow is the OpenTofu and Terraform
// provider of a workspace's configuration: its automations, views and
// tables, written through package admin of the workflow-go SDK. See
// README.md for building it and using it with a dev override or a
// filesystem mirror.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/seed-a15e58aa/workflow-go/terraform-provider-workflow/internal/provider"
)

// version is the provider's version, set when a release is linked
// (-ldflags "-X main.version=..."; .goreleaser.yaml does). The provider
// reports it to the CLI, and -version prints it.
var version = "dev"

func main() {
	debug := flag.Bool("debug", false, "serve for a debugger (prints TF_REATTACH_PROVIDERS to set)")
	printVersion := flag.Bool("version", false, "print the provider's version and exit")
	flag.Parse()
	if *printVersion {
		fmt.Println("terraform-provider-workflow", version)
		return
	}
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         provider.Address,
		Debug:           *debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}

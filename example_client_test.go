package workflow_test

import (
	"fmt"
	"log"
	"os"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// A client for an account: the credentials and the hosts of the account's
// region. NewClient does no I/O: the token is requested with the first
// call.
func ExampleNewClient() {
	c, err := workflow.NewClient(
		workflow.WithCredentials("my-client-id", "my-client-secret"),
		workflow.WithEndpoint("https://api.workflow.example/v1", "https://auth.workflow.example"),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.BaseURL())
	fmt.Println(c) // never prints the secret
	// Output:
	// https://api.workflow.example/v1/
	// workflow.Client{base: https://api.workflow.example/v1/}
}

// EU-region accounts use their regional hosts for both the API and the
// token endpoint.
func ExampleWithEndpoint() {
	c, err := workflow.NewClient(
		workflow.WithCredentials("my-client-id", "my-client-secret"),
		workflow.WithEndpoint("https://eu.api.workflow.example/v1", "https://eu.auth.workflow.example"),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.BaseURL())
	// Output: https://eu.api.workflow.example/v1/
}

// NewClientFromEnv reads four variables, all required: WORKFLOW_CLIENT_ID,
// WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL (the API base, ending in /v1)
// and WORKFLOW_AUTH_URL (the token host). The SDK has no default host: a
// missing URL is an error naming the variable, unless WithEndpoint is
// passed as an option.
func ExampleNewClientFromEnv() {
	os.Setenv("WORKFLOW_CLIENT_ID", "my-client-id")
	os.Setenv("WORKFLOW_CLIENT_SECRET", "my-client-secret")
	os.Setenv("WORKFLOW_BASE_URL", "https://eu.api.workflow.example/v1")
	os.Setenv("WORKFLOW_AUTH_URL", "https://eu.auth.workflow.example")
	defer func() {
		for _, k := range []string{"WORKFLOW_CLIENT_ID", "WORKFLOW_CLIENT_SECRET", "WORKFLOW_BASE_URL", "WORKFLOW_AUTH_URL"} {
			os.Unsetenv(k)
		}
	}()

	c, err := workflow.NewClientFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.BaseURL())
	fmt.Println(c) // never prints the secret
	// Output:
	// https://eu.api.workflow.example/v1/
	// workflow.Client{base: https://eu.api.workflow.example/v1/}
}

package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// Every body is checked by the SDK's own checks when a configuration is
// validated and planned, with no request: the resource calls the very
// SDK method that would write it, on a workspace whose every call is
// stopped before its first attempt is sent (workflow.WithAttemptHook).
// A body the SDK refuses is its *workflow.ValidationError, naming the
// member and the rule; a body it accepts ends at the hook.

// errNotSent ends a checked call before anything is sent.
var errNotSent = errors.New("checked, not sent")

// checkWorkspace is the workspace checks call through; its client is never
// used to send (every call is given notSent), and needs no provider
// configuration, so `tofu validate` checks too.
var checkWorkspace = admin.New(checkClient)

// checkClient is checkWorkspace's client, which checks of the root
// package's calls (users, groups) call through.
var checkClient = func() *workflow.Client {
	c, err := workflow.NewClient(
		workflow.WithCredentials("check", "check"),
		workflow.WithEndpoint("https://checks.invalid/v1", "https://checks.invalid"),
	)
	if err != nil {
		panic("provider: the check client: " + err.Error())
	}
	return c
}()

// notSent is the per-call option that stops a call before its first
// attempt.
var notSent = workflow.WithAttemptHook(func(context.Context) (func(workflow.AttemptResult), error) {
	return nil, errNotSent
})

// check runs call, an SDK call on checkWorkspace given notSent, and
// returns the error that stopped it before sending, nil when its
// arguments and body passed every check.
func check(call func(ws *admin.Workspace, opt workflow.RequestOption) error) error {
	err := call(checkWorkspace, notSent)
	if errors.Is(err, errNotSent) {
		return nil
	}
	return err
}

// checkRoot is check for a call of the root package, on checkClient.
func checkRoot(call func(c *workflow.Client, opt workflow.RequestOption) error) error {
	return check(func(_ *admin.Workspace, opt workflow.RequestOption) error { return call(checkClient, opt) })
}

// validated ends a ValidateConfig whose body was built with err: an
// attrError is reported on its attribute, as what; else call, an SDK call
// given the body, is checked, and what it refuses is reported as what.
func validated(d *diag.Diagnostics, what string, err error, call func(ws *admin.Workspace, opt workflow.RequestOption) error) {
	if e, ok := err.(attrError); ok {
		d.AddAttributeError(path.Root(e.attr), what, e.Error())
		return
	}
	if err := check(call); err != nil {
		d.AddError(what, err.Error())
	}
}

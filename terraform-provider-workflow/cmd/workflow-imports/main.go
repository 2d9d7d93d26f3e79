// Command workflow-imports writes the OpenTofu import blocks of the
// objects of a workspace, for `tofu plan -generate-config-out`, which then
// writes the configuration of each:
//
//	cd terraform-provider-workflow
//	go run ./cmd/workflow-imports -fake -all -app crm-accounts         # the demo workspace's blocks
//	go run ./cmd/workflow-imports -all -app crm-accounts > imports.tf  # the workspace of WORKFLOW_CLIENT_ID
//
// A flag per family says what to find; at least one is needed:
//
//	-app ALIAS      the app's automations, views, agents and skills
//	                (repeatable: one -app per app)
//	-element ALIAS  the element and its automations (repeatable)
//	-tables         every table, its joins, and the value mappings of the
//	                joins' field pairs (of each pair that has some; of
//	                every pair when the answer does not say)
//	-users          every active user (a deactivated one cannot be
//	                managed: the API cannot activate it again)
//	-groups         every group, and the e-mail domains of every dynamic
//	                group that has some
//	-all            -tables, -users and -groups: every family the API lists
//	                across the workspace
//
// Apps and elements are found by their aliases: the API lists neither,
// so -all finds no app's or element's objects without -app or -element.
// Apps, flows, search tables and linked search tables, and the
// organisation's domains are never found: the API lists none of them
// (and reads no app, flow or organisation domain). Import them by id,
// with blocks written by hand (the id of each resource type is in its
// page of the provider's docs).
//
// Without -fake it reads the workspace the WORKFLOW_CLIENT_ID,
// WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL and WORKFLOW_AUTH_URL
// variables name, as the provider does; with -fake, an embedded fake
// seeded with the demo workspace (cmd/workflow-fake's).
//
// Each block has a comment naming its object, and is named after it: a
// view after its handle, an element after its namespace, a user after
// the first and last names (or the e-mail address), a join after its
// table's and the joined table's names, a join's value mappings after
// the join (and the pair's left field, when the join has several pairs),
// anything else after its name. The name is put in lower case; letters
// of every script, digits and combining marks are kept ("Überprüfung"
// is überprüfung); a letter newer than OpenTofu's parser knows is
// written as its code point (u and hexadecimal digits); every run of
// other characters is one underscore; a name that would begin with a
// digit begins with an underscore, an empty one is "unnamed"; and a name
// another block of the type has gets the first free suffix _2, _3, ....
// A block's id is the import id of its resource; the comment of a join's
// block gives the join's id, that of a join's mappings the pair's id.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/terraform-provider-workflow/internal/imports"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// aliases is a repeatable flag's values.
type aliases []string

func (a *aliases) String() string { return strings.Join(*a, ",") }

func (a *aliases) Set(s string) error {
	if s == "" {
		return errors.New("an empty alias")
	}
	*a = append(*a, s)
	return nil
}

// usage is the text of -h, after the flags' defaults.
const usage = `
Apps and elements are found by their aliases: the API lists neither, so
-all finds no app's or element's objects without -app or -element. Apps,
flows, search tables and linked search tables, and the organisation's
domains are never found: the API lists none of them. Import them by id,
with blocks written by hand.

Each block is named after its object, in lower case, letters of every
script kept ("Überprüfung" is überprüfung), every run of other characters
one underscore, "_" before a leading digit, "_2", "_3", ... after a name
taken; a comment above it names the object.
`

func main() {
	o, fake, err := parse(os.Args[1:], os.Stderr)
	switch {
	case err == flag.ErrHelp:
		os.Exit(0)
	case err != nil:
		os.Exit(2)
	}
	if err := run(os.Stdout, o, fake); err != nil {
		fmt.Fprintln(os.Stderr, "workflow-imports:", err)
		os.Exit(1)
	}
}

// errNoFamily is parse's error when no flag names a family.
var errNoFamily = errors.New("no family to find")

// parse reads the command's arguments: the families to find, and whether
// to read the demo fake. It writes the usage to out on -h and on an
// error, flag.ErrHelp after -h.
func parse(args []string, out io.Writer) (o imports.Options, fake bool, err error) {
	flags := flag.NewFlagSet("workflow-imports", flag.ContinueOnError)
	flags.SetOutput(out)
	flags.Var((*aliases)(&o.Apps), "app", "an app's `alias`: its automations, views, agents and skills (repeatable)")
	flags.Var((*aliases)(&o.Elements), "element", "an element's `alias`: the element and its automations (repeatable)")
	flags.BoolVar(&o.Tables, "tables", false, "every table, its joins and the value mappings of their field pairs")
	flags.BoolVar(&o.Users, "users", false, "every active user")
	flags.BoolVar(&o.Groups, "groups", false, "every group, and the e-mail domains of the dynamic ones")
	all := flags.Bool("all", false, "-tables, -users and -groups: every family the API lists across the workspace")
	flags.BoolVar(&fake, "fake", false, "read an embedded fake seeded with the demo workspace")
	flags.Usage = func() {
		fmt.Fprintln(out, "usage: workflow-imports [-fake] [-all] [-tables] [-users] [-groups] [-app ALIAS]... [-element ALIAS]... > imports.tf")
		fmt.Fprintln(out)
		flags.PrintDefaults()
		fmt.Fprint(out, usage)
	}
	if err := flags.Parse(args); err != nil {
		return o, fake, err
	}
	if *all {
		o.Tables, o.Users, o.Groups = true, true, true
	}
	switch {
	case flags.NArg() > 0:
		err = fmt.Errorf("unexpected arguments %q", flags.Args())
	case len(o.Apps)+len(o.Elements) == 0 && !o.Tables && !o.Users && !o.Groups:
		err = errNoFamily
	}
	if err != nil {
		fmt.Fprintln(out, "workflow-imports:", err)
		flags.Usage()
	}
	return o, fake, err
}

// run writes to w the blocks of what o names, read from the workspace of
// the environment, or from a demo fake.
func run(w io.Writer, o imports.Options, fake bool) error {
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
	blocks, err := imports.Find(context.Background(), c, o)
	if err != nil {
		return err
	}
	return imports.Write(w, blocks)
}

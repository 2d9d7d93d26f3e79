// Command promote keeps the configuration of an app, its automations and
// its views, in git, and makes a workspace match it: it writes the
// configuration of one workspace to files (-export), plans the changes
// that make a target workspace match a source (another workspace, or
// such files: -from), and makes them (-apply).
//
//	go run ./examples/promote -fake -app crm-accounts                    # plan between two embedded fakes: exits with status 2
//	go run ./examples/promote -fake -app crm-accounts -apply             # the same, applied, then planned again
//	go run ./examples/promote -fake -app crm-accounts -export crm-config  # staging's configuration to files
//	go run ./examples/promote -fake -app crm-accounts -from examples/promote/testdata/crm-accounts -apply  # from files to a fake
//	go run ./examples/promote -app crm-accounts -export crm-config       # from the account of WORKFLOW_CLIENT_ID
//	go run ./examples/promote -app crm-accounts -from crm-config         # plan for the account of WORKFLOW_TARGET_CLIENT_ID
//
// # Workspaces
//
// The source workspace is the account of WORKFLOW_CLIENT_ID,
// WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL and WORKFLOW_AUTH_URL; the
// target, that of WORKFLOW_TARGET_CLIENT_ID, WORKFLOW_TARGET_CLIENT_SECRET,
// WORKFLOW_TARGET_BASE_URL and WORKFLOW_TARGET_AUTH_URL. Without -fake,
// promote refuses to start, and names the missing variables, unless the
// four variables of each workspace the run reads are set: the source's for
// -export and for a plan from a workspace, the target's for every plan. A
// dry run reads only; still, it reads the workspaces you name, never a
// stand-in.
//
// With -fake, it runs on two embedded fakes of the service (package
// workflowtest) instead, and no variable is read. The source ("staging")
// has the demo data; the target ("production") has part of the app
// crm-accounts with other ids, some of it changed, and objects of its own.
// Their plan has three objects to create, four to update, one the same and
// two only in the target. examples/promote/testdata/crm-accounts is the
// export of staging, so a plan from it is the same plan.
//
// # Flags
//
//	-app ALIAS   the app (its alias, or namespace); required
//	-type TYPE   the record type of the app's definition, for its automations (default apps)
//	-export DIR  write the source's configuration to DIR; plans nothing
//	-from DIR    plan from the files of DIR, not from the source workspace
//	-apply       make the changes (default: a dry run, which changes nothing)
//	-prune       delete the automations only the target has
//	-fake        run on two embedded fakes
//
// # Files
//
// An export is DIR/automations/NAME.json and DIR/views/NAME.json, one file
// per object, holding its write form: what -apply sends to create it. An
// automation's file is the automation less its "id"; a view's is its
// create body, {"handle": ..., "view": {VARIANT: {...}}}, without its
// sharing (a view's users and groups are its workspace's own, and -apply
// leaves them as they are in the target). The JSON is canonical, so that
// exporting twice gives the same bytes, and a change shows in git as the
// members it changes: members sorted by name at every depth, strings
// escaped only where JSON requires, numbers as the service sent them, two
// spaces of indent, one member per line.
//
// NAME comes from the object's name (automations) or handle (views): in
// lower case, each run of characters other than a to z and 0 to 9 made
// one "-", no "-" at either end, at most 64 bytes, "unnamed" when nothing
// is left. Where two objects of a kind would get one NAME (names that
// differ only in case or punctuation), or NAME is a device name of
// Windows (con, nul, com1, ...), each of them is named NAME~HASH.json,
// HASH being the first 8 hex digits of the SHA-256 of its name or handle,
// so that a file's name depends on its own object only; two objects with
// one name get ~2, ~3, ... after that, in the order of their content.
// A file's name means nothing to a plan, which matches the name or handle
// inside. -export removes the other .json files of DIR/automations and
// DIR/views, so that an object deleted since the last export goes from
// git too.
//
// # Plans
//
// A plan matches automations by their "name" and views by their client
// handle (the service publishes no members of an automation: its name is
// the fake's one required member). It compares, and -export writes, the
// automations as the app's automation list gives them: the active
// version on the fake, whose list holds no draft (the service does not
// publish which version its list holds). It prints a line per object: "+
// create", "~ update", "= same", "- delete" (with -prune) or "? keep"
// (only in the target), then, under it, each member that changes, as its
// JSON pointer, its value in the target and its value in the source:
//
//	~ update view all-accounts
//	      /view/list/sort/direction: "DESC" -> "ASC"
//
// Under a view to write, "!" lines flag the members that hold ids of the
// source workspace: an agentId the target's agents list does not hold is
// missing; field ids (columns, displayByField, allowedFilterFields) and a
// dashboardId are unverified, since no operation reads an app's fields or
// dashboards. They do not block -apply.
//
// Objects only in the target are listed; -prune deletes those automations.
// The API has no delete for views: a view only in the target stays, and
// the plan says so. Two objects of one side with one name or handle, or an
// object without one, are errors that the plan lists, and -apply changes
// nothing until they are resolved. Names and handles print as they are,
// Go-quoted only when that would be unclear (empty, blank at an end, or
// with characters that do not print).
//
// -apply makes the changes, automations first, then reads the target again
// and plans once more: the new plan must have no changes.
//
// # Exit statuses
//
//	0  nothing to change (objects only in the target are no change, unless -prune
//	   would delete them), or -apply made every change, or -export wrote the files
//	1  an error: a bad flag, a missing variable, a failed call, a duplicate or
//	   unnamed object, a change -apply could not make
//	2  changes pending: a dry run found changes (for CI: run again with -apply)
//
// The status of go run itself is 1 whenever its program fails (it prints
// the program's own status as its last line, "exit status 2"): for CI,
// build the program (go build -o promote ./examples/promote) and run that.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// The exit statuses.
const (
	exitError   = 1
	exitPending = 2
)

// errPending is the outcome of a dry run that found changes.
var errPending = errors.New("changes pending")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp): // -h: the usage was printed; status 0, as the flag package's own
	case errors.Is(err, errPending):
		stop()
		os.Exit(exitPending)
	default:
		fmt.Fprintln(os.Stderr, "promote:", err)
		stop()
		os.Exit(exitError)
	}
}

// options are the flags of a run.
type options struct {
	app, typ, export, from string
	apply, prune, fake     bool
}

// run reads the flags, connects to the workspaces and exports, or plans
// and applies. A dry run that finds changes returns errPending.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("promote", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.app, "app", "", "alias (namespace) of the app (required)")
	fs.StringVar(&o.typ, "type", string(workflow.Apps), "record type of the app's definition, for its automations")
	fs.StringVar(&o.export, "export", "", "write the source's automations and views to `DIR` (and plan nothing)")
	fs.StringVar(&o.from, "from", "", "plan from the files of `DIR`, an export, instead of the source workspace")
	fs.BoolVar(&o.apply, "apply", false, "make the changes (default: a dry run)")
	fs.BoolVar(&o.prune, "prune", false, "delete the automations only the target has")
	fs.BoolVar(&o.fake, "fake", false, "run on two embedded fakes of the service")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	case o.app == "":
		return errors.New("-app is required")
	case o.export != "" && (o.from != "" || o.apply || o.prune):
		return errors.New("-export writes files and plans nothing: it takes none of -from, -apply and -prune")
	}
	var src, dst *workflow.Client
	if o.fake {
		staging, production, err := fakes(ctx)
		if err != nil {
			return err
		}
		defer staging.Close()
		defer production.Close()
		src, dst = staging.Client(), production.Client()
	} else {
		var err error
		if src, dst, err = clients(o.from == "", o.export == ""); err != nil {
			return err
		}
	}
	rt := workflow.RecordType(o.typ)
	if o.export != "" {
		return exportApp(ctx, newWorkspace(src, rt, o.app), o.export, stdout)
	}
	target := newWorkspace(dst, rt, o.app)
	read := func(ctx context.Context) (map[kind][]*object, error) { return readDir(o.from) }
	if o.from == "" {
		read = newWorkspace(src, rt, o.app).read
	}
	return promote(ctx, read, target, o, stdout)
}

// clients returns the clients of the source and the target workspaces
// the run needs, or an error naming every variable that is missing.
func clients(source, target bool) (src, dst *workflow.Client, err error) {
	var missing []string
	for _, side := range []struct {
		need   bool
		prefix string
	}{{source, "WORKFLOW_"}, {target, "WORKFLOW_TARGET_"}} {
		for _, name := range []string{workflow.EnvClientID, workflow.EnvClientSecret, workflow.EnvBaseURL, workflow.EnvAuthURL} {
			if name = side.prefix + strings.TrimPrefix(name, "WORKFLOW_"); side.need && os.Getenv(name) == "" {
				missing = append(missing, name)
			}
		}
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("missing %s: set them to the account of each workspace, or run on two embedded fakes with -fake", strings.Join(missing, ", "))
	}
	if source {
		if src, err = workflow.NewClientFromEnv(); err != nil {
			return nil, nil, err
		}
	}
	if target {
		env := func(name string) string { return os.Getenv("WORKFLOW_TARGET_" + strings.TrimPrefix(name, "WORKFLOW_")) }
		dst, err = workflow.NewClient(workflow.WithCredentials(env(workflow.EnvClientID), env(workflow.EnvClientSecret)),
			workflow.WithEndpoint(env(workflow.EnvBaseURL), env(workflow.EnvAuthURL)))
	}
	return src, dst, err
}

// read reads the app's automations and views.
func (w *workspace) read(ctx context.Context) (map[kind][]*object, error) {
	autos, err := w.automations(ctx)
	if err != nil {
		return nil, fmt.Errorf("automations: %w", err)
	}
	views, err := w.views(ctx)
	if err != nil {
		return nil, fmt.Errorf("views: %w", err)
	}
	return map[kind][]*object{automationKind: autos, viewKind: views}, nil
}

// exportApp writes the configuration of ws's app to dir.
func exportApp(ctx context.Context, ws *workspace, dir string, w io.Writer) error {
	objs, err := ws.read(ctx)
	if err != nil {
		return fmt.Errorf("source: %w", err)
	}
	if _, err := export(dir, objs); err != nil {
		return err
	}
	fmt.Fprintf(w, "exported %d automations and %d views of %s to %s\n", len(objs[automationKind]), len(objs[viewKind]), ws.app, dir)
	return nil
}

// promote plans the changes that make target's configuration that of the
// source read gives, prints the plan, and applies it with o.apply.
func promote(ctx context.Context, read func(context.Context) (map[kind][]*object, error), target *workspace, o options, w io.Writer) error {
	p, err := makePlan(ctx, read, target, o.prune)
	if err != nil {
		return err
	}
	p.print(w)
	switch {
	case len(p.problems) > 0:
		return fmt.Errorf("%d problems (listed above): %s", len(p.problems), map[bool]string{true: "nothing applied", false: "-apply would change nothing"}[o.apply])
	case p.changes() == 0:
		fmt.Fprintln(w, "no changes")
		return nil
	case !o.apply:
		fmt.Fprintf(w, "dry run: %d changes; run again with -apply to make them\n", p.changes())
		return errPending
	}
	if err := p.apply(ctx, target, w); err != nil {
		return err
	}
	again, err := makePlan(ctx, read, target, o.prune)
	if err != nil {
		return fmt.Errorf("planning again after -apply: %w", err)
	}
	if n := again.changes(); n > 0 {
		again.print(w)
		return fmt.Errorf("applied, but a new plan still has %d changes (listed above): the target keeps something other than what was sent", n)
	}
	fmt.Fprintln(w, "planned again: no changes")
	return nil
}

// makePlan reads both sides and plans, automations first.
func makePlan(ctx context.Context, read func(context.Context) (map[kind][]*object, error), target *workspace, prune bool) (*plan, error) {
	src, err := read(ctx)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	dst, err := target.read(ctx)
	if err != nil {
		return nil, fmt.Errorf("target: %w", err)
	}
	p := &plan{}
	for _, k := range []kind{automationKind, viewKind} {
		p.compare(k, src[k], dst[k], prune)
	}
	return p, p.flagIDs(ctx, target.agentIDs)
}

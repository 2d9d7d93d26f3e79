// Command promote copies an app's automations and views from one
// workspace to another, for example from staging to production. It
// prints what it would create, update or leave as it is, and changes
// nothing unless -apply is given.
//
//	go run ./examples/promote -fake -app crm-accounts   # dry run between two embedded fakes
//	go run ./examples/promote -app crm-accounts -apply   # from the WORKFLOW_* account to the WORKFLOW_TARGET_* one
//
// The source workspace is the account of the WORKFLOW_* variables, the
// target the one of WORKFLOW_TARGET_CLIENT_ID, WORKFLOW_TARGET_CLIENT_SECRET,
// WORKFLOW_TARGET_BASE_URL and WORKFLOW_TARGET_AUTH_URL (the same four
// names after WORKFLOW_TARGET_). With -fake, or when WORKFLOW_CLIENT_ID is
// not set, it runs on two embedded fakes of the service (package
// workflowtest): the source has the demo data, whose app "crm-accounts"
// has three automations and three views; the target has that app with one
// automation and one view as in the source, one of each changed, and the
// third of each missing. The dry run plans two creations, two updates and
// leaves two.
//
// Views are matched by their client handle, the identifier the service
// keeps the same in every workspace, and updated by it; a view's sharing
// is left as it is in the target (its users and groups are the target's
// own). The service publishes no members of an automation: promote
// matches automations by their "name" member (as the fake requires one)
// and compares them without their "id". -type sets the record type of
// the app's definition for the automations ("apps" by default).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h: the usage was printed; status 0, as the flag package's own
		}
		fmt.Fprintln(os.Stderr, "promote:", err)
		os.Exit(1)
	}
}

// run reads the flags, connects to both workspaces and promotes.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("promote", flag.ContinueOnError)
	fs.SetOutput(stderr)
	app := fs.String("app", "", "alias (namespace) of the app to promote (required)")
	typ := fs.String("type", string(workflow.Apps), "record type of the app's definition, for its automations")
	apply := fs.Bool("apply", false, "make the changes (default: only print them)")
	fake := fs.Bool("fake", false, "run between two embedded fake servers with demo data")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if *app == "" {
		return errors.New("-app is required")
	}
	var src, dst *workflow.Client
	if *fake || os.Getenv(workflow.EnvClientID) == "" {
		if !*fake {
			fmt.Fprintln(stderr, "promote: no WORKFLOW_CLIENT_ID: running between two embedded fakes")
		}
		staging, production := fakes()
		defer staging.Close()
		defer production.Close()
		src, dst = staging.Client(), production.Client()
	} else {
		var err error
		if src, err = workflow.NewClientFromEnv(); err != nil {
			return err
		}
		if dst, err = targetClient(); err != nil {
			return err
		}
	}
	p := promotion{src: admin.New(src), dst: admin.New(dst), rt: workflow.RecordType(*typ), app: *app, out: stdout}
	return p.run(ctx, *apply)
}

// targetClient is the client of the WORKFLOW_TARGET_* account.
func targetClient() (*workflow.Client, error) {
	env := func(name string) string { return os.Getenv("WORKFLOW_TARGET_" + strings.TrimPrefix(name, "WORKFLOW_")) }
	id, secret := env(workflow.EnvClientID), env(workflow.EnvClientSecret)
	if id == "" || secret == "" {
		return nil, errors.New("WORKFLOW_TARGET_CLIENT_ID and WORKFLOW_TARGET_CLIENT_SECRET must be set (or try -fake)")
	}
	opts := []workflow.Option{workflow.WithCredentials(id, secret)}
	if base, auth := env(workflow.EnvBaseURL), env(workflow.EnvAuthURL); base != "" || auth != "" {
		opts = append(opts, workflow.WithEndpoint(base, auth))
	}
	return workflow.NewClient(opts...)
}

// fakes starts the two workspaces of -fake: staging with the demo data,
// production with part of the demo app's configuration.
func fakes() (staging, production *workflowtest.Server) {
	staging, production = workflowtest.NewServer(), workflowtest.NewServer()
	staging.SeedDemo()
	production.AddAutomation(workflow.Apps, workflowtest.DemoApps, map[string]any{"name": "Welcome new accounts",
		"triggers": []any{map[string]any{"type": "RECORD_CREATED"}}, "tasks": []any{map[string]any{"template": "welcome", "type": "SEND_EMAIL"}}})
	production.AddAutomation(workflow.Apps, workflowtest.DemoApps, map[string]any{"name": "Flag gold accounts",
		"triggers": []any{map[string]any{"type": "FIELD_CHANGED", "field": "Tier"}}})
	production.AddView(workflowtest.DemoApps, "all-accounts", "list", map[string]any{"name": "All accounts", "rows": 50,
		"sort": map[string]any{"field": "Name", "direction": "ASC"}})
	production.AddView(workflowtest.DemoApps, "gold-accounts", "list", map[string]any{"name": "Gold accounts"})
	return staging, production
}

// promotion copies the configuration of one app.
type promotion struct {
	src, dst *admin.Workspace
	rt       workflow.RecordType
	app      string
	out      io.Writer
	counts   [3]int // create, update, leave
}

// step is one planned change: kind is "automation" or "view".
type step struct {
	action, kind, name string
	do                 func(context.Context) error // nil: leave
}

func (p *promotion) run(ctx context.Context, apply bool) error {
	autos, err := p.automations(ctx)
	if err != nil {
		return err
	}
	views, err := p.views(ctx)
	if err != nil {
		return err
	}
	for _, s := range append(autos, views...) {
		mark := map[string]string{"create": "+", "update": "~", "leave": "="}[s.action]
		fmt.Fprintf(p.out, "%s %-7s %s %s\n", mark, s.action, s.kind, s.name)
		p.counts[slices.Index([]string{"create", "update", "leave"}, s.action)]++
		if apply && s.do != nil {
			if err := s.do(ctx); err != nil {
				return fmt.Errorf("%s %s %s: %w", s.action, s.kind, s.name, err)
			}
		}
	}
	c := p.counts
	if apply {
		fmt.Fprintf(p.out, "applied: %d created, %d updated, %d left as they were\n", c[0], c[1], c[2])
	} else {
		fmt.Fprintf(p.out, "dry run: %d to create, %d to update, %d to leave; run again with -apply to make these changes\n", c[0], c[1], c[2])
	}
	return nil
}

// automations plans the automations, matched by name.
func (p *promotion) automations(ctx context.Context) ([]step, error) {
	want, err := p.src.Automations.List(ctx, p.rt, p.app)
	if err != nil {
		return nil, fmt.Errorf("source automations: %w", err)
	}
	have, err := p.dst.Automations.List(ctx, p.rt, p.app)
	if err != nil {
		return nil, fmt.Errorf("target automations: %w", err)
	}
	byName := map[string]admin.Automation{}
	for _, a := range have {
		byName[a.Name()] = a
	}
	var steps []step
	for _, a := range want {
		def := a.Without("id")
		s := step{kind: "automation", name: strconv.Quote(a.Name()), action: "create"}
		cur, ok := byName[a.Name()]
		switch {
		case !ok:
			s.do = func(ctx context.Context) error { _, err := p.dst.Automations.Create(ctx, p.rt, p.app, def); return err }
		default:
			id := cur.ID()
			if id == "" {
				return nil, fmt.Errorf("target automation %s has no id", s.name)
			}
			if same(def, cur.Without("id")) {
				s.action = "leave"
				break
			}
			s.action = "update"
			s.do = func(ctx context.Context) error {
				_, err := p.dst.Automations.Update(ctx, p.rt, p.app, id, def)
				return err
			}
		}
		steps = append(steps, s)
	}
	return steps, nil
}

// views plans the views, matched by client handle.
func (p *promotion) views(ctx context.Context) ([]step, error) {
	have := map[string]admin.ViewRequest{}
	for v, err := range p.dst.Views.All(ctx, p.app, nil) {
		if err != nil {
			return nil, fmt.Errorf("target views: %w", err)
		}
		if have[v.ClientHandle], err = desired(v); err != nil {
			return nil, err
		}
	}
	var steps []step
	for v, err := range p.src.Views.All(ctx, p.app, nil) {
		if err != nil {
			return nil, fmt.Errorf("source views: %w", err)
		}
		r, err := desired(v)
		if err != nil {
			return nil, err
		}
		h := v.ClientHandle
		s := step{kind: "view", name: h, action: "create"}
		cur, ok := have[h]
		switch {
		case !ok:
			s.do = func(ctx context.Context) error { _, err := p.dst.Views.Create(ctx, p.app, h, r); return err }
		case same(r, cur):
			s.action = "leave"
		default:
			s.action = "update"
			s.do = func(ctx context.Context) error { _, err := p.dst.Views.Update(ctx, p.app, h, r); return err }
		}
		steps = append(steps, s)
	}
	return steps, nil
}

// desired is the request that gives a view its state (not its sharing).
func desired(v admin.View) (admin.ViewRequest, error) {
	return v.Request()
}

// same reports whether a and b encode to the same JSON, members sorted.
func same(a, b any) bool {
	ja, errA := json.Marshal(a, json.Deterministic(true))
	jb, errB := json.Marshal(b, json.Deterministic(true))
	if errA != nil || errB != nil {
		return false
	}
	ca, cb := jsontext.Value(ja), jsontext.Value(jb)
	return ca.Canonicalize() == nil && cb.Canonicalize() == nil && string(ca) == string(cb)
}

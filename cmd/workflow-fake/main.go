// Command workflow-fake serves the in-process fake of the records and
// workflow-automation API (package workflowtest) on a TCP address, seeded
// with demo data, for trying the API with curl or testing clients written
// in other languages.
//
// Usage:
//
//	workflow-fake [-addr 127.0.0.1:8080] [-client-id demo-client] [-client-secret demo-secret] [-empty] [-id-space N|random] [-replies documented|generous] [-seed TYPE/ALIAS=N]... [-stored-content-limit BYTES] [-strict] [-v]
//
// It prints the base URL, the auth URL, the demo credentials and their
// user (admin@example.com, the default user of the embedded fake: both
// serve the same demo data, workflowtest's SeedDemo), the path of each
// seeded record list, the groups by name and id, the automations and
// views of the demo app crm-accounts, and two curl commands to paste (a
// token request, then a list of tasks), and serves until SIGINT
// or SIGTERM, then shuts down gracefully. State lives in memory only. A request for an unknown
// route answers 404 naming the nearest route (/comments: did you mean
// /comment?). Request bodies are checked as workflowtest checks them:
// against the service's published schemas (400), its rules in prose and
// the fake's own rules (422); members the schemas do not declare are
// accepted, unless -strict (workflowtest.WithStrictBodies) is given.
// Replies hold only the members the service's document promises, unless
// -replies generous (workflowtest.WithReplies) is given.
// Uploaded files of up to the service's 250 MB are kept and given back
// by the download route; beyond 1 MiB they are kept in temporary files
// (under TMPDIR), not in memory, and removed when the server stops.
// -stored-content-limit (workflowtest.WithStoredContentLimit) lowers the
// size of the files whose bytes are kept: the download of a larger one
// answers 501.
//
// -empty starts it with no demo data: only the demo user, as a new
// workspace. -id-space N (workflowtest.WithIDSpace) gives the UUIDs it
// mints a space of their own (N from 1 to 2^28-1, decimal or 0x hex;
// random picks one), so that two fakes started with different spaces
// never hand out the same id: a configuration promoted from one to the
// other that copies ids instead of referring to objects fails there, as
// between two workspaces. Without it (space 0) the ids are the fixed ones
// the documentation and the tests use. For promotion tests, start two:
//
//	workflow-fake -addr 127.0.0.1:8080 -id-space 1
//	workflow-fake -addr 127.0.0.1:8081 -id-space 2 -empty
//
// -seed TYPE/ALIAS=N (repeatable) defines the record definition ALIAS of
// TYPE, if the demo data has none, and stores N generated records of
// twelve fields in it (workflowtest's SeedGenerated), so that a client in
// any language can test an export at scale: -seed tasks/big-export=1000000
// is ready in seconds. N=0 defines it empty.
package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// Demo credentials of the default user (workflowtest.DefaultUserEmail, as
// in the embedded fake). They use only characters that form encoding
// leaves alone, so that curl -u id:secret sends them as RFC 6749 requires.
const (
	demoClientID     = "demo-client"
	demoClientSecret = "demo-secret"
)

// shutdownTimeout bounds the graceful shutdown.
const shutdownTimeout = 5 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h: the usage was printed; status 0, as the flag package's own
		}
		fmt.Fprintln(os.Stderr, "workflow-fake:", err)
		os.Exit(2)
	}
}

// run serves until ctx ends.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("workflow-fake", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "TCP address to listen on")
	clientID := fs.String("client-id", demoClientID, "client id of the demo user")
	secret := fs.String("client-secret", demoClientSecret, "client secret of the demo user")
	verbose := fs.Bool("v", false, "log every request to stderr")
	strict := fs.Bool("strict", false, "refuse request body members the service's schemas do not declare (400)")
	stored := fs.Int64("stored-content-limit", workflowtest.DefaultStoredContentLimit,
		"the largest uploaded file, in bytes, whose content is kept for download (a larger one is accepted, its download answers 501)")
	empty := fs.Bool("empty", false, "start with no demo data: only the demo user")
	replies := fs.String("replies", "", "`documented|generous`: replies hold only what the service's document promises (documented, "+
		"the default, or as "+workflowtest.RepliesEnv+" says), or also what the fake keeps beside it")
	var space uint32
	fs.Func("id-space", "`N|random`: mint UUIDs in a space of their own (1 to 2^28-1, or random), so that two fakes hand out different ids (default 0: the fixed ids)", func(v string) error {
		n, err := parseIDSpace(v)
		space = n
		return err
	})
	var seeds []seedSpec
	fs.Func("seed", "`TYPE/ALIAS=N`: define the definition and store N generated records of 12 fields in it (repeatable), e.g. tasks/big-export=1000000", func(v string) error {
		sp, err := parseSeed(v)
		seeds = append(seeds, sp)
		return err
	})
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: workflow-fake [-addr 127.0.0.1:8080] [-client-id ID] [-client-secret SECRET] [-empty] [-id-space N|random] [-replies documented|generous] [-seed TYPE/ALIAS=N]... [-stored-content-limit BYTES] [-strict] [-v]

Serves an in-memory fake of the records and workflow-automation API, seeded
with demo data (unless -empty): four record definitions, 1,000 tasks,
users, groups, and the automations and views of the app crm-accounts. It
prints the base URL, the auth URL, the demo credentials and two curl
commands to paste, then serves until Ctrl+C. Point the Go SDK, or the
provider (terraform-provider-workflow), at it with the WORKFLOW_*
variables it prints. For promotion tests, run two with different
-id-space values: an id copied from one names nothing in the other.

Routes, under the base URL: the records API (/{recordType}/{alias}...,
/users, /groups) and the workspace configuration:
  /{recordType}/{alias}/automations[/{id}], .../automations/validate
  /apps/{alias}/views[/{id}], /apps/{alias}/agents[/{id}], /apps/{alias}/skills[/{id}]
  /elements[/{alias}], /aspects/compose[/{id}], /flows/create, /flows/{id}
  /tables[/{id}], /tables/{id}/joins[/{joinId}], /tables/{id}/join-fields/{joinFieldsId}/mappings
  /aspects/{aspectId}/search-tables[/{id}], /aspects/{aspectId}/linked-search-tables
  /domains[/{domainId}], /groups/{groupId}/domains
Each route's methods and the fake's rules: go doc github.com/seed-a15e58aa/workflow-go/workflowtest
(sections "The workspace configuration" and "Request bodies").

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if *clientID == "" || *secret == "" {
		return errors.New("-client-id and -client-secret must not be empty")
	}
	if *stored < 0 {
		return errors.New("-stored-content-limit must not be negative")
	}
	if _, ok := replyModes[*replies]; !ok && *replies != "" {
		return fmt.Errorf("-replies is %q: it must be documented or generous", *replies)
	}

	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	opts := []workflowtest.Option{
		workflowtest.WithListener(l),
		workflowtest.WithUser(workflowtest.DefaultUserEmail, *clientID, *secret),
		workflowtest.WithRequestLogLimit(10_000),
		workflowtest.WithStoredContentLimit(*stored),
		workflowtest.WithIDSpace(space),
	}
	if *verbose {
		opts = append(opts, workflowtest.WithLogger(slog.New(slog.NewTextHandler(stderr, nil))))
	}
	if *strict {
		opts = append(opts, workflowtest.WithStrictBodies())
	}
	if mode, ok := replyModes[*replies]; ok {
		opts = append(opts, workflowtest.WithReplies(mode))
	}
	srv := workflowtest.NewServer(opts...)
	var demo workflowtest.Demo
	if !*empty {
		demo = srv.SeedDemo()
	}
	for _, sp := range seeds {
		start := time.Now()
		srv.SeedGenerated(sp.rt, sp.alias, sp.n)
		demo.Lists = append(demo.Lists, "/"+string(sp.rt)+"/"+sp.alias)
		fmt.Fprintf(stdout, "seeded:        %d generated records in /v1/%s/%s in %s\n", sp.n, sp.rt, sp.alias, time.Since(start).Round(time.Millisecond))
	}

	fmt.Fprintf(stdout, "workflow-fake: a fake of the workflow API, state in memory\n")
	fmt.Fprintf(stdout, "base URL:      %s\n", srv.BaseURL())
	fmt.Fprintf(stdout, "auth URL:      %s (token endpoint %s/oauth/token)\n", srv.AuthURL(), srv.AuthURL())
	fmt.Fprintf(stdout, "client id:     %s\n", *clientID)
	fmt.Fprintf(stdout, "client secret: %s\n", *secret)
	fmt.Fprintf(stdout, "user:          %s\n", workflowtest.DefaultUserEmail)
	if space != 0 {
		fmt.Fprintf(stdout, "id space:      %#x (ids such as %s)\n", space, spaceExample(space))
	}
	if *empty {
		fmt.Fprintf(stdout, "data:          none (-empty): define apps and configuration through the API\n")
	}
	fmt.Fprintf(stdout, "record lists:\n")
	for _, p := range demo.Lists {
		fmt.Fprintf(stdout, "  /v1%s\n", p)
	}
	fmt.Fprintf(stdout, "other users:   ")
	for i, u := range demo.Users {
		if i > 0 {
			fmt.Fprint(stdout, ", ")
		}
		fmt.Fprintf(stdout, "%s (%s / %s)", u.UserID, u.ClientID, u.ClientSecret)
	}
	fmt.Fprintf(stdout, "\ngroups:        ")
	for i, id := range demo.Groups {
		if i > 0 {
			fmt.Fprint(stdout, ", ")
		}
		g, _ := srv.Group(id)
		fmt.Fprintf(stdout, "%s (%s)", g.Name, id)
	}
	fmt.Fprintln(stdout)
	if !*empty {
		printConfiguration(stdout, srv)
	}
	for _, c := range demo.Contents {
		fmt.Fprintf(stdout, "file content:  %s\n", c)
	}
	fmt.Fprintf(stdout, "for the Go SDK: WORKFLOW_CLIENT_ID=%s WORKFLOW_CLIENT_SECRET=%s WORKFLOW_BASE_URL=%s WORKFLOW_AUTH_URL=%s\n",
		*clientID, *secret, srv.BaseURL(), srv.AuthURL())
	list, what := "/users", "users"
	if len(demo.Lists) > 0 {
		list, what = demo.Lists[0], "records of "+strings.TrimPrefix(demo.Lists[0], "/")
	}
	fmt.Fprintf(stdout, "try it with curl (a token, then the first %s):\n", what)
	for _, line := range curlExample(srv.AuthURL(), srv.BaseURL()+list, *clientID, *secret) {
		fmt.Fprintf(stdout, "  %s\n", line)
	}
	fmt.Fprintf(stdout, "serving; stop with Ctrl+C\n")

	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	fmt.Fprintf(stdout, "stopped\n")
	return nil
}

// seedSpec is a -seed flag: a definition and a number of records.
type seedSpec struct {
	rt    workflow.RecordType
	alias string
	n     int
}

// parseIDSpace reads -id-space: a number from 0 to 2^28-1 (decimal, or
// hex with 0x), or random, which picks one from 1 up.
func parseIDSpace(v string) (uint32, error) {
	if v == "random" {
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			return 0, err
		}
		return 1 + binary.BigEndian.Uint32(b[:])%(1<<28-1), nil
	}
	n, err := strconv.ParseUint(v, 0, 32)
	if err != nil || n >= 1<<28 {
		return 0, fmt.Errorf("%q: want a number from 0 to %d (or 0x...), or random", v, 1<<28-1)
	}
	return uint32(n), nil
}

// spaceExample is the id of the first automation of a server in space.
func spaceExample(space uint32) string {
	return fmt.Sprintf("4%07x-0000-4000-8000-000000000001", space)
}

// parseSeed reads TYPE/ALIAS=N.
func parseSeed(v string) (seedSpec, error) {
	def, count, ok := strings.Cut(v, "=")
	rt, alias, ok2 := strings.Cut(def, "/")
	n, err := strconv.Atoi(count)
	switch {
	case !ok || !ok2 || alias == "" || strings.Contains(alias, "/"):
		return seedSpec{}, fmt.Errorf("%q: want TYPE/ALIAS=N, e.g. tasks/big-export=1000000", v)
	case !workflow.RecordType(rt).Valid():
		return seedSpec{}, fmt.Errorf("%q: the type must be apps, elements, tasks or transactions", v)
	case err != nil || n < 0:
		return seedSpec{}, fmt.Errorf("%q: N must be a number of records, 0 or more", v)
	}
	return seedSpec{workflow.RecordType(rt), alias, n}, nil
}

// printConfiguration lists the automations and views of the demo app.
func printConfiguration(w io.Writer, srv *workflowtest.Server) {
	base := "/v1/" + string(workflow.Apps) + "/" + workflowtest.DemoApps
	fmt.Fprintf(w, "automations:   %s/automations:", base)
	for i, raw := range srv.Automations(workflow.Apps, workflowtest.DemoApps) {
		var a struct{ Name string }
		_ = json.Unmarshal(raw, &a)
		if i > 0 {
			fmt.Fprint(w, ",")
		}
		fmt.Fprintf(w, " %q", a.Name)
	}
	fmt.Fprintf(w, "\nviews:         %s/views/{handle}:", base)
	for i, v := range srv.Views(workflowtest.DemoApps) {
		if i > 0 {
			fmt.Fprint(w, ",")
		}
		fmt.Fprintf(w, " %s (%s)", v.Handle, strings.TrimPrefix(v.Type, "AspectView"))
	}
	fmt.Fprintln(w)
}

// curlExample returns two shell lines: a token request with HTTP Basic
// authentication (the id and secret form-encoded inside it, as RFC 6749
// section 2.3.1 says; the token kept in $TOKEN, read from the JSON answer
// without jq), then a GET of the first five items of listURL.
func curlExample(authURL, listURL, clientID, secret string) []string {
	return []string{
		"TOKEN=$(curl -s -u " + shellQuote(url.QueryEscape(clientID)+":"+url.QueryEscape(secret)) + " -d grant_type=client_credentials " +
			shellQuote(authURL+"/oauth/token") + ` | sed 's/.*"access_token":"\([^"]*\)".*/\1/')`,
		`curl -s -H "Authorization: Bearer $TOKEN" ` + shellQuote(listURL+"?first=5"),
	}
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// replyModes are the values of -replies.
var replyModes = map[string]workflowtest.Replies{"documented": workflowtest.Documented, "generous": workflowtest.Generous}

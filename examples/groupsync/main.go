// Command groupsync makes a group's members match a CSV list of e-mail
// addresses: it adds the users the list names and removes the members it
// does not. It only prints the plan unless -apply is given.
//
//	go run ./examples/groupsync -fake -group "IT Support" -csv examples/groupsync/testdata/team.csv   # dry run on an embedded fake
//	go run ./examples/groupsync -group "IT Support" -csv team.csv -apply   # change the group of the WORKFLOW_* account
//
// -group is a group id (a UUID, as the service gives them) or an exact
// group name. The CSV's addresses are in
// its column named "email" (or "e-mail"), any case, when the first row has
// one; otherwise in its first column, from the first row on. Addresses are
// compared ignoring case and surrounding spaces; blank cells are skipped, and
// a cell that is not an e-mail address stops the run before anything
// changes. An address of no user in the workspace, or of a deactivated user,
// is reported and not added (groupsync creates no users). A CSV with no
// address is refused rather than emptying the group.
//
// Users are found by e-mail with one walk over every user (UsersService.All);
// changes are sent in batches of 100 user ids per request.
//
// -fake starts an in-process fake of the service (package workflowtest) with
// its demo users and groups: "IT Support" has Alice, Bruno and Chen
// (alice.anders@example.com, bruno.berg@example.com, chen.cho@example.com).
// The sample testdata/team.csv keeps Alice and Bruno, adds Dana
// (dana.diaz@example.com, a demo user in no group), so Chen is removed, and
// names grace.hopper@example.com, whom no user has: the dry run plans one
// addition and one removal and reports the unknown address.
package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// batchSize is the most user ids sent in one AddUsers or RemoveUsers call.
const batchSize = 100

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h: the usage was printed; status 0, as the flag package's own
		}
		fmt.Fprintln(os.Stderr, "groupsync:", err)
		os.Exit(1)
	}
}

// run computes the changes that make the group match the CSV, prints them
// and, with -apply, makes them.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("groupsync", flag.ContinueOnError)
	fs.SetOutput(stderr)
	group := fs.String("group", "", "group id or exact name (required)")
	csvPath := fs.String("csv", "", "CSV file of e-mail addresses (required)")
	apply := fs.Bool("apply", false, "make the changes (default: only print them)")
	fake := fs.Bool("fake", false, "run on an embedded fake server with demo users and groups")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if *group == "" || *csvPath == "" {
		return errors.New("-group and -csv are required")
	}
	wanted, err := readEmails(*csvPath)
	if err != nil {
		return err
	}
	if len(wanted) == 0 {
		return fmt.Errorf("%s lists no e-mail address; refusing to remove every member", *csvPath)
	}

	var c *workflow.Client
	if *fake {
		srv := workflowtest.NewServer()
		defer srv.Close()
		srv.SeedDemo()
		c = srv.Client()
	} else if c, err = workflow.NewClientFromEnv(); err != nil {
		return fmt.Errorf("%w (or try -fake)", err)
	}

	g, err := findGroup(ctx, c, *group)
	if err != nil {
		return err
	}
	byEmail := map[string]workflow.User{}
	for u, err := range c.Users.All(ctx, nil) {
		if err != nil {
			return err
		}
		byEmail[normalize(u.Email)] = u
	}
	members := map[string]workflow.User{} // by id
	for u, err := range c.Groups.Members.All(ctx, g.ID, nil) {
		if err != nil {
			return err
		}
		members[u.ID] = u
	}

	var adds, removes []workflow.User
	var notes []string
	keep := map[string]bool{} // member ids the CSV names
	for _, email := range wanted {
		u, ok := byEmail[email]
		switch {
		case !ok:
			notes = append(notes, fmt.Sprintf("! skip    %s: no user has this address", email))
		case members[u.ID].ID != "":
			keep[u.ID] = true
		case !u.Active():
			notes = append(notes, fmt.Sprintf("! skip    %s (%s): the user is deactivated", email, u.ID))
		default:
			adds = append(adds, u)
		}
	}
	for id, u := range members {
		if !keep[id] {
			removes = append(removes, u)
		}
	}
	byAddress := func(a, b workflow.User) int { return strings.Compare(normalize(a.Email), normalize(b.Email)) }
	slices.SortFunc(adds, byAddress)
	slices.SortFunc(removes, byAddress)

	fmt.Fprintf(stdout, "group %s %q: %d members; %s lists %d addresses\n", g.ID, g.Name, len(members), *csvPath, len(wanted))
	for _, u := range adds {
		fmt.Fprintf(stdout, "+ add     %s (%s)\n", u.Email, u.ID)
	}
	for _, u := range removes {
		fmt.Fprintf(stdout, "- remove  %s (%s)\n", u.Email, u.ID)
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, n)
	}
	if len(adds) == 0 && len(removes) == 0 {
		fmt.Fprintln(stdout, "the group is in sync: nothing to change")
		return nil
	}
	if !*apply {
		fmt.Fprintf(stdout, "dry run: %d to add, %d to remove; run again with -apply to make these changes\n", len(adds), len(removes))
		return nil
	}

	for batch := range slices.Chunk(ids(adds), batchSize) {
		if err := c.Groups.Members.Add(ctx, g.ID, batch); err != nil {
			return err
		}
	}
	for batch := range slices.Chunk(ids(removes), batchSize) {
		if err := c.Groups.Members.Remove(ctx, g.ID, batch); err != nil {
			return err
		}
	}
	n := 0
	for _, err := range c.Groups.Members.All(ctx, g.ID, nil) {
		if err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(stdout, "applied: added %d, removed %d; the group has %d members\n", len(adds), len(removes), n)
	return nil
}

// findGroup returns the group with the id or, failing that, the exact name
// ref. Only a ref in the form of a UUID is tried as an id: group ids are
// UUIDs, and the service is not asked for ids it cannot have.
func findGroup(ctx context.Context, c *workflow.Client, ref string) (*workflow.Group, error) {
	if looksLikeUUID(ref) {
		g, err := c.Groups.Get(ctx, ref)
		if err == nil {
			return g, nil
		}
		if !errors.Is(err, workflow.ErrNotFound) {
			return nil, err
		}
	}
	var found []workflow.Group
	for g, err := range c.Groups.All(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if g.Name == ref {
			found = append(found, g)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("no group has the id or the name %q", ref)
	case 1:
		return &found[0], nil
	}
	return nil, fmt.Errorf("%d groups are named %q; give the id of one", len(found), ref)
}

// looksLikeUUID reports whether s has the form of a UUID:
// 8-4-4-4-12 hexadecimal digits.
func looksLikeUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch i {
		case 8, 13, 18, 23:
			if r != '-' {
				return false
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
				return false
			}
		}
	}
	return true
}

// readEmails returns the normalized addresses of the CSV at path, each once,
// in the order they first appear.
func readEmails(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col, start := 0, 0
	if len(rows) > 0 {
		for i, cell := range rows[0] {
			if h := normalize(cell); h == "email" || h == "e-mail" {
				col, start = i, 1
				break
			}
		}
	}
	var emails []string
	seen := map[string]bool{}
	for i, row := range rows[start:] {
		if col >= len(row) {
			continue
		}
		e := normalize(row[col])
		if e == "" || seen[e] {
			continue
		}
		if !looksLikeEmail(e) {
			return nil, fmt.Errorf("%s, row %d: %q is not an e-mail address", path, start+i+1, row[col])
		}
		seen[e] = true
		emails = append(emails, e)
	}
	return emails, nil
}

// normalize is how addresses are compared: trimmed, lower case.
func normalize(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// looksLikeEmail reports whether s is name@domain with no spaces.
func looksLikeEmail(s string) bool {
	name, domain, ok := strings.Cut(s, "@")
	return ok && name != "" && domain != "" && !strings.ContainsAny(s, " \t") && !strings.Contains(domain, "@")
}

// ids returns the ids of users.
func ids(users []workflow.User) []string {
	out := make([]string, len(users))
	for i, u := range users {
		out[i] = u.ID
	}
	return out
}

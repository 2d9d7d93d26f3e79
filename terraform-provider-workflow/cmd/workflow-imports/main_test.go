package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/seed-a15e58aa/workflow-go/terraform-provider-workflow/internal/imports"
)

// TestParse: a flag per family, -all for every family the API lists
// across the workspace, -app and -element repeated; no family, an
// argument or an empty alias is a usage error.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args string
		want imports.Options
		fake bool
		err  error
	}{
		{"-app crm-accounts", imports.Options{Apps: []string{"crm-accounts"}}, false, nil},
		{"-app a -app b -element e -fake", imports.Options{Apps: []string{"a", "b"}, Elements: []string{"e"}}, true, nil},
		{"-app crm-accounts -tables", imports.Options{Apps: []string{"crm-accounts"}, Tables: true}, false, nil},
		{"-users", imports.Options{Users: true}, false, nil},
		{"-groups", imports.Options{Groups: true}, false, nil},
		{"-all", imports.Options{Tables: true, Users: true, Groups: true}, false, nil},
		{"-all -app a", imports.Options{Apps: []string{"a"}, Tables: true, Users: true, Groups: true}, false, nil},
		{"", imports.Options{}, false, errNoFamily},
		{"-fake", imports.Options{}, true, errNoFamily},
		{"-h", imports.Options{}, false, flag.ErrHelp},
		{"-users extra", imports.Options{Users: true}, false, errors.New(`unexpected arguments ["extra"]`)},
		{"-app=", imports.Options{}, false, errors.New(`invalid value "" for flag -app: an empty alias`)},
	} {
		var out bytes.Buffer
		o, fake, err := parse(strings.Fields(tc.args), &out)
		if fmt.Sprint(err) != fmt.Sprint(tc.err) || fmt.Sprint(o) != fmt.Sprint(tc.want) || fake != tc.fake {
			t.Errorf("parse(%q) = %+v, %v, %v; want %+v, %v, %v", tc.args, o, fake, err, tc.want, tc.fake, tc.err)
		}
		if (err != nil) != strings.Contains(out.String(), "usage: workflow-imports") {
			t.Errorf("parse(%q): the usage is written %t, want %t", tc.args, !(err != nil), err != nil)
		}
	}
}

// TestUsage: -h says which families cannot be found.
func TestUsage(t *testing.T) {
	var out bytes.Buffer
	parse([]string{"-h"}, &out)
	for _, want := range []string{"-all", "-app alias", "-element alias", "-tables", "-users", "-groups",
		"flows, search tables and linked search tables, and the organisation's\ndomains are never found", "Überprüfung"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h does not say %q:\n%s", want, out.String())
		}
	}
}

// TestRunFake: -fake -all -app crm-accounts writes the demo workspace's
// blocks, every family among them.
func TestRunFake(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, imports.Options{Apps: []string{"crm-accounts"}, Tables: true, Users: true, Groups: true}, true); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"to = workflow_automation.welcome_new_accounts", "to = workflow_view.by_tier",
		"to = workflow_user.alice_anders", "to = workflow_group.it_support", "to = workflow_group_email_domains.everyone_at_example_com"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}

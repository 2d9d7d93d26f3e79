package workflowtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// Demo describes the data SeedDemo stored.
type Demo struct {
	// Lists are the paths of the seeded record lists, relative to the base
	// URL, e.g. "/tasks/it-requests".
	Lists []string
	// Users are the users added (the default user is not among them).
	Users []Account
	// Groups are the ids of the groups added.
	Groups []string
	// Contents are the paths, relative to the server's root, of the
	// seeded attachments' content (their contentUrl), e.g.
	// "/v1/tasks/it-requests/1/attachments/a1/content".
	Contents []string
}

// Aliases of the demo definitions.
const (
	DemoTasks        = "it-requests"
	DemoApps         = "crm-accounts"
	DemoElements     = "parts"
	DemoTransactions = "invoices"
)

// SeedDemo stores a small, deterministic workspace, the same every time:
// four record definitions (tasks "it-requests" with 1,000 records, apps
// "crm-accounts", elements "parts", transactions "invoices"), five users
// with credentials and job titles, two groups of members and one dynamic
// group, and on task 1 two related parts, three watchers (two users and a
// group), a comment and a processed text attachment ("notes.txt") whose
// content can be downloaded; and the workspace configuration of app
// "crm-accounts": the automations "Welcome new accounts" (on record
// creation), "Flag gold accounts" (on a change of Tier) and "Archive
// closed accounts" (weekly), and the views "all-accounts" (a list of
// every account, 50 rows, by Name), "gold-accounts" (a list filtered on
// Tier Gold) and "by-tier" (a kanban that allows record creation);
// GET /apps/crm-accounts/views/{id} takes a view's handle as well as its
// id. Everything it stores passes the checks a request would. It is what
// cmd/workflow-fake serves and what the quickstart example reads.
func (s *Server) SeedDemo() Demo {
	base := time.Date(2025, 1, 6, 8, 0, 0, 0, time.UTC)
	people := []struct{ first, last, title string }{
		{"Alice", "Anders", "Service Desk Lead"}, {"Bruno", "Berg", "Support Engineer"}, {"Chen", "Cho", "Network Engineer"},
		{"Dana", "Diaz", "Accountant"}, {"Emeka", "Eze", "Controller"},
	}
	var d Demo
	emails := make([]string, len(people))
	for i, p := range people {
		emails[i] = strings.ToLower(p.first + "." + p.last + "@example.com")
		d.Users = append(d.Users, s.AddUser(emails[i], p.first, p.last))
	}
	d.Groups = append(d.Groups,
		s.AddGroup("IT Support", d.Users[0].UserID, d.Users[1].UserID, d.Users[2].UserID),
		s.AddGroup("Finance", d.Users[3].UserID, d.Users[4].UserID),
		s.AddDynamicGroup("Everyone at example.com", "example.com"),
	)

	// seed defines (rt, alias) with the required fields and stores n
	// records, the i-th as rec(i) makes it.
	seed := func(rt workflow.RecordType, alias string, required []string, n int, rec func(i int) workflow.Record) []string {
		s.Define(rt, alias, required...)
		d.Lists = append(d.Lists, "/"+string(rt)+"/"+alias)
		recs := make([]workflow.Record, n)
		for i := range recs {
			recs[i] = rec(i)
		}
		return s.Seed(rt, alias, recs...)
	}
	statuses := []string{"Open", "In Progress", "Waiting", "Done"}
	categories := []string{"Hardware", "Software", "Network", "Access"}
	seed(workflow.Tasks, DemoTasks, []string{"Title", "Status"}, 1000, func(i int) workflow.Record {
		return workflow.Record{
			"Title":     fmt.Sprintf("Request %04d: %s issue", i+1, strings.ToLower(categories[i%4])),
			"Status":    statuses[(i*7)%4],
			"Priority":  strconv.Itoa(i%5 + 1),
			"Category":  categories[i%4],
			"Requester": fmt.Sprintf("employee%03d@example.com", i%150),
			"Assignee":  emails[i%3],
			"Due Date":  formatTime(base.Add(time.Duration(i) * 7 * time.Hour)),
			"Estimate":  strconv.FormatFloat(float64(i%16)/2+0.5, 'f', -1, 64),
		}
	})
	appIDs := seed(workflow.Apps, DemoApps, []string{"Name"}, 20, func(i int) workflow.Record {
		return workflow.Record{
			"Name":    fmt.Sprintf("Account %02d", i+1),
			"Tier":    []string{"Gold", "Silver", "Bronze"}[i%3],
			"Country": []string{"DE", "FR", "US", "JP", "BR"}[i%5],
		}
	})
	partIDs := seed(workflow.Elements, DemoElements, []string{"Name"}, 50, func(i int) workflow.Record {
		return workflow.Record{
			"Name":  fmt.Sprintf("Part %02d", i+1),
			"Stock": strconv.Itoa((i * 37) % 200),
			"Unit":  []string{"piece", "box", "kg"}[i%3],
		}
	})
	seed(workflow.Transactions, DemoTransactions, []string{"Number", "Amount"}, 100, func(i int) workflow.Record {
		return workflow.Record{
			"Number":  fmt.Sprintf("INV-%05d", i+1),
			"Amount":  strconv.FormatFloat(float64((i*7919)%100000)/100, 'f', 2, 64),
			"Paid":    strconv.FormatBool(i%4 == 0),
			"Issued":  formatTime(base.Add(time.Duration(i) * 24 * time.Hour)),
			"Account": appIDs[i%len(appIDs)],
		}
	})

	// The users' job titles and the Finance group's approver and
	// data-access flags; task 1's related items (two parts), watchers (two
	// users, then a group), a comment written in the web application and
	// an attachment.
	s.mu.Lock()
	for i, a := range d.Users {
		s.st.usersByID[a.UserID].jobTitle = people[i].title
	}
	fin := s.st.groupsByID[d.Groups[1]]
	fin.flags.Approver, fin.flags.DataAccess, fin.flags.Mentionable = true, true, false
	rec := s.st.record(workflow.Tasks, DemoTasks, "1")
	// They are added as their requests add them, by the default user.
	rq := &request{user: s.st.users[0]}
	for _, id := range partIDs[:2] {
		rq.in = &workflow.RelatedRef{ID: id, Alias: new(DemoElements)}
		s.addRelated(rq, rec)
	}
	rq.in = &watcherListInput{Users: emails[:2]}
	s.changeWatchers(rq, rec)
	s.st.newComment(rec, "Looking into it.", "WEB", d.Users[0].UserID, base)
	// A small, processed text file, so that the download route of task 1
	// has something to serve.
	body := []byte("Printer on floor 3 jams on duplex jobs.\n")
	sum := sha256.Sum256(body)
	a := s.attach(rec, &attachment{AttachmentInfo: AttachmentInfo{Name: "notes.txt", Description: "First analysis",
		MediaType: "text/plain; charset=utf-8", Size: int64(len(body)), SHA256: hex.EncodeToString(sum[:]),
		State: StateValid, CreatedAt: base}, content: &content{mem: body, size: int64(len(body))}})
	d.Contents = []string{a.contentURL()}
	s.mu.Unlock()
	s.WatchGroup(workflow.Tasks, DemoTasks, "1", d.Groups[0])
	s.seedDemoConfiguration()
	return d
}

// seedDemoConfiguration gives app "crm-accounts" three automations and
// three views (with the handles "all-accounts", "gold-accounts" and
// "by-tier").
func (s *Server) seedDemoConfiguration() {
	for _, a := range []map[string]any{
		{"name": "Welcome new accounts", "triggers": []any{map[string]any{"type": "RECORD_CREATED"}},
			"tasks": []any{map[string]any{"type": "SEND_EMAIL", "template": "welcome"}}},
		{"name": "Flag gold accounts", "triggers": []any{map[string]any{"type": "FIELD_CHANGED", "field": "Tier"}},
			"tasks": []any{map[string]any{"type": "NOTIFY_GROUP", "group": "Finance"}}},
		{"name": "Archive closed accounts", "triggers": []any{map[string]any{"type": "SCHEDULE", "cron": "0 3 * * 1"}},
			"tasks": []any{map[string]any{"type": "UPDATE_FIELD", "field": "Status", "value": "Archived"}}},
	} {
		s.AddAutomation(workflow.Apps, DemoApps, a)
	}
	s.AddView(DemoApps, "all-accounts", "list", map[string]any{"name": "All accounts", "rows": 50,
		"sort": map[string]any{"field": "Name", "direction": "ASC"}})
	s.AddView(DemoApps, "gold-accounts", "list", map[string]any{"name": "Gold accounts", "filter": map[string]any{"Tier": "Gold"}})
	s.AddView(DemoApps, "by-tier", "kanban", map[string]any{"name": "Accounts by tier", "allowRecordCreation": true})
}

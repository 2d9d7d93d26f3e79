package imports

import (
	"bytes"
	"strings"
	"testing"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

const (
	source   = "00000000-0000-4000-8000-0000000000a1"
	category = "00000000-0000-4000-8000-0000000000c1"
)

// TestApp: the demo app's objects, each an import block named after it,
// with the import id of its resource.
func TestApp(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	ws := admin.New(srv.Client())
	blocks, err := App(t.Context(), ws, "crm-accounts")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range blocks {
		got = append(got, b.Type+"."+b.Name)
		prefix := "crm-accounts/"
		if b.Type == "workflow_automation" {
			prefix = "apps/crm-accounts/"
		}
		if !strings.HasPrefix(b.ID, prefix) || len(b.ID) == len(prefix) {
			t.Errorf("%s.%s: import id %q, want %s<id>", b.Type, b.Name, b.ID, prefix)
		}
	}
	want := []string{
		"workflow_automation.welcome_new_accounts", "workflow_automation.flag_gold_accounts", "workflow_automation.archive_closed_accounts",
		"workflow_view.all_accounts", "workflow_view.gold_accounts", "workflow_view.by_tier",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("blocks %v, want %v", got, want)
	}
	var buf bytes.Buffer
	if err := Write(&buf, blocks[:2]); err != nil {
		t.Fatal(err)
	}
	want0 := "# automation \"Welcome new accounts\" of app crm-accounts\nimport {\n  to = workflow_automation.welcome_new_accounts\n  id = \"" +
		blocks[0].ID + "\"\n}\n\n# automation \"Flag gold accounts\" of app crm-accounts\n"
	if !strings.HasPrefix(buf.String(), want0) {
		t.Errorf("Write wrote %q, want it to begin with %q", buf.String(), want0)
	}
}

// TestDuplicateNames: two objects of one name get distinct addresses.
func TestDuplicateNames(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	for range 2 {
		srv.AddAutomation("apps", "crm-accounts", map[string]any{"name": "Same", "trigger": map[string]any{"type": "recordCreated"}})
	}
	blocks, err := App(t.Context(), admin.New(srv.Client()), "crm-accounts")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range blocks {
		if strings.HasPrefix(b.Name, "same") {
			names = append(names, b.Name)
		}
	}
	if strings.Join(names, " ") != "same same_2" {
		t.Errorf("names %v, want [same same_2]", names)
	}
}

// workspace is what seed adds to the demo workspace, by the ids the
// blocks are to import.
type workspace struct {
	dealAutomation, dealView, agent, skill string
	element, elementAutomation             string
	review, codes, regions                 string // tables
	reviewCodes, reviewRegions             string // joins
	codesRegions                           string // a join without mappings
	statusPair, regionPair                 string // pairs with mappings
	jorg, ada, ada2                        string // users
	strasse, noDomains                     string // groups
}

// seed adds to the demo workspace of srv an app crm-deals with an
// automation, a view named like one of crm-accounts, an agent and a
// skill; an element widgets with an automation; three tables
// ("Überprüfung" joins "Status codes" on two pairs, one with mappings,
// and "Regions" on one, with mappings; "Status codes" joins "Regions"
// without any); users, one deactivated, two of one name; a group, and a
// dynamic group without domains.
func seed(t *testing.T, srv *workflowtest.Server) workspace {
	t.Helper()
	ctx, ws := t.Context(), admin.New(srv.Client())
	var w workspace
	w.dealAutomation = srv.AddAutomation(workflow.Apps, "crm-deals", map[string]any{"name": "New deal",
		"triggers": []any{map[string]any{"type": "RECORD_CREATED"}}})
	w.dealView = srv.AddView("crm-deals", "all-accounts", "list", map[string]any{"name": "All accounts"})
	agent, err := ws.Agents.Create(ctx, "crm-deals", admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{
		Name: new("Deal assistant"), Temperature: new(0.0), Instructions: new("Answer briefly.")}}})
	if err != nil {
		t.Fatal(err)
	}
	w.agent = agent.ID.Value()
	skill, err := ws.Skills.Create(ctx, "crm-deals", admin.SkillBundle{Skill: admin.SkillSettings{Name: new("Triage"),
		Status: new(admin.SkillActive), Properties: []byte(`{"threshold":0}`)}})
	if err != nil {
		t.Fatal(err)
	}
	w.skill = skill.ID.Value()

	element, err := ws.Elements.Create(ctx, admin.NewElement{Name: "Widgets", CategoryID: category, Namespace: new("widgets")})
	if err != nil {
		t.Fatal(err)
	}
	w.element = element.ID.Value()
	w.elementAutomation = srv.AddAutomation(workflow.Elements, "widgets", map[string]any{"name": "Restock",
		"triggers": []any{map[string]any{"type": "RECORD_CREATED"}}})

	cloud := func(name, column string) admin.TableFieldInput {
		return admin.TableFieldInput{Cloud: &admin.TableCloudField{Name: name, Snowflake: &admin.TableColumn{ColumnName: column, Type: admin.FieldText}}}
	}
	table := func(name, handle string, fields ...admin.TableFieldInput) *admin.Table {
		tb, err := ws.Tables.Create(ctx, admin.TableCreateRequest{Name: name, Handle: handle, Source: source, CategoryID: category, Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	field := func(tb *admin.Table, i int) string { return tb.Fields.Value()[i].ID.Value() }
	review := table("Überprüfung", "UEB", cloud("Status", "STATUS"), cloud("Region", "REGION"))
	codes := table("Status codes", "STC", cloud("Code", "CODE"), cloud("Region", "REGION"))
	regions := table("Regions", "REG", cloud("Code", "CODE"))
	w.review, w.codes, w.regions = review.ID.Value(), codes.ID.Value(), regions.ID.Value()
	join := func(tb, to *admin.Table, on ...admin.TableJoinOn) *admin.TableJoin {
		j, err := ws.Tables.Joins.Create(ctx, tb.ID.Value(), admin.TableJoinInput{Source: to.ID.Ptr(), Type: new(admin.JoinLeft), JoinOn: on})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	rc := join(review, codes, admin.TableJoinOn{LeftFieldID: field(review, 0), RightFieldID: field(codes, 0)},
		admin.TableJoinOn{LeftFieldID: field(review, 1), RightFieldID: field(codes, 1)})
	rr := join(review, regions, admin.TableJoinOn{LeftFieldID: field(review, 1), RightFieldID: field(regions, 0)})
	cr := join(codes, regions, admin.TableJoinOn{LeftFieldID: field(codes, 1), RightFieldID: field(regions, 0)})
	w.reviewCodes, w.reviewRegions, w.codesRegions = rc.ID.Value(), rr.ID.Value(), cr.ID.Value()
	w.statusPair, w.regionPair = rc.OnFields.Value()[0].ID.Value(), rr.OnFields.Value()[0].ID.Value()
	for _, p := range []string{w.statusPair, w.regionPair} {
		tb := w.review
		if err := ws.Tables.JoinMappings.Create(ctx, tb, p, []admin.JoinMapping{{Source: "open", Target: "OPEN"}}); err != nil {
			t.Fatal(err)
		}
	}

	w.jorg = srv.AddUser("joerg@example.com", "Jörg", "Müller").UserID
	w.ada = srv.AddUser("ada@example.com", "Ada", "Lovelace").UserID
	w.ada2 = srv.AddUser("ada@example.org", "Ada", "Lovelace").UserID
	srv.DeactivateUser(srv.AddUser("gone@example.com", "Gone", "Away").UserID)
	w.strasse = srv.AddGroup("Straße & Plätze", w.jorg)
	w.noDomains = srv.AddDynamicGroup("Nobody yet")
	return w
}

// TestFamilies: each family's blocks, against the demo workspace and
// what seed adds: their types, names, import ids, in order.
func TestFamilies(t *testing.T) {
	srv := workflowtest.Start(t)
	demo := srv.SeedDemo()
	w := seed(t, srv)
	c := srv.Client()
	ws := admin.New(c)
	user := func(i int) string { return demo.Users[i].UserID }
	for _, tc := range []struct {
		family string
		find   func() ([]Block, error)
		want   []Block
	}{
		{"app", func() ([]Block, error) { return App(t.Context(), ws, "crm-deals") }, []Block{
			{Type: "workflow_automation", Name: "new_deal", ID: "apps/crm-deals/" + w.dealAutomation},
			{Type: "workflow_view", Name: "all_accounts", ID: "crm-deals/" + w.dealView},
			{Type: "workflow_agent", Name: "deal_assistant", ID: "crm-deals/" + w.agent},
			{Type: "workflow_skill", Name: "triage", ID: "crm-deals/" + w.skill},
		}},
		{"element", func() ([]Block, error) { return Element(t.Context(), ws, "widgets") }, []Block{
			{Type: "workflow_element", Name: "widgets", ID: w.element},
			{Type: "workflow_automation", Name: "restock", ID: "elements/widgets/" + w.elementAutomation},
		}},
		{"tables", func() ([]Block, error) { return Tables(t.Context(), ws) }, []Block{
			{Type: "workflow_table", Name: "überprüfung", ID: w.review},
			{Type: "workflow_table", Name: "status_codes", ID: w.codes},
			{Type: "workflow_table", Name: "regions", ID: w.regions},
			{Type: "workflow_table_join", Name: "überprüfung_status_codes", ID: w.review + "/" + w.reviewCodes},
			{Type: "workflow_table_join", Name: "überprüfung_regions", ID: w.review + "/" + w.reviewRegions},
			{Type: "workflow_table_join", Name: "status_codes_regions", ID: w.codes + "/" + w.codesRegions},
			// the join on two pairs: its mappings are named after the pair's left field too
			{Type: "workflow_table_join_mappings", Name: "überprüfung_status_codes_status", ID: w.review + "/" + w.statusPair},
			{Type: "workflow_table_join_mappings", Name: "überprüfung_regions", ID: w.review + "/" + w.regionPair},
		}},
		{"users", func() ([]Block, error) { return Users(t.Context(), c) }, []Block{
			{Type: "workflow_user", Name: "default_user", ID: workflowtest.DefaultUserID},
			{Type: "workflow_user", Name: "alice_anders", ID: user(0)},
			{Type: "workflow_user", Name: "bruno_berg", ID: user(1)},
			{Type: "workflow_user", Name: "chen_cho", ID: user(2)},
			{Type: "workflow_user", Name: "dana_diaz", ID: user(3)},
			{Type: "workflow_user", Name: "emeka_eze", ID: user(4)},
			{Type: "workflow_user", Name: "jörg_müller", ID: w.jorg},
			{Type: "workflow_user", Name: "ada_lovelace", ID: w.ada},
			{Type: "workflow_user", Name: "ada_lovelace_2", ID: w.ada2},
			// gone@example.com is deactivated: left out
		}},
		{"groups", func() ([]Block, error) { return Groups(t.Context(), c) }, []Block{
			{Type: "workflow_group", Name: "it_support", ID: demo.Groups[0]},
			{Type: "workflow_group", Name: "finance", ID: demo.Groups[1]},
			{Type: "workflow_group", Name: "everyone_at_example_com", ID: demo.Groups[2]},
			{Type: "workflow_group", Name: "straße_plätze", ID: w.strasse},
			{Type: "workflow_group", Name: "nobody_yet", ID: w.noDomains},
			// the dynamic group with domains; Nobody yet has none
			{Type: "workflow_group_email_domains", Name: "everyone_at_example_com", ID: demo.Groups[2]},
		}},
	} {
		t.Run(tc.family, func(t *testing.T) {
			blocks, err := tc.find()
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range blocks {
				if b.Note == "" {
					t.Errorf("%s.%s: no note", b.Type, b.Name)
				}
				b.Note = ""
				switch {
				case i >= len(tc.want):
					t.Errorf("block %d: %s.%s %s, one too many", i, b.Type, b.Name, b.ID)
				case b != tc.want[i]:
					w := tc.want[i]
					t.Errorf("block %d: %s.%s %s, want %s.%s %s", i, b.Type, b.Name, b.ID, w.Type, w.Name, w.ID)
				}
			}
			if len(blocks) < len(tc.want) {
				t.Errorf("%d blocks, want %d", len(blocks), len(tc.want))
			}
		})
	}
}

// TestFind: the families of Options, in their order, with names unique
// per type over them all (crm-deals has a view of crm-accounts' handle).
func TestFind(t *testing.T) {
	srv := workflowtest.Start(t)
	srv.SeedDemo()
	w := seed(t, srv)
	blocks, err := Find(t.Context(), srv.Client(), Options{Apps: []string{"crm-accounts", "crm-deals"}, Elements: []string{"widgets"},
		Tables: true, Users: true, Groups: true})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	addresses := map[string]bool{}
	var views []string
	for _, b := range blocks {
		count[b.Type]++
		if addresses[b.Type+"."+b.Name] {
			t.Errorf("%s.%s twice", b.Type, b.Name)
		}
		addresses[b.Type+"."+b.Name] = true
		if b.Type == "workflow_view" {
			views = append(views, b.Name+"="+b.ID)
		}
	}
	if got, want := strings.Join(views, " "), "all_accounts= gold_accounts= by_tier= all_accounts_2=crm-deals/"+w.dealView; !matchViews(got, want) {
		t.Errorf("views %s, want %s", got, want)
	}
	want := map[string]int{"workflow_automation": 5, "workflow_view": 4, "workflow_agent": 1, "workflow_skill": 1, "workflow_element": 1,
		"workflow_table": 3, "workflow_table_join": 3, "workflow_table_join_mappings": 2, "workflow_user": 9,
		"workflow_group": 5, "workflow_group_email_domains": 1}
	for typ, n := range want {
		if count[typ] != n {
			t.Errorf("%d blocks of %s, want %d", count[typ], typ, n)
		}
	}
	if len(count) != len(want) {
		t.Errorf("blocks of the types %v, want %v", count, want)
	}
	// the order: an app's, an element's, the tables', the users', the groups'
	var order []string
	for _, b := range blocks {
		if len(order) == 0 || order[len(order)-1] != b.Type {
			order = append(order, b.Type)
		}
	}
	wantOrder := "workflow_automation workflow_view workflow_automation workflow_view workflow_agent workflow_skill " +
		"workflow_element workflow_automation workflow_table workflow_table_join workflow_table_join_mappings workflow_user " +
		"workflow_group workflow_group_email_domains"
	if got := strings.Join(order, " "); got != wantOrder {
		t.Errorf("order %s\nwant  %s", got, wantOrder)
	}
}

// TestTwoJoins: a table joining another twice has two joins' blocks, the
// second suffixed; the mappings of the second's pair are named after it.
func TestTwoJoins(t *testing.T) {
	srv := workflowtest.Start(t)
	ctx, ws := t.Context(), admin.New(srv.Client())
	var tables []*admin.Table
	for _, name := range []string{"Orders", "Codes"} {
		tb, err := ws.Tables.Create(ctx, admin.TableCreateRequest{Name: name, Handle: strings.ToUpper(name[:3]), Source: source, CategoryID: category,
			Fields: []admin.TableFieldInput{{Cloud: &admin.TableCloudField{Name: "Code", Snowflake: &admin.TableColumn{ColumnName: "CODE", Type: admin.FieldText}}}}})
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tb)
	}
	var pair string
	for range 2 {
		j, err := ws.Tables.Joins.Create(ctx, tables[0].ID.Value(), admin.TableJoinInput{Source: tables[1].ID.Ptr(), Type: new(admin.JoinInner),
			JoinOn: []admin.TableJoinOn{{LeftFieldID: tables[0].Fields.Value()[0].ID.Value(), RightFieldID: tables[1].Fields.Value()[0].ID.Value()}}})
		if err != nil {
			t.Fatal(err)
		}
		pair = j.OnFields.Value()[0].ID.Value()
	}
	if err := ws.Tables.JoinMappings.Create(ctx, tables[0].ID.Value(), pair, []admin.JoinMapping{{Source: "a", Target: "b"}}); err != nil {
		t.Fatal(err)
	}
	blocks, err := Tables(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range blocks {
		got = append(got, b.Type+"."+b.Name)
	}
	want := "workflow_table.orders workflow_table.codes workflow_table_join.orders_codes workflow_table_join.orders_codes_2 " +
		"workflow_table_join_mappings.orders_codes_2"
	if strings.Join(got, " ") != want || blocks[4].ID != tables[0].ID.Value()+"/"+pair {
		t.Errorf("blocks %v (the last imports %s), want %s (the last %s/%s)", got, blocks[len(blocks)-1].ID, want, tables[0].ID.Value(), pair)
	}
}

// TestMappingsUnknown: a field pair whose answer does not say whether it
// has mappings (no joinMappings, or a shape other than a connection) gets
// a block; one whose connection has no edges does not.
func TestMappingsUnknown(t *testing.T) {
	for _, tc := range []struct {
		answer string
		want   bool
	}{
		{``, true},
		{`{"edges":[{"node":{"source":"a","target":"b"}}]}`, true},
		{`{"edges":[]}`, false},
		{`{"edges":null}`, false},
		{`null`, true},
		{`{"totalCount":3}`, true},
		{`[]`, true},
	} {
		if got := hasMappings(admin.TableJoinFields{JoinMappings: []byte(tc.answer)}); got != tc.want {
			t.Errorf("hasMappings(%s) = %v, want %v", tc.answer, got, tc.want)
		}
	}
}

// matchViews reports whether the views name=id of got are those of want,
// where an id of want is the prefix of got's.
func matchViews(got, want string) bool {
	g, w := strings.Fields(got), strings.Fields(want)
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		if !strings.HasPrefix(g[i], w[i]) {
			return false
		}
	}
	return true
}

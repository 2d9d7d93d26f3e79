package workflowtest

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
)

// seedTasks defines tasks/it with a required Title and seeds n records
// with Title "Task i", Priority i%5 and Status Open/Done alternating.
func seedTasks(srv *Server, n int) []string {
	srv.Define(workflow.Tasks, "it", "Title")
	recs := make([]workflow.Record, n)
	for i := range recs {
		status := "Open"
		if i%2 == 1 {
			status = "Done"
		}
		recs[i] = workflow.Record{"Title": fmt.Sprintf("Task %d", i+1), "Priority": strconv.Itoa(i % 5), "Status": status}
	}
	return srv.Seed(workflow.Tasks, "it", recs...)
}

func TestListRecords(t *testing.T) {
	a := newAPI(t)
	ids := seedTasks(a.srv, 5)
	assert.Equal(t, []string{"1", "2", "3", "4", "5"}, ids, "ids are deterministic")

	l := a.list("/tasks/it", nil)
	assert.Equal(t, ids, l.ids(), "insertion order")
	assert.Equal(t, 5, l.Total)
	assert.False(t, l.Paging.HasNextPage)
	assert.False(t, l.Paging.HasPreviousPage)
	assert.Equal(t, l.Items[0].Cursor, l.Paging.StartCursor)
	assert.Equal(t, l.Items[4].Cursor, l.Paging.EndCursor)
	assert.Equal(t, map[string]string{"id": "1", "Title": "Task 1", "Priority": "0", "Status": "Open"}, l.Items[0].Data)

	// An empty list.
	a.srv.Define(workflow.Apps, "empty")
	l = a.list("/apps/empty", nil)
	assert.Empty(t, l.Items)
	assert.Equal(t, 0, l.Total)
	assert.Empty(t, l.Paging.StartCursor)
	assert.Empty(t, l.Paging.EndCursor)

	// Elements are listed through /elements/{alias} like the others.
	a.srv.Seed(workflow.Elements, "parts", workflow.Record{"Name": "bolt"})
	assert.Len(t, a.list("/elements/parts", nil).Items, 1)
}

func TestListDefaultAndMaximumPageSize(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1500)
	l := a.list("/tasks/it", nil)
	assert.Len(t, l.Items, 100, "default first is 100")
	assert.True(t, l.Paging.HasNextPage)
	assert.Equal(t, 1500, l.Total)
	l = a.list("/tasks/it", url.Values{"first": {"1000"}})
	assert.Len(t, l.Items, 1000)
	l = a.list("/tasks/it", url.Values{"last": {"1000"}})
	assert.Len(t, l.Items, 1000)
	assert.Equal(t, "501", l.Items[0].Data["id"])
	assert.True(t, l.Paging.HasPreviousPage)
	assert.False(t, l.Paging.HasNextPage)
	l = a.list("/tasks/it", url.Values{"before": {l.Paging.StartCursor}})
	assert.Len(t, l.Items, 100, "before without last pages by 100")
	assert.Equal(t, "401", l.Items[0].Data["id"])
}

func TestListErrors(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 3)
	other := a.srv.AddUser("d@example.com", "D", "D")
	a.srv.Deny(other.UserID, workflow.Tasks, "it")
	d := a.as(other)
	cursor := a.list("/tasks/it", url.Values{"first": {"1"}}).Paging.EndCursor

	tests := []struct {
		name   string
		api    *api
		path   string
		status int
		msg    string
	}{
		{"first 0", a, "/tasks/it?first=0", 400, "first"},
		{"first 1001", a, "/tasks/it?first=1001", 400, "first"},
		{"first not a number", a, "/tasks/it?first=ten", 400, "first"},
		{"first empty", a, "/tasks/it?first=", 400, "first"},
		{"last 0", a, "/tasks/it?last=0", 400, "last"},
		{"last 1001", a, "/tasks/it?last=1001", 400, "last"},
		{"first and last", a, "/tasks/it?first=1&last=1", 400, "mixed"},
		{"after and before", a, "/tasks/it?after=" + cursor + "&before=" + cursor, 400, "mixed"},
		{"first and before", a, "/tasks/it?first=2&before=" + cursor, 400, "mixed"},
		{"first twice", a, "/tasks/it?first=1&first=2", 400, "more than once"},
		{"malformed cursor", a, "/tasks/it?after=%21%21", 400, "malformed cursor"},
		{"empty after", a, "/tasks/it?after=", 400, "after"},
		{"malformed filter", a, "/tasks/it?filter=" + url.QueryEscape("Status=="), 400, "rsql: at offset"},
		{"unknown operator", a, "/tasks/it?filter=" + url.QueryEscape("Status=foo=1"), 400, "operator"},
		{"null in an ordering", a, "/tasks/it?filter=" + url.QueryEscape("Priority=gt=null"), 422, "null"},
		{"unknown record type", a, "/things/it", 404, "unknown record type"},
		{"unknown alias", a, "/tasks/nope", 404, "nope"},
		{"denied", d, "/tasks/it", 403, "permission"},
		{"no token", &api{t: t, srv: a.srv}, "/tasks/it", 401, "token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.api.t = t
			defer func() { tc.api.t = nil }()
			msg := expectError(t, tc.api.get(tc.path), tc.status)
			if tc.msg == "mixed" {
				assert.Contains(t, msg, "must not be mixed")
				return
			}
			assert.Contains(t, msg, tc.msg)
		})
	}
}

func TestListFilteredPagingBothWays(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 20) // Open: odd ids 1..19 (10 records)
	q := url.Values{"filter": {"Status==Open"}, "first": {"3"}}

	var forward []string
	var pages int
	for {
		l := a.list("/tasks/it", q)
		pages++
		assert.Equal(t, 10, l.Total)
		assert.Equal(t, len(forward) > 0, l.Paging.HasPreviousPage, "page %d", pages)
		forward = append(forward, l.ids()...)
		if !l.Paging.HasNextPage {
			break
		}
		q.Set("after", l.Paging.EndCursor)
	}
	assert.Equal(t, []string{"1", "3", "5", "7", "9", "11", "13", "15", "17", "19"}, forward)
	assert.Equal(t, 4, pages)

	q = url.Values{"filter": {"Status==Open"}, "last": {"4"}}
	var backward []string
	for {
		l := a.list("/tasks/it", q)
		assert.Equal(t, 10, l.Total)
		assert.Equal(t, len(backward) > 0, l.Paging.HasNextPage)
		backward = append(slices.Clone(l.ids()), backward...)
		if !l.Paging.HasPreviousPage {
			break
		}
		q.Set("before", l.Paging.StartCursor)
	}
	assert.Equal(t, forward, backward)

	// An item's cursor resumes right after it.
	l := a.list("/tasks/it", url.Values{"filter": {"Status==Open"}})
	l2 := a.list("/tasks/it", url.Values{"filter": {"Status==Open"}, "after": {l.Items[3].Cursor}, "first": {"2"}})
	assert.Equal(t, []string{"9", "11"}, l2.ids())
	assert.True(t, l2.Paging.HasPreviousPage)
	assert.True(t, l2.Paging.HasNextPage)
	l2 = a.list("/tasks/it", url.Values{"filter": {"Status==Open"}, "before": {l.Items[3].Cursor}, "last": {"2"}})
	assert.Equal(t, []string{"3", "5"}, l2.ids())
	assert.True(t, l2.Paging.HasPreviousPage)
	assert.True(t, l2.Paging.HasNextPage)

	// Past the end: an empty page.
	l2 = a.list("/tasks/it", url.Values{"filter": {"Status==Open"}, "after": {l.Paging.EndCursor}})
	assert.Empty(t, l2.Items)
	assert.False(t, l2.Paging.HasNextPage)
	assert.True(t, l2.Paging.HasPreviousPage)
	assert.Equal(t, 10, l2.Total)
}

func TestCursorBoundToListAndFilter(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 10)
	a.srv.Seed(workflow.Tasks, "other", workflow.Record{"Title": "x"})
	c := a.list("/tasks/it", url.Values{"filter": {"Status==Open"}, "first": {"2"}}).Paging.EndCursor

	msg := expectError(t, a.get("/tasks/it?"+url.Values{"filter": {"Status==Done"}, "after": {c}}.Encode()), 400)
	assert.Contains(t, msg, "another filter")
	expectError(t, a.get("/tasks/it?"+url.Values{"after": {c}}.Encode()), 400)
	expectError(t, a.get("/tasks/other?"+url.Values{"filter": {"Status==Open"}, "after": {c}}.Encode()), 400)

	// The same filter written differently is the same filter.
	for _, f := range []string{"Status == Open", `Status=="Open"`, "(Status==Open)"} {
		l := a.list("/tasks/it", url.Values{"filter": {f}, "after": {c}})
		assert.Equal(t, []string{"5", "7", "9"}, l.ids(), f)
	}
}

// TestIterationWithConcurrentInserts: a forward iteration running while
// records are being created sees every record that existed when it began
// exactly once.
func TestIterationWithConcurrentInserts(t *testing.T) {
	a := newAPI(t)
	original := seedTasks(a.srv, 500)
	inserter := a.as(a.srv.AddUser("i@example.com", "I", "I"))

	stop := make(chan struct{})
	inserted := make(chan struct{}) // closed after the first insert
	exited := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(exited)
		for i := 0; ; i++ {
			if i == 1 {
				close(inserted)
			}
			select {
			case <-stop:
				return
			default:
			}
			res := inserter.do(http.MethodPost, "/tasks/it", map[string]string{"Title": "new " + strconv.Itoa(i), "Status": "Open"})
			if res.status != http.StatusCreated {
				t.Errorf("create: %d %s", res.status, res.body)
				return
			}
		}
	})

	seen := map[string]int{}
	q := url.Values{"first": {"7"}}
	for {
		l := a.list("/tasks/it", q)
		for _, id := range l.ids() {
			seen[id]++
		}
		if !l.Paging.HasNextPage || len(seen) > 2000 {
			break
		}
		q.Set("after", l.Paging.EndCursor)
		if len(seen) == 7 {
			// However the goroutines are scheduled, the rest of the
			// walk runs while records are being created.
			select {
			case <-inserted:
			case <-exited: // it failed, and said why
			}
		}
	}
	close(stop)
	wg.Wait()
	for _, id := range original {
		assert.Equal(t, 1, seen[id], "record %s", id)
	}
	for id, n := range seen {
		assert.Equal(t, 1, n, "record %s seen %d times", id, n)
	}
	assert.Greater(t, len(a.srv.Records(workflow.Tasks, "it")), 500)
}

func TestGetRecord(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 2)
	a.srv.Seed(workflow.Tasks, "it", workflow.Record{"id": "a/b c", "Title": "odd id"})
	res := a.get("/tasks/it/2")
	require.Equal(t, http.StatusOK, res.status)
	var rec map[string]string
	res.decode(&rec)
	assert.Equal(t, map[string]string{"id": "2", "Title": "Task 2", "Priority": "1", "Status": "Done"}, rec)

	res = a.get("/tasks/it/" + url.PathEscape("a/b c"))
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	res.decode(&rec)
	assert.Equal(t, "odd id", rec["Title"])

	other := a.srv.AddUser("d@example.com", "D", "D")
	a.srv.Deny(other.UserID, workflow.Tasks, "it")
	expectError(t, a.get("/tasks/it/99"), 404)
	expectError(t, a.get("/tasks/nope/1"), 404)
	expectError(t, a.get("/stuff/it/1"), 404)
	expectError(t, a.as(other).get("/tasks/it/1"), 403)
	expectError(t, (&api{t: t, srv: a.srv}).get("/tasks/it/1"), 401)
}

func TestCreateRecord(t *testing.T) {
	a := newAPI(t)
	a.srv.Define(workflow.Tasks, "it", "Title", "Due Date")
	res := a.do(http.MethodPost, "/tasks/it", map[string]string{"Title": "Fix", "Due Date": "2024-05-01T00:00:00.000Z", "id": "mine"})
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	var rec map[string]string
	res.decode(&rec)
	assert.Equal(t, map[string]string{"id": "1", "Title": "Fix", "Due Date": "2024-05-01T00:00:00.000Z"}, rec, "the service assigns the id")
	got, ok := a.srv.Record(workflow.Tasks, "it", "1")
	require.True(t, ok)
	assert.Equal(t, workflow.Record(rec), got)
	res = a.do(http.MethodPost, "/tasks/it", map[string]string{"Title": "Second", "Due Date": "x"})
	res.decode(&rec)
	assert.Equal(t, "2", rec["id"])

	msg := expectError(t, a.do(http.MethodPost, "/tasks/it", map[string]string{"Other": "x", "Due Date": ""}), 400)
	assert.Equal(t, "missing required fields: Title, Due Date", msg)

	other := a.srv.AddUser("d@example.com", "D", "D")
	a.srv.Deny(other.UserID, workflow.Tasks, "it")
	tests := []struct {
		name   string
		api    *api
		path   string
		body   any
		status int
		msg    string
	}{
		{"number value", a, "/tasks/it", []byte(`{"Title": 5}`), 400, `invalid /Title: must be a string`},
		{"null value", a, "/tasks/it", []byte(`{"Title": null}`), 400, `invalid /Title: must be a string, not null`},
		{"not an object", a, "/tasks/it", []byte(`["Title"]`), 400, "malformed body: must be an object"},
		{"malformed JSON", a, "/tasks/it", []byte(`{"Title":`), 400, "malformed body: is not JSON"},
		{"empty body", a, "/tasks/it", []byte(``), 400, "empty"},
		{"no fields", a, "/tasks/it", []byte(`{}`), 400, "no fields"},
		{"unknown alias", a, "/tasks/nope", map[string]string{"Title": "x"}, 404, "nope"},
		{"denied", a.as(other), "/tasks/it", map[string]string{"Title": "x"}, 403, "permission"},
		{"the body is checked first", a.as(other), "/tasks/it", []byte(`nonsense`), 400, "malformed body"},
		{"no token", &api{t: t, srv: a.srv}, "/tasks/it", map[string]string{"Title": "x"}, 401, "token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.api.t = t
			assert.Contains(t, expectError(t, tc.api.do(http.MethodPost, tc.path, tc.body), tc.status), tc.msg)
		})
	}
	assert.Len(t, a.srv.Records(workflow.Tasks, "it"), 2, "no failed create stored anything")
}

func TestUpdateRecord(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 2)
	res := a.do(http.MethodPut, "/tasks/it/1", map[string]string{"Status": "Done", "Note": "n", "id": "1"})
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	var rec map[string]string
	res.decode(&rec)
	assert.Equal(t, map[string]string{"id": "1", "Title": "Task 1", "Priority": "0", "Status": "Done", "Note": "n"}, rec)
	got, _ := a.srv.Record(workflow.Tasks, "it", "1")
	assert.Equal(t, workflow.Record(rec), got)

	other := a.srv.AddUser("d@example.com", "D", "D")
	a.srv.Deny(other.UserID, workflow.Tasks, "it")
	assert.Contains(t, expectError(t, a.do(http.MethodPut, "/tasks/it/1", map[string]string{"id": "7"}), 400), "id field cannot be changed")
	assert.Contains(t, expectError(t, a.do(http.MethodPut, "/tasks/it/1", map[string]string{"Title": ""}), 400), "Title")
	expectError(t, a.do(http.MethodPut, "/tasks/it/1", []byte(`{}`)), 400)
	expectError(t, a.do(http.MethodPut, "/tasks/it/1", []byte(`{"Status": null}`)), 400)
	expectError(t, a.do(http.MethodPut, "/tasks/it/9", map[string]string{"Status": "x"}), 404)
	expectError(t, a.as(other).do(http.MethodPut, "/tasks/it/1", map[string]string{"Status": "x"}), 403)
	expectError(t, (&api{t: t, srv: a.srv}).do(http.MethodPut, "/tasks/it/1", map[string]string{"Status": "x"}), 401)
	got, _ = a.srv.Record(workflow.Tasks, "it", "1")
	assert.Equal(t, workflow.Record(rec), got, "failed updates changed nothing")
}

func TestMethodNotAllowedAndUnknownRoutes(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	res := a.do(http.MethodDelete, "/tasks/it/1", nil)
	expectError(t, res, http.StatusMethodNotAllowed)
	assert.Equal(t, "GET, PUT", res.header.Get("Allow"))
	res = a.do(http.MethodPatch, "/tasks/it/1/attachments/url-links", nil)
	expectError(t, res, http.StatusMethodNotAllowed)
	assert.Equal(t, "POST, GET, DELETE", res.header.Get("Allow"))
	expectError(t, a.get("/tasks/it/1/unknown"), http.StatusNotFound)
	expectError(t, a.get("/tasks/it/"), http.StatusNotFound)
	expectError(t, a.get("/../oauth/token"), http.StatusNotFound)
	res = a.send(mustRequest(t, http.MethodGet, a.srv.URL()+"/elsewhere"))
	expectError(t, res, http.StatusNotFound)
}

func mustRequest(t *testing.T, method, u string) *http.Request {
	req, err := http.NewRequestWithContext(t.Context(), method, u, nil)
	require.NoError(t, err)
	return req
}

func TestRequestsAreRecordedWithTheirFilter(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 3)
	a.srv.ResetRequests()
	a.list("/tasks/it", url.Values{"filter": {"Status==Open;Priority=ge=1"}, "first": {"2"}})
	reqs := a.srv.Requests()
	require.Len(t, reqs, 1)
	r := reqs[0]
	assert.Equal(t, "GET", r.Method)
	assert.Equal(t, "/v1/tasks/it", r.Path)
	assert.Equal(t, "GET /v1/{recordType}/{alias}", r.Route)
	assert.Equal(t, "2", r.Query.Get("first"))
	assert.Equal(t, "Status==Open;Priority=ge=1", r.FilterText)
	require.NotNil(t, r.Filter)
	assert.Equal(t, "Status==Open;Priority=ge=1", r.Filter.String())
	assert.Equal(t, DefaultUserID, r.UserID)
	assert.Equal(t, 200, r.Status)
	assert.False(t, r.Fault)
}

func TestReset(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 3)
	acct := a.srv.AddUser("x@example.com", "X", "X")
	a.srv.AddGroup("g")
	a.srv.Reset()
	assert.Nil(t, a.srv.Records(workflow.Tasks, "it"))
	assert.Len(t, a.srv.Users(), 1)
	assert.Empty(t, a.srv.Requests())
	assert.Equal(t, http.StatusUnauthorized, a.tokenRequest(acct.ClientID, acct.ClientSecret).status)
	// The default user's token still works; ids start again.
	assert.Equal(t, []string{"1"}, seedTasks(a.srv, 1))
	assert.Equal(t, http.StatusOK, a.get("/tasks/it").status)
	assert.Equal(t, uid(2), a.srv.AddUser("y@example.com", "Y", "Y").UserID)
}

func TestSeedKeepsGivenIDs(t *testing.T) {
	srv := Start(t)
	ids := srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "2"}, workflow.Record{}, workflow.Record{}, workflow.Record{"id": "x"})
	assert.Equal(t, []string{"2", "1", "3", "x"}, ids)
	assert.Panics(t, func() { srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "x"}) })
	assert.Panics(t, func() { srv.Seed("nope", "crm") })
	assert.Panics(t, func() { srv.Define(workflow.Apps, "") })
}

// TestJSONBodyMustBeAnObject: every JSON body of the contract is an
// object, so an absent or empty body, null, an array and a string are
// 400 on every route that takes one, in the usual error shape, and
// nothing changes. The table covers every operation of the contract
// document with a JSON request body.
func TestJSONBodyMustBeAnObject(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 1)
	g := a.srv.AddGroup("Support", uid(1))
	dg := a.srv.AddDynamicGroup("Staff", "example.com")
	a.srv.Define(workflow.Apps, "crm")
	auto := a.srv.AddAutomation(workflow.Tasks, "it", map[string]any{"name": "Notify"})
	view := a.srv.AddView("crm", "all", "list", map[string]any{})
	created := func(method, path, body string) string {
		res := a.do(method, path, []byte(body))
		require.Equal(t, http.StatusCreated, res.status, "body: %s", res.body)
		var v struct {
			ID string `json:"id"`
		}
		res.decode(&v)
		return v.ID
	}
	domain := created(http.MethodPost, "/domains", `{"emailDomain":{"domain":"mail.example.com"}}`)
	table := "/tables/" + created(http.MethodPost, "/tables", tableBody)
	join := created(http.MethodPost, table+"/joins", `{"source":"`+tabID(1)+`","type":"LEFT","joinOn":[{"leftFieldId":"`+tabID(2)+`","rightFieldId":"`+tabID(2)+`"}]}`)
	mappings := table + "/join-fields/" + tabID(4) + "/mappings"
	aspect := "/aspects/50000000-0000-4000-8000-000000000001"
	search := created(http.MethodPost, aspect+"/search-tables", `{"attributeFieldIds":[],"duration":"DAYS","targetLag":1}`)
	routes := []struct{ op, method, path string }{
		{"createRecord", http.MethodPost, "/tasks/it"},
		{"updateRecord", http.MethodPut, "/tasks/it/1"},
		{"createRecordRelatedItems", http.MethodPost, "/tasks/it/1/related-items"},
		{"createRecordLink", http.MethodPost, "/tasks/it/1/attachments/url-links"},
		{"createRecordWatchers", http.MethodPost, "/tasks/it/1/watchers"},
		{"deleteRecordWatchers", http.MethodDelete, "/tasks/it/1/watchers"},
		{"createUser", http.MethodPost, "/users"},
		{"createGroup", http.MethodPost, "/groups"},
		{"updateGroup", http.MethodPut, "/groups/" + g},
		{"addUsersToGroup", http.MethodPost, "/groups/" + g + "/users"},
		{"removeUsersFromGroup", http.MethodDelete, "/groups/" + g + "/users"},
		// The workspace configuration.
		{"addDomainsToGroup", http.MethodPost, "/groups/" + dg + "/domains"},
		{"removeDomainsFromGroup", http.MethodDelete, "/groups/" + dg + "/domains"},
		{"createOrganizationDomain", http.MethodPost, "/domains"},
		{"updateOrganizationDomain", http.MethodPut, "/domains/" + domain},
		{"createAutomation", http.MethodPost, "/tasks/it/automations"},
		{"validateAutomation", http.MethodPost, "/tasks/it/automations/validate"},
		{"updateAutomation", http.MethodPut, "/tasks/it/automations/" + auto},
		{"createView", http.MethodPost, "/apps/crm/views"},
		{"updateView", http.MethodPut, "/apps/crm/views/" + view},
		{"createElement", http.MethodPost, "/elements"},
		{"updateElement", http.MethodPut, "/elements/parts"},
		{"composeApp", http.MethodPost, "/aspects/compose"},
		{"updateApp", http.MethodPut, "/aspects/compose/" + uid(9)},
		{"createFlow", http.MethodPost, "/flows/create"},
		{"updateFlow", http.MethodPut, "/flows/" + uid(9)},
		{"createAgent", http.MethodPost, "/apps/crm/agents"},
		{"updateAgent", http.MethodPut, "/apps/crm/agents/" + uid(9)},
		{"createSkill", http.MethodPost, "/apps/crm/skills"},
		{"updateSkill", http.MethodPut, "/apps/crm/skills/" + uid(9)},
		{"createTable", http.MethodPost, "/tables"},
		{"updateTable", http.MethodPut, table},
		{"createTableJoin", http.MethodPost, table + "/joins"},
		{"updateTableJoin", http.MethodPut, table + "/joins/" + join},
		{"createTableJoinMapping", http.MethodPost, mappings},
		{"updateTableJoinMapping", http.MethodPut, mappings},
		{"deleteTableJoinMapping", http.MethodDelete, mappings},
		{"createSnowflakeSearchTable", http.MethodPost, "/aspects/" + uid(9) + "/search-tables"},
		{"createLinkedSearchTable", http.MethodPost, "/aspects/" + uid(9) + "/linked-search-tables"},
		{"updateSearchTable", http.MethodPut, aspect + "/search-tables/" + search},
	}
	bodies := []struct {
		name string
		body []byte // nil: no body and no Content-Type
	}{
		{"absent", nil},
		{"empty", []byte{}},
		{"blank", []byte(" \n")},
		{"null", []byte("null")},
		{"null in spaces", []byte(" null\n")},
		{"array", []byte("[]")},
		{"string", []byte(`"x"`)},
	}
	var ops []string
	for _, r := range routes {
		ops = append(ops, r.op)
		for _, b := range bodies {
			t.Run(r.op+"/"+b.name, func(t *testing.T) {
				a.t = t
				var body any
				if b.body != nil {
					body = b.body
				}
				msg := expectError(t, a.do(r.method, r.path, body), http.StatusBadRequest)
				if r.op != "createRecordRelatedItems" || b.name != "array" { // which says: one item per call
					assert.True(t, strings.HasPrefix(msg, "malformed body: "), msg)
				}
			})
		}
	}
	a.t = t
	var rec map[string]string
	a.get("/tasks/it/1").decode(&rec)
	assert.Equal(t, "Task 1", rec["Title"], "the record is unchanged")
	assert.Contains(t, string(a.get("/groups/"+g).body), `"name":"Support"`, "the group is unchanged")
	eachHas(t, jsonBodyOperations(t), ops, "a route in TestJSONBodyMustBeAnObject")
}

// eachHas fails t for each operation of want that has no entry in have,
// and each entry of have that is no operation of want, naming what is
// missing (what: "a sweep case").
func eachHas(t *testing.T, want, have []string, what string) {
	t.Helper()
	for _, id := range want {
		if !slices.Contains(have, id) {
			t.Errorf("the operation %s takes a JSON body and lacks %s", id, what)
		}
	}
	for _, id := range have {
		if !slices.Contains(want, id) {
			t.Errorf("%s names %s, which takes no JSON body", what, id)
		}
	}
}

// jsonBodyOperations returns the operationId of every operation of the
// API in the contract document that takes a JSON request body.
func jsonBodyOperations(t *testing.T) []string {
	doc, err := openapi3.NewLoader().LoadFromData(contract.Document())
	require.NoError(t, err)
	var ops []string
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			// The token endpoint, outside the API, has its own tests.
			if op.RequestBody != nil && op.RequestBody.Value.Content.Get("application/json") != nil && op.OperationID != "requestAccessToken" {
				ops = append(ops, op.OperationID)
			}
		}
	}
	return ops
}

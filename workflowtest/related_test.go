package workflowtest

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// relatedWire is a related item as the tests read it.
type relatedWire struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Alias  string `json:"alias"`
	Cursor string `json:"cursor"`
}

func TestRelatedItems(t *testing.T) {
	a := newAPI(t)
	a.srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "A-1", "Name": "acme"})
	a.srv.Seed(workflow.Elements, "parts", workflow.Record{"id": "E-1", "Name": "bolt"}, workflow.Record{"id": "E-2", "Name": "nut"})
	a.srv.Seed(workflow.Tasks, "todo", workflow.Record{"id": "TSK-4"})

	requireNoBody(t, a.do(http.MethodPost, "/apps/crm/A-1/related-items", map[string]string{"id": "E-1", "alias": "parts"}), http.StatusCreated)
	requireNoBody(t, a.do(http.MethodPost, "/apps/crm/A-1/related-items", map[string]string{"id": "TSK-4"}), http.StatusCreated)
	assert.Equal(t, []string{"elements/parts/E-1", "tasks/todo/TSK-4"}, a.srv.Related(workflow.Apps, "crm", "A-1"))

	p := getPage[relatedWire](a, "/apps/crm/A-1/related-items", nil)
	require.Len(t, p.Items, 2)
	assert.Equal(t, 2, p.Total)
	assert.Equal(t, "E-1", p.Items[0].ID)
	assert.Equal(t, "ELEMENT", p.Items[0].Type)
	assert.Equal(t, "parts", p.Items[0].Alias)
	assert.Equal(t, relatedWire{ID: "TSK-4", Type: "TASK", Alias: "todo", Cursor: p.Items[1].Cursor}, p.Items[1])
	assert.Equal(t, p.Items[0].Cursor, p.Paging.StartCursor)
	assert.Equal(t, p.Items[1].Cursor, p.Paging.EndCursor)
	assert.False(t, p.Paging.HasNextPage)

	// An item is removed by the related record's id.
	requireNoBody(t, a.do(http.MethodDelete, "/apps/crm/A-1/related-items/E-1", nil), http.StatusOK)
	assert.Equal(t, []string{"tasks/todo/TSK-4"}, a.srv.Related(workflow.Apps, "crm", "A-1"))
	expectError(t, a.do(http.MethodDelete, "/apps/crm/A-1/related-items/E-1", nil), http.StatusNotFound)
}

func TestRelatedItemsRefused(t *testing.T) {
	a := newAPI(t)
	a.srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "A-1"})
	a.srv.Seed(workflow.Elements, "parts", workflow.Record{"id": "E-1"}, workflow.Record{"id": "E-2"})
	a.srv.Seed(workflow.Elements, "spares", workflow.Record{"id": "E-2"})
	a.srv.Seed(workflow.Elements, "secret", workflow.Record{"id": "S-1"})
	a.srv.Deny(DefaultUserID, workflow.Elements, "secret")
	other := a.srv.AddUser("d@example.com", "D", "D")
	a.srv.Deny(other.UserID, workflow.Apps, "crm")
	requireNoBody(t, a.do(http.MethodPost, "/apps/crm/A-1/related-items", map[string]string{"id": "E-1"}), http.StatusCreated)

	item := map[string]string{"id": "E-2", "alias": "parts"}
	tests := []struct {
		name   string
		a      *api
		path   string
		body   any
		status int
		msg    string
	}{
		{"two items at once", a, "/apps/crm/A-1/related-items", []any{item, item}, 400, "malformed body: must be an object"},
		{"no id", a, "/apps/crm/A-1/related-items", map[string]string{"alias": "parts"}, 400, "invalid /id: is required"},
		{"the old body", a, "/apps/crm/A-1/related-items", map[string]string{"recordType": "elements", "alias": "parts", "recordId": "E-2"}, 400, "invalid /id: is required"},
		{"no such record", a, "/apps/crm/A-1/related-items", map[string]string{"id": "E-9"}, 422, "no record"},
		{"not under that alias", a, "/apps/crm/A-1/related-items", map[string]string{"id": "E-1", "alias": "spares"}, 422, "alias"},
		{"ambiguous without alias", a, "/apps/crm/A-1/related-items", map[string]string{"id": "E-2"}, 422, "elements/parts, elements/spares"},
		{"already related", a, "/apps/crm/A-1/related-items", map[string]string{"id": "E-1", "alias": "parts"}, 422, "already related"},
		{"itself", a, "/apps/crm/A-1/related-items", map[string]string{"id": "A-1", "alias": "crm"}, 422, "itself"},
		{"target denied", a, "/apps/crm/A-1/related-items", map[string]string{"id": "S-1"}, 403, "permission"},
		{"record not found", a, "/apps/crm/A-7/related-items", item, 404, "A-7"},
		{"record denied", a.as(other), "/apps/crm/A-1/related-items", item, 403, "permission"},
		{"no token", &api{t: t, srv: a.srv}, "/apps/crm/A-1/related-items", item, 401, "token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg := expectError(t, tc.a.do(http.MethodPost, tc.path, tc.body), tc.status)
			assert.Contains(t, msg, tc.msg)
		})
	}
	assert.Equal(t, []string{"elements/parts/E-1"}, a.srv.Related(workflow.Apps, "crm", "A-1"), "nothing refused was added")
	expectError(t, a.get("/apps/crm/A-7/related-items"), 404)
	expectError(t, a.get("/apps/crm/A-1/related-items?filter=id%3D%3DE-1"), 400)
	expectError(t, a.as(other).get("/apps/crm/A-1/related-items"), 403)
	expectError(t, a.as(other).do(http.MethodDelete, "/apps/crm/A-1/related-items/E-1", nil), 403)
	expectError(t, (&api{t: t, srv: a.srv}).get("/apps/crm/A-1/related-items"), 401)
}

func TestRelatedItemsPaging(t *testing.T) {
	a := newAPI(t)
	a.srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "A-1"})
	ids := []string{"E-1", "E-2", "E-3", "E-4", "E-5"}
	for _, id := range ids {
		a.srv.Seed(workflow.Elements, "parts", workflow.Record{"id": id})
		requireNoBody(t, a.do(http.MethodPost, "/apps/crm/A-1/related-items", map[string]string{"id": id}), http.StatusCreated)
	}
	itemIDs := func(p subPage[relatedWire]) []string {
		out := make([]string, len(p.Items))
		for i, it := range p.Items {
			out[i] = it.ID
		}
		return out
	}
	// Forward, two at a time, following end_cursor.
	var got []string
	q := url.Values{"first": {"2"}}
	for range 5 {
		p := getPage[relatedWire](a, "/apps/crm/A-1/related-items", q)
		assert.Equal(t, 5, p.Total)
		got = append(got, itemIDs(p)...)
		if !p.Paging.HasNextPage {
			break
		}
		q.Set("after", p.Paging.EndCursor)
	}
	assert.Equal(t, ids, got)

	// Backward from the end.
	p := getPage[relatedWire](a, "/apps/crm/A-1/related-items", url.Values{"last": {"2"}})
	assert.Equal(t, []string{"E-4", "E-5"}, itemIDs(p))
	assert.True(t, p.Paging.HasPreviousPage)
	assert.False(t, p.Paging.HasNextPage)
	p = getPage[relatedWire](a, "/apps/crm/A-1/related-items", url.Values{"last": {"2"}, "before": {p.Paging.StartCursor}})
	assert.Equal(t, []string{"E-2", "E-3"}, itemIDs(p))

	// An item's own cursor resumes right after it.
	all := getPage[relatedWire](a, "/apps/crm/A-1/related-items", nil)
	p = getPage[relatedWire](a, "/apps/crm/A-1/related-items", url.Values{"after": {all.Items[2].Cursor}})
	assert.Equal(t, []string{"E-4", "E-5"}, itemIDs(p))

	// A cursor of another list is refused.
	a.srv.Seed(workflow.Apps, "crm", workflow.Record{"id": "A-2"})
	expectError(t, a.get("/apps/crm/A-2/related-items?after="+all.Items[0].Cursor), 400)
}

package workflowtest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// TestIDSpace: two servers in different spaces mint different ids for
// the same objects, each in its space's form; an id copied from one names
// nothing on the other; the default user keeps DefaultUserID; Reset keeps
// the space; space 0 is the ids without the option.
func TestIDSpace(t *testing.T) {
	objects := func(a *api) map[string]string {
		a.srv.Define(workflow.Apps, "itm")
		ids := map[string]string{
			"automation": a.srv.AddAutomation(workflow.Apps, "itm", map[string]any{"name": "Escalate"}),
			"view":       a.srv.AddView("itm", "all", "list", map[string]any{"name": "All"}),
			"user":       a.srv.AddUser("ada@example.com", "Ada", "Lovelace").UserID,
		}
		ids["group"] = a.srv.AddGroup("Engineering", ids["user"])
		res := a.do(http.MethodPost, "/tables", map[string]any{"name": "Accounts", "handle": "acct",
			"source": "00000000-0000-4000-8000-0000000000a1", "categoryId": "00000000-0000-4000-8000-0000000000c1",
			"fields": []any{map[string]any{"calculation": map[string]any{"name": "score", "text": "1 + 1"}}}})
		require.Equal(t, http.StatusCreated, res.status, string(res.body))
		var table struct{ ID string }
		res.decode(&table)
		ids["table"] = table.ID
		return ids
	}
	plain, spaced := newAPI(t), newAPI(t, WithIDSpace(0x2a))
	want0, want2a := objects(plain), objects(spaced)
	assert.Equal(t, map[string]string{
		"automation": "40000000-0000-4000-8000-000000000001",
		"view":       "50000000-0000-4000-8000-000000000001",
		"user":       "00000000-0000-4000-8000-000000000002",
		"group":      "10000000-0000-4000-8000-000000000001",
		"table":      "70000000-0000-4000-8000-000000000001",
	}, want0, "space 0: the ids without the option")
	assert.Equal(t, map[string]string{
		"automation": "4000002a-0000-4000-8000-000000000001",
		"view":       "5000002a-0000-4000-8000-000000000001",
		"user":       "0000002a-0000-4000-8000-000000000002",
		"group":      "1000002a-0000-4000-8000-000000000001",
		"table":      "7000002a-0000-4000-8000-000000000001",
	}, want2a)

	// the default user is the same in every space
	assert.Equal(t, DefaultUserID, spaced.srv.Users()[0].ID, "the default user keeps DefaultUserID")

	// an id copied from the other server names nothing
	assert.Equal(t, http.StatusNotFound, spaced.do(http.MethodGet, "/tables/"+want0["table"], nil).status)
	assert.Equal(t, http.StatusNotFound, spaced.do(http.MethodGet, "/apps/itm/automations/"+want0["automation"], nil).status)
	assert.Equal(t, http.StatusOK, spaced.do(http.MethodGet, "/apps/itm/automations/"+want2a["automation"], nil).status)

	// Reset keeps the space
	spaced.srv.Reset()
	spaced.srv.Define(workflow.Apps, "itm")
	assert.Equal(t, "4000002a-0000-4000-8000-000000000001", spaced.srv.AddAutomation(workflow.Apps, "itm", map[string]any{"name": "Again"}))

	assert.PanicsWithValue(t, "workflowtest: WithIDSpace(268435456): a space is below 2^28 (seven hex digits)",
		func() { WithIDSpace(1 << 28) })
}

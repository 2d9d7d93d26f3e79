package admin_test

import (
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// Read → write → read, on the fake, for every family the API lets one
// both read and write: what is read, written back with the read form's
// write body (in the same workspace, as a copy), reads back the same,
// but for the read-only members (ids, handles, positions) and the gaps
// each Request documents.

// without returns v as JSON with the members names removed at every
// depth, for a comparison.
func without(t *testing.T, v any, names ...string) any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	var strip func(any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, n := range names {
				delete(v, n)
			}
			for _, m := range v {
				strip(m)
			}
		case []any:
			for _, m := range v {
				strip(m)
			}
		}
	}
	strip(out)
	return out
}

func TestReadWriteReadViews(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()
	srv.Define(workflow.Apps, "itm")
	for i, in := range []admin.ViewInput{
		{List: &admin.ViewConfig{Name: new("Open"), AllowRecordCreation: new(true), Filter: jsontext.Value(`{"status":"OPEN"}`),
			Sort: jsontext.Value(`{"by":"created"}`), Density: new("compact"), Rows: new(25), Columns: []string{e2eSource}}},
		{Kanban: &admin.ViewConfig{Name: new("Board"), DisplayByField: new(e2eSource), AllowedFilterFields: []string{e2eCategory}}},
		{Dashboard: &admin.ViewConfig{Name: new("Numbers"), DashboardID: new(e2eCategory)}},
		{Agent: &admin.ViewConfig{Name: new("Helper"), AgentID: new(e2eSource)}},
	} {
		handle := []string{"open", "board", "numbers", "helper"}[i]
		_, err := ws.Views.Create(ctx, "itm", handle, admin.ViewRequest{View: in})
		require.NoError(t, err)
		read, err := ws.Views.Get(ctx, "itm", handle)
		require.NoError(t, err)

		body, err := read.Request()
		require.NoError(t, err)
		_, err = ws.Views.Create(ctx, "itm", handle+"-copy", body)
		require.NoError(t, err)
		again, err := ws.Views.Get(ctx, "itm", handle+"-copy")
		require.NoError(t, err)
		assert.Equal(t, without(t, read, "id", "clientHandle", "displayOrder"), without(t, again, "id", "clientHandle", "displayOrder"), handle)

		// Written back over itself, the view reads the same, read-only
		// members included.
		_, err = ws.Views.Update(ctx, "itm", handle, body)
		require.NoError(t, err)
		same, err := ws.Views.Get(ctx, "itm", handle)
		require.NoError(t, err)
		assert.Equal(t, read, same, handle)
	}
}

func TestReadWriteReadTables(t *testing.T) {
	// Generous replies only: it asserts that a table's categoryId, which
	// the document's Table does not have, is carried when a service sends it.
	srv := workflowtest.Start(t, workflowtest.WithReplies(workflowtest.Generous))
	ws := admin.New(srv.Client())
	ctx := t.Context()

	orders, err := ws.Tables.Create(ctx, newTable("Orders", "ORD"))
	require.NoError(t, err)
	req := newTable("Customers", "CUS")
	req.Fields = append(req.Fields, admin.TableFieldInput{Calculation: &admin.TableCalculationField{Name: new("Net"), Text: new("Total - Tax"), Tags: []string{"money"}}})
	req.Filter, req.OrderBy = jsontext.Value(`{"status":"OPEN"}`), jsontext.Value(`{"by":"name"}`)
	req.Joins = []admin.TableJoinInput{{Source: orders.ID.Ptr(), Type: new(admin.JoinLeft), Filter: jsontext.Value(`{"a":1}`),
		JoinOn: []admin.TableJoinOn{{LeftFieldID: orders.Fields.Value()[0].ID.Value(), RightFieldID: orders.Fields.Value()[0].ID.Value()}}}}
	req.DataView = &admin.TableDataViewInput{Snowflake: &admin.TableDataViewName{DatabaseName: new("DB"), SchemaName: new("S"), Name: new("V")}}
	created, err := ws.Tables.Create(ctx, req)
	require.NoError(t, err)
	read, err := ws.Tables.Get(ctx, created.ID.Value())
	require.NoError(t, err)

	body, err := read.Request()
	require.NoError(t, err)
	assert.Equal(t, e2eCategory, body.CategoryID, "a member the document's Table lacks is carried when the service sends it")
	body.Handle = "CS2" // a record-handle prefix is unique
	copied, err := ws.Tables.Create(ctx, body)
	require.NoError(t, err)
	again, err := ws.Tables.Get(ctx, copied.ID.Value())
	require.NoError(t, err)
	assert.Equal(t, without(t, read, "id", "clientHandle", "handle"), without(t, again, "id", "clientHandle", "handle"))
}

func TestReadWriteReadElements(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()

	_, err := ws.Elements.Create(ctx, admin.NewElement{Name: "Spare Parts", CategoryID: catID, Namespace: new("parts"),
		Description: new("what we stock"), Icon: new("box"), Color: new("#123456"), AllowInlineImageIngestion: new(true)})
	require.NoError(t, err)
	read, err := ws.Elements.Get(ctx, "parts")
	require.NoError(t, err)
	_, err = ws.Elements.Create(ctx, admin.NewElement{Name: "Other", CategoryID: e2eCategory, Namespace: new("other")})
	require.NoError(t, err)

	body, err := read.Request()
	require.NoError(t, err)
	_, err = ws.Elements.Update(ctx, "other", body)
	require.NoError(t, err)
	again, err := ws.Elements.Get(ctx, "other")
	require.NoError(t, err)
	assert.Equal(t, without(t, read, "id", "namespace", "handle"), without(t, again, "id", "namespace", "handle"))
}

func TestReadWriteReadSearchTables(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()
	const other = "5f0e8400-e29b-41d4-a716-446655440009"

	created, err := ws.SearchTables.Create(ctx, e2eSource, admin.SnowflakeSearchTableRequest{AttributeFieldIDs: []string{e2eCategory},
		Duration: admin.TimeUnitMinutes, TargetLag: 5, Warehouse: new("WH"), TextIndexFieldIDs: []string{other},
		VectorIndexes: []admin.VectorIndexInput{{FieldID: e2eCategory, AIProviderConnectorID: other}}, FieldID: new(other), AIProviderConnectorID: new(e2eSource)})
	require.NoError(t, err)
	read, err := ws.SearchTables.Get(ctx, e2eSource, created.ID.Value())
	require.NoError(t, err)

	body, err := read.Request()
	require.NoError(t, err)
	copied, err := ws.SearchTables.Create(ctx, e2eSource, body)
	require.NoError(t, err)
	again, err := ws.SearchTables.Get(ctx, e2eSource, copied.ID.Value())
	require.NoError(t, err)
	read.ID, again.ID, read.DisplayName, again.DisplayName = admin.Opt[string]{}, admin.Opt[string]{}, admin.Opt[string]{}, admin.Opt[string]{} // read-only
	assert.Equal(t, read, again)

	linked, err := ws.SearchTables.CreateLinked(ctx, e2eSource, admin.LinkedSearchTableRequest{CloudLinkID: other, Database: "D", Schema: "S", ServiceName: "N"})
	require.NoError(t, err)
	_, err = linked.Request()
	assert.ErrorContains(t, err, "CreateLinked", "a linked search table is not written with Create")
}

func TestReadWriteReadAgents(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()
	srv.Define(workflow.Apps, "it")
	_, err := ws.Agents.Create(ctx, "it", admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{
		Name: new("Triage"), Description: new("sorts requests"), MaxLength: new(int32(800)), ReasoningEffort: new(admin.ReasoningLow), Temperature: new(0.2)}}})
	require.NoError(t, err)
	page, err := ws.Agents.List(ctx, "it", nil)
	require.NoError(t, err)
	read := page.Items[0]

	body, err := read.Request()
	require.NoError(t, err)
	_, err = ws.Agents.Create(ctx, "it", body)
	require.NoError(t, err)
	page, err = ws.Agents.List(ctx, "it", nil)
	require.NoError(t, err)
	require.Len(t, page.Items, 2)
	again := page.Items[1]
	read.ID, again.ID = admin.Opt[string]{}, admin.Opt[string]{}
	assert.Equal(t, read, again)
}

func TestReadWriteReadSkills(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()
	srv.Define(workflow.Apps, "it")
	_, err := ws.Skills.Create(ctx, "it", admin.SkillBundle{Skill: admin.SkillSettings{Name: new("Summarise"), Type: new(admin.SkillCustom),
		Status: new(admin.SkillDraft), Description: new("short"), Instructions: new("be brief"), Properties: jsontext.Value(`{"k":[1]}`),
		Discovery: &admin.SkillDiscovery{Aliases: []string{"tl;dr"}}}})
	require.NoError(t, err)
	page, err := ws.Skills.List(ctx, "it", nil)
	require.NoError(t, err)
	read := page.Items[0]

	body, err := read.Request()
	require.NoError(t, err)
	_, err = ws.Skills.Create(ctx, "it", body)
	require.NoError(t, err)
	page, err = ws.Skills.List(ctx, "it", nil)
	require.NoError(t, err)
	require.Len(t, page.Items, 2)
	assert.Equal(t, without(t, read, "id"), without(t, page.Items[1], "id"))
}

func TestReadWriteReadAutomations(t *testing.T) {
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())
	ctx := t.Context()
	srv.AddAutomation(workflow.Apps, "itm", map[string]any{"name": "Escalate", "triggers": []any{map[string]any{"type": "RECORD_CREATED", "delay": 1.50}}})
	list, err := ws.Automations.List(ctx, workflow.Apps, "itm")
	require.NoError(t, err)

	srv.Define(workflow.Apps, "copy")
	_, err = ws.Automations.Create(ctx, workflow.Apps, "copy", list[0].Without("id"))
	require.NoError(t, err)
	again, err := ws.Automations.List(ctx, workflow.Apps, "copy")
	require.NoError(t, err)
	require.Len(t, again, 1)
	assert.Equal(t, string(list[0].Without("id")), string(again[0].Without("id")), "the same automation, the same bytes")
}

package admin_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// The round trip a platform engineer makes, on the fake: configuration
// seeded through raw HTTP with explicit false, 0, "" and [], nested
// unknown members and sharing; read through the SDK; written to a file
// with one JSON library and read from it with the other; written back
// with the family's conversion, by Update to the same workspace and by
// Create into a fresh one; read raw there. Every member is equal, ids
// aside, but for the gaps each conversion's doc names, which each test
// lists (and, where the caller supplies them, supplies).

// rawJSON sends body (raw JSON, "" for none) to the fake behind c and
// returns its answer decoded as plain JSON values.
func rawJSON(t *testing.T, c *workflow.Client, method, path, body string) any {
	t.Helper()
	var in any
	if body != "" {
		in = jsontext.Value(body)
	}
	var out jsontext.Value
	require.NoError(t, c.Call(t.Context(), method, path, nil, in, &out), "%s %s", method, path)
	var v any
	require.NoError(t, jsonLibs[1].unmarshal(out, &v))
	return v
}

// throughFile writes v to a file with the library write, and reads it
// back with the library read.
func throughFile[T any](t *testing.T, v T, write, read int) T {
	t.Helper()
	name := filepath.Join(t.TempDir(), "config.json")
	b, err := jsonLibs[write].marshal(v)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(name, b, 0o600))
	b, err = os.ReadFile(name)
	require.NoError(t, err)
	var out T
	require.NoError(t, jsonLibs[read].unmarshal(b, &out))
	return out
}

// libPairs are the (write, read) library pairs of the file.
var libPairs = [][2]int{{0, 1}, {1, 0}}

func TestRoundTripViews(t *testing.T) {
	// Gaps View.Request names: id, clientHandle, type and displayOrder
	// are read-only (the handle is the path's, the type the variant's);
	// the sharing is written as client handles, which the caller
	// supplies (below); the agent beyond its id, which the fake does not
	// serve.
	share := &admin.ViewShareInput{Groups: []string{"IT"}, Users: []string{workflowtest.DefaultUserEmail}}
	shareJSON := `"share":{"groups":["IT"],"users":["` + workflowtest.DefaultUserEmail + `"]}`
	seeds := map[string]string{
		"l": `{"list":{"name":"","allowRecordCreation":false,"rows":0,"density":"","columns":[],"filter":{"a":{"b":[],"c":false}},"sort":{},"zz":{"deep":[0,"",{}]}}}`,
		"k": `{"kanban":{"name":"","allowRecordCreation":false,"displayByField":"` + e2eSource + `","allowedFilterFields":[],"columns":[],"zz":[{"x":0}]}}`,
		"c": `{"calendar":{"name":"","allowRecordCreation":false,"displayByField":"` + e2eSource + `","columns":[],"filter":{}}}`,
		"d": `{"dashboard":{"name":"","allowRecordCreation":false,"dashboardId":"` + e2eCategory + `","zz":{"n":{"m":""}}}}`,
		"a": `{"agent":{"name":"","allowRecordCreation":false,"agentId":"` + e2eSource + `"}}`,
	}
	for _, libs := range libPairs {
		t.Run(jsonLibs[libs[0]].name+" to "+jsonLibs[libs[1]].name, func(t *testing.T) {
			src, dst := workflowtest.Start(t), workflowtest.Start(t)
			for _, srv := range []*workflowtest.Server{src, dst} {
				srv.Define(workflow.Apps, "itm")
				srv.AddGroup("IT")
			}
			before := map[string]any{}
			for h, view := range seeds {
				rawJSON(t, src.Client(), "POST", "apps/itm/views", `{"handle":"`+h+`","view":`+view+`,`+shareJSON+`}`)
				before[h] = rawJSON(t, src.Client(), "GET", "apps/itm/views/"+h, "")
			}
			assert.Subset(t, before["l"], map[string]any{"name": "", "allowRecordCreation": false, "rows": 0.0, "density": "", "columns": []any{}}, "the fake holds the empty members")

			var read []admin.View
			for v, err := range admin.New(src.Client()).Views.All(t.Context(), "itm", nil) {
				require.NoError(t, err)
				read = append(read, v)
			}
			read = throughFile(t, read, libs[0], libs[1])
			require.Len(t, read, len(seeds))
			for _, v := range read {
				h := v.ClientHandle.Value()
				body, err := v.Request()
				require.NoError(t, err)
				body.Share = share // the gap the caller fills

				_, err = admin.New(src.Client()).Views.Update(t.Context(), "itm", h, body)
				require.NoError(t, err)
				assert.Equal(t, before[h], rawJSON(t, src.Client(), "GET", "apps/itm/views/"+h, ""), "%s updated in place", h)

				_, err = admin.New(dst.Client()).Views.Create(t.Context(), "itm", h, body)
				require.NoError(t, err)
				assert.Equal(t, without(t, before[h], "id", "displayOrder"), without(t, rawJSON(t, dst.Client(), "GET", "apps/itm/views/"+h, ""), "id", "displayOrder"),
					"%s created in a fresh workspace", h)
			}
		})
	}
}

func TestRoundTripAgents(t *testing.T) {
	// Gaps Agent.Request names: the read-only id and type; what the list's
	// summary lacks (instructions, first message, avatar, AI provider
	// connector, tools, A2A skills, and any other setting, such as
	// voiceConfig below), which the caller supplies. The list is what is
	// compared.
	const seed = `{"agent":{"elementum":{"name":"Triage","description":"","maxLength":0,"temperature":0,"reasoningEffort":"LOW",
		"instructions":"","voiceConfig":{"a":{"b":[],"c":false}}}},"tools":[]}`
	for _, libs := range libPairs {
		t.Run(jsonLibs[libs[0]].name+" to "+jsonLibs[libs[1]].name, func(t *testing.T) {
			src, dst := workflowtest.Start(t), workflowtest.Start(t)
			src.Define(workflow.Apps, "it")
			dst.Define(workflow.Apps, "it")
			rawJSON(t, src.Client(), "POST", "apps/it/agents", seed)
			before := rawJSON(t, src.Client(), "GET", "apps/it/agents", "")
			assert.Subset(t, before.(map[string]any)["items"].([]any)[0], map[string]any{"description": "", "maxLength": 0.0, "temperature": 0.0}, "the fake holds the empty members")

			page, err := admin.New(src.Client()).Agents.List(t.Context(), "it", nil)
			require.NoError(t, err)
			read := throughFile(t, page.Items, libs[0], libs[1])
			require.Len(t, read, 1)
			body, err := read[0].Request()
			require.NoError(t, err)

			_, err = admin.New(src.Client()).Agents.Update(t.Context(), "it", read[0].ID.Value(), body)
			require.NoError(t, err)
			assert.Equal(t, before, rawJSON(t, src.Client(), "GET", "apps/it/agents", ""), "updated in place")

			_, err = admin.New(dst.Client()).Agents.Create(t.Context(), "it", body)
			require.NoError(t, err)
			assert.Equal(t, without(t, before, "id"), without(t, rawJSON(t, dst.Client(), "GET", "apps/it/agents", ""), "id"), "created in a fresh workspace")
		})
	}
}

func TestRoundTripTables(t *testing.T) {
	// Gaps Table.Request names: the read-only id, clientHandle, type and
	// __typename; members beyond the ids of what a table refers to; a
	// field's semanticTags (the fake holds none); a join pair's
	// joinMappings (the seed has no joins: a join refers to a table by
	// its id, which a fresh workspace does not have). UpdateRequest also
	// leaves out the handle and the joins, which Update cannot change.
	seed := `{"name":"Orders","handle":"ORD","source":"` + e2eSource + `","categoryId":"` + e2eCategory + `","description":"","icon":"",
		"filter":{"a":{"b":[],"c":0}},"orderBy":{},
		"fields":[{"cloud":{"name":"","snowflake":{"columnName":"STATUS","type":"TEXT"},"tags":[]}},
		          {"reference":{"name":"Owner","field":"` + e2eSource + `","aggregation":"NOT_SET","tags":[]}},
		          {"calculation":{"name":"Net","text":"","tags":["money"]}}],
		"dataView":{"snowflake":{"databaseName":"DB","schemaName":"S","name":"V"}}}`
	for _, libs := range libPairs {
		t.Run(jsonLibs[libs[0]].name+" to "+jsonLibs[libs[1]].name, func(t *testing.T) {
			// Generous replies only: it asserts that a table's description
			// and icon, which the document's Table does not have, are held
			// and carried when a service sends them.
			src, dst := workflowtest.Start(t, workflowtest.WithReplies(workflowtest.Generous)), workflowtest.Start(t, workflowtest.WithReplies(workflowtest.Generous))
			created := rawJSON(t, src.Client(), "POST", "tables", seed).(map[string]any)
			id := created["id"].(string)
			before := rawJSON(t, src.Client(), "GET", "tables/"+id, "")
			assert.Subset(t, before, map[string]any{"description": "", "icon": "", "orderBy": map[string]any{}}, "the fake holds the empty members")

			tb, err := admin.New(src.Client()).Tables.Get(t.Context(), id)
			require.NoError(t, err)
			read := throughFile(t, *tb, libs[0], libs[1])

			update, err := read.UpdateRequest(read)
			require.NoError(t, err)
			_, err = admin.New(src.Client()).Tables.Update(t.Context(), id, update)
			require.NoError(t, err)
			assert.Equal(t, before, rawJSON(t, src.Client(), "GET", "tables/"+id, ""), "updated in place")

			body, err := read.Request()
			require.NoError(t, err)
			copied, err := admin.New(dst.Client()).Tables.Create(t.Context(), body)
			require.NoError(t, err)
			assert.Equal(t, without(t, before, "id"), without(t, rawJSON(t, dst.Client(), "GET", "tables/"+copied.ID.Value(), ""), "id"), "created in a fresh workspace")
		})
	}
}

func TestRoundTripSearchTables(t *testing.T) {
	// Gaps SearchTable.Request names: the read-only id, __typename,
	// displayName, status and errorMessage; members beyond the ids of
	// fields and connectors. UpdateRequest carries the warehouse,
	// targetLag and duration only: the rest is fixed at creation.
	seed := `{"attributeFieldIds":[],"duration":"MINUTES","targetLag":0,"warehouse":"","textIndexFieldIds":[],"vectorIndexes":[]}`
	path := "aspects/" + e2eSource + "/search-tables"
	for _, libs := range libPairs {
		t.Run(jsonLibs[libs[0]].name+" to "+jsonLibs[libs[1]].name, func(t *testing.T) {
			src, dst := workflowtest.Start(t), workflowtest.Start(t)
			id := rawJSON(t, src.Client(), "POST", path, seed).(map[string]any)["id"].(string)
			before := rawJSON(t, src.Client(), "GET", path+"/"+id, "")
			assert.Subset(t, before, map[string]any{"warehouse": "", "targetLag": 0.0, "textIndexFields": []any{}, "vectorIndexes": []any{}}, "the fake holds the empty members")

			st, err := admin.New(src.Client()).SearchTables.Get(t.Context(), e2eSource, id)
			require.NoError(t, err)
			read := throughFile(t, *st, libs[0], libs[1])

			update, err := read.UpdateRequest()
			require.NoError(t, err)
			_, err = admin.New(src.Client()).SearchTables.Update(t.Context(), e2eSource, id, update)
			require.NoError(t, err)
			assert.Equal(t, before, rawJSON(t, src.Client(), "GET", path+"/"+id, ""), "updated in place")

			body, err := read.Request()
			require.NoError(t, err)
			copied, err := admin.New(dst.Client()).SearchTables.Create(t.Context(), e2eSource, body)
			require.NoError(t, err)
			assert.Equal(t, without(t, before, "id"), without(t, rawJSON(t, dst.Client(), "GET", path+"/"+copied.ID.Value(), ""), "id"), "created in a fresh workspace")
		})
	}
}

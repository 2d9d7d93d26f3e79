package admin_test

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// jsonLibs are the two JSON libraries a user reads and writes with.
var jsonLibs = []struct {
	name      string
	marshal   func(any) ([]byte, error)
	unmarshal func([]byte, any) error
}{
	{"encoding/json", stdjson.Marshal, stdjson.Unmarshal},
	{"json v2", func(v any) ([]byte, error) { return json.Marshal(v) }, func(b []byte, v any) error { return json.Unmarshal(b, v) }},
}

// decodeAs reads data as a T with the library lib.
func decodeAs[T any](t *testing.T, lib int, data string) T {
	t.Helper()
	var v T
	require.NoError(t, jsonLibs[lib].unmarshal([]byte(data), &v), data)
	return v
}

// encoded is v written with lib.
func encoded(t *testing.T, lib int, v any) string {
	t.Helper()
	b, err := jsonLibs[lib].marshal(v)
	require.NoError(t, err)
	return string(b)
}

// A member the service sends as false, 0 or "" is read, written back and
// carried by the conversion as sent, with either library; a member it
// leaves out stays out.
func TestZeroMembersAreKept(t *testing.T) {
	views := map[admin.ViewType]string{
		admin.ViewTypeList:   `{"id":"v1","clientHandle":"l","type":"AspectViewList","name":"","allowRecordCreation":false,"rows":0,"density":"","columns":[]}`,
		admin.ViewTypeKanban: `{"id":"v2","clientHandle":"k","type":"AspectViewKanban","name":"","allowRecordCreation":false,"displayByField":"","allowedFilterFields":[]}`,
		admin.ViewTypeAgent:  `{"id":"v3","clientHandle":"a","type":"AspectViewAgent","name":"","allowRecordCreation":false,"agent":{"id":"ag1"}}`,
	}
	variant := map[admin.ViewType]string{admin.ViewTypeList: "list", admin.ViewTypeKanban: "kanban", admin.ViewTypeAgent: "agent"}
	bodies := map[admin.ViewType]string{
		admin.ViewTypeList:   `{"name":"","allowRecordCreation":false,"rows":0,"density":"","columns":[]}`,
		admin.ViewTypeKanban: `{"name":"","allowRecordCreation":false,"displayByField":"","allowedFilterFields":[]}`,
		admin.ViewTypeAgent:  `{"name":"","allowRecordCreation":false,"agentId":"ag1"}`,
	}
	for typ, reply := range views {
		for read := range jsonLibs {
			for write := range jsonLibs {
				v := decodeAs[admin.View](t, read, reply)
				assert.JSONEq(t, reply, encoded(t, write, v), "%s read with %s, written with %s", typ, jsonLibs[read].name, jsonLibs[write].name)
				r, err := v.Request()
				require.NoError(t, err)
				assert.JSONEq(t, `{"view":{"`+variant[typ]+`":`+bodies[typ]+`}}`, encoded(t, write, r), "%s: the conversion carries the empty members", typ)
			}
		}
	}

	const agent = `{"id":"a1","type":"AgentElementum","name":"Triage","description":"","maxLength":0,"temperature":0}`
	for read := range jsonLibs {
		a := decodeAs[admin.Agent](t, read, agent)
		assert.JSONEq(t, agent, encoded(t, read, a))
		b, err := a.Request()
		require.NoError(t, err)
		assert.JSONEq(t, `{"agent":{"elementum":{"name":"Triage","description":"","maxLength":0,"temperature":0}}}`, encoded(t, read, b))
	}

	// A source with false and a target with nothing differ.
	withFalse := decodeAs[admin.View](t, 0, `{"allowRecordCreation":false}`)
	without := decodeAs[admin.View](t, 0, `{}`)
	assert.NotEqual(t, withFalse, without)
	got, ok := withFalse.AllowRecordCreation.Get()
	assert.True(t, ok)
	assert.False(t, got)
	_, ok = without.AllowRecordCreation.Get()
	assert.False(t, ok)
}

// A member read as null is kept as null, and every conversion refuses it
// before sending, naming the model and the member.
func TestNullMembers(t *testing.T) {
	tests := []struct {
		reply   string
		convert func(lib int, reply string) error
		field   string
	}{
		{`{"type":"AspectViewList","name":null}`, viewRequest, "View.Name"},
		{`{"type":"AspectViewList","rows":null}`, viewRequest, "View.Rows"},
		{`{"type":"AspectViewList","allowRecordCreation":null}`, viewRequest, "View.AllowRecordCreation"},
		{`{"type":"AspectViewAgent","agent":null}`, viewRequest, "View.Agent"},
		{`{"type":"AspectViewAgent","agent":{"id":null}}`, viewRequest, "View.Agent.ID"},
		{`{"type":"AspectViewList","share":null,"displayOrder":null,"name":"n"}`, viewRequest, ""}, // members the conversion does not carry
		{`{"name":"a","temperature":null}`, func(lib int, r string) error { _, err := decodeAs[admin.Agent](t, lib, r).Request(); return err }, "Agent.Temperature"},
		{`{"name":"s","description":null}`, func(lib int, r string) error { _, err := decodeAs[admin.Skill](t, lib, r).Request(); return err }, "Skill.Description"},
		{`{"name":"e","category":null}`, func(lib int, r string) error { _, err := decodeAs[admin.Aspect](t, lib, r).Request(); return err }, "Aspect.Category"},
		{`{"name":"t","fields":[{"__typename":"TableFieldCloud","name":null}]}`, func(lib int, r string) error { _, err := decodeAs[admin.Table](t, lib, r).Request(); return err }, "Table.Fields[0].Name"},
		{`{"name":"t","joins":[{"onFields":[{"leftField":null}]}]}`, func(lib int, r string) error { _, err := decodeAs[admin.Table](t, lib, r).Request(); return err }, "Table.Joins[0].OnFields[0].LeftField"},
		{`{"name":"t","dataView":{"name":null}}`, func(lib int, r string) error {
			_, err := decodeAs[admin.Table](t, lib, r).UpdateRequest(admin.Table{})
			return err
		}, "Table.DataView.Name"},
		{`{"warehouse":null,"duration":"MINUTES"}`, func(lib int, r string) error { _, err := decodeAs[admin.SearchTable](t, lib, r).Request(); return err }, "SearchTable.Warehouse"},
		{`{"targetLag":null}`, func(lib int, r string) error {
			_, err := decodeAs[admin.SearchTable](t, lib, r).UpdateRequest()
			return err
		}, "SearchTable.TargetLag"},
		{`{"vectorIndexes":[{"field":{"id":"f"},"aiProviderConnector":null}]}`, func(lib int, r string) error {
			_, err := decodeAs[admin.SearchTable](t, lib, r).Request()
			return err
		}, "SearchTable.VectorIndexes[0].AIProviderConnector"},
	}
	for _, tt := range tests {
		for lib := range jsonLibs {
			t.Run(tt.reply+" with "+jsonLibs[lib].name, func(t *testing.T) {
				err := tt.convert(lib, tt.reply)
				if tt.field == "" {
					assert.NoError(t, err)
					return
				}
				ve, ok := errors.AsType[*workflow.ValidationError](err)
				require.True(t, ok, "%v", err)
				assert.Equal(t, tt.field, ve.Field)
				assert.Contains(t, ve.Rule, "null")
			})
		}
	}

	for read := range jsonLibs {
		v := decodeAs[admin.View](t, read, `{"name":null,"rows":null,"allowRecordCreation":null}`)
		assert.True(t, v.Name.IsNull())
		assert.True(t, v.Rows.IsNull())
		assert.True(t, v.AllowRecordCreation.IsNull())
		for write := range jsonLibs {
			assert.JSONEq(t, `{"name":null,"rows":null,"allowRecordCreation":null}`, encoded(t, write, v), "null is written back as null")
		}
	}

	// Update with the body of a view read with a null is not sent.
	ws, m := newMockWorkspace(t, 200, `{}`)
	v := decodeAs[admin.View](t, 0, `{"type":"AspectViewList","clientHandle":"h","name":null}`)
	r, err := v.Request()
	if err == nil {
		_, err = ws.Views.Update(t.Context(), "itm", "h", r)
	}
	require.Error(t, err)
	assert.Empty(t, m.requests())
}

func viewRequest(lib int, reply string) error {
	var v admin.View
	if err := jsonLibs[lib].unmarshal([]byte(reply), &v); err != nil {
		return err
	}
	_, err := v.Request()
	return err
}

// View.Request carries the agent's id, and nothing else of it: the write
// variant takes agentId only.
func TestViewRequestCarriesTheAgentID(t *testing.T) {
	v := decodeAs[admin.View](t, 1, `{"type":"AspectViewAgent","name":"H","agent":{"id":"ag1","name":"Helper","zz":{"a":1}},"pinned":{"x":[]}}`)
	r, err := v.Request()
	require.NoError(t, err)
	assert.JSONEq(t, `{"view":{"agent":{"name":"H","agentId":"ag1","pinned":{"x":[]}}}}`, encoded(t, 1, r))
}

// Table.UpdateRequest gives the update body: the members the update body
// takes, as read, and the field changes that bring the target's fields
// to the table's.
func TestTableUpdateRequest(t *testing.T) {
	src := decodeAs[admin.Table](t, 1, `{"id":"s","name":"Orders","handle":"ORD","description":"","source":{"id":"src"},
		"filter":{},"joins":[{"id":"j"}],"zz":{"deep":[{"k":0}]},
		"fields":[{"id":"f1","clientHandle":"h1","__typename":"TableFieldCloud","name":"Status","fieldType":"TEXT","columnName":"STATUS","tags":[]},
		          {"id":"f2","clientHandle":"h2","__typename":"TableFieldReference","name":"","field":{"id":"g"},"aggregation":"NONE","semanticTags":["x"],"more":1}]}`)
	target := decodeAs[admin.Table](t, 1, `{"id":"t","fields":[{"id":"t2","clientHandle":"h2"},{"id":"t3","clientHandle":"h3"}]}`)
	u, err := src.UpdateRequest(target)
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"Orders","description":"","source":"src","filter":{},"zz":{"deep":[{"k":0}]},"fields":{
		"creates":[{"field":{"cloud":{"name":"Status","snowflake":{"columnName":"STATUS","type":"TEXT"},"tags":[]}},"index":0}],
		"updates":[{"id":"t2","field":{"reference":{"name":"","field":"g","aggregation":"NONE","more":1}},"index":1}],
		"deletes":[{"id":"t3"}]}}`, encoded(t, 1, u))

	same, err := src.UpdateRequest(src)
	require.NoError(t, err)
	assert.Empty(t, same.Fields.Creates)
	assert.Empty(t, same.Fields.Deletes)
	assert.Equal(t, []string{"f1", "f2"}, []string{same.Fields.Updates[0].ID, same.Fields.Updates[1].ID}, "a table written over itself updates its fields by id")

	noFields, err := decodeAs[admin.Table](t, 1, `{"name":"N"}`).UpdateRequest(target)
	require.NoError(t, err)
	assert.Nil(t, noFields.Fields, "a table read without fields leaves them as they are")
}

// SearchTable.UpdateRequest gives the update body of a Snowflake search
// table, empty members as read; a linked one has none.
func TestSearchTableUpdateRequest(t *testing.T) {
	s := decodeAs[admin.SearchTable](t, 0, `{"id":"s","__typename":"AspectSearchTable","displayName":"D","status":"ACTIVE","warehouse":"","targetLag":0,"duration":"MINUTES",
		"attributeFields":[{"id":"f"}],"zz":[0]}`)
	u, err := s.UpdateRequest()
	require.NoError(t, err)
	assert.JSONEq(t, `{"snowflake":{"warehouse":"","targetLag":0,"duration":"MINUTES","zz":[0]}}`, encoded(t, 0, u))

	_, err = decodeAs[admin.SearchTable](t, 0, `{"__typename":"AspectLinkedSearchTable"}`).UpdateRequest()
	assert.ErrorContains(t, err, "CreateLinked")
}

// An Opt is one of three states, and each accessor tells them apart the
// same way: a value (a zero one included), null, or absent.
func TestOptStates(t *testing.T) {
	tests := []struct {
		name    string
		opt     admin.Opt[int]
		value   int
		sent    bool // Get's second result, and Ptr is not nil
		present bool
		null    bool
		str     string
		json    string // as a member of a struct without omitzero
	}{
		{"value", admin.Some(7), 7, true, true, false, "7", `{"m":7}`},
		{"zero value", admin.Some(0), 0, true, true, false, "0", `{"m":0}`},
		{"null", admin.Null[int](), 0, false, true, true, "null", `{"m":null}`},
		{"absent", admin.Opt[int]{}, 0, false, false, false, "absent", `{"m":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := tt.opt.Get()
			assert.Equal(t, tt.value, v)
			assert.Equal(t, tt.sent, ok)
			assert.Equal(t, tt.value, tt.opt.Value())
			if p := tt.opt.Ptr(); tt.sent {
				require.NotNil(t, p)
				assert.Equal(t, tt.value, *p)
				*p++
				assert.Equal(t, tt.value, tt.opt.Value(), "Ptr gives a copy")
			} else {
				assert.Nil(t, p)
			}
			assert.Equal(t, tt.present, tt.opt.Present())
			assert.Equal(t, !tt.present, tt.opt.IsZero())
			assert.Equal(t, tt.null, tt.opt.IsNull())
			assert.Equal(t, tt.str, tt.opt.String())
			assert.Equal(t, tt.str, fmt.Sprint(tt.opt))
			for lib := range jsonLibs {
				assert.JSONEq(t, tt.json, encoded(t, lib, struct {
					M admin.Opt[int] `json:"m"`
				}{tt.opt}), jsonLibs[lib].name)
			}
		})
	}
}

package admin_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

const (
	aID         = "60000000-0000-4000-8000-000000000001"
	sID         = "60000000-0000-4000-8000-000000000002"
	searchReply = `{"id":"` + sID + `","__typename":"AspectSearchSnowflakeTable","status":"READY","targetLag":5,"duration":"MINUTES",` +
		`"attributeFields":[{"id":"` + fID + `","x-a":1}],"vectorIndexes":[{"field":{"id":"` + fID + `"},"aiProviderConnector":{"id":"` + pID + `","x-c":2}}],"x-top":"kept"}`
)

// TestSearchTablesWire checks each operation's exact request and what it
// makes of the answer.
func TestSearchTablesWire(t *testing.T) {
	tests := []struct {
		name         string
		status       int
		call         func(ctx context.Context, ws *admin.Workspace) (*admin.SearchTable, error)
		method, path string
		body         string
	}{
		{"create", 201, func(ctx context.Context, ws *admin.Workspace) (*admin.SearchTable, error) {
			return ws.SearchTables.Create(ctx, aID, admin.SnowflakeSearchTableRequest{Duration: admin.TimeUnitMinutes, TargetLag: 5,
				VectorIndexes: []admin.VectorIndexInput{{FieldID: fID, AIProviderConnectorID: pID}}}, workflow.WithHeader("X-Trace", "t2"))
		}, "POST", "/aspects/" + aID + "/search-tables",
			`{"attributeFieldIds":[],"duration":"MINUTES","targetLag":5,"vectorIndexes":[{"fieldId":"` + fID + `","aiProviderConnectorId":"` + pID + `"}]}`},
		{"create linked", 201, func(ctx context.Context, ws *admin.Workspace) (*admin.SearchTable, error) {
			return ws.SearchTables.CreateLinked(ctx, aID, admin.LinkedSearchTableRequest{CloudLinkID: pID, Database: "DB", Schema: "S", ServiceName: "SVC", Warehouse: new("WH")})
		}, "POST", "/aspects/" + aID + "/linked-search-tables",
			`{"cloudLinkId":"` + pID + `","database":"DB","schema":"S","serviceName":"SVC","warehouse":"WH"}`},
		{"get", 200, func(ctx context.Context, ws *admin.Workspace) (*admin.SearchTable, error) {
			return ws.SearchTables.Get(ctx, aID, sID)
		}, "GET", "/aspects/" + aID + "/search-tables/" + sID, ""},
		{"update", 200, func(ctx context.Context, ws *admin.Workspace) (*admin.SearchTable, error) {
			return ws.SearchTables.Update(ctx, aID, sID, admin.SearchTableUpdate{Snowflake: &admin.SnowflakeSearchTableUpdate{TargetLag: new(10)},
				Extra: map[string]jsontext.Value{"note": jsontext.Value(`"x"`)}})
		}, "PUT", "/aspects/" + aID + "/search-tables/" + sID, `{"snowflake":{"targetLag":10},"note":"x"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, tc.status, searchReply)
			st, err := tc.call(t.Context(), ws)
			require.NoError(t, err)
			assert.Equal(t, admin.SearchTableReady, st.Status.Value())
			assert.Equal(t, admin.TimeUnitMinutes, st.Duration.Value())
			assert.Equal(t, pID, st.VectorIndexes.Value()[0].AIProviderConnector.Value().ID.Value())
			assert.JSONEq(t, `"kept"`, string(st.Extra["x-top"]))
			calls := m.requests()
			require.Len(t, calls, 1)
			c := calls[0]
			assert.Equal(t, tc.method, c.Method)
			assert.Equal(t, tc.path, c.Path)
			assert.Empty(t, c.Query)
			if tc.body == "" {
				assert.Empty(t, c.Body)
			} else {
				assert.JSONEq(t, tc.body, c.Body)
				assert.Equal(t, "application/json", c.Header.Get("Content-Type"))
			}
			if tc.name == "create" {
				assert.Equal(t, "t2", c.Header.Get("X-Trace"))
			}
		})
	}
}

// TestSearchTablesValidation: broken rules fail before sending.
func TestSearchTablesValidation(t *testing.T) {
	ok := admin.SnowflakeSearchTableRequest{Duration: admin.TimeUnitHours, TargetLag: 1}
	tests := []struct {
		name  string
		call  func(ctx context.Context, ws *admin.Workspace) error
		field string
	}{
		{"bad aspect id", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.SearchTables.Create(ctx, "a/b", ok)
			return err
		}, "aspectID"},
		{"no duration", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.SearchTables.Create(ctx, aID, admin.SnowflakeSearchTableRequest{TargetLag: 1})
			return err
		}, "SnowflakeSearchTableRequest.Duration"},
		{"blank attribute field", func(ctx context.Context, ws *admin.Workspace) error {
			r := ok
			r.AttributeFieldIDs = []string{fID, ""}
			_, err := ws.SearchTables.Create(ctx, aID, r)
			return err
		}, "SnowflakeSearchTableRequest.AttributeFieldIDs[1]"},
		{"vector index without provider", func(ctx context.Context, ws *admin.Workspace) error {
			r := ok
			r.VectorIndexes = []admin.VectorIndexInput{{FieldID: fID}}
			_, err := ws.SearchTables.Create(ctx, aID, r)
			return err
		}, "SnowflakeSearchTableRequest.VectorIndexes[0].AIProviderConnectorID"},
		{"get with empty id", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.SearchTables.Get(ctx, aID, "")
			return err
		}, "aspectSearchTableID"},
		{"extra member naming a modelled one", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.SearchTables.CreateLinked(ctx, aID, admin.LinkedSearchTableRequest{CloudLinkID: pID, Database: "D", Schema: "S", ServiceName: "N",
				Extra: map[string]jsontext.Value{"database": jsontext.Value(`"E"`)}})
			return err
		}, "LinkedSearchTableRequest"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, 200, searchReply)
			var ve *workflow.ValidationError
			require.ErrorAs(t, tc.call(t.Context(), ws), &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Empty(t, m.requests())
		})
	}
}

// TestSearchTableErrorsAndRoundTrip: error statuses match the sentinels;
// unknown members survive encoding/json.
func TestSearchTableErrorsAndRoundTrip(t *testing.T) {
	for status, want := range map[int]error{404: workflow.ErrNotFound, 422: workflow.ErrUnprocessable, 200: workflow.ErrUnexpectedResponse} {
		body := `{"status":` + jsonInt(status) + `,"message":"m"}`
		if status == 200 {
			body = `"text"`
		}
		ws, _ := newMockWorkspace(t, status, body)
		_, err := ws.SearchTables.Get(t.Context(), aID, sID)
		assert.ErrorIs(t, err, want, "status %d", status)
	}
	var st admin.SearchTable
	require.NoError(t, json.Unmarshal([]byte(searchReply), &st))
	out, err := json.Marshal(st)
	require.NoError(t, err)
	assert.JSONEq(t, searchReply, string(out))
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

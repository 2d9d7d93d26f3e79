package admin_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

const (
	tID = "70000000-0000-4000-8000-000000000001"
	jID = "70000000-0000-4000-8000-000000000002"
	pID = "70000000-0000-4000-8000-000000000003"
	fID = "70000000-0000-4000-8000-000000000004"

	tableReply = `{"id":"` + tID + `","name":"Orders","handle":"ORD","source":{"id":"` + fID + `"},"fields":[{"id":"` + fID +
		`","__typename":"TableFieldCloud","name":"Total","fieldType":"NUMBER","columnName":"TOTAL","x-field":1}],` +
		`"joins":[{"id":"` + jID + `","type":"LEFT","onFields":[{"id":"` + pID + `","joinMappings":{"edges":[]}}]}],"filter":{"a":[1]},"categoryId":"c"}`
	joinReply = `{"id":"` + jID + `","type":"INNER","source":{"id":"` + tID + `"},"onFields":[]}`
)

func validTable() admin.TableCreateRequest {
	return admin.TableCreateRequest{
		Name: "Orders", Handle: "ORD", Source: fID, CategoryID: pID,
		Fields: []admin.TableFieldInput{{Cloud: &admin.TableCloudField{Name: "Total", Snowflake: &admin.TableColumn{ColumnName: "TOTAL", Type: admin.FieldNumber}}}},
	}
}

// TestTablesWire checks each operation's exact request: method, path,
// query, body and headers, and what it makes of the answer.
func TestTablesWire(t *testing.T) {
	type op func(ctx context.Context, ws *admin.Workspace) (any, error)
	tests := []struct {
		name         string
		status       int
		reply        string
		call         op
		method, path string
		query, body  string
		check        func(t *testing.T, got any)
	}{
		{"list", 200, `{"items":[` + tableReply + `],"total":1,"paging":{"has_next_page":false,"has_previous_page":false}}`,
			func(ctx context.Context, ws *admin.Workspace) (any, error) {
				return ws.Tables.List(ctx, &workflow.ListOptions{First: 5}, workflow.WithHeader("X-Trace", "t1"))
			}, "GET", "/tables", "first=5", "",
			func(t *testing.T, got any) {
				p := got.(*workflow.Page[admin.Table])
				require.Len(t, p.Items, 1)
				assert.Equal(t, "ORD", p.Items[0].Handle.Value())
			}},
		{"get", 200, tableReply,
			func(ctx context.Context, ws *admin.Workspace) (any, error) { return ws.Tables.Get(ctx, tID) },
			"GET", "/tables/" + tID, "", "",
			func(t *testing.T, got any) {
				tb := got.(*admin.Table)
				assert.Equal(t, "Orders", tb.Name.Value())
				assert.Equal(t, admin.FieldNumber, tb.Fields.Value()[0].FieldType.Value())
				assert.Equal(t, admin.JoinLeft, tb.Joins.Value()[0].Type.Value())
				assert.JSONEq(t, `{"edges":[]}`, string(tb.Joins.Value()[0].OnFields.Value()[0].JoinMappings))
				assert.JSONEq(t, `{"a":[1]}`, string(tb.Filter))
				assert.JSONEq(t, `"c"`, string(tb.Extra["categoryId"]))
				assert.JSONEq(t, `1`, string(tb.Fields.Value()[0].Extra["x-field"]))
			}},
		{"create", 201, tableReply,
			func(ctx context.Context, ws *admin.Workspace) (any, error) {
				r := validTable()
				r.Filter = jsontext.Value(`{"status":"open"}`)
				r.Joins = []admin.TableJoinInput{{Source: new(jID), Type: new(admin.JoinLeft), JoinOn: []admin.TableJoinOn{{LeftFieldID: fID, RightFieldID: pID}}}}
				return ws.Tables.Create(ctx, r)
			}, "POST", "/tables", "",
			`{"name":"Orders","handle":"ORD","source":"` + fID + `","categoryId":"` + pID + `","fields":[{"cloud":{"name":"Total","snowflake":{"columnName":"TOTAL","type":"NUMBER"}}}],` +
				`"filter":{"status":"open"},"joins":[{"source":"` + jID + `","type":"LEFT","joinOn":[{"leftFieldId":"` + fID + `","rightFieldId":"` + pID + `"}]}]}`,
			func(t *testing.T, got any) { assert.Equal(t, tID, got.(*admin.Table).ID.Value()) }},
		{"update", 200, tableReply,
			func(ctx context.Context, ws *admin.Workspace) (any, error) {
				return ws.Tables.Update(ctx, tID, admin.TableUpdateRequest{Name: new("Orders 2"), Fields: &admin.TableFieldChanges{
					Creates: []admin.TableFieldCreate{{Field: admin.TableFieldInput{Calculation: &admin.TableCalculationField{Name: new("D"), Text: new("Total*2")}}, Index: new(0)}},
					Updates: []admin.TableFieldUpdate{{ID: fID, Field: admin.TableFieldInput{Reference: &admin.TableReferenceField{Aggregation: new(admin.AggregationSum)}}}},
					Deletes: []admin.TableFieldDelete{{ID: pID}},
				}})
			}, "PUT", "/tables/" + tID, "",
			`{"name":"Orders 2","fields":{"creates":[{"field":{"calculation":{"name":"D","text":"Total*2"}},"index":0}],` +
				`"updates":[{"id":"` + fID + `","field":{"reference":{"aggregation":"SUM"}}}],"deletes":[{"id":"` + pID + `"}]}}`,
			func(t *testing.T, got any) { assert.Equal(t, tID, got.(*admin.Table).ID.Value()) }},
		{"delete", 204, "",
			func(ctx context.Context, ws *admin.Workspace) (any, error) { return nil, ws.Tables.Delete(ctx, "a b") },
			"DELETE", "/tables/a%20b", "", "", nil},
		{"join create", 201, joinReply,
			func(ctx context.Context, ws *admin.Workspace) (any, error) {
				return ws.Tables.Joins.Create(ctx, tID, admin.TableJoinInput{Source: new(jID), Type: new(admin.JoinInner),
					JoinOn: []admin.TableJoinOn{{LeftFieldID: fID, RightFieldID: pID}}, Filter: jsontext.Value(`{}`)})
			}, "POST", "/tables/" + tID + "/joins", "",
			`{"source":"` + jID + `","type":"INNER","joinOn":[{"leftFieldId":"` + fID + `","rightFieldId":"` + pID + `"}],"filter":{}}`,
			func(t *testing.T, got any) { assert.Equal(t, admin.JoinInner, got.(*admin.TableJoin).Type.Value()) }},
		{"join update", 200, joinReply,
			func(ctx context.Context, ws *admin.Workspace) (any, error) {
				return ws.Tables.Joins.Update(ctx, tID, jID, admin.TableJoinInput{Type: new(admin.JoinFull)})
			}, "PUT", "/tables/" + tID + "/joins/" + jID, "", `{"type":"FULL"}`,
			func(t *testing.T, got any) { assert.Equal(t, jID, got.(*admin.TableJoin).ID.Value()) }},
		{"join delete", 204, "",
			func(ctx context.Context, ws *admin.Workspace) (any, error) {
				return nil, ws.Tables.Joins.Delete(ctx, tID, jID)
			},
			"DELETE", "/tables/" + tID + "/joins/" + jID, "", "", nil},
		{"mappings create", 201, "",
			func(ctx context.Context, ws *admin.Workspace) (any, error) {
				return nil, ws.Tables.JoinMappings.Create(ctx, tID, pID, []admin.JoinMapping{{Source: "open", Target: "OPEN"}, {Source: "done", Target: ""}})
			}, "POST", "/tables/" + tID + "/join-fields/" + pID + "/mappings", "", `{"entries":[{"source":"open","target":"OPEN"},{"source":"done","target":""}]}`, nil},
		{"mappings update", 200, "",
			func(ctx context.Context, ws *admin.Workspace) (any, error) {
				return nil, ws.Tables.JoinMappings.Update(ctx, tID, pID, []admin.JoinMapping{{Source: "open", Target: "OPEN"}})
			}, "PUT", "/tables/" + tID + "/join-fields/" + pID + "/mappings", "", `{"entries":[{"source":"open","target":"OPEN"}]}`, nil},
		{"mappings delete", 204, "",
			func(ctx context.Context, ws *admin.Workspace) (any, error) {
				return nil, ws.Tables.JoinMappings.Delete(ctx, tID, pID, []string{"open", "done"})
			}, "DELETE", "/tables/" + tID + "/join-fields/" + pID + "/mappings", "", `{"entries":[{"source":"open"},{"source":"done"}]}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, tc.status, tc.reply)
			got, err := tc.call(t.Context(), ws)
			require.NoError(t, err)
			calls := m.requests()
			require.Len(t, calls, 1)
			c := calls[0]
			assert.Equal(t, tc.method, c.Method)
			assert.Equal(t, tc.path, c.Path)
			assert.Equal(t, tc.query, c.Query)
			assert.Equal(t, "application/json", c.Header.Get("Accept"))
			assert.Equal(t, "Bearer t", c.Header.Get("Authorization"))
			if tc.body == "" {
				assert.Empty(t, c.Body)
			} else {
				assert.JSONEq(t, tc.body, c.Body)
				assert.Equal(t, "application/json", c.Header.Get("Content-Type"))
			}
			if tc.name == "list" {
				assert.Equal(t, "t1", c.Header.Get("X-Trace"), "per-call options reach the request")
			}
			if tc.check != nil {
				tc.check(t, got)
			}
		})
	}
}

// TestTablesValidation: a broken rule is a *workflow.ValidationError
// naming the field, and no request is made.
func TestTablesValidation(t *testing.T) {
	with := func(change func(*admin.TableCreateRequest)) admin.TableCreateRequest {
		r := validTable()
		change(&r)
		return r
	}
	tests := []struct {
		name  string
		call  func(ctx context.Context, ws *admin.Workspace) error
		field string
	}{
		{"create without category", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Create(ctx, with(func(r *admin.TableCreateRequest) { r.CategoryID = "" }))
			return err
		}, "TableCreateRequest.CategoryID"},
		{"field with two variants", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Create(ctx, with(func(r *admin.TableCreateRequest) {
				r.Fields[0].Calculation = &admin.TableCalculationField{Name: new("x"), Text: new("1")}
			}))
			return err
		}, "TableCreateRequest.Fields[0]"},
		{"field with no variant", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Create(ctx, with(func(r *admin.TableCreateRequest) { r.Fields = append(r.Fields, admin.TableFieldInput{}) }))
			return err
		}, "TableCreateRequest.Fields[1]"},
		{"column without type", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Create(ctx, with(func(r *admin.TableCreateRequest) {
				r.Fields[0].Cloud.BigQuery = &admin.TableColumn{ColumnName: "C"}
			}))
			return err
		}, "TableCreateRequest.Fields[0].Cloud.BigQuery.Type"},
		{"reference without field", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Create(ctx, with(func(r *admin.TableCreateRequest) {
				r.Fields = []admin.TableFieldInput{{Reference: &admin.TableReferenceField{Name: new("R")}}}
			}))
			return err
		}, "TableCreateRequest.Fields[0].Reference.Field"},
		{"calculation without text", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Create(ctx, with(func(r *admin.TableCreateRequest) {
				r.Fields = []admin.TableFieldInput{{Calculation: &admin.TableCalculationField{Name: new("R")}}}
			}))
			return err
		}, "TableCreateRequest.Fields[0].Calculation.Text"},
		{"join without pairs", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Create(ctx, with(func(r *admin.TableCreateRequest) {
				r.Join = &admin.TableJoinInput{Source: new(jID), Type: new(admin.JoinLeft)}
			}))
			return err
		}, "TableCreateRequest.Join.JoinOn"},
		{"data view without schema", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Create(ctx, with(func(r *admin.TableCreateRequest) {
				r.DataView = &admin.TableDataViewInput{Snowflake: &admin.TableDataViewName{DatabaseName: new("d"), Name: new("v")}}
			}))
			return err
		}, "TableCreateRequest.DataView.Snowflake.SchemaName"},
		{"extra member naming a modelled one", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Create(ctx, with(func(r *admin.TableCreateRequest) { r.Extra = map[string]jsontext.Value{"name": jsontext.Value(`"x"`)} }))
			return err
		}, "TableCreateRequest"},
		{"get with blank id", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Get(ctx, " ")
			return err
		}, "tableID"},
		{"update of an id with a slash", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Update(ctx, "a/b", admin.TableUpdateRequest{Name: new("x")})
			return err
		}, "tableID"},
		{"update of a field without id", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Update(ctx, tID, admin.TableUpdateRequest{Fields: &admin.TableFieldChanges{
				Updates: []admin.TableFieldUpdate{{Field: admin.TableFieldInput{Calculation: &admin.TableCalculationField{Text: new("1")}}}}}})
			return err
		}, "TableUpdateRequest.Fields.Updates[0].ID"},
		{"delete of a field without id", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Update(ctx, tID, admin.TableUpdateRequest{Fields: &admin.TableFieldChanges{Deletes: []admin.TableFieldDelete{{}}}})
			return err
		}, "TableUpdateRequest.Fields.Deletes[0].ID"},
		{"delete with empty id", func(ctx context.Context, ws *admin.Workspace) error { return ws.Tables.Delete(ctx, "") }, "tableID"},
		{"join without source", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Joins.Create(ctx, tID, admin.TableJoinInput{Type: new(admin.JoinLeft), JoinOn: []admin.TableJoinOn{{LeftFieldID: fID, RightFieldID: pID}}})
			return err
		}, "TableJoinInput.Source"},
		{"join update with half a pair", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Joins.Update(ctx, tID, jID, admin.TableJoinInput{JoinOn: []admin.TableJoinOn{{LeftFieldID: fID}}})
			return err
		}, "TableJoinInput.JoinOn[0].RightFieldID"},
		{"join update of a blank join id", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Joins.Update(ctx, tID, "..", admin.TableJoinInput{Type: new(admin.JoinFull)})
			return err
		}, "joinID"},
		{"join delete of a blank table id", func(ctx context.Context, ws *admin.Workspace) error { return ws.Tables.Joins.Delete(ctx, "", jID) }, "tableID"},
		{"mappings of a bad pair id", func(ctx context.Context, ws *admin.Workspace) error {
			return ws.Tables.JoinMappings.Delete(ctx, tID, "", []string{"a"})
		}, "joinFieldsID"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, 200, `{}`)
			err := tc.call(t.Context(), ws)
			var ve *workflow.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.NotEmpty(t, ve.Rule)
			assert.Empty(t, m.requests(), "nothing is sent")
		})
	}
}

// TestTablesErrorStatuses: failures are *workflow.APIError matching the
// sentinels; a success without the body the operation promises is an
// unexpected response.
func TestTablesErrorStatuses(t *testing.T) {
	tests := []struct {
		status int
		reply  string
		want   error
	}{
		{404, `{"status":404,"message":"no table"}`, workflow.ErrNotFound},
		{422, `{"status":422,"message":"handle taken"}`, workflow.ErrUnprocessable},
		{403, `{"status":403,"message":"no"}`, workflow.ErrForbidden},
		{200, ``, workflow.ErrUnexpectedResponse},
		{200, `[1]`, workflow.ErrUnexpectedResponse},
	}
	for _, tc := range tests {
		t.Run(http.StatusText(tc.status)+" "+tc.reply, func(t *testing.T) {
			ws, _ := newMockWorkspace(t, tc.status, tc.reply)
			_, err := ws.Tables.Get(t.Context(), tID)
			assert.ErrorIs(t, err, tc.want)
			_, err = ws.Tables.Joins.Update(t.Context(), tID, jID, admin.TableJoinInput{Type: new(admin.JoinFull)})
			assert.ErrorIs(t, err, tc.want)
			if tc.status >= 400 {
				var apiErr *workflow.APIError
				require.True(t, errors.As(ws.Tables.Delete(t.Context(), tID), &apiErr))
				assert.Equal(t, tc.status, apiErr.StatusCode)
			}
		})
	}
}

// TestTableRoundTrip: unknown members, at every level, survive a decode
// and an encode, with encoding/json as with go-json-experiment/json.
func TestTableRoundTrip(t *testing.T) {
	in := `{"id":"` + tID + `","x-top":{"k":[1,2]},"source":{"id":"s","x-src":true},` +
		`"fields":[{"id":"f","x-f":1,"calculation":{"text":"1","x-c":2},"field":{"id":"g","x-g":3}}],` +
		`"joins":[{"id":"j","x-j":4,"onFields":[{"id":"p","x-p":5,"leftField":{"id":"l"},"joinMappings":{"edges":[{"node":{"source":"a","target":"b"}}]}}]}],` +
		`"dataView":{"id":"v","x-v":6},"orderBy":{"by":"name"}}`
	codecs := []struct {
		name      string
		unmarshal func([]byte, any) error
		marshal   func(any) ([]byte, error)
	}{
		{"encoding/json", json.Unmarshal, json.Marshal},
		{"go-json-experiment", func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) }, func(v any) ([]byte, error) { return jsonv2.Marshal(v) }},
	}
	for _, c := range codecs {
		t.Run(c.name, func(t *testing.T) {
			var tb admin.Table
			require.NoError(t, c.unmarshal([]byte(in), &tb))
			assert.Equal(t, "g", tb.Fields.Value()[0].Field.Value().ID.Value())
			assert.JSONEq(t, `5`, string(tb.Joins.Value()[0].OnFields.Value()[0].Extra["x-p"]))
			out, err := c.marshal(tb)
			require.NoError(t, err)
			assert.JSONEq(t, in, string(out))
		})
	}
	var tb admin.Table
	assert.Error(t, json.Unmarshal([]byte(`{"id":1}`), &tb), "a modelled member of the wrong type is an error")
}

package admin_test

import (
	"context"
	stdjson "encoding/json"
	"net/http"
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// TestSendsWhatTheDocumentAllows: a body the published document allows is
// sent as it is, explicit empty values included; the SDK once refused
// each of these.
func TestSendsWhatTheDocumentAllows(t *testing.T) {
	const id = "550e8400-e29b-41d4-a716-446655440000"
	for _, tc := range []struct {
		name string
		call func(context.Context, *admin.Workspace) error
		body string
	}{
		{"an automation without members", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Automations.Create(ctx, workflow.Apps, "itm", admin.Automation(`{}`))
			return err
		}, `{}`},
		{"no group domains", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Domains.Groups.Add(ctx, "g1", []string{})
			return err
		}, `{"domains":[]}`},
		{"a domain without a dot", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Domains.Create(ctx, admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("localhost")}})
			return err
		}, `{"emailDomain":{"domain":"localhost"}}`},
		{"a table without fields", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Create(ctx, admin.TableCreateRequest{Name: "T", Handle: "T", Source: id, CategoryID: id, Fields: []admin.TableFieldInput{}})
			return err
		}, `{"name":"T","handle":"T","source":"` + id + `","categoryId":"` + id + `","fields":[]}`},
		{"a join without pairs", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Tables.Joins.Create(ctx, id, admin.TableJoinInput{Source: new(id), Type: new(admin.JoinLeft), JoinOn: []admin.TableJoinOn{}})
			return err
		}, `{"source":"` + id + `","type":"LEFT","joinOn":[]}`},
		{"no mapping entries", func(ctx context.Context, ws *admin.Workspace) error {
			return ws.Tables.JoinMappings.Update(ctx, id, id, []admin.JoinMapping{})
		}, `{"entries":[]}`},
		{"a target lag of 0", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.SearchTables.Create(ctx, id, admin.SnowflakeSearchTableRequest{AttributeFieldIDs: []string{}, Duration: admin.TimeUnitDays})
			return err
		}, `{"attributeFieldIds":[],"duration":"DAYS","targetLag":0}`},
		{"an update that clears the description", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Elements.Update(ctx, "parts", admin.ElementUpdate{Description: new("")})
			return err
		}, `{"description":""}`},
		{"explicit empty values", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Agents.Update(ctx, "it", id, admin.AgentBundle{Agent: admin.AgentInput{Elementum: &admin.AgentSettings{
				Name: new(""), Temperature: new(0.0), MaxLength: new(int32(0))}}, Tools: []jsontext.Value{}})
			return err
		}, `{"agent":{"elementum":{"name":"","maxLength":0,"temperature":0}},"tools":[]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, http.StatusOK, `{"id":"`+id+`"}`)
			err := tc.call(t.Context(), ws)
			var ve *workflow.ValidationError
			require.NotErrorAs(t, err, &ve, "not refused")
			reqs := m.requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, tc.body, reqs[0].Body)
		})
	}
}

// TestRefusesWhatTheDocumentRefuses: a body that breaks a rule of the
// document is refused before sending, with the public type and the
// member's path named.
func TestRefusesWhatTheDocumentRefuses(t *testing.T) {
	ctx := t.Context()
	runInvalid(t, []invalidCase{
		{"a required member left out", func(ws *admin.Workspace) error {
			_, err := ws.Tables.Joins.Create(ctx, e2eSource, admin.TableJoinInput{Type: new(admin.JoinLeft), JoinOn: []admin.TableJoinOn{}})
			return err
		}, "TableJoinInput.Source"},
		{"a value outside the enum", func(ws *admin.Workspace) error {
			_, err := ws.Tables.Joins.Update(ctx, e2eSource, e2eSource, admin.TableJoinInput{Type: new(admin.TableJoinType("OUTER"))})
			return err
		}, "TableJoinInput.Type"},
		{"a format", func(ws *admin.Workspace) error {
			_, err := ws.Tables.Update(ctx, e2eSource, admin.TableUpdateRequest{CategoryID: new("")})
			return err
		}, "TableUpdateRequest.CategoryID"},
		{"a prose rule: exactly one variant", func(ws *admin.Workspace) error {
			_, err := ws.Tables.Update(ctx, e2eSource, admin.TableUpdateRequest{Fields: &admin.TableFieldChanges{
				Creates: []admin.TableFieldCreate{{Field: admin.TableFieldInput{}}}}})
			return err
		}, "TableUpdateRequest.Fields.Creates[0].Field"},
		// A fake-only rule broken first (a column that is no field id)
		// must not hide a published rule broken after it.
		{"a prose rule behind a project rule", func(ws *admin.Workspace) error {
			_, err := ws.Views.Create(ctx, "itm", "v", admin.ViewRequest{View: admin.ViewInput{
				List: &admin.ViewConfig{Columns: []string{"Name"}}, Kanban: &admin.ViewConfig{}}})
			return err
		}, "ViewRequest.View"},
		{"a type behind a project rule", func(ws *admin.Workspace) error {
			_, err := ws.Views.Create(ctx, "itm", "v", admin.ViewRequest{View: admin.ViewInput{
				List: &admin.ViewConfig{Columns: []string{"Name"}, Filter: jsontext.Value(`5`)}}})
			return err
		}, "ViewRequest.View.List.Filter"},
	})
}

// TestErrorsNamePublicTypes: an Extra key that names a modelled member is
// refused, naming the public type and where it is, never an internal
// type of the package.
func TestErrorsNamePublicTypes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		r          admin.ViewRequest
		field, has string
	}{
		{"at the top", admin.ViewRequest{View: admin.ViewInput{List: &admin.ViewConfig{}},
			Extra: map[string]jsontext.Value{"view": jsontext.Value(`{}`)}}, "ViewRequest", `the Extra member "view" names a member admin.ViewRequest models`},
		{"nested", admin.ViewRequest{View: admin.ViewInput{List: &admin.ViewConfig{Extra: map[string]jsontext.Value{"name": jsontext.Value(`"x"`)}}}},
			"ViewRequest.View.List", `the Extra member "name" names a member admin.ViewConfig models`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, http.StatusCreated, `{}`)
			_, err := ws.Views.Create(t.Context(), "itm", "open", tc.r)
			var ve *workflow.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Contains(t, err.Error(), tc.has)
			assert.NotRegexp(t, `admin\.[a-z]`, err.Error(), "no unexported type is named")
			assert.Empty(t, m.requests())
		})
	}
}

// TestHandlesThatCannotBeAPathSegment: what Create would make but Get and
// Update could not reach is refused by Create too.
func TestHandlesThatCannotBeAPathSegment(t *testing.T) {
	r := admin.ViewRequest{View: admin.ViewInput{List: &admin.ViewConfig{Name: new("x")}}}
	for _, h := range []string{"a/b", ".", "..", "../etc", "x\x00y", "", " "} {
		t.Run(h, func(t *testing.T) {
			ws, m := newMockWorkspace(t, http.StatusCreated, `{}`)
			var ve *workflow.ValidationError
			_, err := ws.Views.Create(t.Context(), "itm", h, r)
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "handle", ve.Field)
			_, err = ws.Elements.Create(t.Context(), admin.NewElement{Name: "x", CategoryID: e2eCategory, Namespace: new(h)})
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "NewElement.namespace", ve.Field)
			assert.Empty(t, m.requests())
		})
	}
}

// TestRequestBodiesReadFromFiles: a body kept in a file reads back whole
// with either library, unknown members at every depth and explicit empty
// values included, and a null member is an error naming its path.
func TestRequestBodiesReadFromFiles(t *testing.T) {
	const file = `{"view":{"list":{"name":"x","customThing":1,"rows":0}},"colour":"red"}`
	for _, unmarshal := range []func([]byte, any) error{stdjson.Unmarshal, func(b []byte, v any) error { return json.Unmarshal(b, v) }} {
		var r admin.ViewRequest
		require.NoError(t, unmarshal([]byte(file), &r))
		for _, marshal := range []func(any) ([]byte, error){stdjson.Marshal, func(v any) ([]byte, error) { return json.Marshal(v) }} {
			out, err := marshal(r)
			require.NoError(t, err)
			assert.JSONEq(t, file, string(out))
		}
		var u admin.ElementUpdate
		require.NoError(t, unmarshal([]byte(`{"description":""}`), &u))
		out, err := json.Marshal(u)
		require.NoError(t, err)
		assert.JSONEq(t, `{"description":""}`, string(out), "an update that clears a member still clears it")

		err = unmarshal([]byte(`{"view":{"list":{"name":null}}}`), &r)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "must not be null")
		assert.Regexp(t, `view.list.name|/name`, err.Error(), "the member is named by its path")
	}
}

// TestSendsTheBodyItChecked: the bytes checked against the document are
// the bytes sent, unchanged: no HTML escaping, no re-encoding of a
// definition given as JSON text.
func TestSendsTheBodyItChecked(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(context.Context, *admin.Workspace) error
		body string
	}{
		{"a definition as given", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Apps.Compose(ctx, jsontext.Value(`{"namespace":"a<b>&c","x":"\u00e9"}`))
			return err
		}, `{"namespace":"a<b>&c","x":"\u00e9"}`},
		{"a typed body", func(ctx context.Context, ws *admin.Workspace) error {
			_, err := ws.Elements.Update(ctx, "parts", admin.ElementUpdate{Description: new("<b>R&D</b>")})
			return err
		}, `{"description":"<b>R&D</b>"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, http.StatusOK, `{"id":"e1"}`)
			require.NoError(t, tc.call(t.Context(), ws))
			reqs := m.requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, tc.body, reqs[0].Body)
			assert.Equal(t, "application/json", reqs[0].Header.Get("Content-Type"))
		})
	}
}

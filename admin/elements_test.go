package admin_test

import (
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
	catID  = "550e8400-e29b-41d4-a716-446655440001"
	linkID = "550e8400-e29b-41d4-a716-446655440002"
	elemID = "550e8400-e29b-41d4-a716-446655440000"

	aspectReply = `{"id":"` + elemID + `","__typename":"AspectElement","name":"Assets","namespace":"assets","handle":"AST",` +
		`"status":"ACTIVE","configured":true,"sourceType":"SNOWFLAKE","category":{"id":"` + catID + `","name":"Ops","rank":2},"owner":{"team":"data"}}`
)

// wire is what one call must send.
type wire struct {
	method, path, query, body string
}

// assertWire checks the one request made against want: method, escaped
// path, query, JSON body and the headers every call carries.
func assertWire(t *testing.T, m interface{ requests() []mockCall }, want wire) {
	t.Helper()
	calls := m.requests()
	require.Len(t, calls, 1)
	got := calls[0]
	assert.Equal(t, want.method, got.Method)
	assert.Equal(t, want.path, got.Path)
	assert.Equal(t, want.query, got.Query)
	assert.Equal(t, "Bearer t", got.Header.Get("Authorization"))
	if want.body == "" {
		assert.Empty(t, got.Body)
		return
	}
	assert.JSONEq(t, want.body, got.Body)
	assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
}

func TestElementsWire(t *testing.T) {
	tests := []struct {
		name   string
		status int
		call   func(*admin.Workspace) (*admin.Aspect, error)
		want   wire
	}{
		{"create import", http.StatusCreated, func(ws *admin.Workspace) (*admin.Aspect, error) {
			return ws.Elements.Create(t.Context(), admin.NewElement{
				Name: "Assets", CategoryID: catID, CloudLinkID: new(linkID), Database: new("DB"), Schema: new("S"), Table: new("ASSETS"),
				IDColumn: new("ID"), RecordCreateTypes: &admin.RecordCreateTypes{API: ptr(true), Manual: ptr(false)},
				CloudOptions: &admin.CloudOptions{Snowflake: &admin.SnowflakeOptions{HybridTable: ptr(false)}},
			}, workflow.WithHeader("X-Trace", "t1"))
		}, wire{"POST", "/elements", "", `{"name":"Assets","categoryId":"` + catID + `","cloudLinkId":"` + linkID +
			`","database":"DB","schema":"S","table":"ASSETS","idColumn":"ID","recordCreateTypes":{"api":true,"manual":false},` +
			`"cloudOptions":{"snowflake":{"hybridTable":false}}}`}},
		{"create native", http.StatusCreated, func(ws *admin.Workspace) (*admin.Aspect, error) {
			return ws.Elements.Create(t.Context(), admin.NewElement{
				Name: "Parts", CategoryID: catID, WorkflowValuePerAutomation: ptr(2.5),
				Fields: []admin.ElementField{{Name: "Weight", Type: admin.FieldDecimal, Required: ptr(true)}},
				Extra:  map[string]jsontext.Value{"later": jsontext.Value(`[1]`)},
			})
		}, wire{"POST", "/elements", "", `{"name":"Parts","categoryId":"` + catID + `","workflowValuePerAutomation":2.5,` +
			`"fields":[{"name":"Weight","type":"DECIMAL","required":true}],"later":[1]}`}},
		{"get by namespace", http.StatusOK, func(ws *admin.Workspace) (*admin.Aspect, error) {
			return ws.Elements.Get(t.Context(), "assets")
		}, wire{"GET", "/elements/assets", "", ""}},
		{"get escapes the alias", http.StatusOK, func(ws *admin.Workspace) (*admin.Aspect, error) {
			return ws.Elements.Get(t.Context(), "my assets?")
		}, wire{"GET", "/elements/my%20assets%3F", "", ""}},
		{"update sends what is set", http.StatusOK, func(ws *admin.Workspace) (*admin.Aspect, error) {
			return ws.Elements.Update(t.Context(), elemID, admin.ElementUpdate{Color: new("#fff"), AllowInlineImageIngestion: ptr(false)})
		}, wire{"PUT", "/elements/" + elemID, "", `{"color":"#fff","allowInlineImageIngestion":false}`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, tc.status, aspectReply)
			a, err := tc.call(ws)
			require.NoError(t, err)
			assert.Equal(t, elemID, a.ID.Value())
			assert.Equal(t, "assets", a.Namespace.Value())
			assert.Equal(t, admin.SourceSnowflake, a.SourceType.Value())
			assert.Equal(t, admin.AspectActive, a.Status.Value())
			assert.Equal(t, "Ops", a.Category.Value().Name.Value())
			assertWire(t, m, tc.want)
			if tc.name == "create import" {
				assert.Equal(t, "t1", m.requests()[0].Header.Get("X-Trace"), "per-call options apply")
			}
		})
	}
}

func TestElementsValidation(t *testing.T) {
	ok := admin.NewElement{Name: "Assets", CategoryID: catID}
	with := func(change func(*admin.NewElement)) admin.NewElement {
		n := ok
		change(&n)
		return n
	}
	tests := []struct {
		name  string
		call  func(*admin.Workspace) error
		field string
	}{
		{"create without category", func(ws *admin.Workspace) error {
			_, err := ws.Elements.Create(t.Context(), with(func(n *admin.NewElement) { n.CategoryID = "" }))
			return err
		}, "NewElement.CategoryID"},
		{"category not a UUID", func(ws *admin.Workspace) error {
			_, err := ws.Elements.Create(t.Context(), with(func(n *admin.NewElement) { n.CategoryID = "ops" }))
			return err
		}, "NewElement.CategoryID"},
		{"field without type", func(ws *admin.Workspace) error {
			_, err := ws.Elements.Create(t.Context(), with(func(n *admin.NewElement) { n.Fields = []admin.ElementField{{Name: "A"}} }))
			return err
		}, "NewElement.Fields[0].Type"},
		{"extra member duplicates a field", func(ws *admin.Workspace) error {
			_, err := ws.Elements.Create(t.Context(), with(func(n *admin.NewElement) {
				n.Extra = map[string]jsontext.Value{"name": jsontext.Value(`"X"`)}
			}))
			return err
		}, "NewElement"},
		{"get with empty alias", func(ws *admin.Workspace) error {
			_, err := ws.Elements.Get(t.Context(), "")
			return err
		}, "alias"},
		{"update with a slash in the alias", func(ws *admin.Workspace) error {
			_, err := ws.Elements.Update(t.Context(), "a/b", admin.ElementUpdate{Name: new("X")})
			return err
		}, "alias"},
		{"update with a bad category", func(ws *admin.Workspace) error {
			_, err := ws.Elements.Update(t.Context(), "assets", admin.ElementUpdate{CategoryID: new("x")})
			return err
		}, "ElementUpdate.CategoryID"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, http.StatusOK, aspectReply)
			var ve *workflow.ValidationError
			require.ErrorAs(t, tc.call(ws), &ve)
			assert.Contains(t, ve.Field, tc.field)
			assert.Empty(t, m.requests(), "nothing is sent")
		})
	}
}

func TestElementsAnswers(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		is     error
		text   string
	}{
		{"record list instead of the definition", http.StatusOK, `{"items":[],"total":0,"paging":{"has_next_page":false,"has_previous_page":false}}`,
			workflow.ErrUnexpectedResponse, "getElement (GET /elements/{alias}) answered with a record list"},
		{"object without id", http.StatusOK, `{"name":"Assets"}`, workflow.ErrUnexpectedResponse, "not an element definition with an id"},
		{"empty body", http.StatusOK, ``, workflow.ErrUnexpectedResponse, ""},
		{"array", http.StatusOK, `[]`, workflow.ErrUnexpectedResponse, ""},
		{"not found", http.StatusNotFound, `{"message":"no element"}`, workflow.ErrNotFound, ""},
		{"unprocessable", http.StatusUnprocessableEntity, `{"message":"rule"}`, nil, "422"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, _ := newMockWorkspace(t, tc.status, tc.body)
			a, err := ws.Elements.Get(t.Context(), "assets")
			require.Error(t, err)
			assert.Nil(t, a)
			if tc.is != nil {
				assert.ErrorIs(t, err, tc.is)
			}
			var apiErr *workflow.APIError
			if tc.status >= 400 {
				require.True(t, errors.As(err, &apiErr))
				assert.Equal(t, tc.status, apiErr.StatusCode)
			}
			assert.Contains(t, err.Error(), tc.text)
		})
	}
}

func TestAspectKeepsUnknownMembers(t *testing.T) {
	for name, codec := range map[string]struct {
		unmarshal func([]byte, any) error
		marshal   func(any) ([]byte, error)
	}{
		"encoding/json": {json.Unmarshal, json.Marshal},
		"json v2":       {func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) }, func(v any) ([]byte, error) { return jsonv2.Marshal(v) }},
	} {
		t.Run(name, func(t *testing.T) {
			var a admin.Aspect
			require.NoError(t, codec.unmarshal([]byte(aspectReply), &a))
			assert.JSONEq(t, `{"team":"data"}`, string(a.Extra["owner"]))
			assert.JSONEq(t, `2`, string(a.Category.Value().Extra["rank"]))
			out, err := codec.marshal(a)
			require.NoError(t, err)
			assert.JSONEq(t, aspectReply, string(out))
		})
	}
	var a admin.Aspect
	assert.Error(t, json.Unmarshal([]byte(`{"id":5}`), &a), "a modelled member of the wrong type is an error")
	require.NoError(t, json.Unmarshal([]byte(`null`), &a))
}

func ptr[T any](v T) *T { return &v }

package admin_test

import (
	stdjson "encoding/json"
	"errors"
	"net/http"
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

const (
	domainReply       = `{"id":"d1","type":"MANAGED","domain":"example.com","name":"Example","sso":true,"verifiedAt":"2026-01-01T00:00:00Z"}`
	groupDomainsReply = `[{"id":"g-d1","domain":"example.com"}]`
)

// wireCase is one call and the request it must send.
type wireCase struct {
	name   string
	status int
	reply  string
	call   func(t *testing.T, ws *admin.Workspace) error
	method string
	path   string
	query  string
	body   string // exact JSON, "" for no body
}

// runWire runs exact-wire cases: each sends one request with the method,
// path, query, body and headers given.
func runWire(t *testing.T, cases []wireCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, c.status, c.reply)
			require.NoError(t, c.call(t, ws))
			reqs := m.requests()
			require.Len(t, reqs, 1)
			got := reqs[0]
			assert.Equal(t, c.method, got.Method)
			assert.Equal(t, c.path, got.Path)
			assert.Equal(t, c.query, got.Query)
			assert.Equal(t, "Bearer t", got.Header.Get("Authorization"))
			if c.body == "" {
				assert.Empty(t, got.Body)
				return
			}
			assert.JSONEq(t, c.body, got.Body)
			assert.Equal(t, c.body, got.Body, "members in the order of the published schema")
			assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
		})
	}
}

// invalidCase is a call the SDK refuses before sending.
type invalidCase struct {
	name  string
	call  func(ws *admin.Workspace) error
	field string
}

// runInvalid checks that each call fails with a *workflow.ValidationError
// naming field, and sends nothing.
func runInvalid(t *testing.T, cases []invalidCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, m := newMockWorkspace(t, http.StatusOK, `{}`)
			err := c.call(ws)
			var ve *workflow.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, c.field, ve.Field, ve.Error())
			assert.Empty(t, m.requests(), "nothing is sent")
		})
	}
}

func TestDomainsWire(t *testing.T) {
	ctx := t.Context()
	runWire(t, []wireCase{
		{name: "create managed", status: 201, reply: domainReply, method: "POST", path: "/domains",
			body: `{"managedDomain":{"domain":"example.com","name":"Example","approved":false,"sso":true}}`,
			call: func(t *testing.T, ws *admin.Workspace) error {
				d, err := ws.Domains.Create(ctx, admin.DomainRequest{Managed: &admin.ManagedDomain{
					Domain: new("example.com"), Name: new("Example"), Approved: new(false), SSO: new(true)}})
				if err == nil {
					assert.Equal(t, admin.DomainManaged, d.Type.Value())
					assert.Equal(t, "d1", d.ID.Value())
					assert.True(t, d.SSO.Value())
				}
				return err
			}},
		{name: "create e-mail", status: 201, reply: `{"id":"d2","type":"EMAIL","domain":"mail.example.com"}`, method: "POST", path: "/domains",
			body: `{"emailDomain":{"domain":"mail.example.com"}}`,
			call: func(t *testing.T, ws *admin.Workspace) error {
				d, err := ws.Domains.Create(ctx, admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("mail.example.com")}})
				if err == nil {
					assert.Equal(t, admin.DomainEmail, d.Type.Value())
				}
				return err
			}},
		{name: "update sends only what is set", status: 200, reply: domainReply, method: "PUT", path: "/domains/d%201",
			body: `{"managedDomain":{"selfRegistration":true,"sso":false}}`,
			call: func(t *testing.T, ws *admin.Workspace) error {
				_, err := ws.Domains.Update(ctx, "d 1", admin.DomainRequest{Managed: &admin.ManagedDomain{SelfRegistration: new(true), SSO: new(false)}})
				return err
			}},
		{name: "add group domains", status: 201, reply: groupDomainsReply, method: "POST", path: "/groups/g1/domains",
			body: `{"domains":["example.com","example.org"]}`,
			call: func(t *testing.T, ws *admin.Workspace) error {
				ds, err := ws.Domains.Groups.Add(ctx, "g1", []string{"example.com", "example.org"})
				if err == nil {
					assert.Equal(t, []workflow.GroupDomain{{ID: "g-d1", Domain: "example.com"}}, ds)
				}
				return err
			}},
		{name: "remove group domains", status: 200, reply: `[]`, method: "DELETE", path: "/groups/g1/domains",
			body: `{"domains":["example.com"]}`,
			call: func(t *testing.T, ws *admin.Workspace) error {
				ds, err := ws.Domains.Groups.Remove(ctx, "g1", []string{"example.com"})
				if err == nil {
					assert.Empty(t, ds)
				}
				return err
			}},
	})
}

func TestDomainsInvalid(t *testing.T) {
	ctx := t.Context()
	managed := func(m admin.ManagedDomain) admin.DomainRequest { return admin.DomainRequest{Managed: &m} }
	runInvalid(t, []invalidCase{
		{"neither kind", func(ws *admin.Workspace) error {
			_, err := ws.Domains.Create(ctx, admin.DomainRequest{})
			return err
		}, "DomainRequest"},
		{"both kinds", func(ws *admin.Workspace) error {
			_, err := ws.Domains.Create(ctx, admin.DomainRequest{Managed: &admin.ManagedDomain{Domain: new("a.com")}, Email: &admin.EmailDomain{Domain: new("b.com")}})
			return err
		}, "DomainRequest"},
		{"sso with self-registration", func(ws *admin.Workspace) error {
			_, err := ws.Domains.Update(ctx, "d1", managed(admin.ManagedDomain{SSO: new(true), SelfRegistration: new(true)}))
			return err
		}, "DomainRequest.Managed"},
		{"update of no domain", func(ws *admin.Workspace) error {
			_, err := ws.Domains.Update(ctx, " ", managed(admin.ManagedDomain{Name: new("x")}))
			return err
		}, "domainID"},
		{"a member twice", func(ws *admin.Workspace) error {
			_, err := ws.Domains.Create(ctx, admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("b.com")},
				Extra: map[string]jsontext.Value{"emailDomain": jsontext.Value(`{}`)}})
			return err
		}, "DomainRequest"},
		{"group domains of no group", func(ws *admin.Workspace) error {
			_, err := ws.Domains.Groups.Add(ctx, "../users", []string{"example.com"})
			return err
		}, "groupID"},
	})
}

// TestDomainKeepsUnknownMembers: members the SDK does not model survive a
// round trip through both JSON packages.
func TestDomainKeepsUnknownMembers(t *testing.T) {
	var d admin.Domain
	require.NoError(t, stdjson.Unmarshal([]byte(domainReply), &d))
	assert.Equal(t, `"2026-01-01T00:00:00Z"`, string(d.Extra["verifiedAt"]))
	for _, marshal := range []func(any) ([]byte, error){stdjson.Marshal, func(v any) ([]byte, error) { return json.Marshal(v) }} {
		out, err := marshal(d)
		require.NoError(t, err)
		assert.JSONEq(t, domainReply, string(out))
	}
}

func TestDomainsErrorStatuses(t *testing.T) {
	for _, c := range []struct {
		status int
		want   error
	}{
		{404, workflow.ErrNotFound},
		{422, workflow.ErrUnprocessable},
		{403, workflow.ErrForbidden},
	} {
		ws, _ := newMockWorkspace(t, c.status, `{"status":1,"message":"no"}`)
		_, err := ws.Domains.Update(t.Context(), "d1", admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("mail.example.com")}})
		assert.ErrorIs(t, err, c.want)
		var apiErr *workflow.APIError
		assert.True(t, errors.As(err, &apiErr))
	}
	// A success without the domain is no domain.
	ws, _ := newMockWorkspace(t, 201, "")
	_, err := ws.Domains.Create(t.Context(), admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("mail.example.com")}})
	assert.ErrorIs(t, err, workflow.ErrUnexpectedResponse)
}

// Every admin model reads JSON by one rule: null leaves the value as it
// was, and a member of the wrong type is an error that leaves it untouched
// (no half-read value), with encoding/json as with json v2.
func TestModelsReadNullAndBadMembersAlike(t *testing.T) {
	tests := []struct {
		name string
		fill func() any // a non-empty value, as a pointer
		bad  string     // a body with a member of the wrong type after a good one
	}{
		{"Domain", func() any { return &admin.Domain{ID: admin.Some("old"), Name: admin.Some("kept")} }, `{"id":"new","name":5}`},
		{"View", func() any { return &admin.View{ID: admin.Some("old")} }, `{"id":"new","name":5}`},
		{"Aspect", func() any { return &admin.Aspect{ID: admin.Some("old"), Name: admin.Some("kept")} }, `{"id":"new","name":5}`},
		{"AspectCategory", func() any { return &admin.AspectCategory{ID: admin.Some("old"), Name: admin.Some("kept")} }, `{"id":"new","name":5}`},
		{"Agent", func() any { return &admin.Agent{ID: admin.Some("old"), Type: admin.Some("kept")} }, `{"id":"new","type":5}`},
		{"Skill", func() any { return &admin.Skill{ID: admin.Some("old"), Name: admin.Some("kept")} }, `{"id":"new","name":5}`},
		{"SearchTable", func() any { return &admin.SearchTable{ID: admin.Some("old"), Typename: admin.Some("kept")} }, `{"id":"new","__typename":5}`},
		{"SearchTableField", func() any { return &admin.SearchTableField{ID: admin.Some("old"), Name: admin.Some("kept")} }, `{"id":"new","name":5}`},
		{"VectorIndex", func() any {
			return &admin.VectorIndex{Field: admin.Some(admin.SearchTableField{ID: admin.Some("old")})}
		}, `{"field":{"id":"new"},"aiProviderConnector":5}`},
		{"ConnectorRef", func() any { return &admin.ConnectorRef{ID: admin.Some("old")} }, `{"zz":"new","id":5}`},
		{"Table", func() any { return &admin.Table{ID: admin.Some("old"), Name: admin.Some("kept")} }, `{"id":"new","name":5}`},
		{"TableField", func() any { return &admin.TableField{ID: admin.Some("old"), Name: admin.Some("kept")} }, `{"id":"new","name":5}`},
		{"TableCalculation", func() any { return &admin.TableCalculation{Text: admin.Some("old")} }, `{"zz":"new","text":5}`},
		{"TableJoin", func() any { return &admin.TableJoin{ID: admin.Some("old"), ClientHandle: admin.Some("kept")} }, `{"id":"new","clientHandle":5}`},
		{"TableJoinFields", func() any { return &admin.TableJoinFields{ID: admin.Some("old"), ClientHandle: admin.Some("kept")} }, `{"id":"new","clientHandle":5}`},
		{"TableDataView", func() any { return &admin.TableDataView{ID: admin.Some("old"), ClientHandle: admin.Some("kept")} }, `{"id":"new","clientHandle":5}`},
		{"ViewAgent", func() any { return &admin.ViewAgent{ID: admin.Some("old")} }, `{"zz":"new","id":5}`},
		{"ViewShare", func() any { return &admin.ViewShare{Users: admin.Some([]workflow.User{{ID: "old"}})} }, `{"groups":[],"users":5}`},
	}
	for _, tt := range tests {
		for lib, unmarshal := range map[string]func([]byte, any) error{
			"encoding/json": stdjson.Unmarshal,
			"json v2":       func(b []byte, v any) error { return json.Unmarshal(b, v) },
		} {
			t.Run(tt.name+" with "+lib, func(t *testing.T) {
				v := tt.fill()
				require.NoError(t, unmarshal([]byte(`null`), v))
				assert.Equal(t, tt.fill(), v, "null leaves the value as it was")
				require.Error(t, unmarshal([]byte(tt.bad), v))
				assert.Equal(t, tt.fill(), v, "a bad member leaves the value untouched")
			})
		}
	}
}

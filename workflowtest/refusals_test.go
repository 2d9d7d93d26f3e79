package workflowtest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// Bodies that a fuzzer from outside found accepted, or stored and then
// served in replies that break the published response schemas: each is
// refused now, and leaves the server as it was.
func TestRefusedBodiesChangeNothing(t *testing.T) {
	a := newAPI(t)
	a.srv.SeedDemo()
	const u = "50000000-0000-4000-8000-00000000000a"
	res := a.do(http.MethodPost, "/tables", []byte(tableBody))
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	table := "/tables/" + tabID(1)
	join := `{"source":"` + tabID(1) + `","type":"LEFT","joinOn":[{"leftFieldId":"` + tabID(2) + `","rightFieldId":"` + tabID(2) + `"}]}`
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, table+"/joins", []byte(join)).status)
	aspect := "/aspects/" + u
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, aspect+"/search-tables", []byte(`{"attributeFieldIds":[],"duration":"DAYS","targetLag":1}`)).status)
	search := aspect + "/search-tables/" + seqUUID(uuidSearchTables, 1)
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/elements", map[string]any{"name": "Gear", "categoryId": u}).status)
	agent := a.do(http.MethodPost, "/apps/crm-accounts/agents", []byte(`{"agent":{"elementum":{"name":"A"}}}`))
	require.Equal(t, http.StatusCreated, agent.status)
	skill := a.do(http.MethodPost, "/apps/crm-accounts/skills", []byte(`{"skill":{"name":"S"}}`))
	require.Equal(t, http.StatusCreated, skill.status)
	var agentID, skillID struct{ ID string }
	agent.decode(&agentID)
	skill.decode(&skillID)

	state := func() string {
		var b strings.Builder
		for _, p := range []string{"/tables", "/apps/crm-accounts/views", "/apps/crm-accounts/agents", "/apps/crm-accounts/skills", search, "/elements/gear"} {
			b.Write(a.get(p).body)
		}
		return b.String()
	}
	before := state()
	body := func(tmpl string, args ...string) []byte {
		return []byte(strings.NewReplacer(append([]string{"TABLE", tabID(1), "FIELD", tabID(2)}, args...)...).Replace(tmpl))
	}
	create := `{"name":"T","handle":"H","source":"TABLE","categoryId":"` + u + `","fields":[],%s}`
	for _, tc := range []struct {
		name, method, path string
		body               []byte
		want               string
	}{
		// Values of the wrong type, stored and served before.
		{"table filter null", "POST", "/tables", body(strings.Replace(create, "%s", `"filter":null`, 1)), "invalid /filter: must be an object, not null"},
		{"table orderBy a number", "POST", "/tables", body(strings.Replace(create, "%s", `"orderBy":5`, 1)), "invalid /orderBy: must be an object"},
		{"table limit a string", "POST", "/tables", body(strings.Replace(create, "%s", `"limit":"ten"`, 1)), "invalid /limit: must be an object"},
		{"join filter null", "POST", table + "/joins", body(strings.Replace(join, `]}`, `],"filter":null}`, 1)), "invalid /filter: must be an object, not null"},
		{"kanban members null", "PUT", "/apps/crm-accounts/views/by-tier",
			[]byte(`{"view":{"kanban":{"name":null,"allowRecordCreation":null,"rows":null,"columns":null}}}`), "invalid /view/kanban/allowRecordCreation: must be a boolean, not null"},
		{"kanban name null", "PUT", "/apps/crm-accounts/views/by-tier", []byte(`{"view":{"kanban":{"name":null}}}`), "invalid /view/kanban/name: must be a string, not null"},
		{"agent settings null", "POST", "/apps/crm-accounts/agents",
			[]byte(`{"agent":{"elementum":{"name":null,"maxLength":null,"temperature":null,"reasoningEffort":null}}}`), "invalid /agent/elementum/maxLength: must be an integer, not null"},
		{"attribute field not a UUID", "POST", aspect + "/search-tables", []byte(`{"attributeFieldIds":["not-a-uuid"],"duration":"DAYS","targetLag":1}`), "invalid /attributeFieldIds/0: must be a UUID"},
		{"text index field empty", "POST", aspect + "/search-tables", []byte(`{"attributeFieldIds":[],"textIndexFieldIds":[""],"duration":"DAYS","targetLag":1}`), "invalid /textIndexFieldIds/0: must be a UUID"},
		{"legacy field not a UUID", "POST", aspect + "/search-tables", []byte(`{"attributeFieldIds":[],"fieldId":"x","duration":"DAYS","targetLag":1}`), "invalid /fieldId: must be a UUID"},
		{"table source not a UUID", "POST", "/tables", body(strings.Replace(strings.Replace(create, "%s", `"color":"c"`, 1), "TABLE", "abc", 1)), "invalid /source: must be a UUID"},
		{"reference field not a UUID", "POST", "/tables", body(strings.Replace(strings.Replace(create, `"fields":[]`, `"fields":[{"reference":{"name":"R","field":"not-a-uuid"}}]`, 1), "%s", `"color":"c"`, 1)), "invalid /fields/0/reference/field: must be a UUID"},
		// null for a typed member was read as "not sent".
		{"table update null", "PUT", table, []byte(`{"name":null,"source":null}`), "invalid /name: must be a string, not null"},
		{"join update filter null", "PUT", table + "/joins/" + tabID(3), []byte(`{"filter":null}`), "invalid /filter: must be an object, not null"},
		{"search table lag null", "PUT", search, []byte(`{"snowflake":{"targetLag":null}}`), "invalid /snowflake/targetLag: must be an integer, not null"},
		{"search table duration null", "PUT", search, []byte(`{"snowflake":{"duration":null}}`), "invalid /snowflake/duration: must be a string, not null"},
		{"view share users null", "PUT", "/apps/crm-accounts/views/by-tier", []byte(`{"view":{"kanban":{}},"share":{"users":null}}`), "invalid /share/users: must be an array, not null"},
		{"element name null", "PUT", "/elements/gear", []byte(`{"name":null}`), "invalid /name: must be a string, not null"},
		{"agent update setting null", "PUT", "/apps/crm-accounts/agents/" + agentID.ID, []byte(`{"agent":{"elementum":{"temperature":null}}}`), "invalid /agent/elementum/temperature: must be a number, not null"},
		{"skill member null", "PUT", "/apps/crm-accounts/skills/" + skillID.ID, []byte(`{"skill":{"instructions":null}}`), "invalid /skill/instructions: must be a string, not null"},
		// null array items were stored and echoed.
		{"skill tools null item", "POST", "/apps/crm-accounts/skills", []byte(`{"skill":{"name":"S"},"tools":[null]}`), "invalid /tools/0: must be an object, not null"},
		{"agent tools null item", "POST", "/apps/crm-accounts/agents", []byte(`{"agent":{"elementum":{}},"tools":[null]}`), "invalid /tools/0: must be an object, not null"},
		{"agent a2aSkills null item", "PUT", "/apps/crm-accounts/agents/" + agentID.ID, []byte(`{"agent":{"elementum":{}},"a2aSkills":[null]}`), "invalid /a2aSkills/0: must be an object, not null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.t = t
			assert.Equal(t, tc.want, expectError(t, a.do(tc.method, tc.path, tc.body), http.StatusBadRequest))
		})
	}
	a.t = t
	assert.Equal(t, before, state(), "nothing of a refused request is stored")
}

// A rule broken by a well-formed body names the member and the rule; it
// is no "malformed body".
func TestBrokenRuleIsNotMalformed(t *testing.T) {
	a := newAPI(t)
	a.srv.SeedDemo()
	msg := expectError(t, a.do(http.MethodPut, "/apps/crm-accounts/views/by-tier", []byte(`{"view":{"kanban":{"columns":["Name"]}}}`)), http.StatusUnprocessableEntity)
	assert.Equal(t, "invalid /view/kanban/columns/0: must be a UUID", msg)
	msg = expectError(t, a.do(http.MethodPut, "/apps/crm-accounts/views/by-tier", []byte(`{"view":{"kanban":{"agentId":"Bot"}}}`)), http.StatusUnprocessableEntity)
	assert.Equal(t, "invalid /view/kanban/agentId: must be a UUID", msg)
	assert.Equal(t, "malformed body: is not JSON", expectError(t, a.do(http.MethodPut, "/apps/crm-accounts/views/by-tier", []byte(`{"view":`)), http.StatusBadRequest))
}

// An app composed through the API is usable at once, as one Define made.
func TestComposedAppIsUsable(t *testing.T) {
	a := newAPI(t)
	assert.Equal(t, "invalid /namespace: is required", expectError(t, a.do(http.MethodPost, "/aspects/compose", []byte(`{}`)), http.StatusUnprocessableEntity))
	res := a.do(http.MethodPost, "/aspects/compose", []byte(`{"namespace":"hr-onboarding","name":"HR onboarding"}`))
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)

	assert.Equal(t, "[]\n", string(a.get("/apps/hr-onboarding/automations").body))
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/apps/hr-onboarding/automations", []byte(`{"name":"Welcome"}`)).status)
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/apps/hr-onboarding/views", []byte(`{"handle":"all","view":{"list":{}}}`)).status)
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/apps/hr-onboarding/agents", []byte(`{"agent":{"elementum":{"name":"Buddy"}}}`)).status)
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/apps/hr-onboarding/skills", []byte(`{"skill":{"name":"Answer"}}`)).status)
	for _, p := range []string{"/apps/hr-onboarding/views", "/apps/hr-onboarding/agents", "/apps/hr-onboarding/skills"} {
		var page struct{ Total int }
		a.get(p).decode(&page)
		assert.Equal(t, 1, page.Total, p)
	}
	require.Equal(t, http.StatusCreated, a.do(http.MethodPost, "/apps/hr-onboarding", map[string]string{"Name": "Ann"}).status)
	assert.Len(t, a.srv.Automations(workflow.Apps, "hr-onboarding"), 1)
}

// Undeclared members are refused with WithStrictBodies, except where the
// document keeps them.
func TestStrictBodies(t *testing.T) {
	a := newAPI(t, WithStrictBodies())
	a.srv.Define(workflow.Apps, "crm")
	assert.Equal(t, "invalid /colour: is not a member of GroupRequest (strict)",
		expectError(t, a.do(http.MethodPost, "/groups", []byte(`{"name":"G","colour":"red"}`)), http.StatusBadRequest))
	assert.Equal(t, "invalid /view/grid: is not a member of AspectViewInput (strict)",
		expectError(t, a.do(http.MethodPost, "/apps/crm/views", []byte(`{"handle":"h","view":{"list":{},"grid":{}}}`)), http.StatusBadRequest))
	res := a.do(http.MethodPost, "/apps/crm/views", []byte(`{"handle":"h","view":{"list":{"pageSize":null,"filter":{"Tier":"Gold"}}}}`))
	require.Equal(t, http.StatusCreated, res.status, "a view variant keeps its members: %s", res.body)
	var v map[string]json.RawMessage
	res.decode(&v)
	assert.Equal(t, "null", string(v["pageSize"]))
	assert.JSONEq(t, `{"Tier":"Gold"}`, string(v["filter"]))

	loose := newAPI(t)
	assert.Equal(t, http.StatusCreated, loose.do(http.MethodPost, "/groups", []byte(`{"name":"G","colour":"red"}`)).status, "without the option the member is dropped")
	assert.NotContains(t, string(loose.get("/groups").body), "colour")
}

// The token endpoint takes the published JSON AccessTokenRequest besides
// the form, and refuses credentials sent two ways at once.
func TestTokenRequestForms(t *testing.T) {
	a := newAPI(t)
	id, secret := a.srv.Credentials()
	send := func(ct, body string, basic bool) *result {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, a.srv.AuthURL()+"/oauth/token", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", ct)
		if basic {
			req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
		}
		return a.send(req)
	}
	creds, err := json.Marshal(map[string]string{"client_id": id, "client_secret": secret, "grant_type": "client_credentials"})
	require.NoError(t, err)

	res := send("application/json", string(creds), false)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	res.decode(&tok)
	assert.NotEmpty(t, tok.AccessToken)
	a.token = tok.AccessToken
	assert.Equal(t, http.StatusOK, a.get("/users").status, "the token works")

	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}}.Encode()
	assert.Equal(t, http.StatusOK, send("application/x-www-form-urlencoded", form, false).status, "credentials in the form body")

	for name, res := range map[string]*result{
		"JSON and Basic": send("application/json", string(creds), true),
		"form and Basic": send("application/x-www-form-urlencoded", form, true),
	} {
		assert.Equal(t, http.StatusBadRequest, res.status, name)
		assert.Contains(t, string(res.body), `"error":"invalid_request"`, name)
		assert.Contains(t, res.message(), "both the Basic header and the body", name)
	}
	res = send("application/json", `{"client_id":"`+id+`","grant_type":"client_credentials"}`, false)
	assert.Equal(t, http.StatusBadRequest, res.status)
	assert.Equal(t, "invalid /client_secret: is required", res.message())
	res = send("application/json", `{"grant_type":"client_credentials"}`, false)
	assert.Equal(t, http.StatusBadRequest, res.status)
	res = send("application/json", string(creds[:len(creds)-1])+`,"client_secret":"wrong"}`, false)
	assert.Equal(t, http.StatusUnauthorized, res.status, "a JSON object's last member wins, and it is wrong")
	assert.Equal(t, http.StatusBadRequest, send("text/plain", "x", true).status)
}

package wire_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
	"github.com/seed-a15e58aa/workflow-go/internal/wire/internal/compile"
)

// The embedded form is what the generator makes of the contract document
// now: run go generate ./internal/wire after changing the document.
func TestEmbeddedFormIsTheDocuments(t *testing.T) {
	doc, err := os.ReadFile("../contract/openapi.yaml")
	require.NoError(t, err)
	f, err := compile.Compile(doc)
	require.NoError(t, err)
	want, err := f.Marshal()
	require.NoError(t, err)
	got, err := os.ReadFile("schemas.json")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "schemas.json is stale: run go generate ./internal/wire")
}

func TestCheck(t *testing.T) {
	const u = "00000000-0000-4000-8000-000000000001"
	tests := []struct {
		name, body string
		op         op.ID
		ptr, rule  string // "" rule: no problem
		prose      bool
		strict     bool
		published  bool
	}{
		{name: "valid", op: "createUser", body: `{"email":"a@example.com","firstName":"A","lastName":"B"}`},
		{name: "not JSON", op: "createUser", body: `{"email":`, rule: "is not JSON"},
		{name: "trailing data", op: "createUser", body: `{} {}`, rule: "has data after the JSON value"},
		{name: "trailing bytes", op: "createUser", body: `{} }`, rule: "has data after the JSON value"},
		{name: "trailing word", op: "createUser", body: "{}\n x", rule: "has data after the JSON value"},
		{name: "trailing space only", op: "createUser", body: "{\"email\":\"a@example.com\",\"firstName\":\"A\",\"lastName\":\"B\"} \n", rule: ""},
		{name: "body null", op: "createUser", body: `null`, rule: "must be an object (the operation's body)"},
		{name: "body an array", op: "createUser", body: `[]`, rule: "must be an object (the operation's body)"},
		{name: "missing required", op: "createUser", body: `{"email":"a@example.com","firstName":"A"}`, ptr: "/lastName", rule: "is required"},
		{name: "null member", op: "createUser", body: `{"email":"a@example.com","firstName":null,"lastName":"B"}`, ptr: "/firstName", rule: "must be a string, not null"},
		{name: "wrong type", op: "createUser", body: `{"email":"a@example.com","firstName":"A","lastName":"B","neverNotify":"yes"}`, ptr: "/neverNotify", rule: "must be a boolean"},
		{name: "bad e-mail", op: "createUser", body: `{"email":"Jane <a@example.com>","firstName":"A","lastName":"B"}`, ptr: "/email", rule: "must be an e-mail address"},
		{name: "unknown member allowed", op: "createUser", body: `{"email":"a@example.com","firstName":"A","lastName":"B","x":null}`},
		{name: "unknown member strict", op: "createUser", strict: true, body: `{"email":"a@example.com","firstName":"A","lastName":"B","x":1}`, ptr: "/x", rule: "is not a member of CreateUserInput (strict)"},
		{name: "bad uuid item", op: "addUsersToGroup", body: `{"userIds":["` + u + `","not-a-uuid"]}`, ptr: "/userIds/1", rule: "must be a UUID"},
		{name: "null item", op: "addUsersToGroup", body: `{"userIds":[null]}`, ptr: "/userIds/0", rule: "must be a string, not null"},
		{name: "enum", op: "createSnowflakeSearchTable", body: `{"attributeFieldIds":[],"duration":"WEEKS","targetLag":1}`, ptr: "/duration", rule: "must be one of DAYS, HOURS, MINUTES, SECONDS"},
		{name: "int32 overflow", op: "createSnowflakeSearchTable", body: `{"attributeFieldIds":[],"duration":"DAYS","targetLag":2147483648}`, ptr: "/targetLag", rule: "must be an integer within int32"},
		{name: "int32 edge", op: "createSnowflakeSearchTable", body: `{"attributeFieldIds":[],"duration":"DAYS","targetLag":2147483647}`},
		{name: "fraction", op: "createSnowflakeSearchTable", body: `{"attributeFieldIds":[],"duration":"DAYS","targetLag":1.5}`, ptr: "/targetLag", rule: "must be an integer"},
		{name: "integer written with a fraction", op: "createSnowflakeSearchTable", body: `{"attributeFieldIds":[],"duration":"DAYS","targetLag":1.0}`, ptr: "/targetLag", rule: "must be an integer"},
		{name: "integer written with an exponent", op: "createSnowflakeSearchTable", body: `{"attributeFieldIds":[],"duration":"DAYS","targetLag":1e3}`, ptr: "/targetLag", rule: "must be an integer"},
		{name: "negative int32 edge", op: "createSnowflakeSearchTable", body: `{"attributeFieldIds":[],"duration":"DAYS","targetLag":-2147483648}`},
		{name: "int32 overflow at 2^63", op: "createSnowflakeSearchTable", body: `{"attributeFieldIds":[],"duration":"DAYS","targetLag":9223372036854775808}`, ptr: "/targetLag", rule: "must be an integer within int32"},
		{name: "int32 overflow beyond float64", op: "createSnowflakeSearchTable", body: `{"attributeFieldIds":[],"duration":"DAYS","targetLag":1` + strings.Repeat("0", 400) + `}`, ptr: "/targetLag", rule: "must be an integer within int32"},
		{name: "negative int32 overflow", op: "createSnowflakeSearchTable", body: `{"attributeFieldIds":[],"duration":"DAYS","targetLag":-2147483649}`, ptr: "/targetLag", rule: "must be an integer within int32"},
		{name: "opaque object takes any member, strict", op: "createTable", strict: true, body: `{"name":"T","handle":"H","source":"` + u + `","categoryId":"` + u + `","fields":[],"filter":{"x":null}}`},
		{name: "opaque object must be an object", op: "createTableJoin", body: `{"source":"` + u + `","type":"LEFT","joinOn":[],"filter":null}`, ptr: "/filter", rule: "must be an object, not null"},
		{name: "record value", op: "createRecord", body: `{"Title":5}`, ptr: "/Title", rule: "must be a string"},
		{name: "pointer escapes", op: "createRecord", body: `{"a/b~c":null}`, ptr: "/a~1b~0c", rule: "must be a string, not null"},
		{name: "exactly one: none", op: "createOrganizationDomain", body: `{}`, rule: "must have exactly one of emailDomain, managedDomain (got none)", prose: true},
		{name: "exactly one: two", op: "createOrganizationDomain", body: `{"emailDomain":{},"managedDomain":{}}`, rule: "must have exactly one of emailDomain, managedDomain (got emailDomain, managedDomain)", prose: true},
		{name: "schema before prose", op: "createOrganizationDomain", body: `{"emailDomain":{"domain":1},"managedDomain":{}}`, ptr: "/emailDomain/domain", rule: "must be a string"},
		{name: "mutually exclusive", op: "createOrganizationDomain", body: `{"managedDomain":{"sso":true,"selfRegistration":true}}`, ptr: "/managedDomain", rule: "sso and selfRegistration are mutually exclusive", prose: true},
		{name: "mutually exclusive, one false", op: "createOrganizationDomain", body: `{"managedDomain":{"sso":true,"selfRegistration":false}}`},
		{name: "nested exactly one", op: "createView", body: `{"handle":"h","view":{"list":{},"kanban":{}}}`, ptr: "/view", rule: "must have exactly one of agent, calendar, dashboard, kanban, list (got kanban, list)", prose: true},
		{name: "passthrough null", op: "createView", body: `{"handle":"h","view":{"list":{"whatever":null}}}`},
		{name: "project rule: typed passthrough", op: "createView", body: `{"handle":"h","view":{"kanban":{"rows":null}}}`, ptr: "/view/kanban/rows", rule: "must be an integer, not null", prose: true},
		{name: "project rule item", op: "createView", body: `{"handle":"h","view":{"list":{"columns":["Name"]}}}`, ptr: "/view/list/columns/0", rule: "must be a UUID", prose: true},
		{name: "published member in passthrough", op: "createView", body: `{"handle":"h","view":{"kanban":{"name":null}}}`, ptr: "/view/kanban/name", rule: "must be a string, not null"},
		{name: "project rule: required name", op: "createAutomation", body: `{"trigger":{}}`, ptr: "/name", rule: "is required", prose: true},
		{name: "project rule: empty name", op: "createAutomation", body: `{"name":""}`, ptr: "/name", rule: "must not be empty", prose: true},
		{name: "project rule: a name of one character", op: "createAutomation", body: `{"name":"n"}`},
		{name: "validate takes any object", op: "validateAutomation", body: `{}`},
		{name: "compose needs namespace", op: "composeApp", body: `{}`, ptr: "/namespace", rule: "is required", prose: true},
		{name: "agent subtype null member", op: "createAgent", body: `{"agent":{"elementum":{"temperature":null}}}`, ptr: "/agent/elementum/temperature", rule: "must be a number, not null"},
		{name: "tools null item", op: "createAgent", body: `{"agent":{"elementum":{}},"tools":[null]}`, ptr: "/tools/0", rule: "must be an object, not null"},
		{name: "tools members open", op: "createAgent", strict: true, body: `{"agent":{"elementum":{"voiceConfig":null}},"tools":[{"x":null}]}`},
		{name: "skill allOf", op: "createSkill", body: `{"skill":{"status":"DONE","name":"n"}}`, ptr: "/skill/status", rule: "must be one of ACTIVE, DRAFT, INACTIVE"},
		{name: "skill name required", op: "createSkill", body: `{"skill":{}}`, ptr: "/skill/name", rule: "is required"},
		{name: "published: project rules skipped", op: "createAutomation", published: true, body: `{"name":"","trigger":{}}`},
		{name: "published: a project rule hides no prose rule", op: "createView", published: true, body: `{"handle":"h","view":{"list":{"columns":["Name"]},"kanban":{}}}`, ptr: "/view", rule: "must have exactly one of agent, calendar, dashboard, kanban, list (got kanban, list)", prose: true},
		{name: "published: a project rule hides no type", op: "createView", published: true, body: `{"handle":"h","view":{"list":{"columns":["Name"],"filter":5}}}`, ptr: "/view/list/filter", rule: "must be an object"},
		{name: "published: a missing project member hides no type", op: "composeApp", published: true, body: `{}`},
		{name: "token JSON", op: "requestAccessToken", body: `{"client_id":"c","client_secret":"s","grant_type":"password"}`, ptr: "/grant_type", rule: "must be one of client_credentials"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := wire.Check(tt.op, []byte(tt.body), wire.Options{Strict: tt.strict, Published: tt.published})
			if tt.rule == "" {
				require.NoError(t, err)
				return
			}
			var p *wire.Problem
			require.True(t, errors.As(err, &p), "%v", err)
			assert.Equal(t, tt.ptr, p.Pointer)
			assert.Equal(t, tt.rule, p.Rule)
			assert.Equal(t, tt.prose, p.Prose)
			if tt.ptr == "" {
				assert.Equal(t, tt.rule, p.Error())
			} else {
				assert.Equal(t, tt.ptr+": "+tt.rule, p.Error())
			}
		})
	}
}

func TestCheckUnknownOperation(t *testing.T) {
	err := wire.Check("listUsers", []byte(`{}`), wire.Options{})
	require.Error(t, err)
	var p *wire.Problem
	assert.False(t, errors.As(err, &p))
	assert.False(t, wire.Takes("listUsers"))
	assert.True(t, wire.Takes("createUser"))
}

func TestMalformed(t *testing.T) {
	for body, want := range map[string]bool{`[`: true, `5`: true, `{"email":1}`: false, `{}`: false} {
		var p *wire.Problem
		if errors.As(wire.Check("createUser", []byte(body), wire.Options{}), &p) {
			assert.Equal(t, want, p.Malformed(), body)
		}
	}
}

func TestIsUUID(t *testing.T) {
	const base = "00000000-0000-4000-8000-000000000000"
	// at puts c at the last digit of base.
	at := func(c string) string { return base[:35] + c }
	tests := []struct {
		s    string
		want bool
	}{
		{base, true},
		{"01234567-89ab-cdef-ABCD-EF0123456789", true},
		{at("9"), true}, {at("a"), true}, {at("f"), true}, {at("A"), true}, {at("F"), true},
		// the neighbours of each range of digits, in ASCII
		{at("/"), false}, {at(":"), false}, {at("`"), false}, {at("g"), false}, {at("@"), false}, {at("G"), false},
		{"", false},
		{"not-a-uuid", false},
		{base[:35], false},
		{base + "0", false},
		{"00000000x0000-4000-8000-000000000001", false},
		{"000000000-000-4000-8000-000000000001", false},
		{"00000000-0000-4000-8000-0000-0000000", false},
		{"g0000000-0000-4000-8000-000000000001", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, wire.IsUUID(tt.s), "%q", tt.s)
	}
}

func TestCheckFormat(t *testing.T) {
	tests := []struct {
		format, s string
		want      string // the rule; "" holds
	}{
		{"uuid", "00000000-0000-4000-8000-00000000000a", ""},
		{"uuid", "00000000-0000-4000-8000-00000000000g", "must be a UUID"},
		{"email", "jane@example.com", ""},
		{"email", "Jane <jane@example.com>", "must be an e-mail address"},
		{"email", "jane", "must be an e-mail address"},
		{"date-time", "2026-02-03T10:30:00Z", ""},
		{"date-time", "2026-02-03T10:30:00.5-07:00", ""},
		{"date-time", "2026-02-03 10:30:00", "must be an RFC 3339 date-time"},
		{"date-time", "2026-02-03", "must be an RFC 3339 date-time"},
		{"int32", "not checked here", ""},
		{"", "anything", ""},
	}
	for _, tt := range tests {
		err := wire.CheckFormat(tt.format, tt.s)
		if tt.want == "" {
			assert.NoError(t, err, "%s %q", tt.format, tt.s)
			continue
		}
		assert.EqualError(t, err, tt.want, "%s %q", tt.format, tt.s)
	}
}

// Every operation whose entry in package op names a JSON body schema has
// that schema compiled, and no other operation takes a JSON body.
func TestEveryBodyIsCompiled(t *testing.T) {
	for _, o := range op.All() {
		assert.Equal(t, o.Body != "", wire.Takes(o.ID), o.ID)
	}
	assert.False(t, wire.Takes("noSuchOperation"))
}

package workflowtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
)

// The sweep: driven by the contract document, for every operation of the
// API that takes a JSON body, a valid body is accepted; every mutation of
// every member the schema declares, down to nested ones (null, a value of
// the wrong JSON type, a malformed uuid or e-mail address, an item null or
// of the wrong type, a value outside an enum, a required member left out,
// an integer beyond int32), is refused with 400 (422 for the members the
// document marks as the project's rules), and nothing changes on the
// server; an unknown member is accepted and served back exactly where the
// document keeps it (additionalProperties: true, Passthrough and opaque
// objects).

// sweepCase is one operation of the sweep: its route and a valid body; n
// makes the values that must be unique differ between calls.
type sweepCase struct {
	method, path string
	body         func(n int) string
}

// sweepWorld seeds a server with one of everything the operations address.
func sweepWorld(t *testing.T) (*api, map[string]sweepCase) {
	a := newAPI(t)
	s := a.srv
	const u = "50000000-0000-4000-8000-00000000000a"
	s.Define(workflow.Tasks, "it")
	s.Seed(workflow.Tasks, "it", workflow.Record{"Title": "Task"})
	parts := make([]workflow.Record, 60)
	for i := range parts {
		parts[i] = workflow.Record{"Name": "Part " + strconv.Itoa(i)}
	}
	partIDs := s.Seed(workflow.Elements, "parts", parts...)
	s.Define(workflow.Apps, "crm")
	g := s.AddGroup("Support", DefaultUserID)
	dg := s.AddDynamicGroup("Staff", "example.com")
	created := func(method, path, body string) map[string]any {
		res := a.do(method, path, []byte(body))
		require.Less(t, res.status, 300, "%s %s: %s", method, path, res.body)
		var m map[string]any
		res.decode(&m)
		return m
	}
	id := func(m map[string]any) string { return m["id"].(string) }
	domain := id(created(http.MethodPost, "/domains", `{"emailDomain":{"domain":"mail.example.com"}}`))
	auto := id(created(http.MethodPost, "/apps/crm/automations", `{"name":"A"}`))
	created(http.MethodPost, "/apps/crm/views", `{"handle":"v","view":{"list":{}}}`)
	created(http.MethodPost, "/elements", `{"name":"Gear","namespace":"gear","categoryId":"`+u+`"}`)
	app := id(created(http.MethodPost, "/aspects/compose", `{"namespace":"hr"}`))
	flow := id(created(http.MethodPost, "/flows/create", `{"name":"F"}`))
	agent := id(created(http.MethodPost, "/apps/crm/agents", `{"agent":{"elementum":{"name":"A"}}}`))
	skill := id(created(http.MethodPost, "/apps/crm/skills", `{"skill":{"name":"S"}}`))
	table := created(http.MethodPost, "/tables", tableBody)
	tbl := id(table)
	field := table["fields"].([]any)[0].(map[string]any)["id"].(string)
	self := `{"source":"` + tbl + `","type":"LEFT","joinOn":[{"leftFieldId":"` + field + `","rightFieldId":"` + field + `"}]}`
	created(http.MethodPost, "/tables/"+tbl+"/joins", self) // tabID(3), updated by updateTableJoin
	created(http.MethodPost, "/tables/"+tbl+"/joins", self) // tabID(5), whose pair tabID(6) takes the mappings
	pair := tabID(6)
	aspect := "/aspects/" + u
	search := id(created(http.MethodPost, aspect+"/search-tables", `{"attributeFieldIds":[],"duration":"DAYS","targetLag":1}`))

	letters := func(n int) string { return string(rune('a'+n/26%26)) + string(rune('a'+n%26)) }
	fixed := func(body string) func(int) string { return func(int) string { return body } }
	variant := `{"name":"K","allowRecordCreation":true,"filter":{},"sort":{},"columns":["` + u + `"],"density":"compact","rows":10,` +
		`"displayByField":"` + u + `","allowedFilterFields":["` + u + `"],"agentId":"` + u + `"}`
	share := `{"users":["` + DefaultUserEmail + `"],"groups":["Support"]}`
	settings := `{"name":"A","description":"d","instructions":"i","firstMessage":"f","maxLength":100,"reasoningEffort":"LOW",` +
		`"temperature":0.5,"avatarAttachmentId":"` + u + `","aiProviderConnectorId":"` + u + `"}`
	skillIn := `{"name":"S","type":"CUSTOM","status":"ACTIVE","description":"d","instructions":"i","properties":{},` +
		`"discoveryProperties":{"routingPriority":1,"positiveKeywords":["a"],"negativeKeywords":["b"],"aliases":["c"],"exampleUtterances":["d"]}}`
	mapping := `{"cloudLinkId":"` + u + `","snowflake":{"databaseName":"D","schemaName":"S","tableName":"T"},` +
		`"databricksMapping":{"databaseName":"D","schemaName":"S","tableName":"T"},"bigQueryMapping":{"datasetName":"D","tableName":"T"}}`
	fields := `[{"cloud":{"name":"C","snowflake":{"columnName":"C","type":"TEXT"},"bigQuery":{"columnName":"C","type":"TEXT"},"tags":["t"]}},` +
		`{"reference":{"name":"R","field":"` + u + `","expanded":"USER_EMAIL","aggregation":"COUNT","tags":["t"]}},` +
		`{"calculation":{"name":"K","text":"1","tags":["t"]}}]`
	join := `{"source":"` + tbl + `","type":"LEFT","joinOn":[{"leftFieldId":"` + field + `","rightFieldId":"` + field + `"}],"filter":{}}`
	element := func(n int) string {
		return `{"name":"E","namespace":"el` + letters(n) + `","handle":"H","categoryId":"` + u + `","description":"d","icon":"i","color":"c",` +
			`"readOnly":false,"allowForwardedEmailIngestion":true,"allowAnonymousEmailCreation":false,"allowInlineImageIngestion":true,` +
			`"workflowValuePerAutomation":1.5,"recordCreateTypes":{"agents":true,"email":true,"services":true,"api":true,"automations":true,"manual":true},` +
			`"snowflakeWarehouse":"W","cloudLinkId":"` + u + `","cloudOptions":{"snowflake":{"hybridTable":true}},` +
			`"fields":[{"name":"F","type":"TEXT","description":"d","columnName":"C","required":true,"requiredOnClose":false,"showOnCreate":true,` +
			`"lockOnCreate":false,"tags":["t"],"semanticTags":["s"]}]}`
	}
	cases := map[string]sweepCase{
		"createRecord":             {http.MethodPost, "/tasks/it", fixed(`{"Title":"T","Status":"Open"}`)},
		"updateRecord":             {http.MethodPut, "/tasks/it/1", fixed(`{"Title":"U","Status":"Open"}`)},
		"createRecordRelatedItems": {http.MethodPost, "/tasks/it/1/related-items", func(n int) string { return `{"id":"` + partIDs[n] + `","alias":"parts"}` }},
		"createRecordLink":         {http.MethodPost, "/tasks/it/1/attachments/url-links", fixed(`{"url":"https://example.com","description":"d"}`)},
		"createRecordWatchers":     {http.MethodPost, "/tasks/it/1/watchers", fixed(`{"users":["` + DefaultUserEmail + `"]}`)},
		"deleteRecordWatchers":     {http.MethodDelete, "/tasks/it/1/watchers", fixed(`{"users":["` + DefaultUserEmail + `"]}`)},
		"createUser": {http.MethodPost, "/users", func(n int) string {
			return `{"email":"u` + letters(n) + `@example.com","firstName":"F","lastName":"L","jobTitle":"J","neverNotify":true}`
		}},
		"createGroup": {http.MethodPost, "/groups", fixed(`{"name":"G","assignable":true,"watchable":true,"mentionable":true,"approver":false,` +
			`"dynamic":false,"dataAccess":false,"hidden":false,"tags":["t"],"userIds":["` + DefaultUserID + `"]}`)},
		"updateGroup":            {http.MethodPut, "/groups/" + g, fixed(`{"name":"Support","tags":["t"],"userIds":["` + DefaultUserID + `"],"watchable":true}`)},
		"addUsersToGroup":        {http.MethodPost, "/groups/" + g + "/users", fixed(`{"userIds":["` + DefaultUserID + `"]}`)},
		"removeUsersFromGroup":   {http.MethodDelete, "/groups/" + g + "/users", fixed(`{"userIds":["` + DefaultUserID + `"]}`)},
		"addDomainsToGroup":      {http.MethodPost, "/groups/" + dg + "/domains", fixed(`{"domains":["example.com"]}`)},
		"removeDomainsFromGroup": {http.MethodDelete, "/groups/" + dg + "/domains", fixed(`{"domains":["example.org"]}`)},
		"createOrganizationDomain": {http.MethodPost, "/domains", func(n int) string {
			return `{"managedDomain":{"domain":"m` + letters(n) + `.example.com","name":"N","internal":true,"approved":true,` +
				`"startUrl":"https://sso.example.com","selfRegistration":false,"sso":true}}`
		}},
		"updateOrganizationDomain": {http.MethodPut, "/domains/" + domain, fixed(`{"emailDomain":{"domain":"mail.example.com"}}`)},
		"createAutomation":         {http.MethodPost, "/apps/crm/automations", fixed(`{"name":"A","triggers":[]}`)},
		"validateAutomation":       {http.MethodPost, "/apps/crm/automations/validate", fixed(`{"name":"A"}`)},
		"updateAutomation":         {http.MethodPut, "/apps/crm/automations/" + auto, fixed(`{"name":"B"}`)},
		"createView": {http.MethodPost, "/apps/crm/views", func(n int) string {
			return `{"handle":"h` + letters(n) + `","view":{"kanban":` + variant + `},"share":` + share + `}`
		}},
		"updateView":    {http.MethodPut, "/apps/crm/views/v", fixed(`{"view":{"list":` + variant + `},"share":` + share + `}`)},
		"createElement": {http.MethodPost, "/elements", element},
		"updateElement": {http.MethodPut, "/elements/gear", fixed(`{"name":"Gear","description":"d","icon":"i","color":"c","categoryId":"` + u + `",` +
			`"allowForwardedEmailIngestion":true,"allowAnonymousEmailCreation":true,"allowInlineImageIngestion":true,"workflowValuePerAutomation":2,` +
			`"recordCreateTypes":{"api":true}}`)},
		"composeApp":  {http.MethodPost, "/aspects/compose", func(n int) string { return `{"namespace":"app` + letters(n) + `","name":"A"}` }},
		"updateApp":   {http.MethodPut, "/aspects/compose/" + app, fixed(`{"namespace":"hr","name":"B"}`)},
		"createFlow":  {http.MethodPost, "/flows/create", fixed(`{"name":"F"}`)},
		"updateFlow":  {http.MethodPut, "/flows/" + flow, fixed(`{"name":"G"}`)},
		"createAgent": {http.MethodPost, "/apps/crm/agents", fixed(`{"agent":{"elementum":` + settings + `},"tools":[{"t":1}],"a2aSkills":[{"s":1}]}`)},
		"updateAgent": {http.MethodPut, "/apps/crm/agents/" + agent, fixed(`{"agent":{"elementum":` + settings + `},"tools":[{"t":1}],"a2aSkills":[{"s":1}]}`)},
		"createSkill": {http.MethodPost, "/apps/crm/skills", fixed(`{"skill":` + skillIn + `,"tools":[{}]}`)},
		"updateSkill": {http.MethodPut, "/apps/crm/skills/" + skill, fixed(`{"skill":` + skillIn + `,"tools":[{}]}`)},
		"createTable": {http.MethodPost, "/tables", func(n int) string {
			return `{"name":"T","handle":"H` + letters(n) + `","source":"` + tbl + `","categoryId":"` + u + `","description":"d","icon":"i","color":"c",` +
				`"filter":{},"orderBy":{},"limit":{},"fields":` + fields + `,"join":` + join + `,"joins":[` + join + `],"cloudMapping":` + mapping + `,` +
				`"dataView":{"snowflake":{"databaseName":"D","schemaName":"S","name":"N"}}}`
		}},
		"updateTable": {http.MethodPut, "/tables/" + tbl, fixed(`{"name":"Orders","description":"d","icon":"i","color":"c","source":"` + u + `","categoryId":"` + u + `",` +
			`"filter":{},"orderBy":{},"limit":{},"cloudMapping":` + mapping + `,"dataView":{"snowflake":{"databaseName":"D","schemaName":"S","name":"N"}},` +
			`"fields":{"updates":[{"id":"` + field + `","index":0,"field":{"cloud":{"name":"Status","snowflake":{"columnName":"S","type":"TEXT"},"tags":[]}}}],` +
			`"creates":[],"deletes":[]}}`)},
		"createTableJoin":        {http.MethodPost, "/tables/" + tbl + "/joins", fixed(join)},
		"updateTableJoin":        {http.MethodPut, "/tables/" + tbl + "/joins/" + tabID(3), fixed(join)},
		"createTableJoinMapping": {http.MethodPost, "/tables/" + tbl + "/join-fields/" + pair + "/mappings", func(n int) string { return `{"entries":[{"source":"s` + letters(n) + `","target":"t"}]}` }},
		"updateTableJoinMapping": {http.MethodPut, "/tables/" + tbl + "/join-fields/" + pair + "/mappings", fixed(`{"entries":[{"source":"a","target":"b"}]}`)},
		"deleteTableJoinMapping": {http.MethodDelete, "/tables/" + tbl + "/join-fields/" + pair + "/mappings", fixed(`{"entries":[{"source":"zz"}]}`)},
		"createSnowflakeSearchTable": {http.MethodPost, aspect + "/search-tables", fixed(`{"attributeFieldIds":["` + u + `"],"duration":"DAYS","targetLag":1,` +
			`"warehouse":"W","textIndexFieldIds":["` + u + `"],"vectorIndexes":[{"fieldId":"` + u + `","aiProviderConnectorId":"` + u + `"}],` +
			`"fieldId":"` + u + `","aiProviderConnectorId":"` + u + `"}`)},
		"createLinkedSearchTable": {http.MethodPost, aspect + "/linked-search-tables", func(n int) string {
			return `{"cloudLinkId":"` + u + `","database":"D","schema":"S","serviceName":"S` + letters(n) + `","warehouse":"W"}`
		}},
		"updateSearchTable": {http.MethodPut, aspect + "/search-tables/" + search, fixed(`{"snowflake":{"warehouse":"W","targetLag":2,"duration":"HOURS"}}`)},
	}
	return a, cases
}

// snapshot is everything the sweep's operations could change, as the API
// and the server's accessors show it.
func snapshot(a *api) string {
	var b strings.Builder
	for _, p := range []string{"/tasks/it/1", "/tasks/it", "/tasks/it/1/related-items", "/tasks/it/1/attachments", "/tasks/it/1/watchers",
		"/users", "/groups", "/apps/crm/automations", "/apps/crm/views", "/apps/crm/agents", "/apps/crm/skills", "/tables",
		"/elements/gear", "/apps/hr/automations"} {
		b.Write(a.get(p).body)
	}
	for _, d := range a.srv.OrganizationDomains() {
		fmt.Fprintf(&b, "%+v", d)
	}
	for _, id := range []uint64{1, 2, 3} {
		raw, _ := a.srv.SearchTableJSON(seqUUID(uuidSearchTables, id))
		b.Write(raw)
	}
	a.srv.mu.RLock()
	c := a.srv.st
	for _, o := range append(slices.Clone(c.apps.items), c.flows.items...) {
		b.Write(encodeJSON(o.body))
	}
	for _, e := range c.elements {
		b.Write(encodeJSON(e.Aspect))
	}
	a.srv.mu.RUnlock()
	return b.String()
}

// mutation is one change of a valid body, and the status it must get.
type mutation struct {
	what   string // e.g. "/view/kanban/rows: null"
	apply  func(body any) any
	status int
}

// mutations lists the mutations of value (a decoded valid body, or a
// part of it at ptr) that the schema s forbids. project says whether s
// is, or is inside, a member marked x-project-rule (422 instead of 400).
func mutations(s *openapi3.Schema, value any, ptr []string, project bool) []mutation {
	var out []mutation
	status := func(p bool) int {
		if p {
			return http.StatusUnprocessableEntity
		}
		return http.StatusBadRequest
	}
	props, required := members(s)
	obj, _ := value.(map[string]any)
	if obj == nil {
		return nil
	}
	keys := slices.Sorted(maps.Keys(props))
	if s.AdditionalProperties.Schema != nil { // a typed map (Record): the members the body has
		for k := range obj {
			props[k] = s.AdditionalProperties.Schema
		}
		keys = slices.Sorted(maps.Keys(props))
	}
	for _, k := range keys {
		ps := props[k].Value
		p := project || isProject(ps)
		at := append(slices.Clone(ptr), k)
		set := func(v any) func(any) any { return func(b any) any { return setAt(b, at, v) } }
		pointer := "/" + strings.Join(at, "/")
		out = append(out, mutation{pointer + ": null", set(nil), status(p)})
		out = append(out, mutation{pointer + ": wrong type", set(wrongType(ps)), status(p)})
		out = append(out, badValues(ps, pointer, set, status(p))...)
		if slices.Contains(required, k) {
			out = append(out, mutation{pointer + ": missing", func(b any) any { return deleteAt(b, at) }, status(p)})
		}
		if typeOf(ps) == "array" && ps.Items != nil {
			item := ps.Items.Value
			itemAt := func(v any) func(any) any { return set([]any{v}) }
			out = append(out, mutation{pointer + "/0: null item", itemAt(nil), status(p)})
			out = append(out, mutation{pointer + "/0: wrong type item", itemAt(wrongType(item)), status(p)})
			out = append(out, badValues(item, pointer+"/0", itemAt, status(p))...)
			if list, ok := obj[k].([]any); ok && len(list) > 0 {
				out = append(out, mutations(item, list[0], append(at, "0"), p || isProject(item))...)
			}
		}
		if typeOf(ps) == "object" {
			out = append(out, mutations(ps, obj[k], at, p)...)
		}
	}
	return out
}

// members returns the declared members of s and its required ones,
// allOf merged.
func members(s *openapi3.Schema) (openapi3.Schemas, []string) {
	props := openapi3.Schemas{}
	required := slices.Clone(s.Required)
	maps.Copy(props, s.Properties)
	for _, part := range s.AllOf {
		maps.Copy(props, part.Value.Properties)
		required = append(required, part.Value.Required...)
	}
	return props, required
}

func isProject(s *openapi3.Schema) bool { _, ok := s.Extensions["x-project-rule"]; return ok }

func typeOf(s *openapi3.Schema) string {
	if s.Type != nil && len(s.Type.Slice()) > 0 {
		return s.Type.Slice()[0]
	}
	if len(s.AllOf) > 0 || len(s.Properties) > 0 {
		return "object"
	}
	return ""
}

// wrongType returns a JSON value of another type than s takes.
func wrongType(s *openapi3.Schema) any {
	switch typeOf(s) {
	case "string":
		return 5
	case "array":
		return map[string]any{}
	case "object":
		return "x"
	default: // integer, number, boolean
		return "x"
	}
}

// badValues are the values of s's type that break its format or enum.
func badValues(s *openapi3.Schema, pointer string, set func(any) func(any) any, status int) []mutation {
	var out []mutation
	switch {
	case len(s.Enum) > 0:
		out = append(out, mutation{pointer + ": out of enum", set("NOT_IN_ENUM"), status})
	case s.Format == "uuid":
		out = append(out, mutation{pointer + ": not a UUID", set("not-a-uuid"), status})
	case s.Format == "email":
		out = append(out, mutation{pointer + ": not an e-mail address", set("Name <not an address>"), status})
	case s.Format == "int32":
		out = append(out, mutation{pointer + ": beyond int32", set(json.Number("2147483648")), status})
	}
	return out
}

// setAt returns a copy of body with the member at ptr set to v.
func setAt(body any, ptr []string, v any) any {
	if len(ptr) == 0 {
		return v
	}
	switch b := body.(type) {
	case map[string]any:
		c := maps.Clone(b)
		c[ptr[0]] = setAt(b[ptr[0]], ptr[1:], v)
		return c
	case []any:
		c := slices.Clone(b)
		i, _ := strconv.Atoi(ptr[0])
		c[i] = setAt(b[i], ptr[1:], v)
		return c
	}
	panic("setAt: no container at " + strings.Join(ptr, "/"))
}

// deleteAt returns a copy of body without the member at ptr.
func deleteAt(body any, ptr []string) any {
	m := body.(map[string]any)
	c := maps.Clone(m)
	if len(ptr) == 1 {
		delete(c, ptr[0])
		return c
	}
	if list, ok := m[ptr[0]].([]any); ok {
		l := slices.Clone(list)
		i, _ := strconv.Atoi(ptr[1])
		l[i] = deleteAt(list[i], ptr[2:])
		c[ptr[0]] = l
		return c
	}
	c[ptr[0]] = deleteAt(m[ptr[0]], ptr[1:])
	return c
}

// objectsOf lists the pointers of the objects in body, with whether the
// schema keeps the members it does not declare there.
func objectsOf(s *openapi3.Schema, body any, ptr []string, kept bool) map[string]bool {
	out := map[string]bool{}
	obj, ok := body.(map[string]any)
	if !ok {
		return out
	}
	props, _ := members(s)
	here := kept || (s.AdditionalProperties.Has != nil && *s.AdditionalProperties.Has) || (len(props) == 0 && s.AdditionalProperties.Schema == nil)
	if s.AdditionalProperties.Schema == nil { // a typed map takes no other member
		out[strings.Join(ptr, "/")] = here
	}
	for k, v := range obj {
		ps, ok := props[k]
		if !ok {
			continue
		}
		at := append(slices.Clone(ptr), k)
		switch x := v.(type) {
		case map[string]any:
			maps.Copy(out, objectsOf(ps.Value, x, at, here))
		case []any:
			if len(x) > 0 && ps.Value.Items != nil {
				maps.Copy(out, objectsOf(ps.Value.Items.Value, x[0], append(at, "0"), here))
			}
		}
	}
	return out
}

func TestSweepOfRequestBodies(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(contract.Document())
	require.NoError(t, err)
	a, cases := sweepWorld(t)
	eachHas(t, jsonBodyOperations(t), slices.Collect(maps.Keys(cases)), "a sweep case (sweepWorld)")

	var nOps, nMutations, nRefused, nUnknown int
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			c, ok := cases[op.OperationID]
			if !ok {
				continue
			}
			schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
			nOps++
			t.Run(op.OperationID, func(t *testing.T) {
				a.t = t
				n := 0
				next := func() string { n++; return c.body(n) }
				var valid any
				require.NoError(t, json.Unmarshal([]byte(c.body(0)), &valid))

				before := snapshot(a)
				for _, m := range mutations(schema, valid, nil, false) {
					nMutations++
					body, err := json.Marshal(m.apply(valid))
					require.NoError(t, err)
					res := a.do(c.method, c.path, body)
					if assert.Equal(t, m.status, res.status, "%s: %s\n%s", m.what, body, res.body) {
						nRefused++
						msg := res.message()
						pointer, _, _ := strings.Cut(m.what, ":")
						assert.True(t, strings.HasPrefix(msg, "invalid "+pointer) || strings.HasPrefix(msg, "invalid "), "%s: %s", m.what, msg)
					}
				}
				assert.Equal(t, before, snapshot(a), "refused requests changed nothing")

				res := a.do(c.method, c.path, []byte(next()))
				require.Less(t, res.status, 300, "the valid body: %s", res.body)

				for at, kept := range objectsOf(schema, valid, nil, false) {
					nUnknown++
					var body any
					require.NoError(t, json.Unmarshal([]byte(next()), &body))
					ptr := []string{}
					if at != "" {
						ptr = strings.Split(at, "/")
					}
					name := fmt.Sprintf("zzUnknown%d", nUnknown)
					body = setAt(body, append(ptr, name), map[string]any{"kept": nil})
					raw, _ := json.Marshal(body)
					res := a.do(c.method, c.path, raw)
					require.Less(t, res.status, 300, "an unknown member at /%s is accepted: %s", at, res.body)
					member := `"` + name + `":{"kept":null}`
					served := strings.Contains(string(res.body), member)
					stored := strings.Contains(snapshot(a), member)
					switch {
					case op.OperationID == "validateAutomation": // stores nothing
					case kept:
						assert.True(t, served || stored, "an unknown member at /%s is kept and served as sent", at)
					default:
						assert.False(t, served || stored || strings.Contains(string(res.body), name), "an unknown member at /%s is dropped", at)
					}
				}
			})
		}
	}
	a.t = t
	t.Logf("sweep: %d operations, %d mutations, %d refused as expected, %d unknown-member probes", nOps, nMutations, nRefused, nUnknown)
	assert.Equal(t, nMutations, nRefused)
}

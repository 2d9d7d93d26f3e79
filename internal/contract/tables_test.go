package contract

import "strings"

// tableCases are the exchanges of the tables family: one valid exchange
// per operation, then exchanges that break the contract.
func tableCases() []exchangeCase {
	const (
		table  = "/v1/tables/" + uuidA
		join   = table + "/joins/" + uuidB
		pair   = table + "/join-fields/" + uuidC + "/mappings"
		create = `{"name":"Orders","handle":"ORD","source":"` + uuidB + `","categoryId":"` + uuidC + `",` +
			`"fields":[{"cloud":{"name":"Total","snowflake":{"columnName":"TOTAL","type":"NUMBER"}}},{"calculation":{"name":"Double","text":"Total*2"}}],` +
			`"joins":[{"source":"` + uuidD + `","type":"LEFT","joinOn":[{"leftFieldId":"` + uuidA + `","rightFieldId":"` + uuidB + `"}]}]}`
		joinJSON  = `{"id":"` + uuidB + `","type":"LEFT","source":{"id":"` + uuidD + `"},"onFields":[{"id":"` + uuidC + `","leftField":{"id":"` + uuidA + `"},"rightField":{"id":"` + uuidB + `"},"joinMappings":{"edges":[]}}]}`
		tableJSON = `{"id":"` + uuidA + `","name":"Orders","handle":"ORD","source":{"id":"` + uuidB + `"},` +
			`"fields":[{"id":"` + uuidC + `","__typename":"TableFieldCloud","name":"Total","fieldType":"NUMBER","columnName":"TOTAL"}],"joins":[` + joinJSON + `],"filter":{}}`
		joinIn   = `{"source":"` + uuidD + `","type":"INNER","joinOn":[{"leftFieldId":"` + uuidA + `","rightFieldId":"` + uuidB + `"}]}`
		mappings = `{"entries":[{"source":"open","target":"OPEN"}]}`
	)
	return []exchangeCase{
		{name: "list tables", method: "GET", path: "/v1/tables?first=2", status: 200, respType: "application/json", respBody: paged(tableJSON)},
		{name: "create table", method: "POST", path: "/v1/tables", body: create, status: 201, respType: "application/json", respBody: tableJSON},
		{name: "get table", method: "GET", path: table, status: 200, respType: "application/json", respBody: tableJSON},
		{name: "update table", method: "PUT", path: table, body: `{"name":"Orders 2","fields":{"deletes":[{"id":"` + uuidC + `"}]}}`,
			status: 200, respType: "application/json", respBody: tableJSON},
		{name: "delete table", method: "DELETE", path: table, status: 204},
		{name: "create join", method: "POST", path: table + "/joins", body: joinIn, status: 201, respType: "application/json", respBody: joinJSON},
		{name: "update join", method: "PUT", path: join, body: `{"type":"FULL"}`, status: 200, respType: "application/json", respBody: joinJSON},
		{name: "delete join", method: "DELETE", path: join, status: 204},
		{name: "create mappings", method: "POST", path: pair, body: mappings, status: 201},
		{name: "upsert mappings", method: "PUT", path: pair, body: mappings, status: 200},
		{name: "delete mappings", method: "DELETE", path: pair, body: `{"entries":[{"source":"open"}]}`, status: 204},

		{name: "table without fields", method: "POST", path: "/v1/tables", body: `{"name":"T","handle":"T","source":"` + uuidB + `","categoryId":"` + uuidC + `"}`,
			status: 201, respType: "application/json", respBody: tableJSON, want: []string{`property "fields" is missing`}},
		{name: "field with two variants", method: "POST", path: "/v1/tables",
			body:   strings.Replace(create, `{"calculation":{"name":"Double","text":"Total*2"}}`, `{"calculation":{"name":"D","text":"1"},"cloud":{"name":"C"}}`, 1),
			status: 201, respType: "application/json", respBody: tableJSON, want: []string{`request body: /fields/1: must have exactly one of calculation, cloud, reference`}},
		{name: "unknown join type", method: "POST", path: table + "/joins", body: strings.Replace(joinIn, "INNER", "OUTER", 1),
			status: 201, respType: "application/json", respBody: joinJSON, want: []string{`at "/type"`}},
		{name: "table id not a UUID", method: "GET", path: "/v1/tables/orders", status: 200, respType: "application/json", respBody: tableJSON,
			want: []string{`parameter "id"`}},
		{name: "mapping without target", method: "POST", path: pair, body: `{"entries":[{"source":"open"}]}`, status: 201,
			want: []string{`property "target" is missing`}},
		{name: "table delete answered 200", method: "DELETE", path: table, status: 200, want: []string{`reply status 200 is not published`}},
		{name: "table without id", method: "GET", path: table, status: 200, respType: "application/json", respBody: `{"name":"Orders"}`,
			want: []string{`property "id" is missing`}},
	}
}

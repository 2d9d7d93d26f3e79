package contract

import "strings"

// searchTableCases are the exchanges of the search tables family: one
// valid exchange per operation, then exchanges that break the contract.
func searchTableCases() []exchangeCase {
	const (
		aspect    = "/v1/aspects/" + uuidA
		one       = aspect + "/search-tables/" + uuidB
		snowflake = `{"attributeFieldIds":["` + uuidC + `"],"duration":"MINUTES","targetLag":5,"vectorIndexes":[{"fieldId":"` + uuidC + `","aiProviderConnectorId":"` + uuidD + `"}]}`
		linked    = `{"cloudLinkId":"` + uuidC + `","database":"DB","schema":"S","serviceName":"SVC"}`
		reply     = `{"id":"` + uuidB + `","__typename":"AspectSearchSnowflakeTable","displayName":"search_table_1","status":"READY","targetLag":5,"duration":"MINUTES",` +
			`"attributeFields":[{"id":"` + uuidC + `"}],"vectorIndexes":[{"field":{"id":"` + uuidC + `"},"aiProviderConnector":{"id":"` + uuidD + `"}}]}`
	)
	return []exchangeCase{
		{name: "create snowflake search table", method: "POST", path: aspect + "/search-tables", body: snowflake, status: 201, respType: "application/json", respBody: reply},
		{name: "create linked search table", method: "POST", path: aspect + "/linked-search-tables", body: linked, status: 201, respType: "application/json",
			respBody: `{"id":"` + uuidB + `","__typename":"AspectLinkedSearchTable","linkedDatabase":"DB","linkedSchema":"S","linkedServiceName":"SVC"}`},
		{name: "get search table", method: "GET", path: one, status: 200, respType: "application/json", respBody: reply},
		{name: "update search table", method: "PUT", path: one, body: `{"snowflake":{"targetLag":10,"duration":"HOURS"}}`, status: 200, respType: "application/json", respBody: reply},

		{name: "search table without duration", method: "POST", path: aspect + "/search-tables", body: strings.Replace(snowflake, `"duration":"MINUTES",`, "", 1),
			status: 201, respType: "application/json", respBody: reply, want: []string{`property "duration" is missing`}},
		{name: "search table lag of zero (no minimum is published)", method: "PUT", path: one, body: `{"snowflake":{"targetLag":0}}`, status: 200, respType: "application/json", respBody: reply},
		{name: "search table lag beyond int32", method: "PUT", path: one, body: `{"snowflake":{"targetLag":2147483648}}`, status: 200, respType: "application/json", respBody: reply,
			want: []string{`at "/snowflake/targetLag"`}},
		{name: "linked search table without service", method: "POST", path: aspect + "/linked-search-tables", body: strings.Replace(linked, `,"serviceName":"SVC"`, "", 1),
			status: 201, respType: "application/json", respBody: reply, want: []string{`property "serviceName" is missing`}},
		{name: "search table in weeks", method: "GET", path: one, status: 200, respType: "application/json", respBody: strings.Replace(reply, "MINUTES", "WEEKS", 1),
			want: []string{`at "/duration"`}},
	}
}

package contract

// The exchanges of the elements of the workspace configuration.

const aspectJSON = `{"id":"` + uuidA + `","__typename":"AspectElement","name":"Assets","namespace":"assets","handle":"AST",` +
	`"status":"ACTIVE","configured":true,"readOnly":false,"sourceType":"SNOWFLAKE","category":{"id":"` + uuidB + `"},"later":1}`

func elementsCases() []exchangeCase {
	create := `{"name":"Assets","categoryId":"` + uuidB + `","cloudLinkId":"` + uuidC + `","database":"DB","schema":"S","table":"ASSETS","idColumn":"ID",` +
		`"recordCreateTypes":{"api":true},"cloudOptions":{"snowflake":{"hybridTable":false}}}`
	return []exchangeCase{
		{name: "createElement", method: "POST", path: "/v1/elements", body: create, status: 201, respType: "application/json", respBody: aspectJSON},
		{name: "createElement native with fields", method: "POST", path: "/v1/elements",
			body:   `{"name":"Parts","categoryId":"` + uuidB + `","fields":[{"name":"Weight","type":"DECIMAL","required":true,"tags":["kg"]}]}`,
			status: 201, respType: "application/json", respBody: aspectJSON},
		{name: "getElement", method: "GET", path: "/v1/elements/assets", status: 200, respType: "application/json", respBody: aspectJSON},
		{name: "getElement answered with the record list", method: "GET", path: "/v1/elements/assets?first=2", status: 200, respType: "application/json",
			respBody: `{"items":[{"data":` + recordJSON + `,"cursor":"Ijf7"}],"total":1,"paging":` + paging + `}`},
		{name: "updateElement", method: "PUT", path: "/v1/elements/" + uuidA, body: `{"name":"Assets 2","recordCreateTypes":{"manual":false}}`,
			status: 200, respType: "application/json", respBody: aspectJSON},

		{name: "createElement without category", method: "POST", path: "/v1/elements", body: `{"name":"Assets"}`,
			status: 201, respType: "application/json", respBody: aspectJSON, want: []string{`property "categoryId" is missing`}},
		{name: "createElement with an unknown field type", method: "POST", path: "/v1/elements",
			body:   `{"name":"P","categoryId":"` + uuidB + `","fields":[{"name":"W","type":"FLOAT"}]}`,
			status: 201, respType: "application/json", respBody: aspectJSON, want: []string{`"/fields/0/type"`}},
		{name: "updateElement with a source member", method: "PUT", path: "/v1/elements/assets", body: `{"table":"OTHER"}`,
			status: 200, respType: "application/json", respBody: aspectJSON, strict: true, want: []string{`/table: is not a member of ElementUpdateRequest`}},
		{name: "getElement without an id", method: "GET", path: "/v1/elements/assets", status: 200, respType: "application/json",
			respBody: `{"name":"Assets","namespace":"assets"}`, want: []string{`"id"`}},
	}
}

package contract

// Exchanges of the workspace configuration's domains, automations and
// views. The automations' paths share their shape with the record routes;
// the cases show that the check picks the automations' operations.

const (
	orgDomainJSON   = `{"id":"` + uuidA + `","type":"MANAGED","domain":"example.com","name":"Example","internal":true,"approved":true,"selfRegistration":false,"sso":true,"startUrl":"https://sso.example.com"}`
	emailDomainJSON = `{"id":"` + uuidB + `","type":"EMAIL","domain":"mail.example.com"}`
	automationJSON  = `{"id":"a1","name":"Escalate","triggers":[{"type":"RECORD_CREATED"}],"tasks":[]}`
	viewJSON        = `{"id":"` + uuidD + `","clientHandle":"open-requests","name":"Open requests","type":"AspectViewList","displayOrder":1,"rows":25,` +
		`"columns":["` + uuidA + `"],"filter":{"status":"OPEN"},"share":{"groups":[` + groupJSON + `],"users":[` + userJSON + `]}}`
	groupDomainsReply = `[{"id":"` + uuidC + `","domain":"example.com"}]`
)

func configCasesA() []exchangeCase {
	return []exchangeCase{
		{name: "addDomainsToGroup", method: "POST", path: "/v1/groups/" + uuidB + "/domains", body: `{"domains":["example.com"]}`,
			status: 201, respType: "application/json", respBody: groupDomainsReply},
		{name: "removeDomainsFromGroup", method: "DELETE", path: "/v1/groups/" + uuidB + "/domains", body: `{"domains":["example.com"]}`,
			status: 200, respType: "application/json", respBody: `[]`},
		{name: "createOrganizationDomain managed", method: "POST", path: "/v1/domains",
			body:   `{"managedDomain":{"domain":"example.com","name":"Example","internal":true,"approved":true,"sso":true,"startUrl":"https://sso.example.com"}}`,
			status: 201, respType: "application/json", respBody: orgDomainJSON},
		{name: "createOrganizationDomain e-mail", method: "POST", path: "/v1/domains", body: `{"emailDomain":{"domain":"mail.example.com"}}`,
			status: 201, respType: "application/json", respBody: emailDomainJSON},
		{name: "updateOrganizationDomain", method: "PUT", path: "/v1/domains/" + uuidA, body: `{"managedDomain":{"sso":false,"selfRegistration":true}}`,
			status: 200, respType: "application/json", respBody: orgDomainJSON},

		{name: "listAutomations", method: "GET", path: "/v1/apps/itmanagement/automations", status: 200, respType: "application/json",
			respBody: `[` + automationJSON + `,{"id":"a2","name":"Draft","state":"DRAFT"}]`},
		{name: "createAutomation", method: "POST", path: "/v1/elements/suppliers/automations", body: `{"name":"Escalate","triggers":[]}`,
			status: 201, respType: "application/json", respBody: automationJSON},
		{name: "validateAutomation", method: "POST", path: "/v1/apps/itmanagement/automations/validate", body: `{"name":""}`,
			status: 200, respType: "application/json", respBody: `{"valid":false,"errors":["name"]}`},
		{name: "getAutomation", method: "GET", path: "/v1/apps/itmanagement/automations/a1", status: 200, respType: "application/json",
			respBody: `[` + automationJSON + `]`},
		{name: "updateAutomation", method: "PUT", path: "/v1/apps/itmanagement/automations/a1", body: automationJSON,
			status: 200, respType: "application/json", respBody: automationJSON},
		{name: "deleteAutomation", method: "DELETE", path: "/v1/apps/itmanagement/automations/a1", status: 200, respType: "application/json", respBody: `{}`},

		{name: "listViews", method: "GET", path: "/v1/apps/itmanagement/views?first=10", status: 200, respType: "application/json", respBody: paged(viewJSON)},
		{name: "createView", method: "POST", path: "/v1/apps/itmanagement/views",
			body:   `{"handle":"open-requests","view":{"list":{"name":"Open requests","filter":{"status":"OPEN"},"rows":25,"columns":["` + uuidA + `"],"x-extra":1}},"share":{"groups":["IT"],"users":[]}}`,
			status: 201, respType: "application/json", respBody: viewJSON},
		// A breach of a fake-only rule (columns that are no field ids)
		// hides no breach of the published document's.
		{name: "view with two variants and a fake-only breach", method: "POST", path: "/v1/apps/itmanagement/views",
			body:   `{"handle":"h","view":{"list":{"columns":["Name"]},"kanban":{}}}`,
			status: 201, respType: "application/json", respBody: viewJSON, want: []string{`request body: /view: must have exactly one of`}},
		{name: "view with a guessed member and a fake-only breach", method: "POST", path: "/v1/apps/itmanagement/views", strict: true,
			body:   `{"handle":"h","colour":"red","view":{"list":{"columns":["Name"]}}}`,
			status: 201, respType: "application/json", respBody: viewJSON, want: []string{`request body: /colour: is not a member of`}},
		{name: "getView", method: "GET", path: "/v1/apps/itmanagement/views/open-requests", status: 200, respType: "application/json", respBody: viewJSON},
		{name: "updateView", method: "PUT", path: "/v1/apps/itmanagement/views/open-requests", body: `{"view":{"kanban":{"displayByField":"` + uuidA + `"}}}`,
			status: 200, respType: "application/json", respBody: `{"ok":true}`},

		{name: "organisation domain with both kinds", method: "POST", path: "/v1/domains",
			body: `{"managedDomain":{"domain":"example.com"},"emailDomain":{"domain":"mail.example.com"}}`, status: 201, respType: "application/json", respBody: orgDomainJSON,
			want: []string{"createOrganizationDomain POST /v1/domains: request body"}},
		{name: "organisation domain of neither kind", method: "POST", path: "/v1/domains", body: `{}`, status: 201, respType: "application/json", respBody: orgDomainJSON,
			want: []string{"createOrganizationDomain POST /v1/domains: request body"}},
		{name: "group domains as a bare list", method: "POST", path: "/v1/groups/" + uuidB + "/domains", body: `["example.com"]`,
			status: 201, respType: "application/json", respBody: groupDomainsReply, want: []string{"addDomainsToGroup POST /v1/groups/" + uuidB + "/domains: request body"}},
		{name: "automation as an array", method: "POST", path: "/v1/apps/itmanagement/automations", body: `[{"name":"x"}]`,
			status: 201, respType: "application/json", respBody: automationJSON, want: []string{"createAutomation POST /v1/apps/itmanagement/automations: request body"}},
		{name: "automation list as one object", method: "GET", path: "/v1/apps/itmanagement/automations", status: 200, respType: "application/json",
			respBody: automationJSON, want: []string{"listAutomations GET /v1/apps/itmanagement/automations: reply: response body doesn't match schema #/components/schemas/AutomationList"}},
		{name: "view of two variants", method: "PUT", path: "/v1/apps/itmanagement/views/open-requests", body: `{"view":{"list":{},"kanban":{}}}`,
			status: 200, respType: "application/json", respBody: viewJSON, want: []string{"updateView PUT /v1/apps/itmanagement/views/open-requests: request body"}},
		{name: "view update with a handle", method: "PUT", path: "/v1/apps/itmanagement/views/open-requests", body: `{"handle":"x","view":{"list":{}}}`,
			status: 200, respType: "application/json", respBody: viewJSON, strict: true, want: []string{"updateView PUT /v1/apps/itmanagement/views/open-requests: request body"}},
		{name: "view without its handle", method: "GET", path: "/v1/apps/itmanagement/views/v1", status: 200, respType: "application/json",
			respBody: `{"id":"` + uuidA + `","type":"AspectViewList"}`, want: []string{`property "clientHandle" is missing`}},
		{name: "organisation domain of an unknown type", method: "PUT", path: "/v1/domains/" + uuidA, body: `{"emailDomain":{"domain":"mail.example.com"}}`,
			status: 200, respType: "application/json", respBody: `{"id":"` + uuidA + `","type":"SENDING","domain":"mail.example.com"}`, want: []string{`"/type"`}},
	}
}

package contract

// Exchanges of the workspace configuration's domains, automations and
// views.

const (
	orgDomainJSON     = `{"id":"` + uuidA + `","type":"MANAGED","domain":"example.com","name":"Example","internal":true,"approved":true,"selfRegistration":false,"sso":true,"startUrl":"https://sso.example.com"}`
	emailDomainJSON   = `{"id":"` + uuidB + `","type":"EMAIL","domain":"mail.example.com"}`
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

		{name: "organisation domain with both kinds", method: "POST", path: "/v1/domains",
			body: `{"managedDomain":{"domain":"example.com"},"emailDomain":{"domain":"mail.example.com"}}`, status: 201, respType: "application/json", respBody: orgDomainJSON,
			want: []string{"createOrganizationDomain POST /v1/domains: request body"}},
		{name: "organisation domain of neither kind", method: "POST", path: "/v1/domains", body: `{}`, status: 201, respType: "application/json", respBody: orgDomainJSON,
			want: []string{"createOrganizationDomain POST /v1/domains: request body"}},
		{name: "group domains as a bare list", method: "POST", path: "/v1/groups/" + uuidB + "/domains", body: `["example.com"]`,
			status: 201, respType: "application/json", respBody: groupDomainsReply, want: []string{"addDomainsToGroup POST /v1/groups/" + uuidB + "/domains: request body"}},
		{name: "organisation domain of an unknown type", method: "PUT", path: "/v1/domains/" + uuidA, body: `{"emailDomain":{"domain":"mail.example.com"}}`,
			status: 200, respType: "application/json", respBody: `{"id":"` + uuidA + `","type":"SENDING","domain":"mail.example.com"}`, want: []string{`"/type"`}},
	}
}

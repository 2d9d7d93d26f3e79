package contract

// The exchanges of the flows of the workspace configuration.

func flowsCases() []exchangeCase {
	flow := `{"id":"` + uuidA + `","name":"Escalate","steps":[{"kind":"notify"}]}`
	return []exchangeCase{
		{name: "createFlow", method: "POST", path: "/v1/flows/create", body: `{"name":"Escalate","steps":[]}`, status: 201, respType: "application/json", respBody: flow},
		{name: "updateFlow", method: "PUT", path: "/v1/flows/" + uuidA, body: `{"name":"Escalate 2"}`, status: 200, respType: "application/json", respBody: flow},

		{name: "createFlow answered 200", method: "POST", path: "/v1/flows/create", body: `{}`, status: 200, respType: "application/json", respBody: flow,
			want: []string{"reply status 200 is not published"}},
		{name: "updateFlow with a number", method: "PUT", path: "/v1/flows/" + uuidA, body: `7`, status: 200, respType: "application/json", respBody: flow,
			want: []string{"request body"}},
	}
}

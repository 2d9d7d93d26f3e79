package contract

// The exchanges of the composed apps of the workspace configuration.

func appsCases() []exchangeCase {
	app := `{"id":"` + uuidA + `","name":"IT Management","namespace":"itmanagement","layout":{"tabs":[1,2]}}`
	return []exchangeCase{
		{name: "composeApp", method: "POST", path: "/v1/aspects/compose", body: `{"name":"IT Management","namespace":"itmanagement"}`,
			status: 201, respType: "application/json", respBody: app},
		{name: "updateApp", method: "PUT", path: "/v1/aspects/compose/" + uuidA, body: `{"name":"IT","namespace":"itmanagement"}`, status: 200, respType: "application/json", respBody: app},
		{name: "composeApp without its namespace (only the fake's rule)", method: "POST", path: "/v1/aspects/compose", body: `{"name":"IT Management"}`,
			status: 201, respType: "application/json", respBody: app},

		{name: "composeApp with an array", method: "POST", path: "/v1/aspects/compose", body: `[{"name":"IT"}]`,
			status: 201, respType: "application/json", respBody: app, want: []string{"request body"}},
		{name: "updateApp answered with a string", method: "PUT", path: "/v1/aspects/compose/" + uuidA, body: `{"name":"IT","namespace":"itmanagement"}`,
			status: 200, respType: "application/json", respBody: `"done"`, want: []string{"response body"}},
	}
}

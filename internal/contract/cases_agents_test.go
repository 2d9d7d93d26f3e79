package contract

// The exchanges of the agents of the workspace configuration.

func agentsCases() []exchangeCase {
	agent := `{"id":"` + uuidA + `","type":"AgentElementum","name":"Triage","reasoningEffort":"LOW","temperature":0.2,"maxLength":800}`
	bundle := `{"agent":{"elementum":{"name":"Triage","reasoningEffort":"LOW","voiceConfig":{"voice":"calm"}}},"tools":[{"kind":"search"}]}`
	return []exchangeCase{
		{name: "listAgents", method: "GET", path: "/v1/apps/itmanagement/agents?first=5&filter=name%3D%3DTriage", status: 200, respType: "application/json", respBody: paged(agent)},
		{name: "createAgent", method: "POST", path: "/v1/apps/itmanagement/agents", body: bundle, status: 201, respType: "application/json", respBody: agent},
		{name: "updateAgent", method: "PUT", path: "/v1/apps/itmanagement/agents/" + uuidA, body: `{"agent":{"elementum":{"temperature":0.5}},"a2aSkills":[]}`,
			status: 200, respType: "application/json", respBody: agent},

		{name: "createAgent without agent", method: "POST", path: "/v1/apps/itmanagement/agents", body: `{"tools":[]}`,
			status: 201, respType: "application/json", respBody: agent, want: []string{`property "agent" is missing`}},
		{name: "listAgents with an unknown effort", method: "GET", path: "/v1/apps/itmanagement/agents", status: 200, respType: "application/json",
			respBody: paged(`{"id":"` + uuidA + `","reasoningEffort":"EXTREME"}`), want: []string{`"/items/0/reasoningEffort"`}},
	}
}

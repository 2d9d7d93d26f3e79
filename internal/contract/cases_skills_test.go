package contract

// The exchanges of the skills of the workspace configuration.

func skillsCases() []exchangeCase {
	skill := `{"id":"` + uuidA + `","type":"CUSTOM","status":"ACTIVE","name":"Summarise","properties":{"k":1},"tools":{"items":[],"total":0}}`
	bundle := `{"skill":{"name":"Summarise","type":"CUSTOM","discoveryProperties":{"aliases":["tl;dr"],"routingPriority":0.5}},"tools":[{"kind":"search"}]}`
	return []exchangeCase{
		{name: "listSkills", method: "GET", path: "/v1/apps/itmanagement/skills?first=5&filter=name%3D%3DSummarise", status: 200, respType: "application/json", respBody: paged(skill)},
		{name: "createSkill", method: "POST", path: "/v1/apps/itmanagement/skills", body: bundle, status: 201, respType: "application/json", respBody: skill},
		{name: "updateSkill", method: "PUT", path: "/v1/apps/itmanagement/skills/" + uuidA, body: `{"skill":{"status":"DRAFT"},"tools":[]}`,
			status: 200, respType: "application/json", respBody: skill},

		{name: "createSkill without a name", method: "POST", path: "/v1/apps/itmanagement/skills", body: `{"skill":{"type":"CUSTOM"}}`,
			status: 201, respType: "application/json", respBody: skill, want: []string{`property "name" is missing`}},
		{name: "updateSkill with an unknown status", method: "PUT", path: "/v1/apps/itmanagement/skills/" + uuidA, body: `{"skill":{"status":"LIVE"}}`,
			status: 200, respType: "application/json", respBody: skill, want: []string{`"/skill/status"`}},
		{name: "listSkills with an unknown type", method: "GET", path: "/v1/apps/itmanagement/skills", status: 200, respType: "application/json",
			respBody: paged(`{"id":"` + uuidA + `","type":"BUILTIN"}`), want: []string{`"/items/0/type"`}},
	}
}

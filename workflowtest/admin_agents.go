package workflowtest

import (
	"encoding/json"
	"maps"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// The AI agents of apps: GET and POST /apps/{alias}/agents and
// PUT /apps/{alias}/agents/{id}. These routes come before the record
// routes, so GET /apps/{alias}/agents is always the agents list, never a
// record whose id is "agents" (the fake never mints such an id).
//
// An app alias is known when it names a record definition of type apps
// (Define, Seed) or a composed app (its "namespace" or "id"); any other
// alias is answered with 404. The fake serves agents of the one variant
// the service publishes, "elementum"; their settings are kept as sent,
// and a PUT changes the settings it sends.

// agent is an AI agent of an app.
type agent struct {
	seq       uint64
	id        string
	settings  map[string]any
	tools     []any
	a2aSkills []any
}

// agentBundleBody is AgentBundleCreateRequest and AgentBundleUpdateRequest.
type agentBundleBody struct {
	Agent     map[string]json.RawMessage `json:"agent"`
	Tools     *[]map[string]any          `json:"tools"`
	A2ASkills *[]map[string]any          `json:"a2aSkills"`
}

// summary is the service's Agent: the list's item.
func (a *agent) summary() map[string]any {
	out := map[string]any{"id": a.id, "type": "AgentElementum"}
	for _, k := range []string{"name", "description", "maxLength", "reasoningEffort", "temperature"} {
		if v, ok := a.settings[k]; ok {
			out[k] = v
		}
	}
	return out
}

// full is the agent as create and update answer it.
func (a *agent) full() map[string]any {
	out := maps.Clone(a.settings)
	maps.Copy(out, a.summary())
	out["tools"], out["a2aSkills"] = a.tools, a.a2aSkills
	return out
}

func agentSeq(a *agent) uint64 { return a.seq }
func agentFields(a *agent) map[string]string {
	out := map[string]string{}
	for k, v := range a.summary() {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// agentRoutes are the operations on agents.
var agentRoutes = []route{
	on(op.ListAgents, (*Server).listAgents),
	onJSON[agentBundleBody](op.CreateAgent, (*Server).changeAgent),
	onJSON[agentBundleBody](op.UpdateAgent, (*Server).changeAgent),
}

// listAgents is GET /apps/{alias}/agents: paged, with a filter on the
// string members of the summary.
func (s *Server) listAgents(rq *request) response {
	return listOfApp(s, rq, &s.st.agents, "agents", agentSeq, agentFields, func(a *agent) any { return a.summary() })
}

// changeAgent is POST /apps/{alias}/agents (201 with the new agent) and
// PUT /apps/{alias}/agents/{id} (200 with the agent). The bundle's agent
// holds exactly one variant (checked), and elementum is the one the
// service publishes: its settings are kept as sent.
func (s *Server) changeAgent(rq *request) response {
	b := in[*agentBundleBody](rq)
	settings, e := parseObject[any](b.Agent["elementum"], "agent.elementum")
	if e != nil {
		return fail(e)
	}
	a, status, e := changeOfApp(s, rq, &s.st.agents, "agent", func(a *agent) string { return a.id },
		func() *agent {
			return &agent{seq: s.st.next.nextSeq(), id: s.st.next.uuid(uuidAgent, &s.st.agentIDs), settings: settings, tools: []any{}, a2aSkills: []any{}}
		}, func(a *agent) { maps.Copy(a.settings, settings) })
	if e != nil {
		return fail(e)
	}
	setObjects(&a.tools, b.Tools)
	setObjects(&a.a2aSkills, b.A2ASkills)
	return reply(status, a.full())
}

// setObjects replaces *dst with the decoded tool objects of src when the
// body sends a list.
func setObjects(dst *[]any, src *[]map[string]any) {
	if src != nil {
		*dst = make([]any, len(*src))
		for i, o := range *src {
			(*dst)[i] = o
		}
	}
}

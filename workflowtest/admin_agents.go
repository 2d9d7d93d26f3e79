package workflowtest

import (
	"maps"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/admin"
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
type agent = passObject

// agentSummary are the settings the list's item (the service's Agent)
// shows, besides its id and type.
var agentSummary = []string{"name", "description", "maxLength", "reasoningEffort", "temperature"}

// agents are the agents of apps. The list's item is the service's Agent,
// with a filter on its string members; create and update answer the
// settings with it, the tools and the a2aSkills. The bundle's agent holds
// exactly one variant (checked), and elementum is the one the service
// publishes.
var agents = &appItems{kind: "agent", uuid: uuidAgent,
	of: func(st *state) (*map[string]*[]*passObject, *uint64) { return &st.agents, &st.agentIDs },
	show: func(a *agent, listed bool) map[string]any {
		out := maps.Clone(a.body)
		maps.DeleteFunc(out, func(k string, _ any) bool { return listed && !slices.Contains(agentSummary, k) })
		out["id"], out["type"] = a.id, "AgentElementum"
		if !listed {
			out["tools"], out["a2aSkills"] = a.tools, a.a2aSkills
		}
		return out
	},
	bundle: func(rq *request) (map[string]any, []jsontext.Value, []jsontext.Value) {
		b := in[*admin.AgentBundle](rq)
		settings := map[string]any{}
		if e := b.Agent.Elementum; e != nil {
			settings, _ = parseObject[any](encodeJSON(*e), "agent.elementum") // its settings, as sent
		}
		return settings, b.Tools, b.A2ASkills
	},
}

// agentRoutes are the operations on agents.
var agentRoutes = []route{
	on(op.ListAgents, agents.list),
	onJSON[admin.AgentBundle](op.CreateAgent, agents.change),
	onJSON[admin.AgentBundle](op.UpdateAgent, agents.change),
}

package workflowtest

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"

	workflow "github.com/seed-a15e58aa/workflow-go"
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

// uuidAgent is the seqUUID kind of agents' ids.
const uuidAgent = '6'

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

// decodeAgentBundle reads a bundle (checked by checkBody: its agent holds
// exactly one variant, and elementum is the one the service publishes);
// it returns the settings, kept as sent.
func decodeAgentBundle(rq *request, b *agentBundleBody) (map[string]any, *httpError) {
	if e := decodeBody(rq.r, b); e != nil {
		return nil, e
	}
	return parseObject[any](b.Agent["elementum"], "agent.elementum")
}

// appKey returns the key of the app alias names (a composed app by its
// namespace or id, or a record definition of type apps), and whether
// there is one. The caller holds s.mu.
func (st *state) appKey(alias string) (string, bool) {
	for _, o := range st.cat().apps.items {
		if o.id == alias || o.body["namespace"] == alias {
			return o.id, true
		}
	}
	return "apps/" + alias, st.defs[defKey{workflow.Apps, alias}] != nil
}

// ofApp returns the list in m of a known app, creating it (and m) on
// first use: the agents or the skills of the app alias names. The caller
// holds s.mu.
func ofApp[T any](s *Server, m *map[string]*[]T, alias string) (*[]T, *httpError) {
	key, ok := s.st.appKey(alias)
	if !ok {
		return nil, errf(http.StatusNotFound, "no app with alias %q", alias)
	}
	if *m == nil {
		*m = map[string]*[]T{}
	}
	if (*m)[key] == nil {
		(*m)[key] = &[]T{}
	}
	return (*m)[key], nil
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

// listAgents is GET /apps/{alias}/agents: paged, with a filter on the
// string members of the summary.
func (s *Server) listAgents(rq *request, segs []string) response {
	s.mu.Lock() // ofApp may create the app's (empty) list
	defer s.mu.Unlock()
	agents, e := ofApp(s, &s.st.cat().agents, segs[1])
	if e != nil {
		return fail(e)
	}
	p, e := parsePaging(rq, "apps/"+segs[1]+"/agents")
	if e != nil {
		return fail(e)
	}
	res := selectPage(*agents, agentSeq, agentFields, p)
	return reply(http.StatusOK, buildPlainList(res, p, agentSeq, func(a *agent) any { return a.summary() }))
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

// changeAgent is POST /apps/{alias}/agents (201 with the new agent) and
// PUT /apps/{alias}/agents/{id} (200 with the agent).
func (s *Server) changeAgent(rq *request, segs []string) response {
	var b agentBundleBody
	settings, e := decodeAgentBundle(rq, &b)
	if e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.cat()
	agents, e := ofApp(s, &c.agents, segs[1])
	if e != nil {
		return fail(e)
	}
	status, a := http.StatusOK, (*agent)(nil)
	if len(segs) == 3 {
		status, a = http.StatusCreated, &agent{seq: s.st.next.nextSeq(), id: s.st.next.uuid(uuidAgent, &c.agentIDs), settings: settings, tools: []any{}, a2aSkills: []any{}}
		*agents = append(*agents, a)
	} else if i := slices.IndexFunc(*agents, func(a *agent) bool { return a.id == segs[3] }); i >= 0 {
		a = (*agents)[i]
		maps.Copy(a.settings, settings)
	} else {
		return failf(http.StatusNotFound, "no agent with id %q in app %q", segs[3], segs[1])
	}
	setObjects(&a.tools, b.Tools)
	setObjects(&a.a2aSkills, b.A2ASkills)
	return reply(status, a.full())
}

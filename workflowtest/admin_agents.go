package workflowtest

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"

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

// agentSettingsBody types the published members of the settings, to check
// them; the others are forwarded as they are.
type agentSettingsBody struct {
	Name                  *string  `json:"name"`
	Description           *string  `json:"description"`
	Instructions          *string  `json:"instructions"`
	FirstMessage          *string  `json:"firstMessage"`
	MaxLength             *int32   `json:"maxLength"`
	ReasoningEffort       *string  `json:"reasoningEffort"`
	Temperature           *float64 `json:"temperature"`
	AvatarAttachmentID    *string  `json:"avatarAttachmentId"`
	AIProviderConnectorID *string  `json:"aiProviderConnectorId"`
}

// agentBundleBody is AgentBundleCreateRequest and AgentBundleUpdateRequest.
type agentBundleBody struct {
	Agent     map[string]json.RawMessage `json:"agent"`
	Tools     *[]map[string]any          `json:"tools"`
	A2ASkills *[]map[string]any          `json:"a2aSkills"`
}

// decodeAgentBundle reads and checks a bundle; it returns the settings.
func decodeAgentBundle(rq *request, b *agentBundleBody) (map[string]any, *httpError) {
	if e := decodeStrict(rq.r, b); e != nil {
		return nil, e
	}
	if len(b.Agent) != 1 {
		return nil, errf(http.StatusBadRequest, "agent must hold exactly one variant")
	}
	raw, ok := b.Agent["elementum"]
	if !ok {
		return nil, errf(http.StatusUnprocessableEntity, "the fake serves elementum agents only")
	}
	var typed agentSettingsBody
	if err := json.Unmarshal(raw, &typed); err != nil {
		return nil, errf(http.StatusBadRequest, "malformed agent.elementum: %v", err)
	}
	settings, e := parseObject[any](raw, "agent.elementum")
	if e != nil {
		return nil, e
	}
	if r := typed.ReasoningEffort; r != nil && !strings.Contains(" MINIMAL LOW MEDIUM HIGH ", " "+*r+" ") {
		return nil, errf(http.StatusBadRequest, "unknown reasoningEffort %q", *r)
	}
	for _, id := range []*string{typed.AvatarAttachmentID, typed.AIProviderConnectorID} {
		if id != nil && !isUUID(*id) {
			return nil, errf(http.StatusBadRequest, "%q is not a UUID", *id)
		}
	}
	return settings, nil
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

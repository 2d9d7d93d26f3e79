package workflowtest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// The skills of apps: GET and POST /apps/{alias}/skills and
// PUT /apps/{alias}/skills/{id}. As for the agents, these routes come
// before the record routes, and an app alias is known when it names a
// record definition of type apps or a composed app; any other is answered
// with 404.
//
// A skill is kept as sent: the members a create leaves out stay absent
// (the fake invents no type or status), and a PUT changes the members it
// sends. The answer is the service's Skill with the tools in a connection
// {"items": [...], "total": n} (the service publishes no members for it)
// and the discovery properties as sent; it carries no "app".

// uuidSkill is the seqUUID kind of skills' ids.
const uuidSkill = '3'

// skillInput is SkillCreateInput and SkillUpdateInput.
type skillInput struct {
	Type         *string         `json:"type,omitempty"`
	Status       *string         `json:"status,omitempty"`
	Name         *string         `json:"name,omitempty"`
	Description  *string         `json:"description,omitempty"`
	Instructions *string         `json:"instructions,omitempty"`
	Properties   json.RawMessage `json:"properties,omitempty"`
	Discovery    *struct {
		RoutingPriority   *float64 `json:"routingPriority,omitempty"`
		PositiveKeywords  []string `json:"positiveKeywords,omitempty"`
		NegativeKeywords  []string `json:"negativeKeywords,omitempty"`
		Aliases           []string `json:"aliases,omitempty"`
		ExampleUtterances []string `json:"exampleUtterances,omitempty"`
	} `json:"discoveryProperties,omitempty"`
}

// skillBundleBody is SkillBundleCreateRequest and SkillBundleUpdateRequest.
type skillBundleBody struct {
	Skill *skillInput       `json:"skill"`
	Tools *[]map[string]any `json:"tools"`
}

// skill is a skill of an app.
type skill struct {
	seq uint64
	skillInput
	id    string
	tools []any
}

// decodeSkillBundle reads and checks a bundle; create requires a name.
func decodeSkillBundle(rq *request, create bool) (*skillBundleBody, *httpError) {
	var b skillBundleBody
	if e := decodeStrict(rq.r, &b); e != nil {
		return nil, e
	}
	in := b.Skill
	switch {
	case in == nil:
		return nil, errf(http.StatusBadRequest, "skill is required")
	case create && (in.Name == nil || *in.Name == ""):
		return nil, errf(http.StatusBadRequest, "skill.name is required")
	case in.Type != nil && !strings.Contains(" INTERNAL CUSTOM ", " "+*in.Type+" "):
		return nil, errf(http.StatusBadRequest, "unknown skill.type %q", *in.Type)
	case in.Status != nil && !strings.Contains(" ACTIVE INACTIVE DRAFT ", " "+*in.Status+" "):
		return nil, errf(http.StatusBadRequest, "unknown skill.status %q", *in.Status)
	case in.Properties != nil && in.Properties[0] != '{':
		return nil, errf(http.StatusBadRequest, "skill.properties must be a JSON object")
	}
	return &b, nil
}

// setTools replaces the skill's tools when the body sends a list.
func (k *skill) setTools(b *skillBundleBody) {
	if b.Tools != nil {
		k.tools = objects(*b.Tools)
	}
}

// answer is the service's Skill.
func (k *skill) answer() any {
	return struct {
		ID string `json:"id"`
		*skillInput
		Tools map[string]any `json:"tools"`
	}{k.id, &k.skillInput, map[string]any{"items": k.tools, "total": len(k.tools)}}
}

func skillSeq(k *skill) uint64 { return k.seq }
func skillFields(k *skill) map[string]string {
	out := map[string]string{"id": k.id}
	for name, v := range map[string]*string{"type": k.Type, "status": k.Status, "name": k.Name, "description": k.Description} {
		if v != nil {
			out[name] = *v
		}
	}
	return out
}

// listSkills is GET /apps/{alias}/skills: paged, with a filter on the
// string members of the skill.
func (s *Server) listSkills(rq *request, segs []string) response {
	s.mu.Lock() // ofApp may create the app's (empty) list
	defer s.mu.Unlock()
	skills, e := ofApp(s, &s.st.cat().skills, segs[1])
	if e != nil {
		return fail(e)
	}
	p, e := parsePaging(rq, "apps/"+segs[1]+"/skills")
	if e != nil {
		return fail(e)
	}
	res := selectPage(*skills, skillSeq, skillFields, p)
	return reply(http.StatusOK, buildPlainList(res, p, skillSeq, func(k *skill) any { return k.answer() }))
}

// createSkill is POST /apps/{alias}/skills: 201 with the new skill.
func (s *Server) createSkill(rq *request, segs []string) response {
	b, e := decodeSkillBundle(rq, true)
	if e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	skills, e := ofApp(s, &s.st.cat().skills, segs[1])
	if e != nil {
		return fail(e)
	}
	c := s.st.cat()
	k := &skill{seq: s.st.next.nextSeq(), id: s.st.next.uuid(uuidSkill, &c.skillIDs), skillInput: *b.Skill, tools: []any{}}
	k.setTools(b)
	*skills = append(*skills, k)
	return reply(http.StatusCreated, k.answer())
}

// updateSkill is PUT /apps/{alias}/skills/{id}: 200 with the skill.
func (s *Server) updateSkill(rq *request, segs []string) response {
	b, e := decodeSkillBundle(rq, false)
	if e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	skills, e := ofApp(s, &s.st.cat().skills, segs[1])
	if e != nil {
		return fail(e)
	}
	for _, k := range *skills {
		if k.id != segs[3] {
			continue
		}
		in := b.Skill
		for dst, src := range map[**string]*string{&k.Type: in.Type, &k.Status: in.Status, &k.Name: in.Name, &k.Description: in.Description, &k.Instructions: in.Instructions} {
			if src != nil {
				*dst = src
			}
		}
		if in.Properties != nil {
			k.Properties = in.Properties
		}
		if in.Discovery != nil {
			k.Discovery = in.Discovery
		}
		k.setTools(b)
		return reply(http.StatusOK, k.answer())
	}
	return failf(http.StatusNotFound, "no skill with id %q in app %q", segs[3], segs[1])
}

package workflowtest

import (
	"cmp"
	"encoding/json"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
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

// skillInput is SkillCreateInput and SkillUpdateInput.
type skillInput struct {
	Type         *string          `json:"type,omitempty"`
	Status       *string          `json:"status,omitempty"`
	Name         *string          `json:"name,omitempty"`
	Description  *string          `json:"description,omitempty"`
	Instructions *string          `json:"instructions,omitempty"`
	Properties   *json.RawMessage `json:"properties,omitempty"`
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

// skillRoutes are the operations on skills.
var skillRoutes = []route{
	on(op.ListSkills, (*Server).listSkills),
	onJSON[skillBundleBody](op.CreateSkill, (*Server).changeSkill),
	onJSON[skillBundleBody](op.UpdateSkill, (*Server).changeSkill),
}

// listSkills is GET /apps/{alias}/skills: paged, with a filter on the
// string members of the skill.
func (s *Server) listSkills(rq *request) response {
	return listOfApp(s, rq, &s.st.skills, "skills", skillSeq, skillFields, (*skill).answer)
}

// changeSkill is POST /apps/{alias}/skills (201 with the new skill) and
// PUT /apps/{alias}/skills/{id} (200 with the skill).
func (s *Server) changeSkill(rq *request) response {
	b := in[*skillBundleBody](rq)
	in := b.Skill
	k, status, e := changeOfApp(s, rq, &s.st.skills, "skill", func(k *skill) string { return k.id },
		func() *skill {
			return &skill{seq: s.st.next.nextSeq(), id: s.st.next.uuid(uuidSkill, &s.st.skillIDs), skillInput: *in, tools: []any{}}
		}, func(k *skill) {
			k.Type, k.Status, k.Name = cmp.Or(in.Type, k.Type), cmp.Or(in.Status, k.Status), cmp.Or(in.Name, k.Name)
			k.Description, k.Instructions = cmp.Or(in.Description, k.Description), cmp.Or(in.Instructions, k.Instructions)
			k.Properties, k.Discovery = cmp.Or(in.Properties, k.Properties), cmp.Or(in.Discovery, k.Discovery)
		})
	if e != nil {
		return fail(e)
	}
	setObjects(&k.tools, b.Tools)
	return reply(status, k.answer())
}

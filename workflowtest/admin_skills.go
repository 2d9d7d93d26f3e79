package workflowtest

import (
	"maps"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/admin"
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

// skill is a skill of an app.
type skill = passObject

// skills are the skills of apps, each the service's Skill.
var skills = &appItems{kind: "skill", uuid: uuidSkill,
	of: func(st *state) (*map[string]*[]*passObject, *uint64) { return &st.skills, &st.skillIDs },
	show: func(k *skill, _ bool) map[string]any {
		out := maps.Clone(k.body)
		out["id"], out["tools"] = k.id, map[string]any{"items": k.tools, "total": len(k.tools)}
		return out
	},
	bundle: func(rq *request) (map[string]any, []jsontext.Value, []jsontext.Value) {
		b := in[*admin.SkillBundle](rq)
		set := b.Skill
		set.Extra = nil // a skill keeps the members SkillUpdateInput and SkillCreateInput declare (the schema keeps no others)
		if set.Discovery != nil {
			d := *set.Discovery
			d.Extra = nil // and those of SkillDiscoveryProperties
			set.Discovery = &d
		}
		members, _ := parseObject[any](encodeJSON(set), "skill")
		return members, b.Tools, nil
	},
}

// skillRoutes are the operations on skills.
var skillRoutes = []route{
	on(op.ListSkills, skills.list),
	onJSON[admin.SkillBundle](op.CreateSkill, skills.change),
	onJSON[admin.SkillBundle](op.UpdateSkill, skills.change),
}

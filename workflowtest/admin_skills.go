package workflowtest

import (
	"maps"
	"slices"

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

// skillMembers are the members SkillUpdateInput and SkillCreateInput
// declare, and discoveryMembers those of their discoveryProperties: a
// skill keeps those (the schema keeps no others).
var (
	skillMembers     = []string{"type", "status", "name", "description", "instructions", "properties", "discoveryProperties"}
	discoveryMembers = []string{"routingPriority", "positiveKeywords", "negativeKeywords", "aliases", "exampleUtterances"}
)

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
	members: func(b *bundleBody) map[string]any {
		members, _ := parseObject[any](b.Skill, "skill") // an object: checked
		maps.DeleteFunc(members, func(k string, _ any) bool { return !slices.Contains(skillMembers, k) })
		if d, ok := members["discoveryProperties"].(map[string]any); ok {
			maps.DeleteFunc(d, func(k string, _ any) bool { return !slices.Contains(discoveryMembers, k) })
		}
		return members
	},
}

// skillRoutes are the operations on skills.
var skillRoutes = []route{
	on(op.ListSkills, skills.list),
	onJSON[bundleBody](op.CreateSkill, skills.change),
	onJSON[bundleBody](op.UpdateSkill, skills.change),
}

package admin

import (
	"context"
	"iter"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// SkillsService is the skills of an app, what its agents can be given to
// do: GET and POST /apps/{alias}/skills, PUT /apps/{alias}/skills/{id}.
//
// See the package documentation for the records route the paths overlap.
type SkillsService struct {
	client *workflow.Client
}

// SkillType is the kind of a skill.
type SkillType string

// The skill kinds the service publishes.
const (
	SkillInternal SkillType = "INTERNAL"
	SkillCustom   SkillType = "CUSTOM"
)

// SkillStatus is the lifecycle status of a skill.
type SkillStatus string

// The skill statuses the service publishes.
const (
	SkillActive   SkillStatus = "ACTIVE"
	SkillInactive SkillStatus = "INACTIVE"
	SkillDraft    SkillStatus = "DRAFT"
)

// Request returns the create body of the skill as read (for Create, in
// this app or another), with every member as it was read (empty members
// sent empty, absent ones left out): its type, status, name,
// description, instructions, properties and the members of Extra
// (discoveryProperties among them, when the service sends it). What it
// cannot carry: the read-only id and app, and its tools: the service
// reads them as a connection whose members it does not publish, and
// takes them as a list of tool objects, which the caller supplies. A
// member read as null is an error naming it.
func (s Skill) Request() (SkillBundle, error) {
	set, err := writeBody[SkillSettings](s, []string{"id", "app", "tools"}, nil)
	return SkillBundle{Skill: set}, err
}

// List returns one page of the skills of the app alias (its namespace or
// its UUID): GET /apps/{alias}/skills with the paging options and RSQL
// filter of opts (the service publishes both for this list).
func (s *SkillsService) List(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) (*workflow.Page[Skill], error) {
	return listPage[Skill](ctx, s.client, at(op.ListSkills, "alias", alias), opts, reqOpts)
}

// Pages walks the skills of the app alias page by page (GET
// /apps/{alias}/skills, as List) from where opts points, following the answer's
// cursors.
func (s *SkillsService) Pages(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[*workflow.Page[Skill], error] {
	return listPages[Skill](ctx, s.client, at(op.ListSkills, "alias", alias), opts, reqOpts)
}

// All iterates over the skills of the app alias (GET /apps/{alias}/skills, as
// List) from where opts points.
func (s *SkillsService) All(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[Skill, error] {
	return listAll[Skill](ctx, s.client, at(op.ListSkills, "alias", alias), opts, reqOpts)
}

// Create creates a skill under the app alias: POST /apps/{alias}/skills
// with b as the body, answered 201 with the skill. A body that breaks a
// rule of the document (a name is required) is a
// *workflow.ValidationError, and nothing is sent. Like every POST, it is
// not retried after a 5xx or a dropped connection.
func (s *SkillsService) Create(ctx context.Context, alias string, b SkillBundle, reqOpts ...workflow.RequestOption) (*Skill, error) {
	return call[Skill](ctx, s.client, at(op.CreateSkill, "alias", alias), b, reqOpts)
}

// Update changes the skill id of the app alias: PUT
// /apps/{alias}/skills/{id} with b as the body, answered with the skill.
// The settings b leaves out keep their value; Tools, when not nil,
// replaces the skill's tools.
func (s *SkillsService) Update(ctx context.Context, alias, id string, b SkillBundle, reqOpts ...workflow.RequestOption) (*Skill, error) {
	return call[Skill](ctx, s.client, at(op.UpdateSkill, "alias", alias, "id", id), b, reqOpts)
}

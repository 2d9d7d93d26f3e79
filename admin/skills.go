package admin

import (
	"context"
	"iter"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

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

// Skill is a skill as the skills list, Create and Update answer it.
//
// Members the SDK does not model are kept in Extra and written back when
// the skill is encoded again, with encoding/json as with
// github.com/go-json-experiment/json.
type Skill struct {
	// ID identifies the skill (a UUID) in paths.
	ID     Opt[string]      `json:"id,omitzero"`
	Type   Opt[SkillType]   `json:"type,omitzero"`
	Status Opt[SkillStatus] `json:"status,omitzero"`
	Name   Opt[string]      `json:"name,omitzero"`
	// Description is a short summary of what the skill does.
	Description Opt[string] `json:"description,omitzero"`
	// Instructions is the system prompt that steers the skill.
	Instructions Opt[string] `json:"instructions,omitzero"`
	// Properties is the skill's type-specific configuration, a JSON
	// object the service publishes no members for.
	Properties jsontext.Value `json:"properties,omitzero"`
	// Tools is the connection of the tools attached to the skill, a JSON
	// object the service publishes no members for.
	Tools jsontext.Value `json:"tools,omitzero"`
	// App is the app the skill belongs to, when the answer carries it.
	App Opt[Aspect] `json:"app,omitzero"`
	// Extra holds every member the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a skill; unknown members go to Extra.
func (s *Skill) UnmarshalJSON(data []byte) error { return jsonmodel.Unmarshal(data, s) }

// MarshalJSON writes the skill with its Extra members.
func (s Skill) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(s) }

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

// SkillDiscovery tunes how a skill is found and routed to (the service's
// SkillDiscoveryProperties).
type SkillDiscovery struct {
	// RoutingPriority breaks ties when several skills match.
	RoutingPriority *float64 `json:"routingPriority,omitzero"`
	// PositiveKeywords favour the skill; NegativeKeywords disfavour it.
	PositiveKeywords []string `json:"positiveKeywords,omitzero"`
	NegativeKeywords []string `json:"negativeKeywords,omitzero"`
	// Aliases are other names the skill is known by.
	Aliases []string `json:"aliases,omitzero"`
	// ExampleUtterances are phrases that should route to the skill.
	ExampleUtterances []string `json:"exampleUtterances,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// SkillSettings is the skill of a create or update body (the service's
// SkillCreateInput and SkillUpdateInput). As in every request body of
// this package, a nil pointer or slice leaves the member out (an Update
// keeps its value), and a pointer to an empty value sends it empty. The
// owner is the app of the path.
type SkillSettings struct {
	// Name is the display name: required by Create.
	Name         *string      `json:"name,omitzero"`
	Type         *SkillType   `json:"type,omitzero"`
	Status       *SkillStatus `json:"status,omitzero"`
	Description  *string      `json:"description,omitzero"`
	Instructions *string      `json:"instructions,omitzero"`
	// Properties is the type-specific configuration: one JSON object.
	Properties jsontext.Value  `json:"properties,omitzero"`
	Discovery  *SkillDiscovery `json:"discoveryProperties,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// SkillBundle is the body of SkillsService.Create (POST
// /apps/{alias}/skills, the service's SkillBundleCreateRequest) and
// Update (PUT /apps/{alias}/skills/{id}, its SkillBundleUpdateRequest).
// Skill.Request returns the one of a skill as read.
type SkillBundle struct {
	// Skill is the skill. Required.
	Skill SkillSettings `json:"skill"`
	// Tools are tools to attach, JSON objects forwarded as they are. Nil
	// sends none; on Update, a non-nil list (even empty) replaces the
	// skill's tools.
	Tools []jsontext.Value `json:"tools,omitzero"`
	// Extra holds further members of the body, for members the service
	// may add later. A key that names a member above is an error, and
	// nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the discovery properties with their Extra members.
func (d SkillDiscovery) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(d) }

// UnmarshalJSON reads the discovery properties; unknown members go to
// Extra, and a null member is an error.
func (d *SkillDiscovery) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, d) }

// MarshalJSON writes the settings with their Extra members.
func (s SkillSettings) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(s) }

// UnmarshalJSON reads the settings, as SkillDiscovery's does.
func (s *SkillSettings) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, s) }

// MarshalJSON writes the body with its Extra members.
func (b SkillBundle) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(b) }

// UnmarshalJSON reads the body, as SkillDiscovery's does.
func (b *SkillBundle) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, b) }

// List returns one page of the skills of the app alias (its namespace or
// its UUID): GET /apps/{alias}/skills with the paging options and RSQL
// filter of opts (the service publishes both for this list).
func (s *SkillsService) List(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) (*workflow.Page[Skill], error) {
	return listPage[Skill](ctx, s.client, at(op.ListSkills, "alias", alias), opts, reqOpts)
}

// Pages walks the skills of the app alias page by page from where opts
// points, following the answer's cursors.
func (s *SkillsService) Pages(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[*workflow.Page[Skill], error] {
	return listPages[Skill](ctx, s.client, at(op.ListSkills, "alias", alias), opts, reqOpts)
}

// All iterates over the skills of the app alias from where opts points.
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

package admin

import (
	"context"
	"iter"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// AgentsService is the AI agents of an app: GET and POST
// /apps/{alias}/agents, PUT /apps/{alias}/agents/{id}.
//
// See the package documentation for the records route the paths overlap.
type AgentsService struct {
	client *workflow.Client
}

// ReasoningEffort is how much hidden reasoning an agent's model may do
// before it answers.
type ReasoningEffort string

// The reasoning efforts the service publishes.
const (
	ReasoningMinimal ReasoningEffort = "MINIMAL"
	ReasoningLow     ReasoningEffort = "LOW"
	ReasoningMedium  ReasoningEffort = "MEDIUM"
	ReasoningHigh    ReasoningEffort = "HIGH"
)

// Agent is an agent as the agents list publishes it (a summary), and as
// Create and Update answer it (the document publishes those answers as
// free-form objects; the SDK reads them as agents, members an Agent does
// not model kept in Extra).
//
// Members the SDK does not model are kept in Extra and written back when
// the agent is encoded again, with encoding/json as with
// github.com/go-json-experiment/json.
type Agent struct {
	// ID identifies the agent (a UUID) in paths.
	ID Opt[string] `json:"id,omitzero"`
	// Type is the agent's variant: AgentElementum, AgentSystem,
	// AgentBrowserUse, AgentSnowflake, AgentBedrock or AgentExternal.
	Type        Opt[string] `json:"type,omitzero"`
	Name        Opt[string] `json:"name,omitzero"`
	Description Opt[string] `json:"description,omitzero"`
	// MaxLength is the most tokens the model may return per turn.
	MaxLength       Opt[int32]           `json:"maxLength,omitzero"`
	ReasoningEffort Opt[ReasoningEffort] `json:"reasoningEffort,omitzero"`
	// Temperature is the model's sampling temperature (typically 0 to 2).
	Temperature Opt[float64] `json:"temperature,omitzero"`
	// Extra holds every member the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads an agent; unknown members go to Extra.
func (a *Agent) UnmarshalJSON(data []byte) error { return jsonmodel.Unmarshal(data, a) }

// MarshalJSON writes the agent with its Extra members.
func (a Agent) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(a) }

// Request returns the create body of the agent as read (for Create, in
// this workspace or another), with every member as it was read (empty
// members sent empty, absent ones left out): its name, description,
// maxLength, reasoningEffort, temperature and the members of Extra, as
// the settings of the service's own kind of agent (Elementum, the one
// variant the service publishes). What it cannot carry: the read-only id
// and type, and what the list's summary of an agent lacks: its
// instructions, first message, avatar, AI provider connector, tools and
// A2A skills, which the caller supplies. A member read as null is an
// error naming it.
func (a Agent) Request() (AgentBundle, error) {
	s, err := writeBody[AgentSettings](a, []string{"id", "type"}, nil)
	return AgentBundle{Agent: AgentInput{Elementum: &s}}, err
}

// AgentSettings are the settings of an agent of the service's own kind
// (the service's AgentSettings). As in every request body of this
// package, a nil pointer or slice leaves the member out (an Update keeps
// its value), and a pointer to an empty value sends it empty.
type AgentSettings struct {
	Name        *string `json:"name,omitzero"`
	Description *string `json:"description,omitzero"`
	// Instructions is the system prompt that steers the agent.
	Instructions *string `json:"instructions,omitzero"`
	// FirstMessage is what the agent posts when a conversation starts.
	FirstMessage    *string          `json:"firstMessage,omitzero"`
	MaxLength       *int32           `json:"maxLength,omitzero"`
	ReasoningEffort *ReasoningEffort `json:"reasoningEffort,omitzero"`
	Temperature     *float64         `json:"temperature,omitzero"`
	// AvatarAttachmentID is the attachment (a UUID) of the avatar image.
	// The document gives no empty value that clears it: "" is not a UUID.
	AvatarAttachmentID *string `json:"avatarAttachmentId,omitzero"`
	// AIProviderConnectorID is the AI provider connector (a UUID); as for
	// AvatarAttachmentID, it cannot be cleared.
	AIProviderConnectorID *string `json:"aiProviderConnectorId,omitzero"`
	// Extra holds the less common settings the service forwards as they
	// are (voiceConfig, runAs, startingActions, ...).
	Extra map[string]jsontext.Value `json:",embed"`
}

// AgentInput is the agent of a create or update body: one variant, of
// which the service publishes one, Elementum, its own kind of agent.
type AgentInput struct {
	Elementum *AgentSettings `json:"elementum,omitzero"`
	// Extra holds a variant the service may add, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// AgentBundle is the body of AgentsService.Create (POST
// /apps/{alias}/agents, the service's AgentBundleCreateRequest) and
// Update (PUT /apps/{alias}/agents/{id}, its AgentBundleUpdateRequest).
// Agent.Request returns the one of an agent as listed.
type AgentBundle struct {
	// Agent is the agent. Required.
	Agent AgentInput `json:"agent"`
	// Tools are tools to attach, JSON objects forwarded as they are. Nil
	// sends none; on Update, a non-nil list (even empty) replaces the
	// agent's tools.
	Tools []jsontext.Value `json:"tools,omitzero"`
	// A2ASkills are A2A skills to attach, as for Tools.
	A2ASkills []jsontext.Value `json:"a2aSkills,omitzero"`
	// Extra holds further members of the body, for members the service
	// may add later. A key that names a member above is an error, and
	// nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the settings with their Extra members.
func (a AgentSettings) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(a) }

// UnmarshalJSON reads the settings; unknown members go to Extra, and a
// null member is an error.
func (a *AgentSettings) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, a) }

// MarshalJSON writes the variant with its Extra members.
func (a AgentInput) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(a) }

// UnmarshalJSON reads the variant, as AgentSettings's does.
func (a *AgentInput) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, a) }

// MarshalJSON writes the body with its Extra members.
func (b AgentBundle) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(b) }

// UnmarshalJSON reads the body, as AgentSettings's does.
func (b *AgentBundle) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, b) }

// List returns one page of the agents of the app alias (its namespace or
// its UUID): GET /apps/{alias}/agents with the paging options and RSQL
// filter of opts (the service publishes both for this list).
func (s *AgentsService) List(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) (*workflow.Page[Agent], error) {
	return listPage[Agent](ctx, s.client, at(op.ListAgents, "alias", alias), opts, reqOpts)
}

// Pages walks the agents of the app alias page by page from where opts
// points, following the answer's cursors.
func (s *AgentsService) Pages(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[*workflow.Page[Agent], error] {
	return listPages[Agent](ctx, s.client, at(op.ListAgents, "alias", alias), opts, reqOpts)
}

// All iterates over the agents of the app alias from where opts points.
func (s *AgentsService) All(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[Agent, error] {
	return listAll[Agent](ctx, s.client, at(op.ListAgents, "alias", alias), opts, reqOpts)
}

// Create creates an agent under the app alias: POST /apps/{alias}/agents
// with b as the body (201), and returns it as the service answers. A body
// that breaks a rule of the document is a *workflow.ValidationError, and
// nothing is sent. Like every POST, it is not retried after a 5xx or a
// dropped connection.
func (s *AgentsService) Create(ctx context.Context, alias string, b AgentBundle, reqOpts ...workflow.RequestOption) (*Agent, error) {
	return call[Agent](ctx, s.client, at(op.CreateAgent, "alias", alias), b, reqOpts)
}

// Update changes the agent id of the app alias: PUT
// /apps/{alias}/agents/{id} with b as the body (200), and returns it as
// the service answers. The settings b leaves out keep their value; Tools
// and A2ASkills, when not nil, replace the agent's.
func (s *AgentsService) Update(ctx context.Context, alias, id string, b AgentBundle, reqOpts ...workflow.RequestOption) (*Agent, error) {
	return call[Agent](ctx, s.client, at(op.UpdateAgent, "alias", alias, "id", id), b, reqOpts)
}

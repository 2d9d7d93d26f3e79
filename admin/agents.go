package admin

import (
	"cmp"
	"context"
	"iter"
	"net/http"
	"strconv"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
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

// Agent is an agent as the agents list publishes it (a summary). The
// answers of Create and Update are Passthrough objects; decode one into an
// Agent (json.Unmarshal) to read these members of it.
//
// Members the SDK does not model are kept in Extra and written back when
// the agent is encoded again, with encoding/json as with
// github.com/go-json-experiment/json.
type Agent struct {
	// ID identifies the agent (a UUID) in paths.
	ID string `json:"id,omitzero"`
	// Type is the agent's variant: AgentElementum, AgentSystem,
	// AgentBrowserUse, AgentSnowflake, AgentBedrock or AgentExternal.
	Type        string `json:"type,omitzero"`
	Name        string `json:"name,omitzero"`
	Description string `json:"description,omitzero"`
	// MaxLength is the most tokens the model may return per turn.
	MaxLength       int32           `json:"maxLength,omitzero"`
	ReasoningEffort ReasoningEffort `json:"reasoningEffort,omitzero"`
	// Temperature is the model's sampling temperature (typically 0 to 2).
	Temperature float64 `json:"temperature,omitzero"`
	// Extra holds every member the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads an agent; unknown members go to Extra.
func (a *Agent) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, a)
}

// MarshalJSON writes the agent with its Extra members.
func (a Agent) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(a)
}

// AgentSettings are the settings of an agent of the service's own kind
// (the service's AgentSubtypeCreateInput and AgentSubtypeUpdateInput).
// Only what is set is sent; an Update changes only that.
type AgentSettings struct {
	Name        string `json:"name,omitzero"`
	Description string `json:"description,omitzero"`
	// Instructions is the system prompt that steers the agent.
	Instructions string `json:"instructions,omitzero"`
	// FirstMessage is what the agent posts when a conversation starts.
	FirstMessage    string          `json:"firstMessage,omitzero"`
	MaxLength       *int32          `json:"maxLength,omitzero"`
	ReasoningEffort ReasoningEffort `json:"reasoningEffort,omitzero"`
	Temperature     *float64        `json:"temperature,omitzero"`
	// AvatarAttachmentID is the attachment (a UUID) of the avatar image.
	AvatarAttachmentID string `json:"avatarAttachmentId,omitzero"`
	// AIProviderConnectorID is the AI provider connector (a UUID).
	AIProviderConnectorID string `json:"aiProviderConnectorId,omitzero"`
	// Extra holds the less common settings the service forwards as they
	// are (voiceConfig, runAs, startingActions, ...).
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the settings with their Extra members.
func (a AgentSettings) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(a)
}

func (a *AgentSettings) validate(field string) error {
	return cmp.Or(checkUUID(field+".AvatarAttachmentID", a.AvatarAttachmentID, false), checkUUID(field+".AIProviderConnectorID", a.AIProviderConnectorID, false))
}

// AgentInput is the agent of a create or update body: one variant, of
// which the service publishes one, Elementum, its own kind of agent.
// Another variant goes in Extra under its name.
type AgentInput struct {
	Elementum *AgentSettings `json:"elementum,omitzero"`
	// Extra holds a variant the service may add, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the agent variant with its Extra members.
func (a AgentInput) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(a)
}

func (a *AgentInput) validate(field string) error {
	if n := len(a.Extra) + btoi(a.Elementum != nil); n != 1 {
		return invalid(field, "must set exactly one variant (Elementum), not "+strconv.Itoa(n))
	}
	if a.Elementum != nil {
		return a.Elementum.validate(field + ".Elementum")
	}
	return nil
}

// AgentBundle is the body of AgentsService.Create (POST
// /apps/{alias}/agents, the service's AgentBundleCreateRequest) and
// Update (PUT /apps/{alias}/agents/{id}, its AgentBundleUpdateRequest).
type AgentBundle struct {
	// Agent is the agent. Required.
	Agent AgentInput `json:"agent"`
	// Tools are tools to attach, JSON objects forwarded as they are. Nil
	// sends none; on Update, a non-nil list (even empty) replaces the
	// agent's tools.
	Tools []jsontext.Value `json:"tools,omitzero"`
	// A2ASkills are A2A skills to attach, as for Tools.
	A2ASkills []jsontext.Value `json:"a2aSkills,omitzero"`
}

func (b *AgentBundle) validate() error {
	return cmp.Or(b.Agent.validate("AgentBundle.Agent"), checkObjects("AgentBundle.Tools", b.Tools), checkObjects("AgentBundle.A2ASkills", b.A2ASkills))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// list is the paged list of the app alias's agents.
func (s *AgentsService) list(alias string) (workflow.PagedList[Agent], error) {
	p, err := segPath("", "apps", "alias", alias, "", "agents")
	return workflow.PagedList[Agent]{Client: s.client, Path: p, Filtered: true}, err
}

// List returns one page of the agents of the app alias (its namespace or
// its UUID): GET /apps/{alias}/agents with the paging options and RSQL
// filter of opts (the service publishes both for this list).
func (s *AgentsService) List(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) (*workflow.Page[Agent], error) {
	l, err := s.list(alias)
	return listPage(ctx, l, err, opts, reqOpts)
}

// Pages walks the agents of the app alias page by page from where opts
// points, following the answer's cursors.
func (s *AgentsService) Pages(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[*workflow.Page[Agent], error] {
	l, err := s.list(alias)
	return listPages(ctx, l, err, opts, reqOpts)
}

// All iterates over the agents of the app alias from where opts points.
func (s *AgentsService) All(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[Agent, error] {
	l, err := s.list(alias)
	return listAll(ctx, l, err, opts, reqOpts)
}

// Create creates an agent under the app alias: POST /apps/{alias}/agents
// with b as the body (201). b.Agent must set exactly one variant; a broken
// rule is a *workflow.ValidationError and nothing is sent. The answer is a
// Passthrough object, returned as it came. Like every POST, it is not
// retried after a 5xx or a dropped connection.
func (s *AgentsService) Create(ctx context.Context, alias string, b AgentBundle, reqOpts ...workflow.RequestOption) (jsontext.Value, error) {
	p, err := segPath("", "apps", "alias", alias, "", "agents")
	return callObject(ctx, s.client, http.MethodPost, p, cmp.Or(err, b.validate()), b, reqOpts)
}

// Update changes the agent id of the app alias: PUT
// /apps/{alias}/agents/{id} with b as the body (200). The settings b
// leaves out keep their value; Tools and A2ASkills, when not nil, replace
// the agent's. The answer is a Passthrough object, returned as it came.
func (s *AgentsService) Update(ctx context.Context, alias, id string, b AgentBundle, reqOpts ...workflow.RequestOption) (jsontext.Value, error) {
	p, err := segPath("", "apps", "alias", alias, "", "agents", "id", id)
	return callObject(ctx, s.client, http.MethodPut, p, cmp.Or(err, b.validate()), b, reqOpts)
}

package admin

import (
	"context"
	"iter"

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

// List returns one page of the agents of the app alias (its namespace or
// its UUID): GET /apps/{alias}/agents with the paging options and RSQL
// filter of opts (the service publishes both for this list).
func (s *AgentsService) List(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) (*workflow.Page[Agent], error) {
	return listPage[Agent](ctx, s.client, at(op.ListAgents, "alias", alias), opts, reqOpts)
}

// Pages walks the agents of the app alias page by page (GET
// /apps/{alias}/agents, as List) from where opts points, following the answer's
// cursors.
func (s *AgentsService) Pages(ctx context.Context, alias string, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[*workflow.Page[Agent], error] {
	return listPages[Agent](ctx, s.client, at(op.ListAgents, "alias", alias), opts, reqOpts)
}

// All iterates over the agents of the app alias (GET /apps/{alias}/agents, as
// List) from where opts points.
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

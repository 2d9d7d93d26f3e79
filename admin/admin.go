// Package admin is the workspace configuration of the records and
// workflow-automation API: the operations beyond the records API that
// configure a workspace (its e-mail domains, apps, automations, flows,
// views, elements, tables with their joins and mappings, search tables,
// agents and skills). An integrator who keeps a workspace's configuration
// in version control, or promotes it from a staging workspace to
// production, uses it beside package workflow:
//
//	c, err := workflow.NewClientFromEnv()
//	ws := admin.New(c)
//
// It is a package of its own so that the records API's package stays
// small; every operation goes through the client's one request path
// (workflow.Client.Call and workflow.PagedList): the same per-call
// options, authentication, retries, observers, errors and reply rules.
package admin

import workflow "github.com/seed-a15e58aa/workflow-go"

// Workspace is the configuration of the workspace a client reaches. Its
// services are safe for concurrent use, as the client is.
type Workspace struct {
	client *workflow.Client

	// services, one per family:

	// domains

	// Domains configures the organisation's domains and the e-mail
	// domains of dynamic groups.
	Domains *DomainsService

	// automations

	// Automations configures the automations of apps and elements.
	Automations *AutomationsService

	// views

	// Views configures the views of apps.
	Views *ViewsService

	// elements

	// Elements is the definitions of the workspace's elements.
	Elements *ElementsService

	// apps

	// Apps composes the workspace's apps.
	Apps *AppsService

	// flows

	// Flows is the workspace's flows.
	Flows *FlowsService

	// agents

	// Agents is the AI agents of the workspace's apps.
	Agents *AgentsService

	// skills

	// Skills is the skills of the workspace's apps.
	Skills *SkillsService

	// tables

	// Tables is the workspace's tables, with their joins and join-field
	// mappings.
	Tables *TablesService

	// search tables

	// SearchTables is the search tables of the workspace's aspects.
	SearchTables *SearchTablesService
}

// New returns the workspace configuration reached through c.
func New(c *workflow.Client) *Workspace {
	ws := &Workspace{client: c}

	// domains
	ws.Domains = &DomainsService{client: c, Groups: &GroupDomainsService{client: c}}

	// automations
	ws.Automations = &AutomationsService{client: c}

	// views
	ws.Views = &ViewsService{client: c}

	// elements
	ws.Elements = &ElementsService{client: c}

	// apps
	ws.Apps = &AppsService{client: c}

	// flows
	ws.Flows = &FlowsService{client: c}

	// agents
	ws.Agents = &AgentsService{client: c}

	// skills
	ws.Skills = &SkillsService{client: c}

	// tables
	ws.Tables = newTablesService(c)

	// search tables
	ws.SearchTables = &SearchTablesService{client: c}

	return ws
}

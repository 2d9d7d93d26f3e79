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
//
// # Routes that overlap the records API
//
// Some of these paths have the shape of a records route, and the service
// does not publish which one it answers when both could match.
//
// GET /elements/{alias} is both an element's definition and the record
// list of the elements of that alias (GET /{recordType}/{alias}).
// ElementsService.Get sends it with no query string and refuses an answer
// without an element id (a record list among them) with an error matching
// workflow.ErrUnexpectedResponse, never an empty Aspect;
// workflow.RecordsService.List sends the same path, with paging and filter
// parameters when it has them.
// The fake answers the definition when an element of that alias (its
// namespace or its id) was created with ElementsService.Create and the
// request has none of the list's parameters, and the record list otherwise.
// Against the service, a bare GET of an alias that has records and a
// definition may answer either.
//
// /apps/{alias}/agents, /apps/{alias}/skills and /apps/{alias}/views have
// the shape of a record of the app alias whose id is "agents", "skills" or
// "views" (GET /{recordType}/{alias}/{id}), and /apps/{alias}/views/{id}
// and /apps/{alias}/{agents|skills}/{id} that of a sub-resource of such a
// record. AgentsService, SkillsService and ViewsService send exactly these
// paths (GET for the lists, POST to create, GET and PUT with an id) and
// read the answers as agents, skills and views. The fake routes them so
// before the records routes: a record whose id is one of these words
// cannot be read there (its ids are never such words). Against the
// service, a record with such an id may not be reachable with
// workflow.RecordsService.Get, or these methods may reach it instead;
// which one is not published.
//
// /{recordType}/{alias}/automations is the same case for every record
// type: AutomationsService.List sends GET /{recordType}/{alias}/automations
// and Get, Update and Delete send GET, PUT and DELETE
// /{recordType}/{alias}/automations/{id}, read as automations; Create and
// Validate POST to it and to .../automations/validate, which no records
// route takes. The fake routes these paths to the automations, so a record
// whose id is "automations" cannot be read there; the service's choice is
// not published.
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

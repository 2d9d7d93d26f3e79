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
// Its services, one per family, and the types each reads and writes:
//
//	ws.Domains        Domain; DomainRequest (ManagedDomain or EmailDomain)
//	ws.Domains.Groups workflow.GroupDomain
//	ws.Automations    Automation (canonical raw JSON), AutomationVersions
//	ws.Views          View; ViewRequest (ViewInput, ViewConfig, ViewShareInput)
//	ws.Elements       Aspect; NewElement, ElementUpdate
//	ws.Apps           jsontext.Value (free-form, both ways)
//	ws.Flows          jsontext.Value (free-form, both ways)
//	ws.Agents         Agent; AgentBundle (AgentInput, AgentSettings)
//	ws.Skills         Skill; SkillBundle (SkillSettings)
//	ws.Tables         Table, TableJoin; TableCreateRequest, TableUpdateRequest,
//	                  TableJoinInput, JoinMapping (ws.Tables.Joins, ws.Tables.JoinMappings)
//	ws.SearchTables   SearchTable; SnowflakeSearchTableRequest,
//	                  LinkedSearchTableRequest, SearchTableUpdate
//
// To keep an app's configuration in git, see "From export to apply"
// below. It is a package of its own so that the records API's package
// stays small; every operation goes through the client's one request
// path by its operation id (workflow.Client.Operation and
// workflow.OperationList, which this module's packages alone can call):
// the same path building, body checks, per-call options,
// authentication, retries, observers, errors and reply rules.
//
// # Operations
//
// Every family has one shape. A Get returns one value; a List of a paged
// list returns a *workflow.Page (with Pages and All beside it). A reply
// that is the family's resource is that typed resource, members the type
// does not model kept in Extra, even where the document publishes it as
// a free-form object (a view's or an agent's create and update). Other
// free-form replies are jsontext.Value, one JSON object as it came; an
// Automation is raw JSON too, with a canonical form of its own. A Delete
// returns only the error. Parameters are named after the document's
// parameter components (domainId, groupId, tableId, joinId,
// joinFieldsId, aspectId, aspectSearchTableId; alias and recordType); an
// id the document calls "the resource ID" is id.
//
// The table of every method ends this documentation ("Every
// operation"); go generate writes it from the methods themselves.
//
// An automation's Get answers every version the service sends (its
// "active and/or draft workflow", an array of any length), in order; the
// service does not publish how to tell them apart, and
// AutomationVersions.Draft reads the one whose "status" member is
// "DRAFT" as the draft, as the fake serves it
// (workflowtest.Server.SetAutomationDraft). List gives one version of
// each automation; the service does not publish which, and the fake
// lists the active one.
//
// # Read, keep in a file, write back
//
// Every model and request body reads and writes its JSON losslessly, with
// encoding/json as with github.com/go-json-experiment/json, and across
// the two: the members it models, and in Extra every other one, at every
// depth; and for configuration, absent, null and empty stay apart both
// ways.
//
// A read model (View, Agent, Table, ...) holds each member as an Opt,
// which says whether the service sent a value (false, 0, "" and []
// included), sent null, or sent nothing, and writes back exactly that:
// Get gives the value and whether there was one, IsNull says null, and
// the zero Opt is a member left out. Members kept as raw JSON
// (jsontext.Value) say the same by themselves: nil is absent, and null is
// the JSON null. A configuration read, kept in a file and written back
// must settle: written, read back and compared, it is the same, and a
// source with false and a target with nothing differ. Plain values cannot
// say that, and pointers cannot say null; writing back from the bytes
// read would leave the Go value unable to say it. So every read model of
// this package uses Opt, and nothing else. The records API's types
// (workflow.User and workflow.Group, also where a view's sharing holds
// them) keep plain values: their speed and shape are the records API's.
//
// A request body keeps explicit empty values too: an optional member is
// a pointer (nil leaves it out; new(""), new(0) or new(false) sends it
// empty), a slice (nil leaves it out; an empty non-nil slice sends []) or
// raw JSON (nil leaves it out); Opt.Ptr gives the pointer of a member
// read. A body cannot hold null: reading a request body, a JSON null for
// a member is an error naming its path, as on the wire. Reading a reply,
// a null member is kept as null (Null), and a null for the whole model
// leaves the value as it was. A list envelope (workflow.Page) keeps its
// items whole, not unknown envelope members.
//
// What a family reads, one documented method turns into the body that
// writes it back, in this workspace or another, with every member the
// read form holds that the body can take, as it was read (empty members
// sent empty, absent ones left out). Each names what it cannot carry and
// what the caller supplies; a member read as null is a
// *workflow.ValidationError naming the model and the member
// (View.name), since a body cannot hold null.
//
//	View.Request              ViewRequest, the body of Update (and of Create, with the view's ClientHandle)
//	Table.Request             TableCreateRequest, the body of Create
//	Table.UpdateRequest       TableUpdateRequest, the body of Update (field changes against the target as read)
//	Aspect.Request            ElementUpdate, the body of Elements.Update
//	SearchTable.Request       SnowflakeSearchTableRequest, the body of Create
//	SearchTable.UpdateRequest SearchTableUpdate, the body of Update
//	Agent.Request             AgentBundle, the body of Create and Update (a list entry is a summary)
//	Skill.Request             SkillBundle, the body of Create and Update
//
// What none of them can carry, and why (each method says the rest): a
// view's sharing (the write form takes client handles, which no read form
// holds: the caller supplies them as Share); a view's agent beyond its id
// (the write form takes agentId); an agent's members the list's summary
// lacks (instructions, first message, avatar, AI provider connector,
// tools, A2A skills); a skill's tools (read as a connection, written as a
// list); a join pair's value mappings (JoinMappingsService); a table
// field's semanticTags (no field input takes them); and everything
// read-only (ids, handles, types, positions, statuses).
//
// An Automation is the same type read and written (Without("id") drops
// the member a new workspace sets).
//
// # From export to apply
//
// To keep an app's automations and views in git and promote them to
// another workspace:
//
//  1. Read them: Automations.List(ctx, workflow.Apps, alias) and
//     Views.All(ctx, alias, nil).
//  2. Turn each into its write form: a.Without("id") for an automation,
//     v.Request() for a view (with its ClientHandle, the create's
//     handle). Write each to a file of its own; an Automation encodes
//     canonically, so an unchanged automation gives the same bytes.
//  3. In the target workspace, read its automations and views the same
//     way, and match them: automations by Name, views by ClientHandle.
//     Two of one name on either side are for a person to resolve.
//  4. Create what the target lacks and Update what differs: an
//     automation by its id in the target, a view by its handle.
//     Automations.Delete removes an automation only the target has;
//     views have no delete.
//  5. Ids are the workspace's own: check a view's agentId against
//     Agents.All of the target. Field ids (columns, displayByField) cannot
//     be checked, since no operation reads an app's fields.
//
// The OpenTofu provider of this repository (terraform-provider-workflow)
// does all of this with state, plans and import, for every family.
//
// # Checks before sending
//
// Every request body is checked, once encoded, against what the
// published document states for the operation: member types, required
// members, enums, formats (uuid, email, int32, date-time) and the rules
// it states in prose ("exactly one of", "mutually exclusive with"). The
// checks are those the fake applies (package internal/wire, built from
// the contract document); a broken rule is a *workflow.ValidationError
// naming the body's type and the member by its Go field
// (TableCreateRequest.Fields[0].Cloud.Name), and nothing is sent. An id,
// alias or handle of a path, and a handle or namespace Create gives what
// it creates, must be a usable path segment (workflow.Segment): not
// empty, ".", ".." or white space, without "/" or control characters,
// so that what Create makes can be read and changed. Nothing else is
// refused: what the document allows is sent.
//
// An update clears an optional member by sending it empty. Members in
// format uuid (a category, a source table, an agent's connector) have no
// empty value the document allows, and cannot be cleared so.
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

//go:generate go run ../internal/modelgen/gen ../internal/contract/openapi.yaml . admin
//go:generate go run ../internal/optable/gen admin Workspace

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

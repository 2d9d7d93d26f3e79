// Package opcalls performs every operation of the API through the SDK:
// each method of package workflow or admin that sends an operation, with
// arguments it accepts. The tests that hold the SDK and its telemetry to
// the operation table (package op) run them.
package opcalls

import (
	"context"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Env is what a Call needs: a client, its workspace, and the path of a
// small file to upload.
type Env struct {
	Client    *workflow.Client
	Workspace *admin.Workspace
	File      string
}

// A Call is one SDK method sending the operation Op: Method names it as
// a path from the client or workspace ("Records.Get", "admin.Views.Update").
// The error is the method's; an iterator stops at its first item.
type Call struct {
	Method string
	Op     op.ID
	Run    func(ctx context.Context, e Env) error
}

// Token is the operation the client sends by itself, for a token, before
// its first call (WithCredentials): no method names it.
const Token = op.RequestAccessToken

const (
	uuid  = "00000000-0000-4000-8000-000000000001"
	email = "ann@example.com"
)

// first runs an iterator up to its first element.
func first[T any](seq func(func(T, error) bool)) error {
	var err error
	seq(func(_ T, e error) bool { err = e; return false })
	return err
}

// body decodes a request body from its JSON form.
func body[T any](s string) T {
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic("opcalls: " + err.Error())
	}
	return v
}

// Calls lists every method that sends an operation.
var Calls = []Call{
	// records
	{"Records.List", op.RecordList, func(ctx context.Context, e Env) error {
		_, err := e.Client.Records.List(ctx, workflow.Tasks, "it", nil)
		return err
	}},
	{"Records.Pages", op.RecordList, func(ctx context.Context, e Env) error {
		return first(e.Client.Records.Pages(ctx, workflow.Elements, "it", nil))
	}},
	{"Records.All", op.RecordList, func(ctx context.Context, e Env) error {
		return first(e.Client.Records.All(ctx, workflow.Apps, "it", nil))
	}},
	{"Records.Get", op.GetRecord, func(ctx context.Context, e Env) error {
		_, err := e.Client.Records.Get(ctx, workflow.Tasks, "it", "1")
		return err
	}},
	{"Records.Create", op.CreateRecord, func(ctx context.Context, e Env) error {
		_, err := e.Client.Records.Create(ctx, workflow.Tasks, "it", workflow.Record{"a": "b"})
		return err
	}},
	{"Records.Update", op.UpdateRecord, func(ctx context.Context, e Env) error {
		_, err := e.Client.Records.Update(ctx, workflow.Tasks, "it", "1", workflow.Record{"a": "b"})
		return err
	}},
	{"Records.Comments.List", op.ListRecordComments, func(ctx context.Context, e Env) error {
		_, err := e.Client.Records.Comments.List(ctx, workflow.Tasks, "it", "1", nil)
		return err
	}},
	{"Records.Comments.Pages", op.ListRecordComments, func(ctx context.Context, e Env) error {
		return first(e.Client.Records.Comments.Pages(ctx, workflow.Tasks, "it", "1", nil))
	}},
	{"Records.Comments.All", op.ListRecordComments, func(ctx context.Context, e Env) error {
		return first(e.Client.Records.Comments.All(ctx, workflow.Tasks, "it", "1", nil))
	}},
	{"Records.Comments.Add", op.CreateRecordComment, func(ctx context.Context, e Env) error {
		_, err := e.Client.Records.Comments.Add(ctx, workflow.Tasks, "it", "1", "hello")
		return err
	}},
	{"Records.Watchers.List", op.ListRecordWatchers, func(ctx context.Context, e Env) error {
		_, err := e.Client.Records.Watchers.List(ctx, workflow.Tasks, "it", "1", nil)
		return err
	}},
	{"Records.Watchers.Pages", op.ListRecordWatchers, func(ctx context.Context, e Env) error {
		return first(e.Client.Records.Watchers.Pages(ctx, workflow.Tasks, "it", "1", nil))
	}},
	{"Records.Watchers.All", op.ListRecordWatchers, func(ctx context.Context, e Env) error {
		return first(e.Client.Records.Watchers.All(ctx, workflow.Tasks, "it", "1", nil))
	}},
	{"Records.Watchers.Add", op.CreateRecordWatchers, func(ctx context.Context, e Env) error {
		return e.Client.Records.Watchers.Add(ctx, workflow.Tasks, "it", "1", []string{email})
	}},
	{"Records.Watchers.Remove", op.DeleteRecordWatchers, func(ctx context.Context, e Env) error {
		return e.Client.Records.Watchers.Remove(ctx, workflow.Tasks, "it", "1", []string{email})
	}},
	{"Records.Related.List", op.GetRecordRelations, func(ctx context.Context, e Env) error {
		_, err := e.Client.Records.Related.List(ctx, workflow.Tasks, "it", "1", nil)
		return err
	}},
	{"Records.Related.Pages", op.GetRecordRelations, func(ctx context.Context, e Env) error {
		return first(e.Client.Records.Related.Pages(ctx, workflow.Tasks, "it", "1", nil))
	}},
	{"Records.Related.All", op.GetRecordRelations, func(ctx context.Context, e Env) error {
		return first(e.Client.Records.Related.All(ctx, workflow.Tasks, "it", "1", nil))
	}},
	{"Records.Related.Add", op.CreateRecordRelatedItems, func(ctx context.Context, e Env) error {
		return e.Client.Records.Related.Add(ctx, workflow.Tasks, "it", "1", workflow.RelatedRef{ID: "2"})
	}},
	{"Records.Related.AddMany", op.CreateRecordRelatedItems, func(ctx context.Context, e Env) error {
		return e.Client.Records.Related.AddMany(ctx, workflow.Tasks, "it", "1", []workflow.RelatedRef{{ID: "2"}})
	}},
	{"Records.Related.Remove", op.DeleteRecordRelatedItems, func(ctx context.Context, e Env) error {
		return e.Client.Records.Related.Remove(ctx, workflow.Tasks, "it", "1", "2")
	}},

	// attachments
	{"Attachments.List", op.ListRecordAttachments, func(ctx context.Context, e Env) error {
		_, err := e.Client.Attachments.List(ctx, workflow.Tasks, "it", "1")
		return err
	}},
	{"Attachments.Get", op.GetRecordAttachment, func(ctx context.Context, e Env) error {
		_, err := e.Client.Attachments.Get(ctx, workflow.Tasks, "it", "1", "a1")
		return err
	}},
	{"Attachments.WaitProcessed", op.GetRecordAttachment, func(ctx context.Context, e Env) error {
		_, err := e.Client.Attachments.WaitProcessed(ctx, workflow.Tasks, "it", "1", "a1", nil)
		return err
	}},
	{"Attachments.Delete", op.DeleteRecordAttachments, func(ctx context.Context, e Env) error {
		return e.Client.Attachments.Delete(ctx, workflow.Tasks, "it", "1", "a1")
	}},
	{"Attachments.AddLink", op.CreateRecordLink, func(ctx context.Context, e Env) error {
		_, err := e.Client.Attachments.AddLink(ctx, workflow.Tasks, "it", "1", workflow.Link{URL: "https://example.com/"})
		return err
	}},
	{"Attachments.Upload", op.CreateRecordAttachment, func(ctx context.Context, e Env) error {
		_, err := e.Client.Attachments.Upload(ctx, workflow.Tasks, "it", "1", "a.txt", strings.NewReader("hello"), nil)
		return err
	}},
	{"Attachments.UploadFile", op.CreateRecordAttachment, func(ctx context.Context, e Env) error {
		_, err := e.Client.Attachments.UploadFile(ctx, workflow.Tasks, "it", "1", e.File, nil)
		return err
	}},
	{"Attachments.Download", op.DownloadRecordAttachment, func(ctx context.Context, e Env) error {
		d, err := e.Client.Attachments.Download(ctx, workflow.Tasks, "it", "1", "a1")
		if err == nil {
			err = d.Close()
		}
		return err
	}},
	{"Attachments.DownloadAttachment", op.DownloadRecordAttachment, func(ctx context.Context, e Env) error {
		att := &workflow.Attachment{ID: "a1", ContentURL: e.Client.BaseURL().JoinPath("tasks", "it", "1", "attachments", "a1", "content").Path}
		d, err := e.Client.Attachments.DownloadAttachment(ctx, workflow.Tasks, "it", "1", att)
		if err == nil {
			err = d.Close()
		}
		return err
	}},

	// users and groups
	{"Users.List", op.ListUsers, func(ctx context.Context, e Env) error {
		_, err := e.Client.Users.List(ctx, nil)
		return err
	}},
	{"Users.Pages", op.ListUsers, func(ctx context.Context, e Env) error {
		return first(e.Client.Users.Pages(ctx, nil))
	}},
	{"Users.All", op.ListUsers, func(ctx context.Context, e Env) error {
		return first(e.Client.Users.All(ctx, nil))
	}},
	{"Users.Get", op.GetUser, func(ctx context.Context, e Env) error {
		_, err := e.Client.Users.Get(ctx, uuid)
		return err
	}},
	{"Users.Create", op.CreateUser, func(ctx context.Context, e Env) error {
		_, err := e.Client.Users.Create(ctx, workflow.NewUser{Email: email, FirstName: "Ann", LastName: "Lee"})
		return err
	}},
	{"Users.Deactivate", op.DeactivateUser, func(ctx context.Context, e Env) error {
		_, err := e.Client.Users.Deactivate(ctx, uuid)
		return err
	}},
	{"Groups.List", op.ListGroups, func(ctx context.Context, e Env) error {
		_, err := e.Client.Groups.List(ctx, nil)
		return err
	}},
	{"Groups.Pages", op.ListGroups, func(ctx context.Context, e Env) error {
		return first(e.Client.Groups.Pages(ctx, nil))
	}},
	{"Groups.All", op.ListGroups, func(ctx context.Context, e Env) error {
		return first(e.Client.Groups.All(ctx, nil))
	}},
	{"Groups.Get", op.GetGroup, func(ctx context.Context, e Env) error {
		_, err := e.Client.Groups.Get(ctx, uuid)
		return err
	}},
	{"Groups.Create", op.CreateGroup, func(ctx context.Context, e Env) error {
		_, err := e.Client.Groups.Create(ctx, body[workflow.GroupRequest](`{"name":"G"}`))
		return err
	}},
	{"Groups.Update", op.UpdateGroup, func(ctx context.Context, e Env) error {
		_, err := e.Client.Groups.Update(ctx, uuid, body[workflow.GroupRequest](`{"name":"G"}`))
		return err
	}},
	{"Groups.Members.List", op.ListGroupUsers, func(ctx context.Context, e Env) error {
		_, err := e.Client.Groups.Members.List(ctx, uuid, nil)
		return err
	}},
	{"Groups.Members.Pages", op.ListGroupUsers, func(ctx context.Context, e Env) error {
		return first(e.Client.Groups.Members.Pages(ctx, uuid, nil))
	}},
	{"Groups.Members.All", op.ListGroupUsers, func(ctx context.Context, e Env) error {
		return first(e.Client.Groups.Members.All(ctx, uuid, nil))
	}},
	{"Groups.Members.Add", op.AddUsersToGroup, func(ctx context.Context, e Env) error {
		return e.Client.Groups.Members.Add(ctx, uuid, []string{uuid})
	}},
	{"Groups.Members.Remove", op.RemoveUsersFromGroup, func(ctx context.Context, e Env) error {
		return e.Client.Groups.Members.Remove(ctx, uuid, []string{uuid})
	}},

	// workspace configuration: domains
	{"admin.Domains.Create", op.CreateOrganizationDomain, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Domains.Create(ctx, body[admin.DomainRequest](`{"emailDomain":{"domain":"example.com"}}`))
		return err
	}},
	{"admin.Domains.Update", op.UpdateOrganizationDomain, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Domains.Update(ctx, uuid, body[admin.DomainRequest](`{"emailDomain":{"domain":"example.com"}}`))
		return err
	}},
	{"admin.Domains.Groups.Add", op.AddDomainsToGroup, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Domains.Groups.Add(ctx, uuid, []string{"example.com"})
		return err
	}},
	{"admin.Domains.Groups.Remove", op.RemoveDomainsFromGroup, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Domains.Groups.Remove(ctx, uuid, []string{"example.com"})
		return err
	}},

	// automations
	{"admin.Automations.List", op.ListAutomations, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Automations.List(ctx, workflow.Apps, "it")
		return err
	}},
	{"admin.Automations.Get", op.GetAutomation, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Automations.Get(ctx, workflow.Apps, "it", "a1")
		return err
	}},
	{"admin.Automations.Create", op.CreateAutomation, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Automations.Create(ctx, workflow.Apps, "it", admin.Automation(`{"name":"A"}`))
		return err
	}},
	{"admin.Automations.Validate", op.ValidateAutomation, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Automations.Validate(ctx, workflow.Apps, "it", admin.Automation(`{"name":"A"}`))
		return err
	}},
	{"admin.Automations.Update", op.UpdateAutomation, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Automations.Update(ctx, workflow.Apps, "it", "a1", admin.Automation(`{"name":"A"}`))
		return err
	}},
	{"admin.Automations.Delete", op.DeleteAutomation, func(ctx context.Context, e Env) error {
		return e.Workspace.Automations.Delete(ctx, workflow.Apps, "it", "a1")
	}},

	// views
	{"admin.Views.List", op.ListViews, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Views.List(ctx, "it", nil)
		return err
	}},
	{"admin.Views.Pages", op.ListViews, func(ctx context.Context, e Env) error {
		return first(e.Workspace.Views.Pages(ctx, "it", nil))
	}},
	{"admin.Views.All", op.ListViews, func(ctx context.Context, e Env) error {
		return first(e.Workspace.Views.All(ctx, "it", nil))
	}},
	{"admin.Views.Get", op.GetView, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Views.Get(ctx, "it", "v1")
		return err
	}},
	{"admin.Views.Create", op.CreateView, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Views.Create(ctx, "it", "all", body[admin.ViewRequest](`{"view":{"list":{}}}`))
		return err
	}},
	{"admin.Views.Update", op.UpdateView, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Views.Update(ctx, "it", "all", body[admin.ViewRequest](`{"view":{"list":{}}}`))
		return err
	}},

	// elements, apps, flows
	{"admin.Elements.Create", op.CreateElement, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Elements.Create(ctx, body[admin.NewElement](`{"name":"E","categoryId":"`+uuid+`"}`))
		return err
	}},
	{"admin.Elements.Get", op.GetElement, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Elements.Get(ctx, "parts")
		return err
	}},
	{"admin.Elements.Update", op.UpdateElement, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Elements.Update(ctx, "parts", body[admin.ElementUpdate](`{"description":"d"}`))
		return err
	}},
	{"admin.Apps.Compose", op.ComposeApp, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Apps.Compose(ctx, jsontext.Value(`{"namespace":"crm"}`))
		return err
	}},
	{"admin.Apps.Update", op.UpdateApp, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Apps.Update(ctx, uuid, jsontext.Value(`{}`))
		return err
	}},
	{"admin.Flows.Create", op.CreateFlow, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Flows.Create(ctx, jsontext.Value(`{}`))
		return err
	}},
	{"admin.Flows.Update", op.UpdateFlow, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Flows.Update(ctx, uuid, jsontext.Value(`{}`))
		return err
	}},

	// agents and skills
	{"admin.Agents.List", op.ListAgents, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Agents.List(ctx, "it", nil)
		return err
	}},
	{"admin.Agents.Pages", op.ListAgents, func(ctx context.Context, e Env) error {
		return first(e.Workspace.Agents.Pages(ctx, "it", nil))
	}},
	{"admin.Agents.All", op.ListAgents, func(ctx context.Context, e Env) error {
		return first(e.Workspace.Agents.All(ctx, "it", nil))
	}},
	{"admin.Agents.Create", op.CreateAgent, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Agents.Create(ctx, "it", body[admin.AgentBundle](`{"agent":{"elementum":{}}}`))
		return err
	}},
	{"admin.Agents.Update", op.UpdateAgent, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Agents.Update(ctx, "it", uuid, body[admin.AgentBundle](`{"agent":{"elementum":{}}}`))
		return err
	}},
	{"admin.Skills.List", op.ListSkills, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Skills.List(ctx, "it", nil)
		return err
	}},
	{"admin.Skills.Pages", op.ListSkills, func(ctx context.Context, e Env) error {
		return first(e.Workspace.Skills.Pages(ctx, "it", nil))
	}},
	{"admin.Skills.All", op.ListSkills, func(ctx context.Context, e Env) error {
		return first(e.Workspace.Skills.All(ctx, "it", nil))
	}},
	{"admin.Skills.Create", op.CreateSkill, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Skills.Create(ctx, "it", body[admin.SkillBundle](`{"skill":{"name":"S"}}`))
		return err
	}},
	{"admin.Skills.Update", op.UpdateSkill, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Skills.Update(ctx, "it", uuid, body[admin.SkillBundle](`{"skill":{"name":"S"}}`))
		return err
	}},

	// tables
	{"admin.Tables.List", op.ListTables, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Tables.List(ctx, nil)
		return err
	}},
	{"admin.Tables.Pages", op.ListTables, func(ctx context.Context, e Env) error {
		return first(e.Workspace.Tables.Pages(ctx, nil))
	}},
	{"admin.Tables.All", op.ListTables, func(ctx context.Context, e Env) error {
		return first(e.Workspace.Tables.All(ctx, nil))
	}},
	{"admin.Tables.Get", op.GetTable, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Tables.Get(ctx, uuid)
		return err
	}},
	{"admin.Tables.Create", op.CreateTable, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Tables.Create(ctx, body[admin.TableCreateRequest](`{"name":"T","handle":"T","source":"`+uuid+`","categoryId":"`+uuid+`","fields":[]}`))
		return err
	}},
	{"admin.Tables.Update", op.UpdateTable, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Tables.Update(ctx, uuid, body[admin.TableUpdateRequest](`{"name":"T"}`))
		return err
	}},
	{"admin.Tables.Delete", op.DeleteTable, func(ctx context.Context, e Env) error {
		return e.Workspace.Tables.Delete(ctx, uuid)
	}},
	{"admin.Tables.Joins.Create", op.CreateTableJoin, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Tables.Joins.Create(ctx, uuid, body[admin.TableJoinInput](`{"source":"`+uuid+`","type":"LEFT","joinOn":[]}`))
		return err
	}},
	{"admin.Tables.Joins.Update", op.UpdateTableJoin, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.Tables.Joins.Update(ctx, uuid, uuid, body[admin.TableJoinInput](`{"source":"`+uuid+`","type":"LEFT","joinOn":[]}`))
		return err
	}},
	{"admin.Tables.Joins.Delete", op.DeleteTableJoin, func(ctx context.Context, e Env) error {
		return e.Workspace.Tables.Joins.Delete(ctx, uuid, uuid)
	}},
	{"admin.Tables.JoinMappings.Create", op.CreateTableJoinMapping, func(ctx context.Context, e Env) error {
		return e.Workspace.Tables.JoinMappings.Create(ctx, uuid, uuid, []admin.JoinMapping{})
	}},
	{"admin.Tables.JoinMappings.Update", op.UpdateTableJoinMapping, func(ctx context.Context, e Env) error {
		return e.Workspace.Tables.JoinMappings.Update(ctx, uuid, uuid, []admin.JoinMapping{})
	}},
	{"admin.Tables.JoinMappings.Delete", op.DeleteTableJoinMapping, func(ctx context.Context, e Env) error {
		return e.Workspace.Tables.JoinMappings.Delete(ctx, uuid, uuid, []string{"s"})
	}},

	// search tables
	{"admin.SearchTables.Create", op.CreateSnowflakeSearchTable, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.SearchTables.Create(ctx, uuid, body[admin.SnowflakeSearchTableRequest](`{"attributeFieldIds":[],"duration":"DAYS","targetLag":1}`))
		return err
	}},
	{"admin.SearchTables.CreateLinked", op.CreateLinkedSearchTable, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.SearchTables.CreateLinked(ctx, uuid, body[admin.LinkedSearchTableRequest](`{"cloudLinkId":"`+uuid+`","database":"d","schema":"s","serviceName":"n"}`))
		return err
	}},
	{"admin.SearchTables.Get", op.GetSearchTable, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.SearchTables.Get(ctx, uuid, uuid)
		return err
	}},
	{"admin.SearchTables.Update", op.UpdateSearchTable, func(ctx context.Context, e Env) error {
		_, err := e.Workspace.SearchTables.Update(ctx, uuid, uuid, body[admin.SearchTableUpdate](`{}`))
		return err
	}},
}

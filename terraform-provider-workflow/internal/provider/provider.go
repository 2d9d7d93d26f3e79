// Package provider is the OpenTofu and Terraform provider of a workspace's
// configuration: a layer of schemas over package admin. Every request
// goes through the SDK's one request path, and every body is checked by
// the SDK's checks, locally and with no request, when a configuration is
// validated and planned (see check.go).
package provider

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// Address is the provider's source address, the one a dev override or a
// filesystem mirror names.
const Address = "registry.opentofu.org/seed-a15e58aa/workflow"

// New returns the provider's constructor, as providerserver takes it.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &workflowProvider{version: version} }
}

// workflowProvider is the provider: its configuration is the client's
// credentials and endpoints.
type workflowProvider struct{ version string }

var _ provider.ProviderWithListResources = (*workflowProvider)(nil)

// providerModel is the provider block.
type providerModel struct {
	ClientID     types.String `tfsdk:"client_id"`
	ClientSecret types.String `tfsdk:"client_secret"`
	BaseURL      types.String `tfsdk:"base_url"`
	AuthURL      types.String `tfsdk:"auth_url"`
}

// settings are the provider block's attributes, each with the environment
// variable it falls back to (those of workflow.NewClientFromEnv).
var settings = []struct {
	attr, env, doc string
	sensitive      bool
}{
	{"client_id", "WORKFLOW_CLIENT_ID", "The API client's id.", false},
	{"client_secret", "WORKFLOW_CLIENT_SECRET", "The API client's secret.", true},
	{"base_url", "WORKFLOW_BASE_URL", "The API's base URL, ending in /v1.", false},
	{"auth_url", "WORKFLOW_AUTH_URL", "The URL the token endpoint /oauth/token is under.", false},
}

func (p *workflowProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "workflow"
	resp.Version = p.version
}

func (p *workflowProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	attrs := map[string]schema.Attribute{}
	for _, s := range settings {
		attrs[s.attr] = schema.StringAttribute{
			Optional:    true,
			Sensitive:   s.sensitive,
			Description: s.doc + " Defaults to the environment variable " + s.env + ".",
		}
	}
	resp.Schema = schema.Schema{
		Description: "The configuration of a workspace of the records and workflow-automation API.",
		Attributes:  attrs,
	}
}

// Configure builds the client. Each setting comes from the provider block
// or, when the block leaves it out, from its environment variable; a
// setting found in neither fails the plan, naming both.
func (p *workflowProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	vals := map[string]types.String{"client_id": m.ClientID, "client_secret": m.ClientSecret, "base_url": m.BaseURL, "auth_url": m.AuthURL}
	got := map[string]string{}
	for _, s := range settings {
		v := vals[s.attr]
		switch {
		case v.IsUnknown():
			resp.Diagnostics.AddAttributeError(path.Root(s.attr), "Unknown provider setting",
				s.attr+" depends on a value known only after apply; the provider needs it to plan.")
		case !v.IsNull() && v.ValueString() != "":
			got[s.attr] = v.ValueString()
		case os.Getenv(s.env) != "":
			got[s.attr] = os.Getenv(s.env)
		default:
			resp.Diagnostics.AddAttributeError(path.Root(s.attr), "Missing provider setting",
				s.attr+" is required: set it in the provider block or in the environment variable "+s.env+".")
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	c, err := workflow.NewClient(
		workflow.WithCredentials(got["client_id"], got["client_secret"]),
		workflow.WithEndpoint(got["base_url"], got["auth_url"]),
		workflow.WithUserAgent("terraform-provider-workflow/"+p.version),
	)
	if err != nil {
		attr := "client_id"
		if ve, ok := errors.AsType[*workflow.ValidationError](err); ok {
			attr = map[string]string{"base URL": "base_url", "auth URL": "auth_url"}[ve.Field]
		}
		if attr == "" {
			resp.Diagnostics.AddError("Invalid provider settings", err.Error())
			return
		}
		resp.Diagnostics.AddAttributeError(path.Root(attr), "Invalid provider setting "+attr, err.Error())
		return
	}
	if attr, summary, detail := reach(ctx, c); attr != "" {
		resp.Diagnostics.AddAttributeError(path.Root(attr), summary, detail)
		return
	}
	data := &configured{ws: admin.New(c), c: c, lists: &runLists{}}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
}

// reachWithin bounds the check of the settings that Configure makes: a
// wrong secret or an unreachable endpoint fails a plan once, within it,
// rather than once for each resource after the client's retries.
const reachWithin = 15 * time.Second

// reach checks, with one token request and one read of the smallest page
// of users, that the credentials are taken and that both URLs answer as
// the API does, within reachWithin. It returns the setting at fault, with
// the diagnostic's summary and detail; "" when the service answered.
// Every plan configures the provider, with or without a state, so every
// plan fails here first.
func reach(ctx context.Context, c *workflow.Client) (attr, summary, detail string) {
	ctx, cancel := context.WithTimeout(ctx, reachWithin)
	defer cancel()
	_, err := c.Users.List(ctx, &workflow.ListOptions{First: 1}, workflow.WithMaxAttempts(2))
	if err == nil || errors.Is(err, workflow.ErrForbidden) {
		return "", "", "" // reached: the client may lack the right to list users, not to configure
	}
	var auth *workflow.AuthError
	var api *workflow.APIError
	switch {
	case errors.As(err, &auth) && (auth.StatusCode == http.StatusTooManyRequests || auth.StatusCode >= 500):
		return "", "", "" // the token endpoint answered: a passing failure is for the requests to ride out
	case errors.As(err, &auth) && (auth.StatusCode == http.StatusUnauthorized || auth.StatusCode == http.StatusBadRequest ||
		auth.ErrorCode == "invalid_client"):
		return "client_secret", "The credentials are refused",
			"The token endpoint refused client_id and client_secret (" + err.Error() + "): check both settings " +
				"(or WORKFLOW_CLIENT_ID and WORKFLOW_CLIENT_SECRET)."
	case errors.As(err, &auth):
		return "auth_url", "The token endpoint does not answer",
			"No token could be had from auth_url (or WORKFLOW_AUTH_URL) within " + reachWithin.String() + ": " + err.Error()
	case errors.As(err, &api) && api.StatusCode == http.StatusNotFound:
		return "base_url", "base_url is not the API",
			"GET /users under base_url (or WORKFLOW_BASE_URL) answered 404: the base URL ends in /v1. " + err.Error()
	case errors.As(err, &api) && api.StatusCode == http.StatusUnauthorized:
		return "base_url", "The API refuses the token",
			"base_url (or WORKFLOW_BASE_URL) refused the token auth_url gave: do both settings name the same region? " + err.Error()
	case errors.As(err, &api):
		return "", "", "" // the API answered: a passing failure is for the resources' requests to ride out
	default: // no answer: from the token endpoint or from the API, which the error cannot tell apart
		return "auth_url", "The service does not answer",
			"No answer came within " + reachWithin.String() + " from auth_url (or WORKFLOW_AUTH_URL) or from base_url " +
				"(or WORKFLOW_BASE_URL): check both, and the network between: " + err.Error()
	}
}

// configured is what the provider gives its resources: the client, and
// its workspace's configuration.
type configured struct {
	ws    *admin.Workspace
	c     *workflow.Client
	lists *runLists
}

// Resources are the families, each declared (family.go) over its own code.
func (p *workflowProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		declare(family{typ: "automation", what: "automation", importID: []string{"record_type", "alias", "id"},
			key: "the workflow's name in its app or element", destroy: deletes}, newAutomationResource),
		declare(family{typ: "view", what: "view", importID: []string{"app", "id"}, key: "its handle in its app", destroy: forgets, named: "handle",
			kept: []string{"dashboard_id"}}, newViewResource),
		declare(family{typ: "table", what: "table", importID: []string{"id"}, key: "its handle", destroy: deletes,
			kept: []string{"category_id", "description", "icon", "color"}}, newTableResource),
		declare(family{typ: "table_join", what: "join", importID: []string{"table_id", "id"}, key: "the table it joins in, in its table", destroy: deletes}, newTableJoinResource),
		declare(family{typ: "table_join_mappings", what: "join mapping set", importID: []string{"table_id", "join_fields_id"}, destroy: deletes}, newJoinMappingsResource),
		declare(family{typ: "group", what: "group", importID: []string{"id"}, key: "its name (the groups list is walked: it has no published filter)",
			destroy: forgets, named: "name", kept: []string{"approver", "data_access", "hidden", "tags"}}, newGroupResource),
		declare(family{typ: "user", what: "user", importID: []string{"id"}, key: "its e-mail (GET /users filtered by email)",
			destroy: deactivates, named: "email", kept: []string{"never_notify"}}, newUserResource),
		declare(family{typ: "organization_domain", what: "domain", importID: []string{"id"}, reads: notRead, destroy: forgets, named: "domain"}, newOrganizationDomainResource),
		declare(family{typ: "group_email_domains", what: "domain set", importID: []string{"group_id"}, destroy: releases}, newGroupEmailDomainsResource),
		declare(family{typ: "app", what: "app", importID: []string{"id"}, reads: notRead, destroy: forgets, named: "id"}, newAppResource),
		declare(family{typ: "flow", what: "flow", importID: []string{"id"}, reads: notRead, destroy: forgets, named: "id"}, newFlowResource),
		declare(family{typ: "element", what: "element", importID: []string{"id"}, destroy: forgets, named: "namespace",
			key: "its namespace, when the configuration sets it (the service derives one from the name otherwise, by a rule " +
				"it does not publish: then none)", kept: []string{"allow_forwarded_email_ingestion", "allow_anonymous_email_creation",
				"allow_inline_image_ingestion", "workflow_value_per_automation", "source"}}, newElementResource),
		declare(family{typ: "search_table", what: "search table", importID: []string{"aspect_id", "id"}, destroy: forgets, named: "display_name"}, newSearchTableResource),
		declare(family{typ: "linked_search_table", what: "search table", importID: []string{"aspect_id", "id"}, destroy: forgets, named: "display_name",
			kept: []string{"cloud_link_id"}}, newLinkedSearchTableResource),
		declare(family{typ: "agent", what: "agent", importID: []string{"app", "id"}, key: "its name in its app", reads: byList, destroy: forgets, named: "name",
			kept: []string{"instructions", "first_message", "avatar_attachment_id", "ai_provider_connector_id", "tools", "a2a_skills"}}, newAgentResource),
		declare(family{typ: "skill", what: "skill", importID: []string{"app", "id"}, key: "its name in its app", reads: byList, destroy: forgets, named: "name",
			kept: []string{"discovery", "tools"}}, newSkillResource),
	}
}

// base is what every resource shares: the workspace the provider
// configured and its client (nil until it is, as in `tofu validate`).
type base struct {
	ws    *admin.Workspace
	c     *workflow.Client
	lists *runLists // the lists of this run, read once (lists.go)
}

// Configure takes the provider's workspace and client.
func (b *base) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.take(req.ProviderData, &resp.Diagnostics)
}

// take sets b from the provider's data, as a resource, a data source or a
// list resource is given it (nil until the provider is configured, as in
// `validate`).
func (b *base) take(data any, d *diag.Diagnostics) {
	if data == nil {
		return
	}
	c, ok := data.(*configured)
	if !ok {
		d.AddError("Provider bug", "the provider's data is not a workspace")
		return
	}
	b.ws, b.c, b.lists = c.ws, c.c, c.lists
}

// read decodes a plan, a state or a configuration into a new T, adding
// its diagnostics to d; ok is false when that failed.
func read[T any](ctx context.Context, src interface {
	Get(context.Context, any) diag.Diagnostics
}, d *diag.Diagnostics) (m T, ok bool) {
	d.Append(src.Get(ctx, &m)...)
	return m, !d.HasError()
}

// save ends a Create or an Update: it decodes the plan, writes it with
// write, and sets the state to what state makes of the answer; a failed
// write is reported as what.
func save[M, T any](ctx context.Context, plan tfsdk.Plan, st *tfsdk.State, d *diag.Diagnostics, what string,
	write func(M) (*T, error), state func(M, *T) M) {
	m, ok := read[M](ctx, plan, d)
	if !ok {
		return
	}
	t, err := write(m)
	if err != nil {
		failed(d, what, err)
		return
	}
	d.Append(st.Set(ctx, state(m, t))...)
}

// refresh is a Read: it decodes the state, reads what it names with get,
// and sets the state to what state makes of the answer. An answer of nil
// (get found none) removes the resource from the state; a failed get is
// reported as what.
func refresh[M, T any](ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse, what string,
	get func(M) (*T, error), state func(M, *T) M) {
	m, ok := read[M](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	t, err := get(m)
	if err != nil {
		failed(&resp.Diagnostics, what, err)
		return
	}
	if t == nil {
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state(m, t))...)
}

// gone is a Get's answer with workflow.ErrNotFound as none found, for
// refresh.
func gone[T any](t *T, err error) (*T, error) {
	if errors.Is(err, workflow.ErrNotFound) {
		return nil, nil
	}
	return t, err
}

// failed adds the error of an SDK call as a diagnostic: a refused body
// names the member and the rule (a *workflow.ValidationError's text). The
// SDK removes from a service's message the values its request sent (a
// handle, an alias): here they are the configuration's own, which the
// plan shows anyway, so the service's message is shown as it came. (No
// secret is among them: the client's secret goes to the token endpoint
// only, whose errors are not these.)
func failed(d *diag.Diagnostics, what string, err error) {
	msg := err.Error()
	if api, ok := errors.AsType[*workflow.APIError](err); ok && strings.Contains(api.Message, "[REDACTED]") {
		var body struct{ Message string }
		if json.Unmarshal(api.Body, &body) == nil && body.Message != "" {
			msg = strings.Replace(msg, api.Message, body.Message, 1)
		}
	}
	d.AddError(what, msg)
}

// importParts imports a resource by an id made of the segments of its
// path, in path order, joined by "/": each part goes to the attribute of
// the same position in attrs.
func importParts(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, attrs ...string) {
	parts := strings.Split(req.ID, "/")
	if len(parts) != len(attrs) || slices.Contains(parts, "") {
		resp.Diagnostics.AddError("Invalid import id", "the import id is "+strings.Join(attrs, "/")+", each part not empty")
		return
	}
	for i, a := range attrs {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(a), parts[i])...)
	}
}

// oneOf is the validator of an attribute whose value is one of values
// (the SDK's constants of a wire enum, where it has them).
func oneOf[T ~string](values ...T) validator.String {
	v := make(oneOfValidator, len(values))
	for i, s := range values {
		v[i] = string(s)
	}
	return v
}

type oneOfValidator []string

func (v oneOfValidator) Description(context.Context) string {
	return `must be one of "` + strings.Join(v, `", "`) + `"`
}

func (v oneOfValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v oneOfValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if known(req.ConfigValue) && !slices.Contains(v, req.ConfigValue.ValueString()) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value", req.Path.String()+" "+v.Description(ctx)+" (got "+req.ConfigValue.String()+").")
	}
}

package provider

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// Lookups: a data source of a family finds what the configuration does
// not manage, by the family's natural key (one object: workflow_user by
// e-mail, ...) or by what the API lists (all of them: workflow_users,
// with the API's filter where it filters). Each is a source over the
// family's walk: how the API lists or reads it (through the run's lists,
// lists.go, so that a plan's resources and data sources share a walk),
// and the attributes it shows.

// source is one data source of objects of type T.
type source[T any] struct {
	b      base
	typ    string // the data source's type, after "workflow_"
	doc    string
	by     []keyAttr // what the configuration gives: the key (singular), or the list's scope and filter (plural)
	fields []shown[T]
	// walk returns the objects to look among, given the by attributes'
	// values ("" for one left out).
	walk func(ctx context.Context, b *base, by map[string]string) iter.Seq2[T, error]
	// match reports whether t is the one by names (singular only).
	match  func(t T, by map[string]string) bool
	plural bool
}

// keyAttr is an attribute the configuration gives a data source.
type keyAttr struct {
	name, doc string
	optional  bool
}

// shown is an attribute a data source shows of an object.
type shown[T any] struct {
	name, doc string
	typ       attr.Type // types.StringType or types.BoolType
	value     func(T) attr.Value
}

// shownString is a string attribute shown.
func shownString[T any](name, doc string, v func(T) string) shown[T] {
	return shown[T]{name, doc, types.StringType, func(t T) attr.Value { return types.StringValue(v(t)) }}
}

// shownBool is a boolean attribute shown.
func shownBool[T any](name, doc string, v func(T) bool) shown[T] {
	return shown[T]{name, doc, types.BoolType, func(t T) attr.Value { return types.BoolValue(v(t)) }}
}

func (s *source[T]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + s.typ
}

func (s *source[T]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := map[string]schema.Attribute{}
	for _, k := range s.by {
		// an optional key of a lookup shows the value found
		attrs[k.name] = schema.StringAttribute{Required: !k.optional, Optional: k.optional, Computed: k.optional && !s.plural,
			Description: k.doc}
	}
	shown := map[string]schema.Attribute{}
	for _, f := range s.fields {
		if f.typ == types.BoolType {
			shown[f.name] = schema.BoolAttribute{Computed: true, Description: f.doc}
		} else {
			shown[f.name] = schema.StringAttribute{Computed: true, Description: f.doc}
		}
	}
	if s.plural {
		attrs["items"] = schema.ListNestedAttribute{Computed: true, Description: "Every object found, in the API's order.",
			NestedObject: schema.NestedAttributeObject{Attributes: shown}}
	} else {
		for k, a := range shown {
			if _, isKey := attrs[k]; !isKey {
				attrs[k] = a
			}
		}
	}
	resp.Schema = schema.Schema{Description: s.doc, Attributes: attrs}
}

func (s *source[T]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	s.b.take(req.ProviderData, &resp.Diagnostics)
}

func (s *source[T]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	by := map[string]string{}
	for _, k := range s.by {
		var v types.String
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(k.name), &v)...)
		by[k.name] = v.ValueString()
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(k.name), v)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	what := s.describe(by)
	if !s.plural && !slices.ContainsFunc(s.by, func(k keyAttr) bool { return by[k.name] != "" }) {
		var names []string
		for _, k := range s.by {
			names = append(names, k.name)
		}
		resp.Diagnostics.AddError("Nothing to look up by", "Give "+strings.Join(names, " or ")+".")
		return
	}
	if s.plural {
		var items []attr.Value
		for t, err := range s.walk(ctx, &s.b, by) {
			if err != nil {
				failed(&resp.Diagnostics, "Reading "+what, err)
				return
			}
			items = append(items, types.ObjectValueMust(s.types(), s.values(t)))
		}
		list, d := types.ListValue(types.ObjectType{AttrTypes: s.types()}, items)
		resp.Diagnostics.Append(d...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("items"), list)...)
		return
	}
	found, err := only(s.walk(ctx, &s.b, by), func(t T) bool { return s.match(t, by) }, what)
	switch {
	case err != nil:
		failed(&resp.Diagnostics, "Looking up "+what, err)
		return
	case found == nil:
		resp.Diagnostics.AddError("No "+strings.ReplaceAll(s.typ, "_", " "), "The workspace has no "+what+".")
		return
	}
	for k, v := range s.values(*found) {
		if slices.ContainsFunc(s.by, func(a keyAttr) bool { return a.name == k && !a.optional }) {
			continue // a required key is as the configuration wrote it
		}
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(k), v)...)
	}
}

// describe names what the configuration looks for, in words: `user with
// email = "ada@example.com"`.
func (s *source[T]) describe(by map[string]string) string {
	var parts []string
	for _, k := range s.by {
		if by[k.name] != "" {
			parts = append(parts, fmt.Sprintf("%s = %q", k.name, by[k.name]))
		}
	}
	return strings.ReplaceAll(s.typ, "_", " ") + " with " + strings.Join(parts, " and ")
}

// types and values are the fields' types and t's values, by name.
func (s *source[T]) types() map[string]attr.Type {
	out := map[string]attr.Type{}
	for _, f := range s.fields {
		out[f.name] = f.typ
	}
	return out
}

func (s *source[T]) values(t T) map[string]attr.Value {
	out := map[string]attr.Value{}
	for _, f := range s.fields {
		out[f.name] = f.value(t)
	}
	return out
}

// The families' fields and walks.

var userFieldsShown = []shown[workflow.User]{
	shownString("id", "The user's id.", func(u workflow.User) string { return u.ID }),
	shownString("email", "The user's e-mail address.", func(u workflow.User) string { return u.Email }),
	shownString("first_name", "The user's given name.", func(u workflow.User) string { return u.FirstName }),
	shownString("last_name", "The user's family name.", func(u workflow.User) string { return u.LastName }),
	shownString("job_title", "The user's job title.", func(u workflow.User) string { return u.JobTitle }),
	shownString("status", `"ACTIVE" or "INACTIVE".`, func(u workflow.User) string { return string(u.Status) }),
}

var groupFieldsShown = []shown[workflow.Group]{
	shownString("id", "The group's id.", func(g workflow.Group) string { return g.ID }),
	shownString("name", "The group's name.", func(g workflow.Group) string { return g.Name }),
	shownBool("assignable", "Records can be assigned to the group.", func(g workflow.Group) bool { return g.Assignable }),
	shownBool("watchable", "The group can watch records.", func(g workflow.Group) bool { return g.Watchable }),
	shownBool("mentionable", "The group can be mentioned.", func(g workflow.Group) bool { return g.Mentionable }),
	shownBool("dynamic", "Membership follows e-mail domains.", func(g workflow.Group) bool { return g.Dynamic }),
}

var tableFieldsShown = []shown[admin.Table]{
	shownString("id", "The table's id.", func(t admin.Table) string { return t.ID.Value() }),
	shownString("name", "The table's name.", func(t admin.Table) string { return t.Name.Value() }),
	shownString("handle", "The table's handle.", func(t admin.Table) string { return t.Handle.Value() }),
}

var viewFieldsShown = []shown[admin.View]{
	shownString("id", "The view's id.", func(v admin.View) string { return v.ID.Value() }),
	shownString("handle", "The view's handle.", func(v admin.View) string { return v.ClientHandle.Value() }),
	shownString("name", "The view's name.", func(v admin.View) string { return v.Name.Value() }),
	shownString("type", "The view's variant, as the service names it.", func(v admin.View) string { return string(v.Type.Value()) }),
}

var agentFieldsShown = []shown[admin.Agent]{
	shownString("id", "The agent's id.", func(a admin.Agent) string { return a.ID.Value() }),
	shownString("name", "The agent's name.", func(a admin.Agent) string { return a.Name.Value() }),
	shownString("description", "The agent's description.", func(a admin.Agent) string { return a.Description.Value() }),
	shownString("type", "The agent's kind.", func(a admin.Agent) string { return a.Type.Value() }),
}

var skillFieldsShown = []shown[admin.Skill]{
	shownString("id", "The skill's id.", func(k admin.Skill) string { return k.ID.Value() }),
	shownString("name", "The skill's name.", func(k admin.Skill) string { return k.Name.Value() }),
	shownString("description", "The skill's description.", func(k admin.Skill) string { return k.Description.Value() }),
	shownString("type", "INTERNAL or CUSTOM.", func(k admin.Skill) string { return string(k.Type.Value()) }),
	shownString("status", "ACTIVE, INACTIVE or DRAFT.", func(k admin.Skill) string { return string(k.Status.Value()) }),
}

var automationFieldsShown = []shown[admin.Automation]{
	shownString("id", "The automation's id.", func(a admin.Automation) string { return a.ID() }),
	shownString("name", "The automation's name.", func(a admin.Automation) string { return a.Name() }),
	shownString("workflow", "The automation as the list gives it, without its id: one JSON object.",
		func(a admin.Automation) string { return string(a.Without("id")) }),
}

var elementFieldsShown = []shown[admin.Aspect]{
	shownString("id", "The element's id.", func(a admin.Aspect) string { return a.ID.Value() }),
	shownString("name", "The element's name.", func(a admin.Aspect) string { return a.Name.Value() }),
	shownString("namespace", "The element's namespace (its alias in paths).", func(a admin.Aspect) string { return a.Namespace.Value() }),
	shownString("handle", "The prefix of its records' handles.", func(a admin.Aspect) string { return a.Handle.Value() }),
}

// usersWhere walks the users filter keeps (nil: every user).
func usersWhere(ctx context.Context, b *base, filter rsql.Expr) iter.Seq2[workflow.User, error] {
	return b.c.Users.All(ctx, &workflow.ListOptions{Filter: filter})
}

// automationsOf walks the automations of record_type/alias.
func automationsOf(ctx context.Context, b *base, by map[string]string) iter.Seq2[admin.Automation, error] {
	all, err := b.ws.Automations.List(ctx, workflow.RecordType(by["record_type"]), by["alias"])
	if err != nil {
		return func(yield func(admin.Automation, error) bool) { yield(nil, err) }
	}
	return each(all)
}

var (
	appKey       = keyAttr{name: "app", doc: "The app's alias."}
	recordType   = keyAttr{name: "record_type", doc: `"apps" or "elements".`}
	aliasKey     = keyAttr{name: "alias", doc: "The app's or element's alias."}
	byName       = func(doc string) keyAttr { return keyAttr{name: "name", doc: doc} }
	optionalName = keyAttr{name: "name", doc: "The table's name (give handle or name).", optional: true}
)

// DataSources are the lookups of every family the API can read.
func (p *workflowProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		func() datasource.DataSource {
			return &source[workflow.User]{typ: "user", doc: "A user of the workspace, by e-mail (GET /users, filtered by email).",
				by: []keyAttr{{name: "email", doc: "The user's e-mail address."}}, fields: userFieldsShown,
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[workflow.User, error] {
					return usersWhere(ctx, b, rsql.Field("email").Eq(by["email"]))
				},
				match: func(u workflow.User, by map[string]string) bool { return strings.EqualFold(u.Email, by["email"]) }}
		},
		func() datasource.DataSource {
			return &source[workflow.User]{typ: "users", plural: true, fields: userFieldsShown,
				doc: "The users of the workspace (GET /users), those the filter keeps when it is given.",
				by:  []keyAttr{{name: "filter", optional: true, doc: "An RSQL filter, e.g. status==ACTIVE or email=lk=@example.com (an address that contains @example.com)."}},
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[workflow.User, error] {
					var filter rsql.Expr
					if by["filter"] != "" {
						filter = rsql.Raw(by["filter"])
					}
					return usersWhere(ctx, b, filter)
				}}
		},
		func() datasource.DataSource {
			return &source[workflow.Group]{typ: "group", doc: "A group, by name (the groups list, walked: it has no published filter).",
				by: []keyAttr{byName("The group's name.")}, fields: groupFieldsShown,
				walk: func(ctx context.Context, b *base, _ map[string]string) iter.Seq2[workflow.Group, error] {
					return b.groups(ctx)
				},
				match: func(g workflow.Group, by map[string]string) bool { return g.Name == by["name"] }}
		},
		func() datasource.DataSource {
			return &source[workflow.Group]{typ: "groups", plural: true, doc: "Every group of the workspace.", fields: groupFieldsShown,
				walk: func(ctx context.Context, b *base, _ map[string]string) iter.Seq2[workflow.Group, error] {
					return b.groups(ctx)
				}}
		},
		func() datasource.DataSource {
			return &source[admin.Table]{typ: "table", doc: "A table, by handle or by name (the tables list, walked).",
				by:     []keyAttr{{name: "handle", optional: true, doc: "The table's handle (give handle or name)."}, optionalName},
				fields: tableFieldsShown,
				walk: func(ctx context.Context, b *base, _ map[string]string) iter.Seq2[admin.Table, error] {
					return b.tables(ctx)
				},
				match: func(t admin.Table, by map[string]string) bool {
					return (by["handle"] != "" || by["name"] != "") && (by["handle"] == "" || t.Handle.Value() == by["handle"]) &&
						(by["name"] == "" || t.Name.Value() == by["name"])
				}}
		},
		func() datasource.DataSource {
			return &source[admin.Table]{typ: "tables", plural: true, doc: "Every table of the workspace.", fields: tableFieldsShown,
				walk: func(ctx context.Context, b *base, _ map[string]string) iter.Seq2[admin.Table, error] {
					return b.tables(ctx)
				}}
		},
		func() datasource.DataSource {
			return &source[admin.View]{typ: "view", doc: "A view of an app, by its handle (the app's views list, walked).",
				by: []keyAttr{appKey, {name: "handle", doc: "The view's handle."}}, fields: viewFieldsShown,
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[admin.View, error] {
					return b.views(ctx, by["app"])
				},
				match: func(v admin.View, by map[string]string) bool { return v.ClientHandle.Value() == by["handle"] }}
		},
		func() datasource.DataSource {
			return &source[admin.View]{typ: "views", plural: true, doc: "Every view of an app.", by: []keyAttr{appKey}, fields: viewFieldsShown,
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[admin.View, error] {
					return b.views(ctx, by["app"])
				}}
		},
		func() datasource.DataSource {
			return &source[admin.Agent]{typ: "agent", doc: "An agent of an app, by name (the app's agents list).",
				by: []keyAttr{appKey, byName("The agent's name.")}, fields: agentFieldsShown,
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[admin.Agent, error] {
					return b.agents(ctx, by["app"])
				},
				match: func(a admin.Agent, by map[string]string) bool { return a.Name.Value() == by["name"] }}
		},
		func() datasource.DataSource {
			return &source[admin.Agent]{typ: "agents", plural: true, doc: "Every agent of an app.", by: []keyAttr{appKey}, fields: agentFieldsShown,
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[admin.Agent, error] {
					return b.agents(ctx, by["app"])
				}}
		},
		func() datasource.DataSource {
			return &source[admin.Skill]{typ: "skill", doc: "A skill of an app, by name (the app's skills list).",
				by: []keyAttr{appKey, byName("The skill's name.")}, fields: skillFieldsShown,
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[admin.Skill, error] {
					return b.skills(ctx, by["app"])
				},
				match: func(k admin.Skill, by map[string]string) bool { return k.Name.Value() == by["name"] }}
		},
		func() datasource.DataSource {
			return &source[admin.Skill]{typ: "skills", plural: true, doc: "Every skill of an app.", by: []keyAttr{appKey}, fields: skillFieldsShown,
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[admin.Skill, error] {
					return b.skills(ctx, by["app"])
				}}
		},
		func() datasource.DataSource {
			return &source[admin.Automation]{typ: "automation", doc: "An automation of an app or element, by name (its list).",
				by: []keyAttr{recordType, aliasKey, byName("The automation's name.")}, fields: automationFieldsShown, walk: automationsOf,
				match: func(a admin.Automation, by map[string]string) bool { return a.Name() == by["name"] }}
		},
		func() datasource.DataSource {
			return &source[admin.Automation]{typ: "automations", plural: true, doc: "Every automation of an app or element.",
				by: []keyAttr{recordType, aliasKey}, fields: automationFieldsShown, walk: automationsOf}
		},
		func() datasource.DataSource {
			return &source[admin.Aspect]{typ: "element", doc: "An element, by namespace (GET /elements/{alias}).",
				by: []keyAttr{{name: "namespace", doc: "The element's namespace."}}, fields: elementFieldsShown,
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[admin.Aspect, error] {
					return func(yield func(admin.Aspect, error) bool) {
						a, err := gone(b.ws.Elements.Get(ctx, by["namespace"]))
						if err != nil || a != nil {
							yield(derefOr(a), err)
						}
					}
				},
				match: func(a admin.Aspect, by map[string]string) bool { return a.Namespace.Value() == by["namespace"] }}
		},
	}
}

// derefOr is *p, or the zero value for nil.
func derefOr[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

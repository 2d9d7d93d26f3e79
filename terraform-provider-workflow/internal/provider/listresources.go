package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// List resources: Terraform's `list` blocks and `terraform query` find
// the objects of a family the API lists (users, groups, tables, and an
// app's views, agents, skills and automations), each with its identity
// (the family's declaration's import id) and a display name; with
// -generate-config-out, each object's attributes are what the family's
// Read makes of its identity, as after an import. OpenTofu has no query.

// lister is the list resource of one declared family.
type lister struct {
	b     base
	res   func() resource.Resource // the family's declared resource
	scope []keyAttr                // what a list block's config gives (an app, ...)
	walk  func(ctx context.Context, b *base, by map[string]string) iter.Seq2[found, error]
}

// found is an object a list found: its identity's values, by attribute,
// and its display name.
type found struct {
	identity map[string]string
	name     string
}

var (
	_ list.ListResource              = (*lister)(nil)
	_ list.ListResourceWithConfigure = (*lister)(nil)
)

func (l *lister) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	l.res().Metadata(ctx, req, resp)
}

func (l *lister) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	attrs := map[string]listschema.Attribute{}
	for _, k := range l.scope {
		attrs[k.name] = listschema.StringAttribute{Required: !k.optional, Optional: k.optional, Description: k.doc}
	}
	resp.Schema = listschema.Schema{Attributes: attrs}
}

func (l *lister) Configure(ctx context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.b.Configure(ctx, req, resp)
}

func (l *lister) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	by := map[string]string{}
	for _, k := range l.scope {
		var v types.String
		if d := req.Config.GetAttribute(ctx, path.Root(k.name), &v); d.HasError() {
			stream.Results = list.ListResultsStreamDiagnostics(d)
			return
		}
		by[k.name] = v.ValueString()
	}
	stream.Results = func(push func(list.ListResult) bool) {
		n := int64(0)
		for f, err := range l.walk(ctx, &l.b, by) {
			result := req.NewListResult(ctx)
			if err != nil {
				result.Diagnostics.AddError("Listing", err.Error())
				push(result)
				return
			}
			result.DisplayName = f.name
			for a, v := range f.identity {
				result.Diagnostics.Append(result.Identity.SetAttribute(ctx, path.Root(a), v)...)
			}
			if req.IncludeResource && !result.Diagnostics.HasError() {
				l.read(ctx, req, f, &result)
			}
			if !push(result) {
				return
			}
			if n++; req.Limit > 0 && n >= req.Limit {
				return
			}
		}
	}
}

// read fills result's resource as the family's Read makes it of f's
// identity, as after an import.
func (l *lister) read(ctx context.Context, req list.ListRequest, f found, result *list.ListResult) {
	r := l.res()
	if c, ok := r.(resource.ResourceWithConfigure); ok {
		var resp resource.ConfigureResponse
		c.Configure(ctx, resource.ConfigureRequest{ProviderData: &configured{ws: l.b.ws, c: l.b.c, lists: l.b.lists}}, &resp)
		result.Diagnostics.Append(resp.Diagnostics...)
	}
	st := tfsdk.State{Schema: req.ResourceSchema, Raw: result.Resource.Raw.Copy()}
	for a, v := range f.identity {
		result.Diagnostics.Append(st.SetAttribute(ctx, path.Root(a), v)...)
	}
	readResp := resource.ReadResponse{State: st, Identity: result.Identity}
	r.Read(ctx, resource.ReadRequest{State: st, Identity: result.Identity}, &readResp)
	result.Diagnostics.Append(readResp.Diagnostics...)
	result.Resource.Raw = readResp.State.Raw
}

// foundBy makes a walk of a family's objects a walk of found ones.
func foundBy[T any](all iter.Seq2[T, error], of func(T) found) iter.Seq2[found, error] {
	return func(yield func(found, error) bool) {
		for t, err := range all {
			if err != nil {
				yield(found{}, err)
				return
			}
			if !yield(of(t), nil) {
				return
			}
		}
	}
}

// ListResources are the list resources of the families the API lists.
func (p *workflowProvider) ListResources(context.Context) []func() list.ListResource {
	declared := map[string]func() resource.Resource{}
	for _, f := range p.Resources(context.Background()) {
		var m resource.MetadataResponse
		f().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "workflow"}, &m)
		declared[m.TypeName] = f
	}
	in := func(by map[string]string, keys ...string) map[string]string {
		out := map[string]string{}
		for _, k := range keys {
			out[k] = by[k]
		}
		return out
	}
	return []func() list.ListResource{
		func() list.ListResource {
			return &lister{res: declared["workflow_user"],
				walk: func(ctx context.Context, b *base, _ map[string]string) iter.Seq2[found, error] {
					return foundBy(b.c.Users.All(ctx, nil), func(u workflow.User) found {
						return found{map[string]string{"id": u.ID}, u.Email}
					})
				}}
		},
		func() list.ListResource {
			return &lister{res: declared["workflow_group"],
				walk: func(ctx context.Context, b *base, _ map[string]string) iter.Seq2[found, error] {
					return foundBy(b.groups(ctx), func(g workflow.Group) found { return found{map[string]string{"id": g.ID}, g.Name} })
				}}
		},
		func() list.ListResource {
			return &lister{res: declared["workflow_table"],
				walk: func(ctx context.Context, b *base, _ map[string]string) iter.Seq2[found, error] {
					return foundBy(b.tables(ctx), func(t admin.Table) found {
						return found{map[string]string{"id": t.ID.Value()}, t.Name.Value() + " (" + t.Handle.Value() + ")"}
					})
				}}
		},
		func() list.ListResource {
			return &lister{res: declared["workflow_view"], scope: []keyAttr{appKey},
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[found, error] {
					return foundBy(b.views(ctx, by["app"]), func(v admin.View) found {
						id := in(by, "app")
						id["id"] = v.ID.Value()
						return found{id, v.ClientHandle.Value()}
					})
				}}
		},
		func() list.ListResource {
			return &lister{res: declared["workflow_agent"], scope: []keyAttr{appKey},
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[found, error] {
					return foundBy(b.agents(ctx, by["app"]), func(a admin.Agent) found {
						id := in(by, "app")
						id["id"] = a.ID.Value()
						return found{id, a.Name.Value()}
					})
				}}
		},
		func() list.ListResource {
			return &lister{res: declared["workflow_skill"], scope: []keyAttr{appKey},
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[found, error] {
					return foundBy(b.skills(ctx, by["app"]), func(k admin.Skill) found {
						id := in(by, "app")
						id["id"] = k.ID.Value()
						return found{id, k.Name.Value()}
					})
				}}
		},
		func() list.ListResource {
			return &lister{res: declared["workflow_automation"], scope: []keyAttr{recordType, aliasKey},
				walk: func(ctx context.Context, b *base, by map[string]string) iter.Seq2[found, error] {
					return foundBy(automationsOf(ctx, b, by), func(a admin.Automation) found {
						id := in(by, "record_type", "alias")
						id["id"] = a.ID()
						return found{id, a.Name()}
					})
				}}
		},
	}
}

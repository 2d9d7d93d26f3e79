package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// elementResource is workflow_element: the definition of an element
// (admin.ElementsService). The API has no delete for elements: destroy
// removes one from the state, with a warning.
type elementResource struct {
	base
}

// What elementResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*elementResource)(nil)
)

func newElementResource() own { return &elementResource{} }

// elementModel is the resource's state.
type elementModel struct {
	ID                           types.String  `tfsdk:"id"`
	Name                         types.String  `tfsdk:"name"`
	CategoryID                   types.String  `tfsdk:"category_id"`
	Namespace                    types.String  `tfsdk:"namespace"`
	Handle                       types.String  `tfsdk:"handle"`
	Description                  types.String  `tfsdk:"description"`
	Icon                         types.String  `tfsdk:"icon"`
	Color                        types.String  `tfsdk:"color"`
	ReadOnly                     types.Bool    `tfsdk:"read_only"`
	AllowForwardedEmailIngestion types.Bool    `tfsdk:"allow_forwarded_email_ingestion"`
	AllowAnonymousEmailCreation  types.Bool    `tfsdk:"allow_anonymous_email_creation"`
	AllowInlineImageIngestion    types.Bool    `tfsdk:"allow_inline_image_ingestion"`
	WorkflowValuePerAutomation   types.Float64 `tfsdk:"workflow_value_per_automation"`
	Source                       types.String  `tfsdk:"source"`
}

// sourceMembers are the members of an element's create body that fix its
// source, which the source attribute holds.
var sourceMembers = []string{"cloudLinkId", "database", "schema", "table", "idColumn", "titleColumn",
	"snowflakeWarehouse", "cloudOptions", "fields"}

func (r *elementResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	fixed := func(a schema.StringAttribute) schema.StringAttribute {
		a.PlanModifiers = append(a.PlanModifiers, stringplanmodifier.RequiresReplace())
		return a
	}
	source := jsonAttribute("The members of the create body that fix the element's source: "+
		"cloudLinkId, database, schema, table, idColumn and titleColumn (import from a cloud source), "+
		"snowflakeWarehouse, cloudOptions, and fields (a native element's fields). Set only at create: "+
		"a change creates a new element.", false)
	source.PlanModifiers = append(source.PlanModifiers, replacedOnceWritten())
	readOnly := readBool("The element's records are read-only. Set only at create: a change creates a new element.")
	readOnly.PlanModifiers = append(readOnly.PlanModifiers, boolplanmodifier.RequiresReplace())
	resp.Schema = schema.Schema{
		Description: "The definition of an element. The element's record-create types are not managed. " +
			"An import id may be the element's namespace instead of its id.",
		Attributes: map[string]schema.Attribute{
			"id":          idAttribute("The element's id, set by the service."),
			"name":        schema.StringAttribute{Required: true, Description: "The element's display name."},
			"category_id": schema.StringAttribute{Required: true, Description: "The id of the category the element is filed under."},
			"namespace": fixed(readString("The element's alias in paths (workflow_element.<name>.namespace in an automation's alias); " +
				"the service derives it from name when left out. A change creates a new element.")),
			"handle": fixed(readString("The prefix of the element's record handles; the service derives it from name when left out. " +
				"A change creates a new element.")),
			"description": readString("The element's description."),
			"icon":        readString("The element's icon."),
			"color":       readString("The element's color."),
			"read_only":   readOnly,
			"allow_forwarded_email_ingestion": schema.BoolAttribute{Optional: true,
				Description: "Records can be created from forwarded e-mail."},
			"allow_anonymous_email_creation": schema.BoolAttribute{Optional: true,
				Description: "Records can be created from e-mail of unknown senders."},
			"allow_inline_image_ingestion": schema.BoolAttribute{Optional: true,
				Description: "Inline images of e-mail are kept."},
			"workflow_value_per_automation": schema.Float64Attribute{Optional: true,
				Description: "The value an automation run is worth."},
			"source": source,
		},
	}
}

// updateBody is the element's update body: what the configuration sets.
func (m elementModel) updateBody() admin.ElementUpdate {
	u := admin.ElementUpdate{
		Name: strPtr(m.Name), Description: strPtr(m.Description), Icon: strPtr(m.Icon), Color: strPtr(m.Color),
		CategoryID: strPtr(m.CategoryID), AllowForwardedEmailIngestion: boolPtr(m.AllowForwardedEmailIngestion),
		AllowAnonymousEmailCreation: boolPtr(m.AllowAnonymousEmailCreation), AllowInlineImageIngestion: boolPtr(m.AllowInlineImageIngestion),
	}
	u.WorkflowValuePerAutomation = float64Ptr(m.WorkflowValuePerAutomation)
	return u
}

// body is the element's create body: the source's members, then what
// the other attributes set. A source member that is not one is an error.
func (m elementModel) body() (admin.NewElement, error) {
	var n admin.NewElement
	if src := rawJSON(m.Source); src != nil {
		var members map[string]jsontext.Value
		if err := json.Unmarshal(src, &members); err != nil {
			return n, err
		}
		for k := range members {
			if !slices.Contains(sourceMembers, k) {
				return n, attrError{"source", "must not hold " + k + ": it holds only " + strings.Join(sourceMembers, ", ")}
			}
		}
		if err := json.Unmarshal(src, &n); err != nil {
			return n, attrError{"source", err.Error()}
		}
	}
	u := m.updateBody()
	n.Name, n.CategoryID = m.Name.ValueString(), m.CategoryID.ValueString()
	n.Namespace, n.Handle, n.ReadOnly = strPtr(m.Namespace), strPtr(m.Handle), boolPtr(m.ReadOnly)
	n.Description, n.Icon, n.Color = u.Description, u.Icon, u.Color
	n.AllowForwardedEmailIngestion, n.AllowAnonymousEmailCreation = u.AllowForwardedEmailIngestion, u.AllowAnonymousEmailCreation
	n.AllowInlineImageIngestion, n.WorkflowValuePerAutomation = u.AllowInlineImageIngestion, u.WorkflowValuePerAutomation
	return n, nil
}

// state is m with the element a as the service holds it.
func (m elementModel) state(a *admin.Aspect) elementModel {
	m.ID, m.Name, m.Namespace, m.Handle = optString(a.ID), optString(a.Name), optString(a.Namespace), optString(a.Handle)
	m.Description, m.Icon, m.Color, m.ReadOnly = optString(a.Description), optString(a.Icon), optString(a.Color), optBool(a.ReadOnly)
	m.CategoryID = optString(a.Category.Value().ID)
	if m.Source.IsUnknown() { // not configured, and never read back
		m.Source = types.StringNull()
	}
	return m
}

// ValidateConfig checks the create body (whose members the update body's
// are among) with the SDK's checks, with no request.
func (r *elementResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m elementModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Name, m.CategoryID = checkable(m.Name, "checked"), checkable(m.CategoryID, checkUUID)
	n, err := m.body()
	validated(&resp.Diagnostics, "Invalid element", err, elementAttrs, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.Elements.Create(ctx, n, opt)
		return err
	})
}

// elementAttrs are the attributes of an element's body's members.
var elementAttrs = bodyAttrs[admin.NewElement](camel("", "name", "categoryId", "namespace", "handle", "description", "icon", "color", "readOnly",
	"allowForwardedEmailIngestion", "allowAnonymousEmailCreation", "allowInlineImageIngestion", "workflowValuePerAutomation"))

// Create creates the element once (createOnce): an element's natural key
// is its namespace, when the configuration sets it (the service derives
// one from the name otherwise, by a rule it does not publish).
func (r *elementResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Creating the element", func(m elementModel) (*admin.Aspect, error) {
		n, err := m.body()
		if err != nil {
			return nil, err
		}
		if !known(m.Namespace) { // no key to look up: created once, blind
			a, err := r.ws.Elements.Create(ctx, n)
			return a, blind("element", "<the element's id>", err)
		}
		ns := m.Namespace.ValueString()
		return createOnce(ctx, &resp.Diagnostics, fmt.Sprintf("element %q", ns),
			func() (*admin.Aspect, error) { return gone(r.ws.Elements.Get(ctx, ns)) },
			func() (*admin.Aspect, error) { return r.ws.Elements.Create(ctx, n) },
			func(found *admin.Aspect) (*admin.Aspect, error) {
				return r.ws.Elements.Update(ctx, found.ID.Value(), m.updateBody())
			})
	}, elementModel.state)
}

func (r *elementResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	refresh(ctx, req, resp, "Reading the element", func(m elementModel) (*admin.Aspect, error) { return gone(r.ws.Elements.Get(ctx, m.ID.ValueString())) }, elementModel.state)
}

func (r *elementResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Updating the element",
		func(m elementModel) (*admin.Aspect, error) {
			return r.ws.Elements.Update(ctx, m.ID.ValueString(), m.updateBody())
		}, elementModel.state)
}

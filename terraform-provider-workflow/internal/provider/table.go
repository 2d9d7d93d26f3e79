package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// tableResource is workflow_table: a table of the workspace with its
// fields (admin.TablesService). Its joins are workflow_table_join
// resources of their own: a join names a second table and fields of
// both, so it can be created only once both tables exist, and must be
// removed before the table it joins in.
type tableResource struct{ base }

// What tableResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*tableResource)(nil)
	_ planning   = (*tableResource)(nil)
	_ deleting   = (*tableResource)(nil)
)

func newTableResource() own { return &tableResource{} }

// tableModel is the resource's state.
type tableModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Handle      types.String `tfsdk:"handle"`
	Source      types.String `tfsdk:"source"`
	CategoryID  types.String `tfsdk:"category_id"`
	Description types.String `tfsdk:"description"`
	Icon        types.String `tfsdk:"icon"`
	Color       types.String `tfsdk:"color"`
	Filter      types.String `tfsdk:"filter"`
	OrderBy     types.String `tfsdk:"order_by"`
	Limit       types.String `tfsdk:"limit"`
	Fields      []fieldModel `tfsdk:"fields"`
}

// fieldModel is a field of a table: one of three kinds, each with the
// members of its kind.
type fieldModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Kind        types.String `tfsdk:"kind"`
	ColumnName  types.String `tfsdk:"column_name"`
	ColumnType  types.String `tfsdk:"column_type"`
	Field       types.String `tfsdk:"field"`
	Aggregation types.String `tfsdk:"aggregation"`
	Expanded    types.String `tfsdk:"expanded"`
	Text        types.String `tfsdk:"text"`
	Tags        types.List   `tfsdk:"tags"`
}

func (r *tableResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	inner := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Description: desc}
	}
	resp.Schema = schema.Schema{
		Description: "A table of the workspace, with its fields. Its joins are workflow_table_join resources.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, Description: "The table's id, set by the service.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"name": schema.StringAttribute{Required: true, Description: "The table's name."},
			"handle": schema.StringAttribute{Required: true, Description: "The prefix of its records' handles; set at creation.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"source": schema.StringAttribute{Required: true,
				Description: "The id of the aspect or table the table reads from: a reference to that object's id."},
			"category_id": schema.StringAttribute{Optional: true, Description: "The id of the aspect category the table is filed under. Required to create a table " +
				"(checked when the create is planned), optional otherwise, so that an imported table is valid without it."},
			"description": schema.StringAttribute{Optional: true, Description: "The table's description."},
			"icon":        schema.StringAttribute{Optional: true, Description: "The table's icon."},
			"color":       schema.StringAttribute{Optional: true, Description: "The table's color."},
			"filter":      jsonAttribute("The rows the table keeps.", false),
			"order_by":    jsonAttribute("The order of the table's rows.", false),
			"limit":       jsonAttribute("The number of rows the table keeps.", false),
			"fields": schema.ListNestedAttribute{
				Required: true,
				Description: "The table's fields, in order, each known by its name (unique in the table): " +
					"one not listed is deleted, a new one created. A field given a new name at its place, " +
					"its kind unchanged, is renamed: it keeps its id and its data. A field whose kind changes is replaced.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":   schema.StringAttribute{Computed: true, Description: "The field's id, set by the service."},
					"name": schema.StringAttribute{Required: true, Description: "The field's name."},
					"kind": schema.StringAttribute{Required: true, Validators: []validator.String{oneOf("cloud", "reference", "calculation")},
						Description: `"cloud" (a warehouse column), "reference" (a field of the source) or "calculation".`},
					"column_name": inner("cloud: the Snowflake column."),
					"column_type": inner("cloud: the column's field type, e.g. TEXT."),
					"field":       inner("reference: the id of the field it points at."),
					"aggregation": inner("reference: how it aggregates, e.g. SUM."),
					"expanded":    inner("reference: what it shows of the value, e.g. USER_EMAIL (set at creation)."),
					"text":        inner("calculation: the expression."),
					"tags":        schema.ListAttribute{Optional: true, ElementType: types.StringType, Description: "The field's tags."},
				}},
			},
		},
	}
}

// body returns the field to create of f: its kind's member set from
// f's known attributes.
func (f fieldModel) body() admin.TableFieldInput {
	var in admin.TableFieldInput
	tags := stringList(f.Tags)
	switch f.Kind.ValueString() {
	case "cloud":
		in.Cloud = &admin.TableCloudField{Name: f.Name.ValueString(), Tags: tags}
		if known(f.ColumnName) || known(f.ColumnType) {
			in.Cloud.Snowflake = &admin.TableColumn{ColumnName: f.ColumnName.ValueString(), Type: admin.AspectFieldType(f.ColumnType.ValueString())}
		}
	case "reference":
		in.Reference = &admin.TableReferenceField{Name: strPtr(f.Name), Field: strPtr(f.Field), Tags: tags,
			Aggregation: (*admin.TableFieldAggregation)(strPtr(f.Aggregation)), Expanded: (*admin.TableFieldExpanded)(strPtr(f.Expanded))}
	case "calculation":
		in.Calculation = &admin.TableCalculationField{Name: strPtr(f.Name), Text: strPtr(f.Text), Tags: tags}
	}
	return in
}

// updateBody returns the field input of an update of f: that of a create,
// without what an update does not take (a reference's expanded).
func (f fieldModel) updateBody() admin.TableFieldInput {
	in := f.body()
	if in.Reference != nil {
		in.Reference.Expanded = nil
	}
	return in
}

// body is the create body of m.
func (m tableModel) body() admin.TableCreateRequest {
	b := admin.TableCreateRequest{
		Name: m.Name.ValueString(), Handle: m.Handle.ValueString(), Source: m.Source.ValueString(), CategoryID: m.CategoryID.ValueString(),
		Description: strPtr(m.Description), Icon: strPtr(m.Icon), Color: strPtr(m.Color),
		Filter: rawJSON(m.Filter), OrderBy: rawJSON(m.OrderBy), Limit: rawJSON(m.Limit),
		Fields: []admin.TableFieldInput{},
	}
	for _, f := range m.Fields {
		b.Fields = append(b.Fields, f.body())
	}
	return b
}

// updateBody is the update body that brings the table of state to cfg:
// the members cfg sets, and the field changes, each field of cfg matched
// to the one of state it keeps (kept) and changed by that field's id.
func updateBody(cfg, state tableModel) admin.TableUpdateRequest {
	b := admin.TableUpdateRequest{
		Name: strPtr(cfg.Name), Source: strPtr(cfg.Source), CategoryID: strPtr(cfg.CategoryID),
		Description: strPtr(cfg.Description), Icon: strPtr(cfg.Icon), Color: strPtr(cfg.Color),
		Filter: rawJSON(cfg.Filter), OrderBy: rawJSON(cfg.OrderBy), Limit: rawJSON(cfg.Limit),
	}
	var ch admin.TableFieldChanges
	keep := kept(cfg.Fields, state.Fields)
	for i, f := range cfg.Fields {
		switch j := keep[i]; {
		case j < 0:
			ch.Creates = append(ch.Creates, admin.TableFieldCreate{Field: f.body(), Index: new(i)})
		case !f.sameAs(state.Fields[j]) || i != j:
			ch.Updates = append(ch.Updates, admin.TableFieldUpdate{ID: state.Fields[j].ID.ValueString(), Field: f.updateBody(), Index: new(i)})
		}
	}
	for j, s := range state.Fields {
		if !slices.Contains(keep, j) {
			ch.Deletes = append(ch.Deletes, admin.TableFieldDelete{ID: s.ID.ValueString()})
		}
	}
	if ch.Creates != nil || ch.Updates != nil || ch.Deletes != nil {
		b.Fields = &ch
	}
	return b
}

// kept returns, for each field of cfg, the index of the field of state it
// keeps (its id, and its data on the service), -1 for a new field. A
// field keeps the field of its name and kind. A field whose name state
// has not is that field renamed when the field at its place in state is
// of its kind, and is neither kept nor listed by name in cfg. A field
// whose kind changes is a new one: the service keeps a field's kind.
func kept(cfg, state []fieldModel) []int {
	keep := make([]int, len(cfg))
	taken := make([]bool, len(state))
	for i, f := range cfg {
		keep[i] = slices.IndexFunc(state, func(s fieldModel) bool { return s.Name.Equal(f.Name) && s.Kind.Equal(f.Kind) })
		if keep[i] >= 0 {
			taken[keep[i]] = true
		}
	}
	named := func(fs []fieldModel, name types.String) bool {
		return slices.ContainsFunc(fs, func(f fieldModel) bool { return f.Name.Equal(name) })
	}
	for i, f := range cfg {
		if keep[i] < 0 && i < len(state) && !taken[i] && state[i].Kind.Equal(f.Kind) &&
			!named(state, f.Name) && !named(cfg, state[i].Name) {
			keep[i], taken[i] = i, true
		}
	}
	return keep
}

// sameAs reports whether f, as configured, and s, as held, are the same
// field (ids aside).
func (f fieldModel) sameAs(s fieldModel) bool {
	return f.Name.Equal(s.Name) && f.Kind.Equal(s.Kind) && f.ColumnName.Equal(s.ColumnName) && f.ColumnType.Equal(s.ColumnType) &&
		f.Field.Equal(s.Field) && f.Aggregation.Equal(s.Aggregation) && f.Expanded.Equal(s.Expanded) && f.Text.Equal(s.Text) &&
		f.Tags.Equal(s.Tags)
}

// fieldKinds maps a field's __typename to the resource's kind; other
// fields that point at a field are references.
var fieldKinds = map[string]string{"TableFieldCloud": "cloud", "TableFieldCalculation": "calculation"}

// state returns the state of the table t as read, keeping prior's
// spelling of JSON attributes that mean the same.
func (prior tableModel) state(t *admin.Table) tableModel {
	m := prior
	m.ID, m.Name, m.Handle = optString(t.ID), optString(t.Name), optString(t.Handle)
	m.Source = types.StringNull()
	if src, ok := t.Source.Get(); ok {
		m.Source = optString(src.ID)
	}
	m.Filter = refreshJSON(prior.Filter, t.Filter)
	m.OrderBy = refreshJSON(prior.OrderBy, t.OrderBy)
	m.Limit = refreshJSON(prior.Limit, t.Limit)
	m.Fields = []fieldModel{}
	for _, f := range t.Fields.Value() {
		kind, ok := fieldKinds[f.Typename.Value()]
		if !ok {
			kind = "reference"
		}
		fm := fieldModel{
			ID: optString(f.ID), Name: optString(f.Name), Kind: types.StringValue(kind),
			ColumnName: optString(f.ColumnName), ColumnType: optString(f.FieldType),
			Aggregation: optString(f.Aggregation), Expanded: optString(f.Expanded),
			Field: types.StringNull(), Text: types.StringNull(), Tags: optList(f.Tags),
		}
		if ref, ok := f.Field.Get(); ok {
			fm.Field = optString(ref.ID)
		}
		if c, ok := f.Calculation.Get(); ok {
			fm.Text = optString(c.Text)
		}
		m.Fields = append(m.Fields, fm)
	}
	return m
}

// ModifyPlan requires category_id of a create, which the create body
// requires and no read returns, and shows the ids of the fields the plan
// keeps (kept), renamed ones included; a new field's id is known after
// apply.
func (r *tableResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	if req.State.Raw.IsNull() {
		var category types.String
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("category_id"), &category)...)
		if category.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("category_id"), "Missing category_id",
				"category_id is required to create a table: the service files a new table under a category. "+
					"(It is optional for a table already in the state, such as an imported one: no reply holds it.)")
		}
		return
	}
	var plan, state tableModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	for i, j := range kept(plan.Fields, state.Fields) {
		plan.Fields[i].ID = types.StringUnknown()
		if j >= 0 {
			plan.Fields[i].ID = state.Fields[j].ID
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

// ValidateConfig checks the create body with the SDK's checks, with no
// request, at validate and at plan.
func (r *tableResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	m, ok := read[tableModel](ctx, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	b := m.body()
	// A value known only after apply (a reference) is checked then; here
	// it stands as checkUUID.
	for _, p := range []struct {
		v   types.String
		dst *string
	}{{m.Name, &b.Name}, {m.Handle, &b.Handle}, {m.Source, &b.Source}, {m.CategoryID, &b.CategoryID}} {
		if p.v.IsUnknown() || p.v.IsNull() && p.dst == &b.CategoryID { // a create without one fails at plan (ModifyPlan)
			*p.dst = checkUUID
		}
	}
	for i, f := range m.Fields {
		if f.Field.IsUnknown() && b.Fields[i].Reference != nil {
			b.Fields[i].Reference.Field = new(checkUUID)
		}
	}
	validated(&resp.Diagnostics, "Invalid table", nil, tableAttrs, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.Tables.Create(ctx, b, opt)
		return err
	})
}

// tableAttrs are the attributes of a table's body's members.
var tableAttrs = bodyAttrs[admin.TableCreateRequest](
	camel("", "name", "handle", "source", "categoryId", "description", "icon", "color", "filter", "orderBy", "limit"),
	map[string]string{"fields": "fields", "fields[*]": "fields[*]",
		"fields[*].cloud.name": "fields[*].name", "fields[*].cloud.snowflake.columnName": "fields[*].column_name",
		"fields[*].cloud.snowflake.type": "fields[*].column_type", "fields[*].cloud.tags": "fields[*].tags",
		"fields[*].cloud.tags[*]": "fields[*].tags", "fields[*].reference.name": "fields[*].name",
		"fields[*].reference.field": "fields[*].field", "fields[*].reference.aggregation": "fields[*].aggregation",
		"fields[*].reference.expanded": "fields[*].expanded", "fields[*].reference.tags": "fields[*].tags",
		"fields[*].calculation.name": "fields[*].name", "fields[*].calculation.text": "fields[*].text",
		"fields[*].calculation.tags": "fields[*].tags"})

// Create creates the table once (createOnce): a table's natural key is
// its handle, unique in the workspace.
func (r *tableResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Creating the table", func(m tableModel) (*admin.Table, error) {
		handle := m.Handle.ValueString()
		return createOnce(ctx, &resp.Diagnostics, fmt.Sprintf("table with the handle %q", handle),
			fresh(func() { r.lists.tables.forget("") }, func() (*admin.Table, error) {
				return only(r.tables(ctx), func(t admin.Table) bool { return t.Handle.Value() == handle }, "tables with the handle "+handle)
			}),
			func() (*admin.Table, error) { return r.ws.Tables.Create(ctx, m.body()) },
			func(found *admin.Table) (*admin.Table, error) {
				return r.ws.Tables.Update(ctx, found.ID.Value(), updateBody(m, tableModel{}.state(found)))
			})
	}, tableModel.state)
}

func (r *tableResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	refresh(ctx, req, resp, "Reading the table", func(m tableModel) (*admin.Table, error) { return gone(r.ws.Tables.Get(ctx, m.ID.ValueString())) }, tableModel.state)
}

// Update sends what the configuration sets and the field changes; the
// service keeps every member the body leaves out.
func (r *tableResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, cfg, state tableModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	t, err := r.ws.Tables.Update(ctx, state.ID.ValueString(), updateBody(cfg, state))
	if err != nil {
		failed(&resp.Diagnostics, "Updating the table", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan.state(t))...)
}

func (r *tableResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, ok := read[tableModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if err := r.ws.Tables.Delete(ctx, m.ID.ValueString()); err != nil && !errors.Is(err, workflow.ErrNotFound) {
		failed(&resp.Diagnostics, "Deleting the table", err)
	}
}

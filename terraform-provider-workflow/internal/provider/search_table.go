package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// Search tables of an aspect (admin.SearchTablesService), of both kinds:
// workflow_search_table, a Snowflake search table the service builds,
// and workflow_linked_search_table, an existing Cortex Search Service
// linked to the aspect. Both are read by GET .../search-tables/{id}; the
// API has no delete for them.

// searchTableResource is workflow_search_table.
type searchTableResource struct {
	base
}

// What searchTableResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*searchTableResource)(nil)
)

func newSearchTableResource() own { return &searchTableResource{} }

// linkedSearchTableResource is workflow_linked_search_table.
type linkedSearchTableResource struct {
	base
}

// What linkedSearchTableResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*linkedSearchTableResource)(nil)
)

func newLinkedSearchTableResource() own { return &linkedSearchTableResource{} }

// searchTableModel is workflow_search_table's state.
type searchTableModel struct {
	ID                types.String `tfsdk:"id"`
	AspectID          types.String `tfsdk:"aspect_id"`
	DisplayName       types.String `tfsdk:"display_name"`
	Status            types.String `tfsdk:"status"`
	Warehouse         types.String `tfsdk:"warehouse"`
	TargetLag         types.Int64  `tfsdk:"target_lag"`
	Duration          types.String `tfsdk:"duration"`
	AttributeFieldIDs types.List   `tfsdk:"attribute_field_ids"`
	TextIndexFieldIDs types.List   `tfsdk:"text_index_field_ids"`
	VectorIndexes     types.List   `tfsdk:"vector_indexes"`
}

// linkedSearchTableModel is workflow_linked_search_table's state.
type linkedSearchTableModel struct {
	ID          types.String `tfsdk:"id"`
	AspectID    types.String `tfsdk:"aspect_id"`
	DisplayName types.String `tfsdk:"display_name"`
	Status      types.String `tfsdk:"status"`
	CloudLinkID types.String `tfsdk:"cloud_link_id"`
	Database    types.String `tfsdk:"database"`
	Schema      types.String `tfsdk:"schema"`
	ServiceName types.String `tfsdk:"service_name"`
	Warehouse   types.String `tfsdk:"warehouse"`
}

// vectorIndexType is an element of vector_indexes.
var vectorIndexType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"field_id": types.StringType, "ai_provider_connector_id": types.StringType}}

// searchTableAttributes are the attributes both kinds share.
func searchTableAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": idAttribute("The search table's id, set by the service."),
		"aspect_id": schema.StringAttribute{Required: true, Description: "The id of the aspect (app or element) the search table indexes.",
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		"display_name": idAttribute("The search table's name, set by the service."),
		"status":       schema.StringAttribute{Computed: true, Description: "PENDING, READY or FAILED, as last read."},
	}
}

// requiresReplace marks attributes the API cannot change: a new value creates a
// new search table.
func requiresReplace[A schema.StringAttribute | schema.ListAttribute](a A) A {
	switch a := any(&a).(type) {
	case *schema.StringAttribute:
		a.PlanModifiers = append(a.PlanModifiers, stringplanmodifier.RequiresReplace())
	case *schema.ListAttribute:
		a.PlanModifiers = append(a.PlanModifiers, listplanmodifier.RequiresReplace())
	}
	return a
}

func (r *searchTableResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := searchTableAttributes()
	attrs["warehouse"] = readString("The warehouse that refreshes the table.")
	attrs["target_lag"] = schema.Int64Attribute{Required: true, Description: "How far the table may lag its aspect, in duration units.",
		PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}}
	attrs["duration"] = schema.StringAttribute{Required: true, Description: "The unit of target_lag: SECONDS, MINUTES, HOURS or DAYS.",
		Validators: []validator.String{oneOf(admin.TimeUnitSeconds, admin.TimeUnitMinutes, admin.TimeUnitHours, admin.TimeUnitDays)}}
	attrs["attribute_field_ids"] = requiresReplace(schema.ListAttribute{Required: true, ElementType: types.StringType,
		Description: "The ids of the aspect's fields the table holds. A change creates a new search table."})
	attrs["text_index_field_ids"] = requiresReplace(schema.ListAttribute{Optional: true, Computed: true, ElementType: types.StringType,
		Description:   "The ids of the fields with a text index. A change creates a new search table.",
		PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()}})
	attrs["vector_indexes"] = schema.ListNestedAttribute{Optional: true, Computed: true,
		Description:   "The vectorized fields, each with its embedding provider. A change creates a new search table.",
		PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown(), listplanmodifier.RequiresReplace()},
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"field_id":                 schema.StringAttribute{Required: true, Description: "The field's id."},
			"ai_provider_connector_id": schema.StringAttribute{Required: true, Description: "The embedding provider's connector id."},
		}}}
	resp.Schema = schema.Schema{
		Description: "A Snowflake search table of an aspect. Its warehouse, target_lag and duration change in place; its fields " +
			"are fixed when it is created. The legacy single index (fieldId, aiProviderConnectorId) is not managed: use vector_indexes.",
		Attributes: attrs,
	}
}

// body is the create body.
func (m searchTableModel) body() admin.SnowflakeSearchTableRequest {
	r := admin.SnowflakeSearchTableRequest{
		AttributeFieldIDs: stringList(m.AttributeFieldIDs), Duration: admin.SearchTableTimeUnit(m.Duration.ValueString()),
		TargetLag: int(m.TargetLag.ValueInt64()), Warehouse: strPtr(m.Warehouse), TextIndexFieldIDs: stringList(m.TextIndexFieldIDs),
	}
	if known(m.VectorIndexes) {
		r.VectorIndexes = []admin.VectorIndexInput{}
		for _, e := range m.VectorIndexes.Elements() {
			o, _ := e.(types.Object)
			f, _ := o.Attributes()["field_id"].(types.String)
			c, _ := o.Attributes()["ai_provider_connector_id"].(types.String)
			r.VectorIndexes = append(r.VectorIndexes, admin.VectorIndexInput{FieldID: f.ValueString(), AIProviderConnectorID: c.ValueString()})
		}
	}
	return r
}

// updateBody is the update body: the settings the configuration sets.
func (m searchTableModel) updateBody() admin.SearchTableUpdate {
	d := admin.SearchTableTimeUnit(m.Duration.ValueString())
	lag := int(m.TargetLag.ValueInt64())
	return admin.SearchTableUpdate{Snowflake: &admin.SnowflakeSearchTableUpdate{Warehouse: strPtr(m.Warehouse), TargetLag: &lag, Duration: &d}}
}

// fieldIDs is the list of the ids of fields, null when the member was
// absent or null.
func fieldIDs(fields admin.Opt[[]admin.SearchTableField]) types.List {
	fs, ok := fields.Get()
	if !ok {
		return types.ListNull(types.StringType)
	}
	ids := make([]attr.Value, len(fs))
	for i, f := range fs {
		ids[i] = optString(f.ID)
	}
	return types.ListValueMust(types.StringType, ids)
}

// state is m with the search table t as the service holds it.
func (m searchTableModel) state(t *admin.SearchTable) searchTableModel {
	m.ID, m.DisplayName, m.Status = optString(t.ID), optString(t.DisplayName), optString(t.Status)
	m.Warehouse, m.TargetLag, m.Duration = optString(t.Warehouse), optInt(t.TargetLag), optString(t.Duration)
	m.AttributeFieldIDs, m.TextIndexFieldIDs = fieldIDs(t.AttributeFields), fieldIDs(t.TextIndexFields)
	m.VectorIndexes = types.ListNull(vectorIndexType)
	if indexes, ok := t.VectorIndexes.Get(); ok {
		vs := make([]attr.Value, len(indexes))
		for i, v := range indexes {
			vs[i] = types.ObjectValueMust(vectorIndexType.AttrTypes, map[string]attr.Value{
				"field_id": optString(v.Field.Value().ID), "ai_provider_connector_id": optString(v.AIProviderConnector.Value().ID)})
		}
		m.VectorIndexes = types.ListValueMust(vectorIndexType, vs)
	}
	return m
}

// ValidateConfig checks the create body with the SDK's checks, with no request.
func (r *searchTableResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m searchTableModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Duration = checkable(m.Duration, string(admin.TimeUnitSeconds))
	validated(&resp.Diagnostics, "Invalid search table", nil, nil, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.SearchTables.Create(ctx, "checked", m.body(), opt)
		return err
	})
}

func (r *searchTableResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Creating the search table",
		func(m searchTableModel) (*admin.SearchTable, error) {
			t, err := r.ws.SearchTables.Create(ctx, m.AspectID.ValueString(), m.body())
			return t, blind("search table", m.AspectID.ValueString()+"/<the search table's id>", err)
		}, searchTableModel.state)
}

func (r *searchTableResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m searchTableModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if t := readSearchTable(ctx, r.ws, m.AspectID, m.ID, resp); t != nil {
		resp.Diagnostics.Append(resp.State.Set(ctx, m.state(t))...)
	}
}

func (r *searchTableResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m searchTableModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	t, err := r.ws.SearchTables.Update(ctx, m.AspectID.ValueString(), m.ID.ValueString(), m.updateBody())
	if err != nil {
		failed(&resp.Diagnostics, "Updating the search table", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m.state(t))...)
}

// readSearchTable reads a search table of either kind; nil when it failed
// (a diagnostic says why) or is gone (removed from the state).
func readSearchTable(ctx context.Context, ws *admin.Workspace, aspectID, id types.String, resp *resource.ReadResponse) *admin.SearchTable {
	t, err := ws.SearchTables.Get(ctx, aspectID.ValueString(), id.ValueString())
	if errors.Is(err, workflow.ErrNotFound) {
		resp.State.RemoveResource(ctx)
		return nil
	}
	if err != nil {
		failed(&resp.Diagnostics, "Reading the search table", err)
		return nil
	}
	return t
}

func (r *linkedSearchTableResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	required := func(desc string) schema.StringAttribute {
		return requiresReplace(schema.StringAttribute{Required: true, Description: desc + " A change creates a new search table."})
	}
	attrs := searchTableAttributes()
	attrs["cloud_link_id"] = schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{replacedOnceWritten()},
		Description: "The cloud link holding the service. A change creates a new search table."}
	attrs["database"] = required("The service's database.")
	attrs["schema"] = required("The service's schema.")
	attrs["service_name"] = required("The existing Cortex Search Service.")
	attrs["warehouse"] = requiresReplace(readString("The warehouse that queries the service. A change creates a new search table."))
	resp.Schema = schema.Schema{
		Description: "A search table of an aspect linked to an existing Cortex Search Service. The API changes no setting of a " +
			"linked search table: every change creates a new one.",
		Attributes: attrs,
	}
}

// body is the create body.
func (m linkedSearchTableModel) body() admin.LinkedSearchTableRequest {
	return admin.LinkedSearchTableRequest{CloudLinkID: m.CloudLinkID.ValueString(), Database: m.Database.ValueString(),
		Schema: m.Schema.ValueString(), ServiceName: m.ServiceName.ValueString(), Warehouse: strPtr(m.Warehouse)}
}

// state is m with the search table t as the service holds it.
func (m linkedSearchTableModel) state(t *admin.SearchTable) linkedSearchTableModel {
	m.ID, m.DisplayName, m.Status = optString(t.ID), optString(t.DisplayName), optString(t.Status)
	m.Database, m.Schema, m.ServiceName = optString(t.LinkedDatabase), optString(t.LinkedSchema), optString(t.LinkedServiceName)
	m.Warehouse = optString(t.Warehouse)
	return m
}

// ValidateConfig checks the create body with the SDK's checks, with no request.
func (r *linkedSearchTableResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m linkedSearchTableModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.CloudLinkID = checkable(m.CloudLinkID, checkUUID)
	m.Database, m.Schema, m.ServiceName = checkable(m.Database, "checked"), checkable(m.Schema, "checked"), checkable(m.ServiceName, "checked")
	validated(&resp.Diagnostics, "Invalid search table", nil, nil, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.SearchTables.CreateLinked(ctx, "checked", m.body(), opt)
		return err
	})
}

func (r *linkedSearchTableResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Creating the search table",
		func(m linkedSearchTableModel) (*admin.SearchTable, error) {
			t, err := r.ws.SearchTables.CreateLinked(ctx, m.AspectID.ValueString(), m.body())
			return t, blind("search table", m.AspectID.ValueString()+"/<the search table's id>", err)
		}, linkedSearchTableModel.state)
}

func (r *linkedSearchTableResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m linkedSearchTableModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if t := readSearchTable(ctx, r.ws, m.AspectID, m.ID, resp); t != nil {
		resp.Diagnostics.Append(resp.State.Set(ctx, m.state(t))...)
	}
}

// Update is reached only when cloud_link_id, which no read returns, is
// first written after an import (every other change creates a new search
// table): nothing is sent, the state stays as it was, and the declaration
// sets cloud_link_id to the plan's (declared keeps it as written).
func (r *linkedSearchTableResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.State.Raw.Copy()
}

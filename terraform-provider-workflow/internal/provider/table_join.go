package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	json "github.com/go-json-experiment/json"
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

// tableJoinResource is workflow_table_join: a join of a table
// (admin.TableJoinsService), read through its table.
type tableJoinResource struct{ base }

// What tableJoinResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ validating = (*tableJoinResource)(nil)
	_ planning   = (*tableJoinResource)(nil)
	_ deleting   = (*tableJoinResource)(nil)
)

func newTableJoinResource() own { return &tableJoinResource{} }

// joinModel is the resource's state.
type joinModel struct {
	ID      types.String `tfsdk:"id"`
	TableID types.String `tfsdk:"table_id"`
	Source  types.String `tfsdk:"source"`
	Type    types.String `tfsdk:"type"`
	On      []onModel    `tfsdk:"on"`
	Filter  types.String `tfsdk:"filter"`
}

// onModel is a field pair of a join.
type onModel struct {
	ID           types.String `tfsdk:"id"`
	LeftFieldID  types.String `tfsdk:"left_field_id"`
	RightFieldID types.String `tfsdk:"right_field_id"`
}

func (r *tableJoinResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A join of a table: the rows of another table joined in on pairs of fields.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, Description: "The join's id, set by the service.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"table_id": schema.StringAttribute{Required: true, Description: "The id of the table the join belongs to: a reference.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"source": schema.StringAttribute{Required: true, Description: "The id of the table joined in: a reference."},
			"type": schema.StringAttribute{Required: true, Description: `"FULL", "INNER", "LEFT" or "RIGHT".`,
				Validators: []validator.String{oneOf(admin.JoinFull, admin.JoinInner, admin.JoinLeft, admin.JoinRight)}},
			"on": schema.ListNestedAttribute{Required: true,
				Description: "The pairs of fields the rows are joined on; changing them gives the pairs new ids and no mappings.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":             schema.StringAttribute{Computed: true, Description: "The pair's id (its mappings' join_fields_id)."},
					"left_field_id":  schema.StringAttribute{Required: true, Description: "A field of the table: a reference."},
					"right_field_id": schema.StringAttribute{Required: true, Description: "A field of the table joined in: a reference."},
				}},
			},
			"filter": jsonAttribute("The rows of the joined table kept.", false),
		},
	}
}

// body is the join's body: every member m sets.
func (m joinModel) body() admin.TableJoinInput {
	in := admin.TableJoinInput{Source: strPtr(m.Source), Type: (*admin.TableJoinType)(strPtr(m.Type)), Filter: rawJSON(m.Filter)}
	for _, o := range m.On {
		in.JoinOn = append(in.JoinOn, admin.TableJoinOn{LeftFieldID: o.LeftFieldID.ValueString(), RightFieldID: o.RightFieldID.ValueString()})
	}
	return in
}

// sameOn reports whether two lists of pairs join on the same fields.
func sameOn(a, b []onModel) bool {
	return slices.EqualFunc(a, b, func(x, y onModel) bool {
		return x.LeftFieldID.Equal(y.LeftFieldID) && x.RightFieldID.Equal(y.RightFieldID)
	})
}

// state returns the state of the join j as read.
func (prior joinModel) state(j *admin.TableJoin) joinModel {
	m := prior
	m.ID, m.Type = optString(j.ID), optString(j.Type)
	m.Source = types.StringNull()
	if src, ok := j.Source.Get(); ok {
		m.Source = optString(src.ID)
	}
	m.On = []onModel{}
	for _, p := range j.OnFields.Value() {
		m.On = append(m.On, onModel{ID: optString(p.ID), LeftFieldID: optString(p.LeftField.Value().ID), RightFieldID: optString(p.RightField.Value().ID)})
	}
	m.Filter = refreshJSON(prior.Filter, j.Filter)
	return m
}

// findJoin reads the join id of the table tableID: nil when the table or
// the join is gone.
func findJoin(ctx context.Context, ws *admin.Workspace, tableID, id string) (*admin.TableJoin, error) {
	t, err := ws.Tables.Get(ctx, tableID)
	if errors.Is(err, workflow.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	joins := t.Joins.Value()
	i := slices.IndexFunc(joins, func(j admin.TableJoin) bool { return j.ID.Value() == id })
	if i < 0 {
		return nil, nil
	}
	return &joins[i], nil
}

// ModifyPlan keeps the pairs' ids while they join on the same fields.
func (r *tableJoinResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan, state joinModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	keep := !req.State.Raw.IsNull() && sameOn(plan.On, state.On)
	for i := range plan.On {
		plan.On[i].ID = types.StringUnknown()
		if keep {
			plan.On[i].ID = state.On[i].ID
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

// ValidateConfig checks the join's body with the SDK's checks, with no
// request, at validate and at plan; values known only after apply stand
// as UUIDs of the right form.
func (r *tableJoinResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	m, ok := read[joinModel](ctx, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	in := m.body()
	if m.Source.IsUnknown() {
		in.Source = new(checkUUID)
	}
	for i, o := range m.On {
		if !known(o.LeftFieldID) {
			in.JoinOn[i].LeftFieldID = checkUUID
		}
		if !known(o.RightFieldID) {
			in.JoinOn[i].RightFieldID = checkUUID
		}
	}
	validated(&resp.Diagnostics, "Invalid join", nil, joinAttrs, func(ws *admin.Workspace, opt workflow.RequestOption) error {
		_, err := ws.Tables.Joins.Create(ctx, checkUUID, in, opt)
		return err
	})
}

// joinAttrs are the attributes of a join's body's members.
var joinAttrs = bodyAttrs[admin.TableJoinInput](camel("", "source", "type", "filter"), map[string]string{"joinOn": "on",
	"joinOn[*]": "on[*]", "joinOn[*].leftFieldId": "on[*].left_field_id", "joinOn[*].rightFieldId": "on[*].right_field_id"})

// Create creates the join once (createOnce): a join's natural key is the
// table it joins in, in its table.
func (r *tableJoinResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	save(ctx, req.Plan, &resp.State, &resp.Diagnostics, "Creating the join", func(m joinModel) (*admin.TableJoin, error) {
		tableID, source := m.TableID.ValueString(), m.Source.ValueString()
		return createOnce(ctx, &resp.Diagnostics, "join of the table "+source+" in the table "+tableID,
			func() (*admin.TableJoin, error) {
				t, err := r.ws.Tables.Get(ctx, tableID)
				if err != nil {
					return nil, err
				}
				return only(each(t.Joins.Value()), func(j admin.TableJoin) bool {
					src, _ := j.Source.Get()
					return src.ID.Value() == source
				}, "joins of the table "+source)
			},
			func() (*admin.TableJoin, error) { return r.ws.Tables.Joins.Create(ctx, tableID, m.body()) },
			func(found *admin.TableJoin) (*admin.TableJoin, error) {
				return r.ws.Tables.Joins.Update(ctx, tableID, found.ID.Value(), m.body())
			})
	}, joinModel.state)
}

func (r *tableJoinResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	refresh(ctx, req, resp, "Reading the join", func(m joinModel) (*admin.TableJoin, error) {
		return findJoin(ctx, r.ws, m.TableID.ValueString(), m.ID.ValueString())
	}, joinModel.state)
}

// Update sends the members the configuration sets; the pairs only when
// they change (new pairs get new ids and no mappings).
func (r *tableJoinResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, cfg, state joinModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in := cfg.body()
	if sameOn(cfg.On, state.On) {
		in.JoinOn = nil
	}
	j, err := r.ws.Tables.Joins.Update(ctx, state.TableID.ValueString(), state.ID.ValueString(), in)
	if err != nil {
		failed(&resp.Diagnostics, "Updating the join", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan.state(j))...)
}

func (r *tableJoinResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, ok := read[joinModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	err := r.ws.Tables.Joins.Delete(ctx, m.TableID.ValueString(), m.ID.ValueString())
	if err != nil && !errors.Is(err, workflow.ErrNotFound) {
		failed(&resp.Diagnostics, "Deleting the join", err)
	}
}

// joinMappingsResource is workflow_table_join_mappings: the value
// mappings of one field pair of a join (admin.JoinMappingsService), all
// of them.
type joinMappingsResource struct{ base }

// What joinMappingsResource implements beside what declared adds (family.go), which
// calls it only through these interfaces.
var (
	_ importing = (*joinMappingsResource)(nil)
	_ deleting  = (*joinMappingsResource)(nil)
)

func newJoinMappingsResource() own { return &joinMappingsResource{} }

// mappingsModel is the resource's state.
type mappingsModel struct {
	ID           types.String `tfsdk:"id"`
	TableID      types.String `tfsdk:"table_id"`
	JoinFieldsID types.String `tfsdk:"join_fields_id"`
	Mappings     types.Map    `tfsdk:"mappings"`
}

func (r *joinMappingsResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The value mappings of a join's field pair: which value of the table maps to which value of the table joined in. " +
			"The resource manages every mapping of the pair.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, Description: "table_id/join_fields_id.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"table_id": schema.StringAttribute{Required: true, Description: "The table's id: a reference.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"join_fields_id": schema.StringAttribute{Required: true, Description: "The pair's id: a reference to a workflow_table_join's on[*].id.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"mappings": schema.MapAttribute{Required: true, ElementType: types.StringType,
				Description: "Source value to target value."},
		},
	}
}

// body returns the mappings of m, in the order of their sources.
func (m mappingsModel) body() []admin.JoinMapping {
	var out []admin.JoinMapping
	els := m.Mappings.Elements()
	for _, src := range slices.Sorted(maps.Keys(els)) {
		if v, ok := els[src].(types.String); ok && known(v) {
			out = append(out, admin.JoinMapping{Source: src, Target: v.ValueString()})
		}
	}
	return out
}

// readMappings reads the mappings of a pair from its table. The document
// does not publish the members of a pair's joinMappings; they are read as
// the connection {"edges": [{"node": {"source", "target"}}]} the fake
// serves. found is false when the table or the pair is gone.
func readMappings(ctx context.Context, ws *admin.Workspace, tableID, pairID string) (m map[string]string, found bool, err error) {
	t, err := ws.Tables.Get(ctx, tableID)
	if errors.Is(err, workflow.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	for _, j := range t.Joins.Value() {
		for _, p := range j.OnFields.Value() {
			if p.ID.Value() != pairID {
				continue
			}
			var conn struct {
				Edges []struct {
					Node admin.JoinMapping `json:"node"`
				} `json:"edges"`
			}
			m = map[string]string{}
			if len(p.JoinMappings) > 0 {
				if err := json.Unmarshal(p.JoinMappings, &conn); err != nil {
					return nil, true, fmt.Errorf("the join mappings of the pair %s: %w", pairID, err)
				}
			}
			for _, e := range conn.Edges {
				m[e.Node.Source] = e.Node.Target
			}
			return m, true, nil
		}
	}
	return nil, false, nil
}

// apply brings the pair's mappings from state's to m's: an upsert of
// those m holds, a delete of the sources only state holds.
func (r *joinMappingsResource) apply(ctx context.Context, m, state mappingsModel) error {
	tableID, pairID := m.TableID.ValueString(), m.JoinFieldsID.ValueString()
	var gone []string
	if !state.Mappings.IsNull() {
		for src := range state.Mappings.Elements() {
			if _, ok := m.Mappings.Elements()[src]; !ok {
				gone = append(gone, src)
			}
		}
	}
	if len(gone) > 0 {
		slices.Sort(gone)
		if err := r.ws.Tables.JoinMappings.Delete(ctx, tableID, pairID, gone); err != nil {
			return err
		}
	}
	if e := m.body(); len(e) > 0 {
		return r.ws.Tables.JoinMappings.Update(ctx, tableID, pairID, e)
	}
	return nil
}

func (r *joinMappingsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m, ok := read[mappingsModel](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	if err := r.apply(ctx, m, mappingsModel{Mappings: types.MapNull(types.StringType)}); err != nil {
		failed(&resp.Diagnostics, "Creating the join mappings", err)
		return
	}
	m.ID = types.StringValue(m.TableID.ValueString() + "/" + m.JoinFieldsID.ValueString())
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *joinMappingsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m, ok := read[mappingsModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	got, found, err := readMappings(ctx, r.ws, m.TableID.ValueString(), m.JoinFieldsID.ValueString())
	if err != nil {
		failed(&resp.Diagnostics, "Reading the join mappings", err)
		return
	}
	if !found {
		resp.State.RemoveResource(ctx)
		return
	}
	m.ID = types.StringValue(m.TableID.ValueString() + "/" + m.JoinFieldsID.ValueString())
	m.Mappings, _ = types.MapValueFrom(ctx, types.StringType, got)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *joinMappingsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state mappingsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.apply(ctx, plan, state); err != nil {
		failed(&resp.Diagnostics, "Updating the join mappings", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *joinMappingsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, ok := read[mappingsModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	sources := slices.Sorted(maps.Keys(m.Mappings.Elements()))
	if len(sources) == 0 {
		return
	}
	err := r.ws.Tables.JoinMappings.Delete(ctx, m.TableID.ValueString(), m.JoinFieldsID.ValueString(), sources)
	if err != nil && !errors.Is(err, workflow.ErrNotFound) {
		failed(&resp.Diagnostics, "Deleting the join mappings", err)
	}
}

// ImportState completes an import by table_id/join_fields_id (declared
// has set both): the id is the two joined.
func (r *joinMappingsResource) ImportState(ctx context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var table, pair types.String
	resp.Diagnostics.Append(resp.State.GetAttribute(ctx, path.Root("table_id"), &table)...)
	resp.Diagnostics.Append(resp.State.GetAttribute(ctx, path.Root("join_fields_id"), &pair)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), table.ValueString()+"/"+pair.ValueString())...)
}

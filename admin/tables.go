package admin

import (
	"context"
	"fmt"
	"iter"
	"slices"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Tables: GET and POST /tables, GET, PUT and DELETE /tables/{id}, with
// the joins of a table (POST /tables/{id}/joins, PUT and DELETE
// /tables/{id}/joins/{joinId}) and the value mappings of a join's field
// pair (POST, PUT and DELETE /tables/{id}/join-fields/{joinFieldsId}/mappings).
//
// None of these paths shares a shape with the record routes: "tables" is
// not a record type. Ids are UUIDs on the service; the SDK checks only
// that they are usable path segments (workflow.Segment) and lets the
// service judge the rest.
//
// The document leaves "filter", "orderBy" and "limit" opaque (Filter,
// Sort and Limit JSON of the service) and the "joinMappings" of a join's
// field pair a connection without published members: they are kept as
// raw JSON (jsontext.Value), sent and read back unchanged.

// TablesService is the tables of the workspace (ws.Tables), with the
// joins of a table (Joins) and the value mappings of a join's field pairs
// (JoinMappings) as services of their own.
type TablesService struct {
	client *workflow.Client
	// Joins adds, changes and removes the joins of a table.
	Joins *TableJoinsService
	// JoinMappings creates, upserts and deletes the value mappings of a
	// join's field pair.
	JoinMappings *JoinMappingsService
}

// TableJoinsService is the joins of a table (ws.Tables.Joins).
type TableJoinsService struct{ client *workflow.Client }

// JoinMappingsService is the value mappings of a join's field pair
// (ws.Tables.JoinMappings): which source-side value maps to which
// target-side value.
type JoinMappingsService struct{ client *workflow.Client }

func newTablesService(c *workflow.Client) *TablesService {
	return &TablesService{client: c, Joins: &TableJoinsService{client: c}, JoinMappings: &JoinMappingsService{client: c}}
}

// TableJoinType is how a join combines the rows of two tables.
type TableJoinType string

// The join types the service publishes.
const (
	JoinFull  TableJoinType = "FULL"
	JoinInner TableJoinType = "INNER"
	JoinLeft  TableJoinType = "LEFT"
	JoinRight TableJoinType = "RIGHT"
)

// TableFieldAggregation is how a reference field aggregates the values it
// points at.
type TableFieldAggregation string

// The aggregations the service publishes.
const (
	AggregationAverage           TableFieldAggregation = "AVERAGE"
	AggregationCount             TableFieldAggregation = "COUNT"
	AggregationCountDistinct     TableFieldAggregation = "COUNT_DISTINCT"
	AggregationMax               TableFieldAggregation = "MAX"
	AggregationMin               TableFieldAggregation = "MIN"
	AggregationNotSet            TableFieldAggregation = "NOT_SET"
	AggregationStandardDeviation TableFieldAggregation = "STANDARD_DEVIATION"
	AggregationSum               TableFieldAggregation = "SUM"
)

// TableFieldExpanded is what a reference field shows of the value it
// points at (a user's e-mail rather than the user's id, say).
type TableFieldExpanded string

// The expansions the service publishes.
const (
	ExpandedGroupName          TableFieldExpanded = "GROUP_NAME"
	ExpandedMultiPicklistLabel TableFieldExpanded = "MULTI_PICKLIST_LABEL"
	ExpandedPicklistLabel      TableFieldExpanded = "PICKLIST_LABEL"
	ExpandedStageName          TableFieldExpanded = "STAGE_NAME"
	ExpandedUserEmail          TableFieldExpanded = "USER_EMAIL"
	ExpandedUserFirstName      TableFieldExpanded = "USER_FIRST_NAME"
	ExpandedUserLastName       TableFieldExpanded = "USER_LAST_NAME"
)

// Request returns the create body of the table as read (for
// TablesService.Create, in this workspace or another), with every member
// as it was read (empty members sent empty, absent ones left out): the
// name, handle, the source's id as source, filter, orderBy, limit, the
// members of Extra, every field as a field to create (see below), every
// join as a join to add (the joined table's id, the type, the filter,
// each field pair's left and right field ids as joinOn, and their other
// members), and the data view's Snowflake names with its other members.
//
// What it cannot carry: the read-only id, clientHandle, type and
// __typename (of the table, its fields, joins, pairs and data view); the
// source's, the joined tables' and the pairs' fields' members beyond
// their ids; a field's semanticTags, which no field input takes; a
// pair's joinMappings, written with JoinMappingsService. The document's
// Table has no categoryId and no cloudMapping: a member the service
// sends beyond the document (the fake sends categoryId) is carried like
// every member of Extra, and otherwise the caller sets CategoryID
// (required) and CloudMapping.
//
// The fields are carried in order, as the create body takes them: a
// TableFieldCloud as cloud (name, its column as a Snowflake column of its
// fieldType, tags, its other members), a TableFieldCalculation as
// calculation (name, the calculation's text, tags, its other members),
// and any other field that points at a field as reference (name, the
// field's id, aggregation, expanded, tags, its other members). What a
// variant's input does not take is left out: aggregation, expanded,
// calculation and field of a cloud field; fieldType, columnName,
// aggregation, expanded and field of a calculation; fieldType (the
// pointed field's), columnName and calculation of a reference. A field
// Request cannot place is an error, and so is a member read as null,
// named. UpdateRequest gives the body of Update.
func (t Table) Request() (TableCreateRequest, error) {
	drop := []string{"id", "clientHandle", "type", "__typename"}
	fields, view, err := t.parts(drop)
	if err != nil {
		return TableCreateRequest{}, err
	}
	var joins Opt[[]TableJoinInput]
	if js, ok := t.Joins.Get(); ok {
		in := make([]TableJoinInput, len(js))
		for i, j := range js {
			if in[i], err = j.input(); err != nil {
				return TableCreateRequest{}, fmt.Errorf("admin: table %q: join %d: %w", t.ID.Value(), i, err)
			}
		}
		joins = Some(in)
	}
	return writeBody[TableCreateRequest](t, drop, map[string]any{
		"source": t.Source.Value().ID, "fields": fields, "joins": joins, "dataView": view})
}

// UpdateRequest returns the update body that brings the table target, as
// read where it is updated (the same table, or its copy in another
// workspace), to the state t was read in (for TablesService.Update on
// target's id). It carries what Request carries, as it was read, but
// for what the update body does not take: the handle (fixed when the
// table is created) and the joins (changed with TableJoinsService). The
// fields are changes to target's: each field of t matched in target
// (by clientHandle where both have one, by id otherwise) is updated, at
// t's position, to t's state; one not matched is created at its
// position; each of target's fields not matched is deleted. When t was
// read without fields, the fields are left as they are. A member read as
// null is an error naming it.
func (t Table) UpdateRequest(target Table) (TableUpdateRequest, error) {
	drop := []string{"id", "clientHandle", "type", "__typename", "handle", "joins"}
	fields, view, err := t.parts(drop)
	if err != nil {
		return TableUpdateRequest{}, err
	}
	var changes Opt[TableFieldChanges]
	if in, ok := fields.Get(); ok {
		c := TableFieldChanges{}
		have := target.Fields.Value()
		matched := make([]bool, len(have))
		for i, f := range t.Fields.Value() {
			j := slices.IndexFunc(have, func(h TableField) bool { return sameField(f, h) })
			if j < 0 {
				c.Creates = append(c.Creates, TableFieldCreate{Field: in[i], Index: new(i)})
				continue
			}
			matched[j] = true
			c.Updates = append(c.Updates, TableFieldUpdate{ID: have[j].ID.Value(), Field: in[i], Index: new(i)})
		}
		for j, h := range have {
			if !matched[j] {
				c.Deletes = append(c.Deletes, TableFieldDelete{ID: h.ID.Value()})
			}
		}
		changes = Some(c)
	}
	return writeBody[TableUpdateRequest](t, drop, map[string]any{
		"source": t.Source.Value().ID, "fields": changes, "dataView": view})
}

// sameField reports whether the fields a and b of two tables are the
// same field: by clientHandle where both have one, by id otherwise.
func sameField(a, b TableField) bool {
	ah, aok := a.ClientHandle.Get()
	bh, bok := b.ClientHandle.Get()
	if aok && bok {
		return ah == bh
	}
	id, ok := a.ID.Get()
	return ok && id == b.ID.Value()
}

// parts returns the fields to create and the data view of the table as
// read, the parts its create and update bodies share, after refusing a
// member read as null (but for those in drop).
func (t Table) parts(drop []string) (Opt[[]TableFieldInput], Opt[TableDataViewInput], error) {
	var fields Opt[[]TableFieldInput]
	var view Opt[TableDataViewInput]
	if err := noNull(t, drop); err != nil {
		return fields, view, err
	}
	if fs, ok := t.Fields.Get(); ok {
		in := make([]TableFieldInput, len(fs))
		for i, f := range fs {
			var err error
			if in[i], err = f.input(); err != nil {
				return fields, view, fmt.Errorf("admin: table %q: field %d: %w", t.ID.Value(), i, err)
			}
		}
		fields = Some(in)
	}
	if dv, ok := t.DataView.Get(); ok {
		name, err := writeBody[TableDataViewName](dv, []string{"id", "clientHandle", "__typename"}, nil)
		if err != nil {
			return fields, view, err
		}
		view = Some(TableDataViewInput{Snowflake: &name})
	}
	return fields, view, nil
}

// input returns the join to add of a join as read.
func (j TableJoin) input() (TableJoinInput, error) {
	var on Opt[[]TableJoinOn]
	if pairs, ok := j.OnFields.Get(); ok {
		in := make([]TableJoinOn, len(pairs))
		for i, p := range pairs {
			var err error
			if in[i], err = writeBody[TableJoinOn](p, []string{"id", "clientHandle", "joinMappings"}, map[string]any{
				"leftField": nil, "rightField": nil, "leftFieldId": p.LeftField.Value().ID, "rightFieldId": p.RightField.Value().ID}); err != nil {
				return TableJoinInput{}, err
			}
		}
		on = Some(in)
	}
	return writeBody[TableJoinInput](j, []string{"id", "clientHandle"}, map[string]any{
		"source": j.Source.Value().ID, "onFields": nil, "joinOn": on})
}

// input returns the field to create of a field as read.
func (f TableField) input() (TableFieldInput, error) {
	var in TableFieldInput
	var err error
	drop := []string{"id", "clientHandle", "__typename", "semanticTags"}
	switch typename := f.Typename.Value(); {
	case typename == "TableFieldCloud":
		col := TableColumn{ColumnName: f.ColumnName.Value(), Type: f.FieldType.Value()}
		in.Cloud, err = ptrTo(writeBody[TableCloudField](f, append(drop, "aggregation", "expanded", "calculation", "field"),
			map[string]any{"columnName": nil, "fieldType": nil, "snowflake": col}))
	case typename == "TableFieldCalculation" && f.Calculation.Present():
		in.Calculation, err = ptrTo(writeBody[TableCalculationField](f, append(drop, "fieldType", "columnName", "aggregation", "expanded", "field"),
			map[string]any{"calculation": nil, "text": f.Calculation.Value().Text}))
	case f.Field.Present():
		in.Reference, err = ptrTo(writeBody[TableReferenceField](f, append(drop, "fieldType", "columnName", "calculation"),
			map[string]any{"field": f.Field.Value().ID}))
	default:
		err = fmt.Errorf("a field of type %q without a field it points at has no place in the create body", typename)
	}
	return in, err
}

// ptrTo returns a pointer to v, or err.
func ptrTo[T any](v T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// List returns one page of the workspace's tables: GET /tables with the
// paging options of opts. The service publishes no filter for this list:
// opts.Filter must be nil.
func (s *TablesService) List(ctx context.Context, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) (*workflow.Page[Table], error) {
	return listPage[Table](ctx, s.client, at(op.ListTables), opts, reqOpts)
}

// Pages walks the tables page by page: GET /tables. See
// workflow.RecordsService.Pages.
func (s *TablesService) Pages(ctx context.Context, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[*workflow.Page[Table], error] {
	return listPages[Table](ctx, s.client, at(op.ListTables), opts, reqOpts)
}

// All iterates over every table: GET /tables, page after page. See
// workflow.RecordsService.All.
func (s *TablesService) All(ctx context.Context, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[Table, error] {
	return listAll[Table](ctx, s.client, at(op.ListTables), opts, reqOpts)
}

// Get returns one table: GET /tables/{id} (the document's tableId).
func (s *TablesService) Get(ctx context.Context, tableID string, reqOpts ...workflow.RequestOption) (*Table, error) {
	return call[Table](ctx, s.client, at(op.GetTable, "tableID", tableID), nil, reqOpts)
}

// Create creates a table: POST /tables with r as the body, answered 201
// with the table. A body that breaks a rule of the document (see
// TableCreateRequest) is a *workflow.ValidationError naming the member,
// and nothing is sent.
func (s *TablesService) Create(ctx context.Context, r TableCreateRequest, reqOpts ...workflow.RequestOption) (*Table, error) {
	return call[Table](ctx, s.client, at(op.CreateTable), r, reqOpts)
}

// Update changes a table: PUT /tables/{id} with r as the body, answered
// with the table. Only what r sets is sent; the document does not say
// whether what the body leaves out is kept, and the fake keeps it.
func (s *TablesService) Update(ctx context.Context, tableID string, r TableUpdateRequest, reqOpts ...workflow.RequestOption) (*Table, error) {
	return call[Table](ctx, s.client, at(op.UpdateTable, "tableID", tableID), r, reqOpts)
}

// Delete deletes a table: DELETE /tables/{id}, answered 204.
func (s *TablesService) Delete(ctx context.Context, tableID string, reqOpts ...workflow.RequestOption) error {
	return callNone(ctx, s.client, at(op.DeleteTable, "tableID", tableID), nil, reqOpts)
}

// Create adds a join to a table: POST /tables/{id}/joins with j as the
// body (Source, Type and JoinOn required), answered 201 with the join.
func (s *TableJoinsService) Create(ctx context.Context, tableID string, j TableJoinInput, reqOpts ...workflow.RequestOption) (*TableJoin, error) {
	return call[TableJoin](ctx, s.client, at(op.CreateTableJoin, "tableID", tableID), j, reqOpts)
}

// Update changes a join: PUT /tables/{id}/joins/{joinId} with what j
// sets, answered with the join.
func (s *TableJoinsService) Update(ctx context.Context, tableID, joinID string, j TableJoinInput, reqOpts ...workflow.RequestOption) (*TableJoin, error) {
	return call[TableJoin](ctx, s.client, at(op.UpdateTableJoin, "tableID", tableID, "joinID", joinID), j, reqOpts)
}

// Delete removes a join: DELETE /tables/{id}/joins/{joinId}, answered 204.
func (s *TableJoinsService) Delete(ctx context.Context, tableID, joinID string, reqOpts ...workflow.RequestOption) error {
	return callNone(ctx, s.client, at(op.DeleteTableJoin, "tableID", tableID, "joinID", joinID), nil, reqOpts)
}

// Create creates value mappings on a join's field pair:
// POST /tables/{id}/join-fields/{joinFieldsId}/mappings with
// {"entries": [{"source", "target"}, ...]}, answered 201 without a body.
func (s *JoinMappingsService) Create(ctx context.Context, tableID, joinFieldsID string, entries []JoinMapping, reqOpts ...workflow.RequestOption) error {
	return callNone(ctx, s.client, at(op.CreateTableJoinMapping, "tableID", tableID, "joinFieldsID", joinFieldsID), JoinMappings{Entries: entries}, reqOpts)
}

// Update creates or changes value mappings (an upsert by source):
// PUT /tables/{id}/join-fields/{joinFieldsId}/mappings with the same body
// as Create, answered 200 without a body.
func (s *JoinMappingsService) Update(ctx context.Context, tableID, joinFieldsID string, entries []JoinMapping, reqOpts ...workflow.RequestOption) error {
	return callNone(ctx, s.client, at(op.UpdateTableJoinMapping, "tableID", tableID, "joinFieldsID", joinFieldsID), JoinMappings{Entries: entries}, reqOpts)
}

// Delete deletes the value mappings of the given source values:
// DELETE /tables/{id}/join-fields/{joinFieldsId}/mappings with
// {"entries": [{"source"}, ...]}, answered 204.
func (s *JoinMappingsService) Delete(ctx context.Context, tableID, joinFieldsID string, sources []string, reqOpts ...workflow.RequestOption) error {
	t := at(op.DeleteTableJoinMapping, "tableID", tableID, "joinFieldsID", joinFieldsID)
	body := JoinMappingSources{Entries: make([]JoinMappingSource, len(sources))}
	for i, src := range sources {
		body.Entries[i].Source = src
	}
	return callNone(ctx, s.client, t, body, reqOpts)
}

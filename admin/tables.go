package admin

import (
	"context"
	"fmt"
	"iter"
	"slices"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

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

// Table is a table of the workspace: the service's Table. Every member is
// optional in the document; Source is the table or aspect the table reads
// from (often only its id).
//
// Members the SDK does not model are kept in Extra and written back when
// the table is encoded again, with encoding/json as with
// github.com/go-json-experiment/json; so are those of every model below.
type Table struct {
	ID           Opt[string]        `json:"id,omitzero"`
	Name         Opt[string]        `json:"name,omitzero"`
	Handle       Opt[string]        `json:"handle,omitzero"`
	ClientHandle Opt[string]        `json:"clientHandle,omitzero"` // portable across workspaces
	Type         Opt[string]        `json:"type,omitzero"`
	Typename     Opt[string]        `json:"__typename,omitzero"`
	Source       Opt[Table]         `json:"source,omitzero"`
	Fields       Opt[[]TableField]  `json:"fields,omitzero"`
	Joins        Opt[[]TableJoin]   `json:"joins,omitzero"`
	DataView     Opt[TableDataView] `json:"dataView,omitzero"`
	Filter       jsontext.Value     `json:"filter,omitzero"`  // opaque Filter JSON
	OrderBy      jsontext.Value     `json:"orderBy,omitzero"` // opaque Sort JSON
	Limit        jsontext.Value     `json:"limit,omitzero"`   // opaque Limit JSON
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableField is a field (column) of a table: the service's TableField.
// Typename names its variant (TableFieldReference, TableFieldCloud,
// TableFieldCalculation, ...); Field is the field a reference points at.
type TableField struct {
	ID           Opt[string]                `json:"id,omitzero"`
	Name         Opt[string]                `json:"name,omitzero"`
	ClientHandle Opt[string]                `json:"clientHandle,omitzero"`
	Typename     Opt[string]                `json:"__typename,omitzero"`
	FieldType    Opt[AspectFieldType]       `json:"fieldType,omitzero"`
	ColumnName   Opt[string]                `json:"columnName,omitzero"` // cloud fields
	Tags         Opt[[]string]              `json:"tags,omitzero"`
	SemanticTags Opt[[]string]              `json:"semanticTags,omitzero"`
	Aggregation  Opt[TableFieldAggregation] `json:"aggregation,omitzero"`
	Expanded     Opt[TableFieldExpanded]    `json:"expanded,omitzero"`
	Calculation  Opt[TableCalculation]      `json:"calculation,omitzero"`
	Field        Opt[TableField]            `json:"field,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableCalculation is the expression of a calculated field.
type TableCalculation struct {
	Text Opt[string] `json:"text,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableJoin is a join of a table: the service's TableJoin. OnFields are
// its field pairs, whose ids address JoinMappingsService.
type TableJoin struct {
	ID           Opt[string]            `json:"id,omitzero"`
	ClientHandle Opt[string]            `json:"clientHandle,omitzero"`
	Type         Opt[TableJoinType]     `json:"type,omitzero"`
	Source       Opt[Table]             `json:"source,omitzero"` // the joined table
	OnFields     Opt[[]TableJoinFields] `json:"onFields,omitzero"`
	Filter       jsontext.Value         `json:"filter,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableJoinFields is one (left field, right field) pair of a join.
// JoinMappings is the connection of its value mappings, whose members the
// document does not publish.
type TableJoinFields struct {
	ID           Opt[string]     `json:"id,omitzero"`
	ClientHandle Opt[string]     `json:"clientHandle,omitzero"`
	LeftField    Opt[TableField] `json:"leftField,omitzero"`
	RightField   Opt[TableField] `json:"rightField,omitzero"`
	JoinMappings jsontext.Value  `json:"joinMappings,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableDataView is the warehouse view a table is published as.
type TableDataView struct {
	ID           Opt[string] `json:"id,omitzero"`
	ClientHandle Opt[string] `json:"clientHandle,omitzero"`
	Typename     Opt[string] `json:"__typename,omitzero"`
	Name         Opt[string] `json:"name,omitzero"`
	SchemaName   Opt[string] `json:"schemaName,omitzero"`
	DatabaseName Opt[string] `json:"databaseName,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a table; unknown members go to Extra.
func (t *Table) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, t) }

// MarshalJSON writes the table with its Extra members.
func (t Table) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(t) }

// UnmarshalJSON reads a table field; unknown members go to Extra.
func (f *TableField) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, f) }

// MarshalJSON writes the table field with its Extra members.
func (f TableField) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(f) }

// UnmarshalJSON reads a calculation; unknown members go to Extra.
func (c *TableCalculation) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, c) }

// MarshalJSON writes the calculation with its Extra members.
func (c TableCalculation) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(c) }

// UnmarshalJSON reads a join; unknown members go to Extra.
func (j *TableJoin) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, j) }

// MarshalJSON writes the join with its Extra members.
func (j TableJoin) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(j) }

// UnmarshalJSON reads a join's field pair; unknown members go to Extra.
func (p *TableJoinFields) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, p) }

// MarshalJSON writes the field pair with its Extra members.
func (p TableJoinFields) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(p) }

// UnmarshalJSON reads a data view; unknown members go to Extra.
func (v *TableDataView) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, v) }

// MarshalJSON writes the data view with its Extra members.
func (v TableDataView) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(v) }

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

// TableCreateRequest is the body of TablesService.Create: the service's
// TableCreateRequest. Name, Handle, Source, CategoryID and Fields are
// required. As in every request body of this package, a nil pointer, a
// nil slice and a nil JSON value leave an optional member out, and a
// pointer to an empty value or an empty non-nil slice sends it empty.
// Table.Request returns the one of a table as read.
type TableCreateRequest struct {
	Name         string              `json:"name"`
	Handle       string              `json:"handle"`     // record-handle prefix
	Source       string              `json:"source"`     // the source aspect's or table's id
	CategoryID   string              `json:"categoryId"` // the aspect category to file the table under
	Fields       []TableFieldInput   `json:"fields"`     // see TableFieldInput
	Description  *string             `json:"description,omitzero"`
	Icon         *string             `json:"icon,omitzero"`
	Color        *string             `json:"color,omitzero"`
	Filter       jsontext.Value      `json:"filter,omitzero"`  // opaque Filter JSON
	OrderBy      jsontext.Value      `json:"orderBy,omitzero"` // opaque Sort JSON
	Limit        jsontext.Value      `json:"limit,omitzero"`   // opaque Limit JSON
	Join         *TableJoinInput     `json:"join,omitzero"`
	Joins        []TableJoinInput    `json:"joins,omitzero"`
	CloudMapping *TableCloudMapping  `json:"cloudMapping,omitzero"`
	DataView     *TableDataViewInput `json:"dataView,omitzero"`
	// Extra holds further members of the body, for members the service
	// may add later; a key that names a member above is an error, and
	// nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableUpdateRequest is the body of TablesService.Update: the service's
// TableUpdateRequest. Every member is optional and only what is set is
// sent (as for TableCreateRequest); Fields creates, changes and deletes
// fields by id. Source and CategoryID are UUIDs: the document gives no
// empty value that clears them.
type TableUpdateRequest struct {
	Name         *string             `json:"name,omitzero"`
	Description  *string             `json:"description,omitzero"`
	Icon         *string             `json:"icon,omitzero"`
	Color        *string             `json:"color,omitzero"`
	Source       *string             `json:"source,omitzero"`
	CategoryID   *string             `json:"categoryId,omitzero"`
	Filter       jsontext.Value      `json:"filter,omitzero"`
	OrderBy      jsontext.Value      `json:"orderBy,omitzero"`
	Limit        jsontext.Value      `json:"limit,omitzero"`
	Fields       *TableFieldChanges  `json:"fields,omitzero"`
	CloudMapping *TableCloudMapping  `json:"cloudMapping,omitzero"`
	DataView     *TableDataViewInput `json:"dataView,omitzero"`
	// Extra holds further members of the body, as for TableCreateRequest.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableFieldInput is a field to create or change: exactly one of Cloud,
// Reference and Calculation (the service's TableFieldCreateInput and
// TableFieldUpdateInput). In a change, only Cloud's Name is required, and
// Cloud.BigQuery and Reference.Expanded are not published.
type TableFieldInput struct {
	Cloud       *TableCloudField       `json:"cloud,omitzero"`
	Reference   *TableReferenceField   `json:"reference,omitzero"`
	Calculation *TableCalculationField `json:"calculation,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableCloudField is a field backed by a warehouse column: Name and one
// column (Snowflake or BigQuery).
type TableCloudField struct {
	Name      string       `json:"name"`
	Snowflake *TableColumn `json:"snowflake,omitzero"`
	BigQuery  *TableColumn `json:"bigQuery,omitzero"`
	Tags      []string     `json:"tags,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableColumn is a source column and its type; both are required.
type TableColumn struct {
	ColumnName string          `json:"columnName"`
	Type       AspectFieldType `json:"type"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableReferenceField is a field that points at an aspect field (Field,
// its id), optionally aggregated or expanded; Name and Field are required
// to create it.
type TableReferenceField struct {
	Name        *string                `json:"name,omitzero"`
	Field       *string                `json:"field,omitzero"`
	Aggregation *TableFieldAggregation `json:"aggregation,omitzero"`
	Expanded    *TableFieldExpanded    `json:"expanded,omitzero"`
	Tags        []string               `json:"tags,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableCalculationField is a calculated field; Name and Text (the
// expression) are required to create it.
type TableCalculationField struct {
	Name *string  `json:"name,omitzero"`
	Text *string  `json:"text,omitzero"`
	Tags []string `json:"tags,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableFieldChanges are the field changes of a table update (the
// service's TableFieldsV3UpdateInput).
type TableFieldChanges struct {
	Creates []TableFieldCreate `json:"creates,omitzero"`
	Updates []TableFieldUpdate `json:"updates,omitzero"`
	Deletes []TableFieldDelete `json:"deletes,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableFieldCreate adds a field, at Index when set (at the end otherwise).
type TableFieldCreate struct {
	Field TableFieldInput `json:"field"`
	Index *int            `json:"index,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableFieldUpdate changes the field ID, and moves it to Index when set.
type TableFieldUpdate struct {
	ID    string          `json:"id"`
	Field TableFieldInput `json:"field"`
	Index *int            `json:"index,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableFieldDelete removes the field ID.
type TableFieldDelete struct {
	ID string `json:"id"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableCloudMapping binds a table to a cloud link (CloudLinkID, required)
// and a source table in one warehouse.
type TableCloudMapping struct {
	CloudLinkID       string              `json:"cloudLinkId"`
	Snowflake         *TableWarehouseName `json:"snowflake,omitzero"`
	DatabricksMapping *TableWarehouseName `json:"databricksMapping,omitzero"`
	BigQueryMapping   *TableBigQueryName  `json:"bigQueryMapping,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableWarehouseName names a Snowflake or Databricks table; all three
// names are required.
type TableWarehouseName struct {
	DatabaseName string `json:"databaseName"`
	SchemaName   string `json:"schemaName"`
	TableName    string `json:"tableName"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableBigQueryName names a BigQuery table; both names are required.
type TableBigQueryName struct {
	DatasetName string `json:"datasetName"`
	TableName   string `json:"tableName"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableDataViewInput publishes the table as a Snowflake view.
type TableDataViewInput struct {
	Snowflake *TableDataViewName `json:"snowflake,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableDataViewName names the Snowflake view of a table.
type TableDataViewName struct {
	DatabaseName *string `json:"databaseName,omitzero"`
	SchemaName   *string `json:"schemaName,omitzero"`
	Name         *string `json:"name,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableJoinInput is a join to add (TableJoinsService.Create, the
// service's TableJoinInput: Source, Type and JoinOn required) or the
// changes to a join (TableJoinsService.Update, the service's
// TableJoinUpdateInput: all optional, only what is set is sent). Source
// is a UUID: the document gives no empty value that clears it.
type TableJoinInput struct {
	Source *string        `json:"source,omitzero"` // the id of the table to join in
	Type   *TableJoinType `json:"type,omitzero"`
	JoinOn []TableJoinOn  `json:"joinOn,omitzero"`
	Filter jsontext.Value `json:"filter,omitzero"` // opaque Filter JSON on the joined table
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableJoinOn pairs a field of the parent table (LeftFieldID) with one of
// the joined table (RightFieldID); both are required.
type TableJoinOn struct {
	LeftFieldID  string `json:"leftFieldId"`
	RightFieldID string `json:"rightFieldId"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// JoinMapping maps a source-side value to a target-side value; both are
// required.
type JoinMapping struct {
	Source string `json:"source"`
	Target string `json:"target"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the body with its Extra members.
func (r TableCreateRequest) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(r) }

// UnmarshalJSON reads the body; unknown members go to Extra, and a null
// member is an error. So do those of the request types below.
func (r *TableCreateRequest) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, r) }

// MarshalJSON writes the body with its Extra members.
func (r TableUpdateRequest) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(r) }

// UnmarshalJSON reads the body.
func (r *TableUpdateRequest) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, r) }

// MarshalJSON writes the field with its Extra members.
func (f TableFieldInput) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(f) }

// UnmarshalJSON reads the field.
func (f *TableFieldInput) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, f) }

// MarshalJSON writes the field with its Extra members.
func (f TableCloudField) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(f) }

// UnmarshalJSON reads the field.
func (f *TableCloudField) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, f) }

// MarshalJSON writes the column with its Extra members.
func (c TableColumn) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(c) }

// UnmarshalJSON reads the column.
func (c *TableColumn) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, c) }

// MarshalJSON writes the field with its Extra members.
func (f TableReferenceField) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(f) }

// UnmarshalJSON reads the field.
func (f *TableReferenceField) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, f) }

// MarshalJSON writes the field with its Extra members.
func (f TableCalculationField) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(f) }

// UnmarshalJSON reads the field.
func (f *TableCalculationField) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, f) }

// MarshalJSON writes the changes with their Extra members.
func (c TableFieldChanges) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(c) }

// UnmarshalJSON reads the changes.
func (c *TableFieldChanges) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, c) }

// MarshalJSON writes the change with its Extra members.
func (c TableFieldCreate) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(c) }

// UnmarshalJSON reads the change.
func (c *TableFieldCreate) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, c) }

// MarshalJSON writes the change with its Extra members.
func (c TableFieldUpdate) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(c) }

// UnmarshalJSON reads the change.
func (c *TableFieldUpdate) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, c) }

// MarshalJSON writes the change with its Extra members.
func (c TableFieldDelete) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(c) }

// UnmarshalJSON reads the change.
func (c *TableFieldDelete) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, c) }

// MarshalJSON writes the mapping with its Extra members.
func (m TableCloudMapping) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(m) }

// UnmarshalJSON reads the mapping.
func (m *TableCloudMapping) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, m) }

// MarshalJSON writes the names with their Extra members.
func (n TableWarehouseName) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(n) }

// UnmarshalJSON reads the names.
func (n *TableWarehouseName) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, n) }

// MarshalJSON writes the names with their Extra members.
func (n TableBigQueryName) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(n) }

// UnmarshalJSON reads the names.
func (n *TableBigQueryName) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, n) }

// MarshalJSON writes the data view with its Extra members.
func (v TableDataViewInput) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(v) }

// UnmarshalJSON reads the data view.
func (v *TableDataViewInput) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, v) }

// MarshalJSON writes the names with their Extra members.
func (n TableDataViewName) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(n) }

// UnmarshalJSON reads the names.
func (n *TableDataViewName) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, n) }

// MarshalJSON writes the join with its Extra members.
func (j TableJoinInput) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(j) }

// UnmarshalJSON reads the join.
func (j *TableJoinInput) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, j) }

// MarshalJSON writes the pair with its Extra members.
func (o TableJoinOn) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(o) }

// UnmarshalJSON reads the pair.
func (o *TableJoinOn) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, o) }

// MarshalJSON writes the mapping with its Extra members.
func (m JoinMapping) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(m) }

// UnmarshalJSON reads the mapping.
func (m *JoinMapping) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, m) }

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

// mappings is the body of the mapping operations: the service's
// TableJoinMappingInput, or TableJoinMappingDeleteInput with sources only.
type mappings[T any] struct {
	Entries []T `json:"entries"`
}

type mappingSource struct {
	Source string `json:"source"`
}

// Create creates value mappings on a join's field pair:
// POST /tables/{id}/join-fields/{joinFieldsId}/mappings with
// {"entries": [{"source", "target"}, ...]}, answered 201 without a body.
func (s *JoinMappingsService) Create(ctx context.Context, tableID, joinFieldsID string, entries []JoinMapping, reqOpts ...workflow.RequestOption) error {
	return callNone(ctx, s.client, at(op.CreateTableJoinMapping, "tableID", tableID, "joinFieldsID", joinFieldsID), mappings[JoinMapping]{entries}, reqOpts)
}

// Update creates or changes value mappings (an upsert by source):
// PUT /tables/{id}/join-fields/{joinFieldsId}/mappings with the same body
// as Create, answered 200 without a body.
func (s *JoinMappingsService) Update(ctx context.Context, tableID, joinFieldsID string, entries []JoinMapping, reqOpts ...workflow.RequestOption) error {
	return callNone(ctx, s.client, at(op.UpdateTableJoinMapping, "tableID", tableID, "joinFieldsID", joinFieldsID), mappings[JoinMapping]{entries}, reqOpts)
}

// Delete deletes the value mappings of the given source values:
// DELETE /tables/{id}/join-fields/{joinFieldsId}/mappings with
// {"entries": [{"source"}, ...]}, answered 204.
func (s *JoinMappingsService) Delete(ctx context.Context, tableID, joinFieldsID string, sources []string, reqOpts ...workflow.RequestOption) error {
	t := at(op.DeleteTableJoinMapping, "tableID", tableID, "joinFieldsID", joinFieldsID)
	body := mappings[mappingSource]{make([]mappingSource, len(sources))}
	for i, src := range sources {
		body.Entries[i].Source = src
	}
	return callNone(ctx, s.client, t, body, reqOpts)
}

package admin

import (
	"context"
	"iter"
	"net/http"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
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
	ID           string         `json:"id,omitzero"`
	Name         string         `json:"name,omitzero"`
	Handle       string         `json:"handle,omitzero"`
	ClientHandle string         `json:"clientHandle,omitzero"` // portable across workspaces
	Type         string         `json:"type,omitzero"`
	Typename     string         `json:"__typename,omitzero"`
	Source       *Table         `json:"source,omitzero"`
	Fields       []TableField   `json:"fields,omitzero"`
	Joins        []TableJoin    `json:"joins,omitzero"`
	DataView     *TableDataView `json:"dataView,omitzero"`
	Filter       jsontext.Value `json:"filter,omitzero"`  // opaque Filter JSON
	OrderBy      jsontext.Value `json:"orderBy,omitzero"` // opaque Sort JSON
	Limit        jsontext.Value `json:"limit,omitzero"`   // opaque Limit JSON
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableField is a field (column) of a table: the service's TableField.
// Typename names its variant (TableFieldReference, TableFieldCloud,
// TableFieldCalculation, ...); Field is the field a reference points at.
type TableField struct {
	ID           string                `json:"id,omitzero"`
	Name         string                `json:"name,omitzero"`
	ClientHandle string                `json:"clientHandle,omitzero"`
	Typename     string                `json:"__typename,omitzero"`
	FieldType    AspectFieldType       `json:"fieldType,omitzero"`
	ColumnName   string                `json:"columnName,omitzero"` // cloud fields
	Tags         []string              `json:"tags,omitzero"`
	SemanticTags []string              `json:"semanticTags,omitzero"`
	Aggregation  TableFieldAggregation `json:"aggregation,omitzero"`
	Expanded     TableFieldExpanded    `json:"expanded,omitzero"`
	Calculation  *TableCalculation     `json:"calculation,omitzero"`
	Field        *TableField           `json:"field,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableCalculation is the expression of a calculated field.
type TableCalculation struct {
	Text string `json:"text,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableJoin is a join of a table: the service's TableJoin. OnFields are
// its field pairs, whose ids address JoinMappingsService.
type TableJoin struct {
	ID           string            `json:"id,omitzero"`
	ClientHandle string            `json:"clientHandle,omitzero"`
	Type         TableJoinType     `json:"type,omitzero"`
	Source       *Table            `json:"source,omitzero"` // the joined table
	OnFields     []TableJoinFields `json:"onFields,omitzero"`
	Filter       jsontext.Value    `json:"filter,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableJoinFields is one (left field, right field) pair of a join.
// JoinMappings is the connection of its value mappings, whose members the
// document does not publish.
type TableJoinFields struct {
	ID           string         `json:"id,omitzero"`
	ClientHandle string         `json:"clientHandle,omitzero"`
	LeftField    *TableField    `json:"leftField,omitzero"`
	RightField   *TableField    `json:"rightField,omitzero"`
	JoinMappings jsontext.Value `json:"joinMappings,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableDataView is the warehouse view a table is published as.
type TableDataView struct {
	ID           string `json:"id,omitzero"`
	ClientHandle string `json:"clientHandle,omitzero"`
	Typename     string `json:"__typename,omitzero"`
	Name         string `json:"name,omitzero"`
	SchemaName   string `json:"schemaName,omitzero"`
	DatabaseName string `json:"databaseName,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a table; unknown members go to Extra.
func (t *Table) UnmarshalJSON(b []byte) error {
	return jsonmodel.Unmarshal(b, t)
}

// MarshalJSON writes the table with its Extra members.
func (t Table) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(t)
}

// UnmarshalJSON reads a table field; unknown members go to Extra.
func (f *TableField) UnmarshalJSON(b []byte) error {
	return jsonmodel.Unmarshal(b, f)
}

// MarshalJSON writes the table field with its Extra members.
func (f TableField) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(f)
}

// UnmarshalJSON reads a calculation; unknown members go to Extra.
func (c *TableCalculation) UnmarshalJSON(b []byte) error {
	return jsonmodel.Unmarshal(b, c)
}

// MarshalJSON writes the calculation with its Extra members.
func (c TableCalculation) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(c)
}

// UnmarshalJSON reads a join; unknown members go to Extra.
func (j *TableJoin) UnmarshalJSON(b []byte) error {
	return jsonmodel.Unmarshal(b, j)
}

// MarshalJSON writes the join with its Extra members.
func (j TableJoin) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(j)
}

// UnmarshalJSON reads a join's field pair; unknown members go to Extra.
func (p *TableJoinFields) UnmarshalJSON(b []byte) error {
	return jsonmodel.Unmarshal(b, p)
}

// MarshalJSON writes the field pair with its Extra members.
func (p TableJoinFields) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(p)
}

// UnmarshalJSON reads a data view; unknown members go to Extra.
func (v *TableDataView) UnmarshalJSON(b []byte) error {
	return jsonmodel.Unmarshal(b, v)
}

// MarshalJSON writes the data view with its Extra members.
func (v TableDataView) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(v)
}

// TableCreateRequest is the body of TablesService.Create: the service's
// TableCreateRequest. Name, Handle, Source, CategoryID and at least one
// field are required (the document requires "fields"; the SDK reads that
// as at least one); what is empty is left out.
type TableCreateRequest struct {
	Name         string              `json:"name"`
	Handle       string              `json:"handle"`     // record-handle prefix
	Source       string              `json:"source"`     // the source aspect's or table's id
	CategoryID   string              `json:"categoryId"` // the aspect category to file the table under
	Fields       []TableFieldInput   `json:"fields"`     // see TableFieldInput
	Description  string              `json:"description,omitzero"`
	Icon         string              `json:"icon,omitzero"`
	Color        string              `json:"color,omitzero"`
	Filter       jsontext.Value      `json:"filter,omitzero"`  // opaque Filter JSON
	OrderBy      jsontext.Value      `json:"orderBy,omitzero"` // opaque Sort JSON
	Limit        jsontext.Value      `json:"limit,omitzero"`   // opaque Limit JSON
	Join         *TableJoinInput     `json:"join,omitzero"`
	Joins        []TableJoinInput    `json:"joins,omitzero"`
	CloudMapping *TableCloudMapping  `json:"cloudMapping,omitzero"`
	DataView     *TableDataViewInput `json:"dataView,omitzero"`
	// Extra holds further members of the body, for members the service
	// may add later; a key that names a member above fails the call with
	// a *workflow.ValidationError, and nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// TableUpdateRequest is the body of TablesService.Update: the service's
// TableUpdateRequest. Every member is optional and only what is set is
// sent; Fields creates, changes and deletes fields by id.
type TableUpdateRequest struct {
	Name         string              `json:"name,omitzero"`
	Description  string              `json:"description,omitzero"`
	Icon         string              `json:"icon,omitzero"`
	Color        string              `json:"color,omitzero"`
	Source       string              `json:"source,omitzero"`
	CategoryID   string              `json:"categoryId,omitzero"`
	Filter       jsontext.Value      `json:"filter,omitzero"`
	OrderBy      jsontext.Value      `json:"orderBy,omitzero"`
	Limit        jsontext.Value      `json:"limit,omitzero"`
	Fields       *TableFieldChanges  `json:"fields,omitzero"`
	CloudMapping *TableCloudMapping  `json:"cloudMapping,omitzero"`
	DataView     *TableDataViewInput `json:"dataView,omitzero"`
	// Extra holds further members of the body, as for TableCreateRequest.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the body with its Extra members.
func (r TableCreateRequest) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(r)
}

// MarshalJSON writes the body with its Extra members.
func (r TableUpdateRequest) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(r)
}

// TableFieldInput is a field to create or change: exactly one of Cloud,
// Reference and Calculation (the service's TableFieldCreateInput and
// TableFieldUpdateInput). In a change, only Cloud's Name is required, and
// Cloud.BigQuery and Reference.Expanded are not published (an error
// before sending).
type TableFieldInput struct {
	Cloud       *TableCloudField       `json:"cloud,omitzero"`
	Reference   *TableReferenceField   `json:"reference,omitzero"`
	Calculation *TableCalculationField `json:"calculation,omitzero"`
}

// TableCloudField is a field backed by a warehouse column: Name and one
// column (Snowflake or BigQuery).
type TableCloudField struct {
	Name      string       `json:"name"`
	Snowflake *TableColumn `json:"snowflake,omitzero"`
	BigQuery  *TableColumn `json:"bigQuery,omitzero"`
	Tags      []string     `json:"tags,omitzero"`
}

// TableColumn is a source column and its type; both are required.
type TableColumn struct {
	ColumnName string          `json:"columnName"`
	Type       AspectFieldType `json:"type"`
}

// TableReferenceField is a field that points at an aspect field (Field,
// its id), optionally aggregated or expanded; Name and Field are required
// to create it.
type TableReferenceField struct {
	Name        string                `json:"name,omitzero"`
	Field       string                `json:"field,omitzero"`
	Aggregation TableFieldAggregation `json:"aggregation,omitzero"`
	Expanded    TableFieldExpanded    `json:"expanded,omitzero"`
	Tags        []string              `json:"tags,omitzero"`
}

// TableCalculationField is a calculated field; Name and Text (the
// expression) are required to create it.
type TableCalculationField struct {
	Name string   `json:"name,omitzero"`
	Text string   `json:"text,omitzero"`
	Tags []string `json:"tags,omitzero"`
}

// TableFieldChanges are the field changes of a table update (the
// service's TableFieldsV3UpdateInput).
type TableFieldChanges struct {
	Creates []TableFieldCreate `json:"creates,omitzero"`
	Updates []TableFieldUpdate `json:"updates,omitzero"`
	Deletes []TableFieldDelete `json:"deletes,omitzero"`
}

// TableFieldCreate adds a field, at Index when set (at the end otherwise).
type TableFieldCreate struct {
	Field TableFieldInput `json:"field"`
	Index *int            `json:"index,omitzero"`
}

// TableFieldUpdate changes the field ID, and moves it to Index when set.
type TableFieldUpdate struct {
	ID    string          `json:"id"`
	Field TableFieldInput `json:"field"`
	Index *int            `json:"index,omitzero"`
}

// TableFieldDelete removes the field ID.
type TableFieldDelete struct {
	ID string `json:"id"`
}

// TableCloudMapping binds a table to a cloud link (CloudLinkID, required)
// and a source table in one warehouse.
type TableCloudMapping struct {
	CloudLinkID       string              `json:"cloudLinkId"`
	Snowflake         *TableWarehouseName `json:"snowflake,omitzero"`
	DatabricksMapping *TableWarehouseName `json:"databricksMapping,omitzero"`
	BigQueryMapping   *TableBigQueryName  `json:"bigQueryMapping,omitzero"`
}

// TableWarehouseName names a Snowflake or Databricks table; all three
// names are required.
type TableWarehouseName struct {
	DatabaseName string `json:"databaseName"`
	SchemaName   string `json:"schemaName"`
	TableName    string `json:"tableName"`
}

// TableBigQueryName names a BigQuery table; both names are required.
type TableBigQueryName struct {
	DatasetName string `json:"datasetName"`
	TableName   string `json:"tableName"`
}

// TableDataViewInput publishes the table as a Snowflake view. To create a
// table, all three names are required; to update one, any may be set.
type TableDataViewInput struct {
	Snowflake *TableDataViewName `json:"snowflake,omitzero"`
}

// TableDataViewName names the Snowflake view of a table.
type TableDataViewName struct {
	DatabaseName string `json:"databaseName,omitzero"`
	SchemaName   string `json:"schemaName,omitzero"`
	Name         string `json:"name,omitzero"`
}

// TableJoinInput is a join to add (TableJoinsService.Create, the
// service's TableJoinInput: Source, Type and at least one JoinOn pair
// required) or the changes to a join (TableJoinsService.Update, the
// service's TableJoinUpdateInput: all optional, only what is set is
// sent).
type TableJoinInput struct {
	Source string         `json:"source,omitzero"` // the id of the table to join in
	Type   TableJoinType  `json:"type,omitzero"`
	JoinOn []TableJoinOn  `json:"joinOn,omitzero"`
	Filter jsontext.Value `json:"filter,omitzero"` // opaque Filter JSON on the joined table
}

// TableJoinOn pairs a field of the parent table (LeftFieldID) with one of
// the joined table (RightFieldID); both are required.
type TableJoinOn struct {
	LeftFieldID  string `json:"leftFieldId"`
	RightFieldID string `json:"rightFieldId"`
}

// JoinMapping maps a source-side value to a target-side value; both are
// required.
type JoinMapping struct {
	Source string `json:"source"`
	Target string `json:"target"`
}

// tableCheck collects the first broken rule of a request, naming the
// field by its Go path.
type tableCheck struct{ err error }

func (c *tableCheck) fail(field, rule string) {
	if c.err == nil {
		c.err = invalid(field, rule)
	}
}

func (c *tableCheck) need(field, v string) {
	if strings.TrimSpace(v) == "" {
		c.fail(field, "must not be empty (the service requires it)")
	}
}

func (r *TableCreateRequest) validate() error {
	c := &tableCheck{}
	c.need("TableCreateRequest.Name", r.Name)
	c.need("TableCreateRequest.Handle", r.Handle)
	c.need("TableCreateRequest.Source", r.Source)
	c.need("TableCreateRequest.CategoryID", r.CategoryID)
	if len(r.Fields) == 0 {
		c.fail("TableCreateRequest.Fields", "must have at least one field (the service requires the list)")
	}
	for i := range r.Fields {
		r.Fields[i].check(c, at("TableCreateRequest.Fields", i), false)
	}
	if r.Join != nil {
		r.Join.check(c, "TableCreateRequest.Join", false)
	}
	for i := range r.Joins {
		r.Joins[i].check(c, at("TableCreateRequest.Joins", i), false)
	}
	r.CloudMapping.check(c, "TableCreateRequest.CloudMapping")
	if r.DataView != nil && r.DataView.Snowflake != nil {
		v, f := r.DataView.Snowflake, "TableCreateRequest.DataView.Snowflake."
		c.need(f+"DatabaseName", v.DatabaseName)
		c.need(f+"SchemaName", v.SchemaName)
		c.need(f+"Name", v.Name)
	}
	return c.err
}

func (r *TableUpdateRequest) validate() error {
	c := &tableCheck{}
	if f := r.Fields; f != nil {
		for i := range f.Creates {
			f.Creates[i].Field.check(c, at("TableUpdateRequest.Fields.Creates", i)+".Field", false)
		}
		for i, u := range f.Updates {
			c.need(at("TableUpdateRequest.Fields.Updates", i)+".ID", u.ID)
			u.Field.check(c, at("TableUpdateRequest.Fields.Updates", i)+".Field", true)
		}
		for i, d := range f.Deletes {
			c.need(at("TableUpdateRequest.Fields.Deletes", i)+".ID", d.ID)
		}
	}
	r.CloudMapping.check(c, "TableUpdateRequest.CloudMapping")
	return c.err
}

// check applies the rules of a field to create (update false) or to
// change (update true).
func (f *TableFieldInput) check(c *tableCheck, field string, update bool) {
	n := 0
	for _, set := range []bool{f.Cloud != nil, f.Reference != nil, f.Calculation != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		c.fail(field, "must set exactly one of Cloud, Reference and Calculation")
		return
	}
	switch {
	case f.Cloud != nil:
		c.need(field+".Cloud.Name", f.Cloud.Name)
		if update && f.Cloud.BigQuery != nil {
			c.fail(field+".Cloud.BigQuery", "must not be set in a change (the service publishes Snowflake only)")
		}
		for _, col := range []struct {
			name string
			col  *TableColumn
		}{{".Cloud.Snowflake", f.Cloud.Snowflake}, {".Cloud.BigQuery", f.Cloud.BigQuery}} {
			if col.col != nil {
				c.need(field+col.name+".ColumnName", col.col.ColumnName)
				c.need(field+col.name+".Type", string(col.col.Type))
			}
		}
	case f.Reference != nil && update:
		if f.Reference.Expanded != "" {
			c.fail(field+".Reference.Expanded", "must not be set in a change (the service does not publish it)")
		}
	case f.Reference != nil:
		c.need(field+".Reference.Name", f.Reference.Name)
		c.need(field+".Reference.Field", f.Reference.Field)
	case !update:
		c.need(field+".Calculation.Name", f.Calculation.Name)
		c.need(field+".Calculation.Text", f.Calculation.Text)
	}
}

// check applies the rules of a join to add (update false) or of the
// changes to one (update true).
func (j *TableJoinInput) check(c *tableCheck, field string, update bool) {
	if !update {
		c.need(field+".Source", j.Source)
		c.need(field+".Type", string(j.Type))
		if len(j.JoinOn) == 0 {
			c.fail(field+".JoinOn", "must pair at least one left and right field")
		}
	}
	for i, on := range j.JoinOn {
		c.need(at(field+".JoinOn", i)+".LeftFieldID", on.LeftFieldID)
		c.need(at(field+".JoinOn", i)+".RightFieldID", on.RightFieldID)
	}
}

func (m *TableCloudMapping) check(c *tableCheck, field string) {
	if m == nil {
		return
	}
	c.need(field+".CloudLinkID", m.CloudLinkID)
	for _, w := range []struct {
		name string
		w    *TableWarehouseName
	}{{".Snowflake", m.Snowflake}, {".DatabricksMapping", m.DatabricksMapping}} {
		if w.w != nil {
			c.need(field+w.name+".DatabaseName", w.w.DatabaseName)
			c.need(field+w.name+".SchemaName", w.w.SchemaName)
			c.need(field+w.name+".TableName", w.w.TableName)
		}
	}
	if b := m.BigQueryMapping; b != nil {
		c.need(field+".BigQueryMapping.DatasetName", b.DatasetName)
		c.need(field+".BigQueryMapping.TableName", b.TableName)
	}
}

func (s *TablesService) list() workflow.PagedList[Table] {
	return workflow.PagedList[Table]{Client: s.client, Path: "tables"}
}

// List returns one page of the workspace's tables: GET /tables with the
// paging options of opts. The service publishes no filter for this list:
// opts.Filter must be nil.
func (s *TablesService) List(ctx context.Context, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) (*workflow.Page[Table], error) {
	return s.list().List(ctx, opts, reqOpts...)
}

// Pages walks the tables page by page: GET /tables. See
// workflow.RecordsService.Pages.
func (s *TablesService) Pages(ctx context.Context, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[*workflow.Page[Table], error] {
	return s.list().Pages(ctx, opts, reqOpts...)
}

// All iterates over every table: GET /tables, page after page. See
// workflow.RecordsService.All.
func (s *TablesService) All(ctx context.Context, opts *workflow.ListOptions, reqOpts ...workflow.RequestOption) iter.Seq2[Table, error] {
	return s.list().All(ctx, opts, reqOpts...)
}

// Get returns one table: GET /tables/{id}.
func (s *TablesService) Get(ctx context.Context, tableID string, reqOpts ...workflow.RequestOption) (*Table, error) {
	p, err := segPath("", "tables", "tableID", tableID)
	return call[Table](ctx, s.client, http.MethodGet, p, err, nil, reqOpts)
}

// Create creates a table: POST /tables with r as the body, answered 201
// with the table. The members r requires (see TableCreateRequest) are
// checked first; a missing one is a *workflow.ValidationError naming it,
// and nothing is sent.
func (s *TablesService) Create(ctx context.Context, r TableCreateRequest, reqOpts ...workflow.RequestOption) (*Table, error) {
	return call[Table](ctx, s.client, http.MethodPost, "tables", r.validate(), r, reqOpts)
}

// Update changes a table: PUT /tables/{id} with r as the body, answered
// with the table. Only what r sets is sent; the document does not say
// whether what the body leaves out is kept, and the fake keeps it.
func (s *TablesService) Update(ctx context.Context, tableID string, r TableUpdateRequest, reqOpts ...workflow.RequestOption) (*Table, error) {
	p, err := segPath("", "tables", "tableID", tableID)
	if err == nil {
		err = r.validate()
	}
	return call[Table](ctx, s.client, http.MethodPut, p, err, r, reqOpts)
}

// Delete deletes a table: DELETE /tables/{id}, answered 204.
func (s *TablesService) Delete(ctx context.Context, tableID string, reqOpts ...workflow.RequestOption) error {
	p, err := segPath("", "tables", "tableID", tableID)
	return callNone(ctx, s.client, http.MethodDelete, p, err, nil, reqOpts)
}

// Create adds a join to a table: POST /tables/{id}/joins with j as the
// body (Source, Type and at least one JoinOn pair required), answered 201
// with the join.
func (s *TableJoinsService) Create(ctx context.Context, tableID string, j TableJoinInput, reqOpts ...workflow.RequestOption) (*TableJoin, error) {
	p, err := segPath("", "tables", "tableID", tableID, "", "joins")
	if err == nil {
		c := &tableCheck{}
		j.check(c, "TableJoinInput", false)
		err = c.err
	}
	return call[TableJoin](ctx, s.client, http.MethodPost, p, err, j, reqOpts)
}

// Update changes a join: PUT /tables/{id}/joins/{joinId} with what j
// sets, answered with the join.
func (s *TableJoinsService) Update(ctx context.Context, tableID, joinID string, j TableJoinInput, reqOpts ...workflow.RequestOption) (*TableJoin, error) {
	p, err := segPath("", "tables", "tableID", tableID, "", "joins", "joinID", joinID)
	if err == nil {
		c := &tableCheck{}
		j.check(c, "TableJoinInput", true)
		err = c.err
	}
	return call[TableJoin](ctx, s.client, http.MethodPut, p, err, j, reqOpts)
}

// Delete removes a join: DELETE /tables/{id}/joins/{joinId}, answered 204.
func (s *TableJoinsService) Delete(ctx context.Context, tableID, joinID string, reqOpts ...workflow.RequestOption) error {
	p, err := segPath("", "tables", "tableID", tableID, "", "joins", "joinID", joinID)
	return callNone(ctx, s.client, http.MethodDelete, p, err, nil, reqOpts)
}

// mappingsBody is the body of the mapping operations: the service's
// TableJoinMappingInput, or TableJoinMappingDeleteInput with sources only.
type mappingsBody struct {
	Entries []mappingEntry `json:"entries"`
}

type mappingEntry struct {
	Source string  `json:"source"`
	Target *string `json:"target,omitzero"`
}

func (s *JoinMappingsService) send(ctx context.Context, method, tableID, joinFieldsID string, sources, targets []string, reqOpts []workflow.RequestOption) error {
	p, err := segPath("", "tables", "tableID", tableID, "", "join-fields", "joinFieldsID", joinFieldsID, "", "mappings")
	c, field, suffix := &tableCheck{err: err}, "sources", ""
	if targets != nil {
		field, suffix = "mappings", ".Source"
	}
	if len(sources) == 0 {
		c.fail(field, "must have at least one entry")
	}
	body := mappingsBody{Entries: make([]mappingEntry, len(sources))}
	for i, src := range sources {
		c.need(at(field, i)+suffix, src)
		body.Entries[i].Source = src
		if targets != nil {
			c.need(at(field, i)+".Target", targets[i])
			body.Entries[i].Target = &targets[i]
		}
	}
	return callNone(ctx, s.client, method, p, c.err, body, reqOpts)
}

func splitMappings(m []JoinMapping) (sources, targets []string) {
	sources, targets = make([]string, len(m)), make([]string, len(m))
	for i, e := range m {
		sources[i], targets[i] = e.Source, e.Target
	}
	return sources, targets
}

// Create creates value mappings on a join's field pair:
// POST /tables/{id}/join-fields/{joinFieldsId}/mappings with
// {"entries": [{"source", "target"}, ...]}, answered 201 without a body.
// At least one mapping is needed, each with a source and a target.
func (s *JoinMappingsService) Create(ctx context.Context, tableID, joinFieldsID string, mappings []JoinMapping, reqOpts ...workflow.RequestOption) error {
	src, tgt := splitMappings(mappings)
	return s.send(ctx, http.MethodPost, tableID, joinFieldsID, src, tgt, reqOpts)
}

// Update creates or changes value mappings (an upsert by source):
// PUT /tables/{id}/join-fields/{joinFieldsId}/mappings with the same body
// as Create, answered 200 without a body.
func (s *JoinMappingsService) Update(ctx context.Context, tableID, joinFieldsID string, mappings []JoinMapping, reqOpts ...workflow.RequestOption) error {
	src, tgt := splitMappings(mappings)
	return s.send(ctx, http.MethodPut, tableID, joinFieldsID, src, tgt, reqOpts)
}

// Delete deletes the value mappings of the given source values:
// DELETE /tables/{id}/join-fields/{joinFieldsId}/mappings with
// {"entries": [{"source"}, ...]}, answered 204. At least one non-empty
// source is needed.
func (s *JoinMappingsService) Delete(ctx context.Context, tableID, joinFieldsID string, sources []string, reqOpts ...workflow.RequestOption) error {
	return s.send(ctx, http.MethodDelete, tableID, joinFieldsID, sources, nil, reqOpts)
}

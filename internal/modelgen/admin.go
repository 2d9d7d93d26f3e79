package modelgen

// AdminEnums are the Go types of the document's enum schemas in package
// admin, where they are declared with their constants by hand.
var AdminEnums = map[string]string{
	"AspectFieldType":       "AspectFieldType",
	"TableJoinType":         "TableJoinType",
	"TableFieldAggregation": "TableFieldAggregation",
	"TableFieldExpanded":    "TableFieldExpanded",
}

// Admin are the generated files of package admin.
var Admin = []File{adminTables}

const readExtra = "Members the SDK does not model are kept in Extra and written back when the model is encoded again, with encoding/json as with github.com/go-json-experiment/json."

var adminTables = File{Package: "admin", Name: "tables_gen.go", Types: []Type{
	{Name: "Table", From: []string{"Table"}, Doc: "Table is a table of the workspace: the service's Table. Every member is optional in the document; Source is the table or aspect the table reads from (often only its id).\n\n" + readExtra,
		Notes: map[string]string{"clientHandle": "portable across workspaces"}},
	{Name: "TableField", From: []string{"TableField"}, Doc: "TableField is a field (column) of a table: the service's TableField. Typename names its variant (TableFieldReference, TableFieldCloud, TableFieldCalculation, ...); Field is the field a reference points at.",
		Notes: map[string]string{"columnName": "cloud fields"}},
	{Name: "TableCalculation", From: []string{"TableField.calculation"}, Doc: "TableCalculation is the expression of a calculated field."},
	{Name: "TableJoin", From: []string{"TableJoin"}, Doc: "TableJoin is a join of a table: the service's TableJoin. OnFields are its field pairs, whose ids address JoinMappingsService.",
		Notes: map[string]string{"source": "the joined table"}},
	{Name: "TableJoinFields", From: []string{"TableJoinFields"}, Doc: "TableJoinFields is one (left field, right field) pair of a join. JoinMappings is the connection of its value mappings, whose members the document does not publish."},
	{Name: "TableDataView", From: []string{"TableDataView"}, Doc: "TableDataView is the warehouse view a table is published as."},

	{Name: "TableCreateRequest", From: []string{"TableCreateRequest"}, Body: true,
		Doc:   "TableCreateRequest is the body of TablesService.Create: the service's TableCreateRequest. Name, Handle, Source, CategoryID and Fields are required. As in every request body of this package, a nil pointer, a nil slice and a nil JSON value leave an optional member out, and a pointer to an empty value or an empty non-nil slice sends it empty. Table.Request returns the one of a table as read.",
		Extra: "Extra holds further members of the body, for members the service may add later; a key that names a member above is an error, and nothing is sent.",
		Notes: map[string]string{"handle": "record-handle prefix", "source": "the source aspect's or table's id", "categoryId": "the aspect category to file the table under",
			"fields": "see TableFieldInput", "filter": "opaque Filter JSON", "orderBy": "opaque Sort JSON", "limit": "opaque Limit JSON"}},
	{Name: "TableUpdateRequest", From: []string{"TableUpdateRequest"}, Body: true,
		Doc:   "TableUpdateRequest is the body of TablesService.Update: the service's TableUpdateRequest. Every member is optional and only what is set is sent (as for TableCreateRequest); Fields creates, changes and deletes fields by id. Source and CategoryID are UUIDs: the document gives no empty value that clears them.",
		Extra: "Extra holds further members of the body, as for TableCreateRequest."},
	{Name: "TableFieldInput", From: []string{"TableFieldCreateInput", "TableFieldUpdateInput"}, Body: true,
		Doc: "TableFieldInput is a field to create or change: exactly one of Cloud, Reference and Calculation (the service's TableFieldCreateInput and TableFieldUpdateInput). In a change, only Cloud's Name is required, and Cloud.BigQuery and Reference.Expanded are not published."},
	{Name: "TableCloudField", From: []string{"TableFieldCloudCreateInput", "TableFieldCloudUpdateInput"}, Body: true,
		Doc: "TableCloudField is a field backed by a warehouse column: Name and one column (Snowflake or BigQuery)."},
	{Name: "TableColumn", From: []string{"TableFieldColumnInput"}, Body: true,
		Doc: "TableColumn is a source column and its type; both are required. It is the service's TableFieldSnowflakeInput and TableFieldBigQueryInput (one shape)."},
	{Name: "TableReferenceField", From: []string{"TableFieldAggregatableCreateInput", "TableFieldAggregatableUpdateInput"}, Body: true,
		Doc: "TableReferenceField is a field that points at an aspect field (Field, its id), optionally aggregated or expanded; Name and Field are required to create it."},
	{Name: "TableCalculationField", From: []string{"TableCalculationCreateInput", "TableCalculationUpdateInput"}, Body: true,
		Doc: "TableCalculationField is a calculated field; Name and Text (the expression) are required to create it."},
	{Name: "TableFieldChanges", From: []string{"TableFieldsV3UpdateInput"}, Body: true,
		Doc: "TableFieldChanges are the field changes of a table update (the service's TableFieldsV3UpdateInput)."},
	{Name: "TableFieldCreate", From: []string{"TableFieldsV3UpdateInput.creates[]"}, Body: true,
		Doc: "TableFieldCreate adds a field, at Index when set (at the end otherwise)."},
	{Name: "TableFieldUpdate", From: []string{"TableFieldsV3UpdateInput.updates[]"}, Body: true,
		Doc: "TableFieldUpdate changes the field ID, and moves it to Index when set."},
	{Name: "TableFieldDelete", From: []string{"TableFieldsV3UpdateInput.deletes[]"}, Body: true,
		Doc: "TableFieldDelete removes the field ID."},
	{Name: "TableCloudMapping", From: []string{"TableCloudMappingInput"}, Body: true,
		Doc: "TableCloudMapping binds a table to a cloud link (CloudLinkID, required) and a source table in one warehouse."},
	{Name: "TableWarehouseName", From: []string{"TableWarehouseMappingInput"}, Body: true,
		Doc: "TableWarehouseName names a Snowflake or Databricks table; all three names are required. It is the service's TableSnowflakeMappingInput and TableDatabricksMappingInput (one shape)."},
	{Name: "TableBigQueryName", From: []string{"TableCloudMappingInput.bigQueryMapping"}, Body: true,
		Doc: "TableBigQueryName names a BigQuery table; both names are required."},
	{Name: "TableDataViewInput", From: []string{"TableDataViewCreateInput", "TableDataViewUpdateInput"}, Body: true,
		Doc: "TableDataViewInput publishes the table as a Snowflake view."},
	{Name: "TableDataViewName", From: []string{"TableDataViewCreateInput.snowflake", "TableDataViewUpdateInput.snowflake"}, Body: true,
		Doc: "TableDataViewName names the Snowflake view of a table; all three names are required to create it."},
	{Name: "TableJoinInput", From: []string{"TableJoinInput", "TableJoinUpdateInput"}, Body: true,
		Doc:   "TableJoinInput is a join to add (TableJoinsService.Create, the service's TableJoinInput: Source, Type and JoinOn required) or the changes to a join (TableJoinsService.Update, the service's TableJoinUpdateInput: all optional, only what is set is sent). Source is a UUID: the document gives no empty value that clears it.",
		Notes: map[string]string{"source": "the id of the table to join in", "filter": "opaque Filter JSON on the joined table"}},
	{Name: "TableJoinOn", From: []string{"TableJoinFieldInput"}, Body: true,
		Doc: "TableJoinOn pairs a field of the parent table (LeftFieldID) with one of the joined table (RightFieldID); both are required."},
	{Name: "JoinMappings", From: []string{"TableJoinMappingInput"}, Body: true,
		Doc: "JoinMappings is the body of JoinMappingsService.Create and Update (the service's TableJoinMappingInput): the value mappings to create or change."},
	{Name: "JoinMapping", From: []string{"TableJoinMappingInput.entries[]"}, Body: true,
		Doc: "JoinMapping maps a source-side value to a target-side value; both are required."},
	{Name: "JoinMappingSources", From: []string{"TableJoinMappingDeleteInput"}, Body: true,
		Doc: "JoinMappingSources is the body of JoinMappingsService.Delete (the service's TableJoinMappingDeleteInput): the source values whose mappings to delete."},
	{Name: "JoinMappingSource", From: []string{"TableJoinMappingDeleteInput.entries[]"}, Body: true,
		Doc: "JoinMappingSource names a source value whose mapping to delete."},
}}

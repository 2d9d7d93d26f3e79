package admin

import (
	"context"
	"fmt"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Search tables: POST /aspects/{aspectId}/search-tables (Snowflake),
// POST /aspects/{aspectId}/linked-search-tables (linked to an existing
// Cortex Search Service), GET and PUT
// /aspects/{aspectId}/search-tables/{id}. "aspects" is not a record type:
// none of these paths shares a shape with the record routes. The service
// publishes no list and no delete of search tables.

// SearchTablesService is the search tables of the workspace's aspects
// (apps and elements), ws.SearchTables.
type SearchTablesService struct{ client *workflow.Client }

// SearchTableTimeUnit is the unit of a search table's refresh lag.
type SearchTableTimeUnit string

// The time units the service publishes.
const (
	TimeUnitSeconds SearchTableTimeUnit = "SECONDS"
	TimeUnitMinutes SearchTableTimeUnit = "MINUTES"
	TimeUnitHours   SearchTableTimeUnit = "HOURS"
	TimeUnitDays    SearchTableTimeUnit = "DAYS"
)

// SearchTableStatus is where a search table stands. The document names
// PENDING, READY and FAILED and says there are more: other values are
// kept as sent.
type SearchTableStatus string

// The statuses the document names.
const (
	SearchTablePending SearchTableStatus = "PENDING"
	SearchTableReady   SearchTableStatus = "READY"
	SearchTableFailed  SearchTableStatus = "FAILED"
)

// SearchTable is a search table: the service's SearchTable. Typename is
// AspectSearchSnowflakeTable or AspectLinkedSearchTable; the Linked*
// members are those of linked tables, ErrorMessage is set when Status is
// SearchTableFailed. Members the SDK does not model are kept in Extra and
// written back, with encoding/json as with go-json-experiment/json; so
// are those of the models below.
type SearchTable struct {
	ID                  Opt[string]              `json:"id,omitzero"`
	Typename            Opt[string]              `json:"__typename,omitzero"`
	DisplayName         Opt[string]              `json:"displayName,omitzero"`
	Status              Opt[SearchTableStatus]   `json:"status,omitzero"`
	ErrorMessage        Opt[string]              `json:"errorMessage,omitzero"`
	Warehouse           Opt[string]              `json:"warehouse,omitzero"`
	TargetLag           Opt[int]                 `json:"targetLag,omitzero"`
	Duration            Opt[SearchTableTimeUnit] `json:"duration,omitzero"`
	Field               Opt[SearchTableField]    `json:"field,omitzero"`
	AIProviderConnector Opt[ConnectorRef]        `json:"aiProviderConnector,omitzero"`
	AttributeFields     Opt[[]SearchTableField]  `json:"attributeFields,omitzero"`
	TextIndexFields     Opt[[]SearchTableField]  `json:"textIndexFields,omitzero"`
	VectorIndexes       Opt[[]VectorIndex]       `json:"vectorIndexes,omitzero"`
	LinkedDatabase      Opt[string]              `json:"linkedDatabase,omitzero"`
	LinkedSchema        Opt[string]              `json:"linkedSchema,omitzero"`
	LinkedServiceName   Opt[string]              `json:"linkedServiceName,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// SearchTableField is a field of the aspect a search table indexes; Type
// names its variant (AspectTextField, AspectNumberField, ...).
type SearchTableField struct {
	ID   Opt[string] `json:"id,omitzero"`
	Name Opt[string] `json:"name,omitzero"`
	Type Opt[string] `json:"type,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// VectorIndex is a vectorized field and its embedding provider.
type VectorIndex struct {
	Field               Opt[SearchTableField] `json:"field,omitzero"`
	AIProviderConnector Opt[ConnectorRef]     `json:"aiProviderConnector,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// ConnectorRef names an AI provider connector (the service's
// AiProviderConnectorRef).
type ConnectorRef struct {
	ID Opt[string] `json:"id,omitzero"`
	// Extra holds the members the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a search table; unknown members go to Extra.
func (s *SearchTable) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, s) }

// MarshalJSON writes the search table with its Extra members.
func (s SearchTable) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(s) }

// UnmarshalJSON reads a field; unknown members go to Extra.
func (f *SearchTableField) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, f) }

// MarshalJSON writes the field with its Extra members.
func (f SearchTableField) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(f) }

// UnmarshalJSON reads a vector index; unknown members go to Extra.
func (v *VectorIndex) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, v) }

// MarshalJSON writes the vector index with its Extra members.
func (v VectorIndex) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(v) }

// UnmarshalJSON reads a connector reference; unknown members go to Extra.
func (c *ConnectorRef) UnmarshalJSON(b []byte) error { return jsonmodel.Unmarshal(b, c) }

// MarshalJSON writes the connector reference with its Extra members.
func (c ConnectorRef) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(c) }

// Request returns the create body of the Snowflake search table as read
// (for SearchTablesService.Create, on this aspect or another), with every
// member as it was read: its warehouse, targetLag and duration, the ids
// of its attribute and text-index fields, its vector indexes as
// (fieldId, aiProviderConnectorId) pairs with their other members, its
// legacy field and connector as fieldId and aiProviderConnectorId, and
// the members of Extra. What it cannot carry: the read-only id,
// __typename, displayName, status and errorMessage, and the fields' and
// connectors' members beyond their ids. A linked search table (Typename
// AspectLinkedSearchTable) is created with CreateLinked, from
// LinkedDatabase, LinkedSchema, LinkedServiceName and a cloud link id the
// read form does not hold, and Request returns an error for one. A member
// read as null is an error naming it.
func (s SearchTable) Request() (SnowflakeSearchTableRequest, error) {
	if err := s.snowflake(); err != nil {
		return SnowflakeSearchTableRequest{}, err
	}
	drop := []string{"id", "__typename", "displayName", "status", "errorMessage"}
	if err := noNull(s, drop); err != nil {
		return SnowflakeSearchTableRequest{}, err
	}
	var vector Opt[[]VectorIndexInput]
	if vs, ok := s.VectorIndexes.Get(); ok {
		in := make([]VectorIndexInput, len(vs))
		for i, v := range vs {
			var err error
			if in[i], err = writeBody[VectorIndexInput](v, nil, map[string]any{"field": nil, "aiProviderConnector": nil,
				"fieldId": v.Field.Value().ID, "aiProviderConnectorId": v.AIProviderConnector.Value().ID}); err != nil {
				return SnowflakeSearchTableRequest{}, err
			}
		}
		vector = Some(in)
	}
	return writeBody[SnowflakeSearchTableRequest](s, drop, map[string]any{
		"field": nil, "aiProviderConnector": nil, "attributeFields": nil, "textIndexFields": nil,
		"attributeFieldIds": fieldIDs(s.AttributeFields), "textIndexFieldIds": fieldIDs(s.TextIndexFields), "vectorIndexes": vector,
		"fieldId": s.Field.Value().ID, "aiProviderConnectorId": s.AIProviderConnector.Value().ID})
}

// UpdateRequest returns the update body that brings a Snowflake search
// table to the state s was read in (for SearchTablesService.Update): its
// warehouse, targetLag and duration as they were read, and the members
// of Extra. The update body takes nothing else: the fields and vector
// indexes of a search table are fixed when it is created. A linked search
// table has no update body (an error), and a member read as null is an
// error naming it.
func (s SearchTable) UpdateRequest() (SearchTableUpdate, error) {
	if err := s.snowflake(); err != nil {
		return SearchTableUpdate{}, err
	}
	u, err := writeBody[SnowflakeSearchTableUpdate](s, []string{"id", "__typename", "displayName", "status", "errorMessage",
		"field", "aiProviderConnector", "attributeFields", "textIndexFields", "vectorIndexes"}, nil)
	return SearchTableUpdate{Snowflake: &u}, err
}

// snowflake refuses a linked search table, which has no write body a
// search table as read can give.
func (s SearchTable) snowflake() error {
	if s.Typename.Value() == "AspectLinkedSearchTable" {
		return fmt.Errorf("admin: search table %q is linked: create it with CreateLinked", s.ID.Value())
	}
	return nil
}

// fieldIDs is the ids of the fields of a list as read: absent for an
// absent list.
func fieldIDs(o Opt[[]SearchTableField]) Opt[[]string] {
	fs, ok := o.Get()
	if !ok {
		return Opt[[]string]{}
	}
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.ID.Value()
	}
	return Some(out)
}

// SnowflakeSearchTableRequest is the body of SearchTablesService.Create:
// the service's AspectSearchTableSnowflakeCreateRequest. Duration,
// TargetLag (an int32; the document sets no minimum) and
// AttributeFieldIDs are required (a nil AttributeFieldIDs is sent as []). FieldID and AIProviderConnectorID are the
// legacy single index; prefer VectorIndexes. As in every request body of
// this package, a nil pointer or slice leaves an optional member out, and
// a pointer to an empty value or an empty non-nil slice sends it empty.
// SearchTable.Request returns the one of a search table as read.
type SnowflakeSearchTableRequest struct {
	AttributeFieldIDs     []string            `json:"attributeFieldIds"`
	Duration              SearchTableTimeUnit `json:"duration"`
	TargetLag             int                 `json:"targetLag"`
	Warehouse             *string             `json:"warehouse,omitzero"`
	TextIndexFieldIDs     []string            `json:"textIndexFieldIds,omitzero"`
	VectorIndexes         []VectorIndexInput  `json:"vectorIndexes,omitzero"`
	FieldID               *string             `json:"fieldId,omitzero"`
	AIProviderConnectorID *string             `json:"aiProviderConnectorId,omitzero"`
	// Extra holds further members of the body, for members the service
	// may add later; a key that names a member above is an error, and
	// nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// VectorIndexInput vectorizes an aspect field with an embedding
// provider; both ids are required.
type VectorIndexInput struct {
	FieldID               string `json:"fieldId"`
	AIProviderConnectorID string `json:"aiProviderConnectorId"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// LinkedSearchTableRequest is the body of SearchTablesService.CreateLinked:
// the service's AspectLinkedSearchTableCreateRequest. All but Warehouse
// are required.
type LinkedSearchTableRequest struct {
	CloudLinkID string  `json:"cloudLinkId"` // the cloud link holding the service
	Database    string  `json:"database"`
	Schema      string  `json:"schema"`
	ServiceName string  `json:"serviceName"` // the existing Cortex Search Service
	Warehouse   *string `json:"warehouse,omitzero"`
	// Extra holds further members of the body, as for
	// SnowflakeSearchTableRequest.
	Extra map[string]jsontext.Value `json:",embed"`
}

// SearchTableUpdate is the body of SearchTablesService.Update: the
// service's AspectSearchTableUpdateInput. Only Snowflake search tables
// have settings to change today; only what is set is sent.
type SearchTableUpdate struct {
	Snowflake *SnowflakeSearchTableUpdate `json:"snowflake,omitzero"`
	// Extra holds further members of the body, as for
	// SnowflakeSearchTableRequest.
	Extra map[string]jsontext.Value `json:",embed"`
}

// SnowflakeSearchTableUpdate are the settings of a Snowflake search
// table to change; a nil member is left as it is.
type SnowflakeSearchTableUpdate struct {
	Warehouse *string              `json:"warehouse,omitzero"`
	TargetLag *int                 `json:"targetLag,omitzero"`
	Duration  *SearchTableTimeUnit `json:"duration,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the body with its Extra members.
func (r SnowflakeSearchTableRequest) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(r) }

// UnmarshalJSON reads the body; unknown members go to Extra, and a null
// member is an error.
func (r *SnowflakeSearchTableRequest) UnmarshalJSON(b []byte) error {
	return jsonmodel.UnmarshalBody(b, r)
}

// MarshalJSON writes the vector index with its Extra members.
func (v VectorIndexInput) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(v) }

// UnmarshalJSON reads the vector index, as
// SnowflakeSearchTableRequest's does.
func (v *VectorIndexInput) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, v) }

// MarshalJSON writes the body with its Extra members.
func (r LinkedSearchTableRequest) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(r) }

// UnmarshalJSON reads the body, as SnowflakeSearchTableRequest's does.
func (r *LinkedSearchTableRequest) UnmarshalJSON(b []byte) error {
	return jsonmodel.UnmarshalBody(b, r)
}

// MarshalJSON writes the body with its Extra members.
func (r SearchTableUpdate) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(r) }

// UnmarshalJSON reads the body, as SnowflakeSearchTableRequest's does.
func (r *SearchTableUpdate) UnmarshalJSON(b []byte) error { return jsonmodel.UnmarshalBody(b, r) }

// MarshalJSON writes the settings with their Extra members.
func (r SnowflakeSearchTableUpdate) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(r) }

// UnmarshalJSON reads the settings, as SnowflakeSearchTableRequest's does.
func (r *SnowflakeSearchTableUpdate) UnmarshalJSON(b []byte) error {
	return jsonmodel.UnmarshalBody(b, r)
}

// Create creates a Snowflake-backed search table on the aspect aspectID:
// POST /aspects/{aspectId}/search-tables with r as the body, answered 201
// with the search table. A body that breaks a rule of the document (see
// SnowflakeSearchTableRequest) is a *workflow.ValidationError, and
// nothing is sent.
func (s *SearchTablesService) Create(ctx context.Context, aspectID string, r SnowflakeSearchTableRequest, reqOpts ...workflow.RequestOption) (*SearchTable, error) {
	return call[SearchTable](ctx, s.client, at(op.CreateSnowflakeSearchTable, "aspectID", aspectID), r, reqOpts)
}

// CreateLinked creates a search table linked to an existing Cortex
// Search Service: POST /aspects/{aspectId}/linked-search-tables with r as
// the body, answered 201 with the search table.
func (s *SearchTablesService) CreateLinked(ctx context.Context, aspectID string, r LinkedSearchTableRequest, reqOpts ...workflow.RequestOption) (*SearchTable, error) {
	return call[SearchTable](ctx, s.client, at(op.CreateLinkedSearchTable, "aspectID", aspectID), r, reqOpts)
}

// Get returns one search table: GET /aspects/{aspectId}/search-tables/{id}
// (the document's aspectSearchTableId).
func (s *SearchTablesService) Get(ctx context.Context, aspectID, aspectSearchTableID string, reqOpts ...workflow.RequestOption) (*SearchTable, error) {
	return call[SearchTable](ctx, s.client, at(op.GetSearchTable, "aspectID", aspectID, "aspectSearchTableID", aspectSearchTableID), nil, reqOpts)
}

// Update changes a search table's settings:
// PUT /aspects/{aspectId}/search-tables/{id} with what r sets, answered
// with the search table. The document publishes Snowflake settings only;
// the fake answers 422 to an update of a linked search table.
func (s *SearchTablesService) Update(ctx context.Context, aspectID, aspectSearchTableID string, r SearchTableUpdate, reqOpts ...workflow.RequestOption) (*SearchTable, error) {
	return call[SearchTable](ctx, s.client, at(op.UpdateSearchTable, "aspectID", aspectID, "aspectSearchTableID", aspectSearchTableID), r, reqOpts)
}

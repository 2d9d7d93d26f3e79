package admin

import (
	"context"
	"fmt"

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

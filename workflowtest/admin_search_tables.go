package workflowtest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// The search tables of the workspace configuration: POST
// /aspects/{aspectId}/search-tables and /linked-search-tables, GET and PUT
// /aspects/{aspectId}/search-tables/{id}. None of these paths shares a
// shape with the record routes ("aspects" is not a record type).
//
// What the fake decides where the document is silent:
//   - Aspects are not modelled: any aspect id is taken, and a search
//     table is found only under the aspect it was created on (404
//     otherwise).
//   - A new search table is READY at once, named "search_table_<n>".
//   - A second linked table of the same service on one aspect and a
//     Snowflake update of a linked table are 422 (bodies are checked as
//     every body is, see readBody). PUT keeps what it leaves out.
//   - A member sent empty ("", 0, []) is held and answered empty.

type searchTablesState struct {
	n    uint64
	byID map[string]*searchTableJSON
}

// searchTableJSON is a search table as the fake answers it, and the
// aspect it is on.
type searchTableJSON struct {
	aspectID            string
	ID                  string        `json:"id"`
	Typename            string        `json:"__typename"`
	DisplayName         string        `json:"displayName"`
	Status              string        `json:"status"`
	Warehouse           *string       `json:"warehouse,omitempty"`
	TargetLag           *int          `json:"targetLag,omitempty"`
	Duration            string        `json:"duration,omitempty"`
	Field               *idRef        `json:"field,omitempty"`
	AIProviderConnector *idRef        `json:"aiProviderConnector,omitempty"`
	AttributeFields     []idRef       `json:"attributeFields,omitzero"`
	TextIndexFields     []idRef       `json:"textIndexFields,omitzero"`
	VectorIndexes       []vectorIndex `json:"vectorIndexes,omitzero"`
	LinkedDatabase      string        `json:"linkedDatabase,omitempty"`
	LinkedSchema        string        `json:"linkedSchema,omitempty"`
	LinkedServiceName   string        `json:"linkedServiceName,omitempty"`
}

// vectorIndex is a vector index as a request sends it; it is answered
// as {"field": {"id"}, "aiProviderConnector": {"id"}}.
type vectorIndex struct {
	FieldID               string `json:"fieldId"`
	AIProviderConnectorID string `json:"aiProviderConnectorId"`
}

// MarshalJSON writes the vector index as the answer holds it.
func (v vectorIndex) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]idRef{"field": {v.FieldID}, "aiProviderConnector": {v.AIProviderConnectorID}})
}

// snowflakeSearchBody is SnowflakeSearchTableRequest; the ids of fields
// and connectors are read as the references the answer holds.
type snowflakeSearchBody struct {
	AttributeFieldIDs     *[]idRef      `json:"attributeFieldIds"`
	Duration              *string       `json:"duration"`
	TargetLag             *int          `json:"targetLag"`
	Warehouse             *string       `json:"warehouse"`
	TextIndexFieldIDs     []idRef       `json:"textIndexFieldIds"`
	FieldID               *idRef        `json:"fieldId"`
	AIProviderConnectorID *idRef        `json:"aiProviderConnectorId"`
	VectorIndexes         []vectorIndex `json:"vectorIndexes"`
}

type linkedSearchBody struct {
	Database    *string `json:"database"`
	Schema      *string `json:"schema"`
	ServiceName *string `json:"serviceName"`
	Warehouse   *string `json:"warehouse"`
}

type searchUpdateBody struct {
	Snowflake *struct {
		Warehouse *string `json:"warehouse"`
		TargetLag *int    `json:"targetLag"`
		Duration  *string `json:"duration"`
	} `json:"snowflake"`
}

// searchTableRoutes are the operations on search tables.
var searchTableRoutes = []route{
	onJSON[snowflakeSearchBody](op.CreateSnowflakeSearchTable, (*Server).createSearchTable),
	onJSON[linkedSearchBody](op.CreateLinkedSearchTable, (*Server).createLinkedSearchTable),
	on(op.GetSearchTable, onSearchTable((*Server).getSearchTable)),
	onJSON[searchUpdateBody](op.UpdateSearchTable, onSearchTable((*Server).updateSearchTable)),
}

// addSearchTable stores t under the aspect {aspectId} and answers 201.
func (s *Server) addSearchTable(rq *request, t searchTableJSON) response {
	st := s.st.searchTables
	if st == nil {
		st = &searchTablesState{byID: map[string]*searchTableJSON{}}
		s.st.searchTables = st
	}
	st.n++
	t.ID, t.Status, t.DisplayName = s.st.next.seqUUID(uuidSearchTables, st.n), "READY", "search_table_"+strconv.FormatUint(st.n, 10)
	t.aspectID = rq.params["aspectId"]
	st.byID[t.ID] = &t
	return reply(http.StatusCreated, t)
}

// createSearchTable is POST /aspects/{aspectId}/search-tables: 201.
func (s *Server) createSearchTable(rq *request) response {
	b := in[*snowflakeSearchBody](rq)
	return s.addSearchTable(rq, searchTableJSON{Typename: "AspectSearchSnowflakeTable", Warehouse: b.Warehouse, TargetLag: b.TargetLag,
		Duration: *b.Duration, AttributeFields: *b.AttributeFieldIDs, TextIndexFields: b.TextIndexFieldIDs, VectorIndexes: b.VectorIndexes,
		Field: b.FieldID, AIProviderConnector: b.AIProviderConnectorID})
}

// createLinkedSearchTable is POST /aspects/{aspectId}/linked-search-tables: 201.
func (s *Server) createLinkedSearchTable(rq *request) response {
	b := in[*linkedSearchBody](rq)
	if st := s.st.searchTables; st != nil {
		for _, o := range st.byID {
			if o.aspectID == rq.params["aspectId"] && o.LinkedDatabase == *b.Database && o.LinkedSchema == *b.Schema && o.LinkedServiceName == *b.ServiceName {
				return failf(http.StatusUnprocessableEntity, "search service %s.%s.%s is linked already (search table %s)", *b.Database, *b.Schema, *b.ServiceName, o.ID)
			}
		}
	}
	return s.addSearchTable(rq, searchTableJSON{Typename: "AspectLinkedSearchTable", Warehouse: b.Warehouse,
		LinkedDatabase: *b.Database, LinkedSchema: *b.Schema, LinkedServiceName: *b.ServiceName})
}

// onSearchTable is a handler of the search table {id} of the aspect
// {aspectId}, found.
func onSearchTable(h func(s *Server, rq *request, t *searchTableJSON) response) func(*Server, *request) response {
	return func(s *Server, rq *request) response {
		id, aspect := rq.params["id"], rq.params["aspectId"]
		if st := s.st.searchTables; st != nil {
			if t := st.byID[id]; t != nil && t.aspectID == aspect {
				return h(s, rq, t)
			}
		}
		return failf(http.StatusNotFound, "no search table with id %q on aspect %s", id, aspect)
	}
}

// getSearchTable is GET /aspects/{aspectId}/search-tables/{id}.
func (s *Server) getSearchTable(_ *request, t *searchTableJSON) response {
	return reply(http.StatusOK, *t)
}

// updateSearchTable is PUT /aspects/{aspectId}/search-tables/{id}.
func (s *Server) updateSearchTable(rq *request, t *searchTableJSON) response {
	b := in[*searchUpdateBody](rq)
	if sf := b.Snowflake; sf != nil {
		if t.Typename != "AspectSearchSnowflakeTable" {
			return failf(http.StatusUnprocessableEntity, "search table %s is linked: it has no Snowflake settings", t.ID)
		}
		t.Warehouse, t.TargetLag = cmp.Or(sf.Warehouse, t.Warehouse), cmp.Or(sf.TargetLag, t.TargetLag)
		setIf(&t.Duration, sf.Duration)
	}
	return reply(http.StatusOK, *t)
}

// SearchTableJSON returns the JSON of a search table as the fake answers
// it, and whether it exists, for assertions.
func (s *Server) SearchTableJSON(id string) (json.RawMessage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if st := s.st.searchTables; st != nil && st.byID[id] != nil {
		return encodeJSON(st.byID[id]), true
	}
	return nil, false
}

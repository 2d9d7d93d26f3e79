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
	byID map[string]*fakeSearchTable
}

type fakeSearchTable struct {
	aspectID string
	t        searchTableJSON
}

type searchTableJSON struct {
	ID                  string          `json:"id"`
	Typename            string          `json:"__typename"`
	DisplayName         string          `json:"displayName"`
	Status              string          `json:"status"`
	Warehouse           *string         `json:"warehouse,omitempty"`
	TargetLag           *int            `json:"targetLag,omitempty"`
	Duration            string          `json:"duration,omitempty"`
	Field               *idRef          `json:"field,omitempty"`
	AIProviderConnector *idRef          `json:"aiProviderConnector,omitempty"`
	AttributeFields     []idRef         `json:"attributeFields,omitzero"`
	TextIndexFields     []idRef         `json:"textIndexFields,omitzero"`
	VectorIndexes       []vectorIdxJSON `json:"vectorIndexes,omitzero"`
	LinkedDatabase      string          `json:"linkedDatabase,omitempty"`
	LinkedSchema        string          `json:"linkedSchema,omitempty"`
	LinkedServiceName   string          `json:"linkedServiceName,omitempty"`
}

type vectorIdxJSON struct {
	Field               idRef `json:"field"`
	AIProviderConnector idRef `json:"aiProviderConnector"`
}

type snowflakeSearchBody struct {
	AttributeFieldIDs     *[]string `json:"attributeFieldIds"`
	Duration              *string   `json:"duration"`
	TargetLag             *int      `json:"targetLag"`
	Warehouse             *string   `json:"warehouse"`
	TextIndexFieldIDs     []string  `json:"textIndexFieldIds"`
	FieldID               string    `json:"fieldId"`
	AIProviderConnectorID string    `json:"aiProviderConnectorId"`
	VectorIndexes         []struct {
		FieldID               string `json:"fieldId"`
		AIProviderConnectorID string `json:"aiProviderConnectorId"`
	} `json:"vectorIndexes"`
}

type linkedSearchBody struct {
	CloudLinkID *string `json:"cloudLinkId"`
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

func refs(ids []string) []idRef {
	var out []idRef
	if ids != nil {
		out = []idRef{} // sent empty, held empty
	}
	for _, id := range ids {
		out = append(out, idRef{id})
	}
	return out
}

func searchJSON(t *fakeSearchTable) response {
	return response{status: http.StatusOK, rawBody: encodeJSON(&t.t)}
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
		st = &searchTablesState{byID: map[string]*fakeSearchTable{}}
		s.st.searchTables = st
	}
	st.n++
	t.ID, t.Status, t.DisplayName = seqUUID(uuidSearchTables, st.n), "READY", "search_table_"+strconv.FormatUint(st.n, 10)
	ft := &fakeSearchTable{aspectID: rq.params["aspectId"], t: t}
	st.byID[t.ID] = ft
	resp := searchJSON(ft)
	resp.status = http.StatusCreated
	return resp
}

// createSearchTable is POST /aspects/{aspectId}/search-tables: 201.
func (s *Server) createSearchTable(rq *request) response {
	b := in[*snowflakeSearchBody](rq)
	t := searchTableJSON{Typename: "AspectSearchSnowflakeTable", Warehouse: b.Warehouse, TargetLag: b.TargetLag, Duration: *b.Duration,
		AttributeFields: refs(*b.AttributeFieldIDs), TextIndexFields: refs(b.TextIndexFieldIDs)}
	if b.VectorIndexes != nil {
		t.VectorIndexes = []vectorIdxJSON{}
	}
	for _, v := range b.VectorIndexes {
		t.VectorIndexes = append(t.VectorIndexes, vectorIdxJSON{idRef{v.FieldID}, idRef{v.AIProviderConnectorID}})
	}
	if b.FieldID != "" {
		t.Field = &idRef{b.FieldID}
	}
	if b.AIProviderConnectorID != "" {
		t.AIProviderConnector = &idRef{b.AIProviderConnectorID}
	}
	return s.addSearchTable(rq, t)
}

// createLinkedSearchTable is POST /aspects/{aspectId}/linked-search-tables: 201.
func (s *Server) createLinkedSearchTable(rq *request) response {
	b := in[*linkedSearchBody](rq)
	if st := s.st.searchTables; st != nil {
		for _, o := range st.byID {
			if o.aspectID == rq.params["aspectId"] && o.t.LinkedDatabase == *b.Database && o.t.LinkedSchema == *b.Schema && o.t.LinkedServiceName == *b.ServiceName {
				return failf(http.StatusUnprocessableEntity, "search service %s.%s.%s is linked already (search table %s)", *b.Database, *b.Schema, *b.ServiceName, o.t.ID)
			}
		}
	}
	return s.addSearchTable(rq, searchTableJSON{Typename: "AspectLinkedSearchTable", Warehouse: b.Warehouse,
		LinkedDatabase: *b.Database, LinkedSchema: *b.Schema, LinkedServiceName: *b.ServiceName})
}

// onSearchTable is a handler of the search table {id} of the aspect
// {aspectId}, found.
func onSearchTable(h func(s *Server, rq *request, t *fakeSearchTable) response) func(*Server, *request) response {
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
func (s *Server) getSearchTable(_ *request, t *fakeSearchTable) response { return searchJSON(t) }

// updateSearchTable is PUT /aspects/{aspectId}/search-tables/{id}.
func (s *Server) updateSearchTable(rq *request, t *fakeSearchTable) response {
	b := in[*searchUpdateBody](rq)
	if sf := b.Snowflake; sf != nil {
		if t.t.Typename != "AspectSearchSnowflakeTable" {
			return failf(http.StatusUnprocessableEntity, "search table %s is linked: it has no Snowflake settings", t.t.ID)
		}
		t.t.Warehouse, t.t.TargetLag = cmp.Or(sf.Warehouse, t.t.Warehouse), cmp.Or(sf.TargetLag, t.t.TargetLag)
		setIf(&t.t.Duration, sf.Duration)
	}
	return searchJSON(t)
}

// SearchTableJSON returns the JSON of a search table as the fake answers
// it, and whether it exists, for assertions.
func (s *Server) SearchTableJSON(id string) (json.RawMessage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if st := s.st.searchTables; st != nil && st.byID[id] != nil {
		return encodeJSON(&st.byID[id].t), true
	}
	return nil, false
}

package workflowtest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/seed-a15e58aa/workflow-go/admin"
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
	byID map[string]*searchTable
}

// searchTable is a search table as the fake answers it, and the aspect
// it is on.
type searchTable struct {
	aspectID string
	admin.SearchTable
}

// searchTableRoutes are the operations on search tables.
var searchTableRoutes = []route{
	onJSON[admin.SnowflakeSearchTableRequest](op.CreateSnowflakeSearchTable, (*Server).createSearchTable),
	onJSON[admin.LinkedSearchTableRequest](op.CreateLinkedSearchTable, (*Server).createLinkedSearchTable),
	on(op.GetSearchTable, onSearchTable((*Server).getSearchTable)),
	onJSON[admin.SearchTableUpdate](op.UpdateSearchTable, onSearchTable((*Server).updateSearchTable)),
}

// addSearchTable stores t under the aspect {aspectId} and answers 201.
func (s *Server) addSearchTable(rq *request, t admin.SearchTable) response {
	st := s.st.searchTables
	if st == nil {
		st = &searchTablesState{byID: map[string]*searchTable{}}
		s.st.searchTables = st
	}
	st.n++
	id := s.st.next.seqUUID(uuidSearchTables, st.n)
	t.ID, t.Status, t.DisplayName = admin.Some(id), admin.Some(admin.SearchTableReady), admin.Some("search_table_"+strconv.FormatUint(st.n, 10))
	st.byID[id] = &searchTable{rq.params["aspectId"], t}
	return reply(http.StatusCreated, t)
}

// fieldRefs are the fields of ids as the answers hold them, {"id"}; nil
// for nil.
func fieldRefs(ids []string) admin.Opt[[]admin.SearchTableField] {
	if ids == nil {
		return admin.Opt[[]admin.SearchTableField]{}
	}
	out := make([]admin.SearchTableField, len(ids))
	for i, id := range ids {
		out[i].ID = admin.Some(id)
	}
	return admin.Some(out)
}

// createSearchTable is POST /aspects/{aspectId}/search-tables: 201.
func (s *Server) createSearchTable(rq *request) response {
	b := in[*admin.SnowflakeSearchTableRequest](rq)
	t := admin.SearchTable{Typename: admin.Some("AspectSearchSnowflakeTable"), Warehouse: someOf(b.Warehouse), TargetLag: admin.Some(b.TargetLag),
		Duration: admin.Some(b.Duration), AttributeFields: fieldRefs(b.AttributeFieldIDs), TextIndexFields: fieldRefs(b.TextIndexFieldIDs)}
	if b.VectorIndexes != nil {
		vs := make([]admin.VectorIndex, len(b.VectorIndexes))
		for i, v := range b.VectorIndexes {
			vs[i] = admin.VectorIndex{Field: admin.Some(admin.SearchTableField{ID: admin.Some(v.FieldID)}),
				AIProviderConnector: admin.Some(admin.ConnectorRef{ID: admin.Some(v.AIProviderConnectorID)})}
		}
		t.VectorIndexes = admin.Some(vs)
	}
	if b.FieldID != nil {
		t.Field = admin.Some(admin.SearchTableField{ID: admin.Some(*b.FieldID)})
	}
	if b.AIProviderConnectorID != nil {
		t.AIProviderConnector = admin.Some(admin.ConnectorRef{ID: admin.Some(*b.AIProviderConnectorID)})
	}
	return s.addSearchTable(rq, t)
}

// createLinkedSearchTable is POST /aspects/{aspectId}/linked-search-tables: 201.
func (s *Server) createLinkedSearchTable(rq *request) response {
	b := in[*admin.LinkedSearchTableRequest](rq)
	if st := s.st.searchTables; st != nil {
		for _, o := range st.byID {
			if o.aspectID == rq.params["aspectId"] && o.LinkedDatabase.Value() == b.Database && o.LinkedSchema.Value() == b.Schema && o.LinkedServiceName.Value() == b.ServiceName {
				return failf(http.StatusUnprocessableEntity, "search service %s.%s.%s is linked already (search table %s)", b.Database, b.Schema, b.ServiceName, o.ID.Value())
			}
		}
	}
	return s.addSearchTable(rq, admin.SearchTable{Typename: admin.Some("AspectLinkedSearchTable"), Warehouse: someOf(b.Warehouse),
		LinkedDatabase: someIf(b.Database), LinkedSchema: someIf(b.Schema), LinkedServiceName: someIf(b.ServiceName)})
}

// onSearchTable is a handler of the search table {id} of the aspect
// {aspectId}, found.
func onSearchTable(h func(s *Server, rq *request, t *searchTable) response) func(*Server, *request) response {
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
func (s *Server) getSearchTable(_ *request, t *searchTable) response {
	return reply(http.StatusOK, t.SearchTable)
}

// updateSearchTable is PUT /aspects/{aspectId}/search-tables/{id}.
func (s *Server) updateSearchTable(rq *request, t *searchTable) response {
	b := in[*admin.SearchTableUpdate](rq)
	if sf := b.Snowflake; sf != nil {
		if t.Typename.Value() != "AspectSearchSnowflakeTable" {
			return failf(http.StatusUnprocessableEntity, "search table %s is linked: it has no Snowflake settings", t.ID.Value())
		}
		t.Warehouse = cmp.Or(someOf(sf.Warehouse), t.Warehouse)
		t.TargetLag = cmp.Or(someOf(sf.TargetLag), t.TargetLag)
		t.Duration = cmp.Or(someOf(sf.Duration), t.Duration)
	}
	return reply(http.StatusOK, t.SearchTable)
}

// SearchTableJSON returns the JSON of a search table as the fake answers
// it, and whether it exists, for assertions.
func (s *Server) SearchTableJSON(id string) (json.RawMessage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if st := s.st.searchTables; st != nil && st.byID[id] != nil {
		return encodeJSON(st.byID[id].SearchTable), true
	}
	return nil, false
}

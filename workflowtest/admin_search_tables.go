package workflowtest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"strconv"
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
//     every body is, see checkBody). PUT keeps what it leaves out.
//   - A member sent empty ("", 0, []) is held and answered empty.

// uuidSearchTables is the seqUUID kind of search tables.
const uuidSearchTables = '8'

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

// addSearchTable stores t under segs[1] and answers 201. The caller
// holds s.mu for writing.
func (s *Server) addSearchTable(segs []string, t searchTableJSON) response {
	st := s.st.searchTables
	if st == nil {
		st = &searchTablesState{byID: map[string]*fakeSearchTable{}}
		s.st.searchTables = st
	}
	st.n++
	t.ID, t.Status, t.DisplayName = seqUUID(uuidSearchTables, st.n), "READY", "search_table_"+strconv.FormatUint(st.n, 10)
	ft := &fakeSearchTable{aspectID: segs[1], t: t}
	st.byID[t.ID] = ft
	resp := searchJSON(ft)
	resp.status = http.StatusCreated
	return resp
}

// createSearchTable is POST /aspects/{aspectId}/search-tables: 201.
func (s *Server) createSearchTable(rq *request, segs []string) response {
	var b snowflakeSearchBody
	if e := decodeBody(rq.r, &b); e != nil {
		return fail(e)
	}
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
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addSearchTable(segs, t)
}

// createLinkedSearchTable is POST /aspects/{aspectId}/linked-search-tables: 201.
func (s *Server) createLinkedSearchTable(rq *request, segs []string) response {
	var b linkedSearchBody
	if e := decodeBody(rq.r, &b); e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.st.searchTables; st != nil {
		for _, o := range st.byID {
			if o.aspectID == segs[1] && o.t.LinkedDatabase == *b.Database && o.t.LinkedSchema == *b.Schema && o.t.LinkedServiceName == *b.ServiceName {
				return failf(http.StatusUnprocessableEntity, "search service %s.%s.%s is linked already (search table %s)", *b.Database, *b.Schema, *b.ServiceName, o.t.ID)
			}
		}
	}
	return s.addSearchTable(segs, searchTableJSON{Typename: "AspectLinkedSearchTable", Warehouse: b.Warehouse,
		LinkedDatabase: *b.Database, LinkedSchema: *b.Schema, LinkedServiceName: *b.ServiceName})
}

// findSearchTable finds the search table segs[3] of aspect segs[1]. The
// caller holds s.mu.
func (s *Server) findSearchTable(segs []string) (*fakeSearchTable, *httpError) {
	if st := s.st.searchTables; st != nil {
		if t := st.byID[segs[3]]; t != nil && t.aspectID == segs[1] {
			return t, nil
		}
	}
	return nil, errf(http.StatusNotFound, "no search table with id %q on aspect %s", segs[3], segs[1])
}

// getSearchTable is GET /aspects/{aspectId}/search-tables/{id}.
func (s *Server) getSearchTable(_ *request, segs []string) response {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, e := s.findSearchTable(segs)
	if e != nil {
		return fail(e)
	}
	return searchJSON(t)
}

// updateSearchTable is PUT /aspects/{aspectId}/search-tables/{id}.
func (s *Server) updateSearchTable(rq *request, segs []string) response {
	var b searchUpdateBody
	if e := s.checkedBody(func() *httpError { _, e := s.findSearchTable(segs); return e }, rq.r, &b); e != nil {
		return fail(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, e := s.findSearchTable(segs)
	if e != nil {
		return fail(e)
	}
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

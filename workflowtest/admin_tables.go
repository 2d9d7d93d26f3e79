package workflowtest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// The tables of the workspace configuration: GET and POST /tables, GET,
// PUT and DELETE /tables/{id}, the joins of a table and the value
// mappings of a join's field pairs. None of these paths shares a shape
// with the record routes ("tables" is not a record type).
//
// What the fake decides where the document is silent:
//   - A table is answered with the members of the service's Table, plus
//     the "description", "icon", "color" and "categoryId" it was given
//     (members the SDK does not model, kept in its Extra), held and
//     answered as sent, "" included, as a field's tags are ([] included).
//   - Bodies are checked as every body is (readBody; a field that does
//     not set exactly one of cloud, reference and calculation is 422). A
//     join whose source is not a table of the fake, a join pair
//     whose left field is not the table's or right field not the joined
//     table's, an unknown field id in an update, a handle another table
//     has, a value mapped twice and deleting a table another one joins
//     are 422. Joins given to POST /tables are checked on their right
//     side only: the new table's field ids do not exist yet.
//   - PUT keeps what its body leaves out. Changing a join's pairs gives
//     the new pairs new ids and no mappings.
//   - A pair's "joinMappings" is a connection {"edges": [{"node":
//     {"source", "target"}}]}, in the order the sources were first mapped.
//   - Deleting mappings of sources that are not mapped is not an error.

// tablesState is the tables of a server; nil until the first is made.
type tablesState struct {
	n    uint64
	used uint64       // n when the change under way began, or when it succeeded
	list []*fakeTable // in creation order
	byID map[string]*fakeTable
}

type fakeTable struct {
	seq uint64
	t   tableJSON
}

type idRef struct {
	ID string `json:"id"`
}

type tableJSON struct {
	ID          string          `json:"id"`
	Typename    string          `json:"__typename"`
	Name        string          `json:"name"`
	Handle      string          `json:"handle"`
	Source      idRef           `json:"source"`
	Fields      []tableFieldOut `json:"fields"`
	Joins       []tableJoinOut  `json:"joins"`
	DataView    *dataViewOut    `json:"dataView,omitempty"`
	Filter      json.RawMessage `json:"filter,omitempty"`
	OrderBy     json.RawMessage `json:"orderBy,omitempty"`
	Limit       json.RawMessage `json:"limit,omitempty"`
	Description *string         `json:"description,omitempty"`
	Icon        *string         `json:"icon,omitempty"`
	Color       *string         `json:"color,omitempty"`
	CategoryID  string          `json:"categoryId"`
}

type tableFieldOut struct {
	ID          string    `json:"id"`
	Typename    string    `json:"__typename"`
	Name        string    `json:"name"`
	FieldType   string    `json:"fieldType,omitempty"`
	ColumnName  string    `json:"columnName,omitempty"`
	Tags        []string  `json:"tags,omitzero"`
	Aggregation string    `json:"aggregation,omitempty"`
	Expanded    string    `json:"expanded,omitempty"`
	Calculation *calcText `json:"calculation,omitempty"`
	Field       *idRef    `json:"field,omitempty"`
}

type calcText struct {
	Text string `json:"text"`
}

type dataViewOut struct {
	ID           string `json:"id"`
	Typename     string `json:"__typename"`
	DatabaseName string `json:"databaseName,omitempty"`
	SchemaName   string `json:"schemaName,omitempty"`
	Name         string `json:"name,omitempty"`
}

type tableJoinOut struct {
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Source   idRef           `json:"source"`
	OnFields []joinPairOut   `json:"onFields"`
	Filter   json.RawMessage `json:"filter,omitempty"`
}

type joinPairOut struct {
	ID           string       `json:"id"`
	LeftField    idRef        `json:"leftField"`
	RightField   idRef        `json:"rightField"`
	JoinMappings mappingsConn `json:"joinMappings"`
}

type mappingsConn struct {
	Edges []mappingEdge `json:"edges"`
}

type mappingEdge struct {
	Node mappingNode `json:"node"`
}

type mappingNode struct {
	Source string `json:"source"`
	Target string `json:"target"`
}

// Request bodies; nil members were not sent.
type tableCreateBody struct {
	tableCommonBody
	Handle *string           `json:"handle"`
	Fields *[]fieldInputBody `json:"fields"`
	Join   *joinInputBody    `json:"join"`
	Joins  []joinInputBody   `json:"joins"`
}

// tableCommonBody is what TableCreateRequest and TableUpdateRequest share.
type tableCommonBody struct {
	Name         *string         `json:"name"`
	Source       *string         `json:"source"`
	CategoryID   *string         `json:"categoryId"`
	Description  *string         `json:"description"`
	Icon         *string         `json:"icon"`
	Color        *string         `json:"color"`
	Filter       json.RawMessage `json:"filter"`
	OrderBy      json.RawMessage `json:"orderBy"`
	Limit        json.RawMessage `json:"limit"`
	CloudMapping json.RawMessage `json:"cloudMapping"`
	DataView     *dataViewBody   `json:"dataView"`
}

type tableUpdateBody struct {
	tableCommonBody
	Fields *fieldChangesBody `json:"fields"`
}

type fieldInputBody struct {
	Cloud *struct {
		Name      *string  `json:"name"`
		Snowflake *colBody `json:"snowflake"`
		BigQuery  *colBody `json:"bigQuery"`
		Tags      []string `json:"tags"`
	} `json:"cloud"`
	Reference *struct {
		Name        *string  `json:"name"`
		Field       *string  `json:"field"`
		Aggregation string   `json:"aggregation"`
		Expanded    string   `json:"expanded"`
		Tags        []string `json:"tags"`
	} `json:"reference"`
	Calculation *struct {
		Name *string  `json:"name"`
		Text *string  `json:"text"`
		Tags []string `json:"tags"`
	} `json:"calculation"`
}

type colBody struct {
	ColumnName string `json:"columnName"`
	Type       string `json:"type"`
}

type fieldChangesBody struct {
	Creates []struct {
		Field fieldInputBody `json:"field"`
		Index *int           `json:"index"`
	} `json:"creates"`
	Updates []struct {
		ID    string         `json:"id"`
		Field fieldInputBody `json:"field"`
		Index *int           `json:"index"`
	} `json:"updates"`
	Deletes []struct {
		ID string `json:"id"`
	} `json:"deletes"`
}

type dataViewBody struct {
	Snowflake *struct {
		DatabaseName string `json:"databaseName"`
		SchemaName   string `json:"schemaName"`
		Name         string `json:"name"`
	} `json:"snowflake"`
}

type joinInputBody struct {
	Source *string `json:"source"`
	Type   *string `json:"type"`
	JoinOn *[]struct {
		LeftFieldID  string `json:"leftFieldId"`
		RightFieldID string `json:"rightFieldId"`
	} `json:"joinOn"`
	Filter json.RawMessage `json:"filter"`
}

type mappingsInputBody struct {
	Entries *[]struct {
		Source *string `json:"source"`
		Target *string `json:"target"`
	} `json:"entries"`
}

func (st *state) tablesForWrite() *tablesState {
	if st.tables == nil {
		st.tables = &tablesState{byID: map[string]*fakeTable{}}
	}
	return st.tables
}

// keepIDs starts a change that may fail: the ids it hands out are taken
// back by the function it returns unless the change marks them used, so
// that a failed request does not move the ids of the next one.
func (ts *tablesState) keepIDs() func() {
	ts.used = ts.n
	return func() { ts.n = ts.used }
}

func (ts *tablesState) uuid() string { return seqUUID(uuidTables, ts.nextN()) }

func (ts *tablesState) nextN() uint64 { ts.n++; return ts.n }

// tableRoutes are the operations on tables.
var tableRoutes = []route{
	on(op.ListTables, (*Server).listTables),
	onJSON[tableCreateBody](op.CreateTable, (*Server).createTable),
	on(op.GetTable, onTable((*Server).getTable)),
	onJSON[tableUpdateBody](op.UpdateTable, onTable((*Server).updateTable)),
	on(op.DeleteTable, onTable((*Server).deleteTable)),
	onJSON[joinInputBody](op.CreateTableJoin, onTable((*Server).createJoin)),
	onJSON[joinInputBody](op.UpdateTableJoin, onTable((*Server).updateJoin)),
	on(op.DeleteTableJoin, onTable((*Server).deleteJoin)),
	onJSON[mappingsInputBody](op.CreateTableJoinMapping, onTable((*Server).changeMappings)),
	onJSON[mappingsInputBody](op.UpdateTableJoinMapping, onTable((*Server).changeMappings)),
	onJSON[mappingsInputBody](op.DeleteTableJoinMapping, onTable((*Server).changeMappings)),
}

// onTable is a handler of the table {id}, found. The ids a change mints
// are kept only when it succeeds.
func onTable(h func(s *Server, rq *request, ft *fakeTable) response) func(*Server, *request) response {
	return func(s *Server, rq *request) response {
		var ft *fakeTable
		if s.st.tables != nil {
			ft = s.st.tables.byID[rq.params["id"]]
		}
		if ft == nil {
			return failf(http.StatusNotFound, "no table with id %q", rq.params["id"])
		}
		defer s.st.tables.keepIDs()()
		resp := h(s, rq, ft)
		if resp.status < 400 {
			s.st.tables.used = s.st.tables.n
		}
		return resp
	}
}

func tableJSONOf(t *fakeTable) any { return json.RawMessage(encodeJSON(&t.t)) }
func tableSeq(t *fakeTable) uint64 { return t.seq }

// listTables is GET /tables: paged, without filter.
func (s *Server) listTables(rq *request) response {
	var list []*fakeTable
	if s.st.tables != nil {
		list = s.st.tables.list
	}
	return listPage(rq, "tables", list, tableSeq, nil, plain(tableJSONOf))
}

// getTable is GET /tables/{id}.
func (s *Server) getTable(_ *request, t *fakeTable) response {
	return reply(http.StatusOK, tableJSONOf(t))
}

// createTable is POST /tables: 201 with the table.
func (s *Server) createTable(rq *request) response {
	b := in[*tableCreateBody](rq)
	ts := s.st.tablesForWrite()
	defer ts.keepIDs()()
	t := tableJSON{ID: ts.uuid(), Typename: "Table", Name: *b.Name, Handle: *b.Handle, Source: idRef{*b.Source},
		CategoryID: *b.CategoryID, Fields: []tableFieldOut{}, Joins: []tableJoinOut{}}
	for i := range *b.Fields {
		f, e := ts.newField(&(*b.Fields)[i])
		if e != nil {
			return fail(e)
		}
		t.Fields = append(t.Fields, f)
	}
	if b.Join != nil {
		b.Joins = append([]joinInputBody{*b.Join}, b.Joins...)
	}
	for i := range b.Joins {
		j := tableJoinOut{ID: ts.uuid()}
		if e := s.applyJoin(&t, &j, &b.Joins[i], true); e != nil {
			return fail(e)
		}
		t.Joins = append(t.Joins, j)
	}
	applyTableCommon(&t, b.Description, b.Icon, b.Color, b.Filter, b.OrderBy, b.Limit)
	if e := ts.applyDataView(&t, b.DataView, true); e != nil {
		return fail(e)
	}
	if slices.ContainsFunc(ts.list, func(o *fakeTable) bool { return o.t.Handle == *b.Handle }) {
		return failf(http.StatusUnprocessableEntity, "a table with handle %q exists", *b.Handle)
	}
	ts.used = ts.n
	ft := &fakeTable{seq: s.st.next.nextSeq(), t: t}
	ts.list = append(ts.list, ft)
	ts.byID[t.ID] = ft
	return reply(http.StatusCreated, tableJSONOf(ft))
}

func applyTableCommon(t *tableJSON, desc, icon, color *string, filter, orderBy, limit json.RawMessage) {
	t.Description, t.Icon, t.Color = cmp.Or(desc, t.Description), cmp.Or(icon, t.Icon), cmp.Or(color, t.Color)
	for _, p := range []struct{ dst, src *json.RawMessage }{{&t.Filter, &filter}, {&t.OrderBy, &orderBy}, {&t.Limit, &limit}} {
		if *p.src != nil {
			*p.dst = slices.Clone(*p.src)
		}
	}
}

func (ts *tablesState) applyDataView(t *tableJSON, b *dataViewBody, create bool) *httpError {
	if b == nil || b.Snowflake == nil {
		return nil
	}
	v := b.Snowflake
	if t.DataView == nil {
		t.DataView = &dataViewOut{ID: ts.uuid(), Typename: "TableDataViewSnowflake"}
	}
	for _, p := range []struct {
		dst *string
		src string
	}{{&t.DataView.DatabaseName, v.DatabaseName}, {&t.DataView.SchemaName, v.SchemaName}, {&t.DataView.Name, v.Name}} {
		if p.src != "" {
			*p.dst = p.src
		}
	}
	return nil
}

// newField makes a table field of a create input.
func (ts *tablesState) newField(b *fieldInputBody) (tableFieldOut, *httpError) {
	f := tableFieldOut{ID: ts.uuid()}
	return f, f.apply(b, true)
}

// apply checks a field input and changes f; create says whether the
// field is new (its kind is set, and the members a create requires are
// required).
func (f *tableFieldOut) apply(b *fieldInputBody, create bool) *httpError {
	// readBody has made sure the input sets exactly one kind.
	kind := "TableFieldCalculation"
	if b.Cloud != nil {
		kind = "TableFieldCloud"
	} else if b.Reference != nil {
		kind = "TableFieldReference"
	}
	switch {
	case create:
		f.Typename = kind
	case f.Typename != kind:
		return errf(http.StatusUnprocessableEntity, "field %s is a %s, not a %s", f.ID, f.Typename, kind)
	}
	var name *string
	switch {
	case b.Cloud != nil:
		c := b.Cloud
		name, f.Tags = c.Name, orKeep(c.Tags, f.Tags)
		for _, col := range []*colBody{c.Snowflake, c.BigQuery} {
			if col != nil {
				f.ColumnName, f.FieldType = col.ColumnName, col.Type
			}
		}
	case b.Reference != nil:
		r := b.Reference
		name, f.Tags = r.Name, orKeep(r.Tags, f.Tags)
		if r.Field != nil {
			f.Field = &idRef{*r.Field}
		}
		f.Aggregation, f.Expanded = orKeepS(r.Aggregation, f.Aggregation), orKeepS(r.Expanded, f.Expanded)
	default:
		c := b.Calculation
		name, f.Tags = c.Name, orKeep(c.Tags, f.Tags)
		if c.Text != nil {
			f.Calculation = &calcText{*c.Text}
		}
	}
	if name != nil {
		f.Name = *name
	}
	return nil
}

func orKeep(v, old []string) []string {
	if v != nil {
		return slices.Clone(v)
	}
	return old
}

func orKeepS(v, old string) string {
	if v != "" {
		return v
	}
	return old
}

// applyJoin checks a join input against t and changes j; create says
// whether j is new (and the members a create requires are required).
// onNewTable says that t is being created, so its fields cannot be
// named yet. The caller holds s.mu.
func (s *Server) applyJoin(t *tableJSON, j *tableJoinOut, b *joinInputBody, onNewTable bool) *httpError {
	if b.Type != nil {
		j.Type = *b.Type
	}
	if b.Source != nil {
		if s.st.tables.byID[*b.Source] == nil {
			return errf(http.StatusUnprocessableEntity, "join source %q is not a table", *b.Source)
		}
		j.Source = idRef{*b.Source}
	}
	src := &s.st.tables.byID[j.Source.ID].t
	if b.JoinOn != nil {
		ts := s.st.tables
		j.OnFields = []joinPairOut{}
		for _, on := range *b.JoinOn {
			if !onNewTable && !hasField(t, on.LeftFieldID) {
				return errf(http.StatusUnprocessableEntity, "left field %q is not a field of table %s", on.LeftFieldID, t.ID)
			}
			if !hasField(src, on.RightFieldID) {
				return errf(http.StatusUnprocessableEntity, "right field %q is not a field of the joined table %s", on.RightFieldID, src.ID)
			}
			j.OnFields = append(j.OnFields, joinPairOut{ID: ts.uuid(), LeftField: idRef{on.LeftFieldID},
				RightField: idRef{on.RightFieldID}, JoinMappings: mappingsConn{Edges: []mappingEdge{}}})
		}
	}
	if b.Filter != nil {
		j.Filter = slices.Clone(b.Filter)
	}
	return nil
}

func hasField(t *tableJSON, id string) bool {
	return slices.ContainsFunc(t.Fields, func(f tableFieldOut) bool { return f.ID == id })
}

// updateTable is PUT /tables/{id}: 200 with the table; what the body
// leaves out is kept.
func (s *Server) updateTable(rq *request, ft *fakeTable) response {
	return s.st.tables.update(ft, in[*tableUpdateBody](rq))
}

// update applies an update body to ft. The caller holds s.mu.
func (ts *tablesState) update(ft *fakeTable, b *tableUpdateBody) response {
	var work tableJSON
	_ = json.Unmarshal(encodeJSON(&ft.t), &work) // a deep copy, changed and kept only if every change is allowed
	for _, p := range []struct{ dst, src *string }{{&work.Name, b.Name}, {&work.Source.ID, b.Source}, {&work.CategoryID, b.CategoryID}} {
		if p.src != nil {
			*p.dst = *p.src
		}
	}
	applyTableCommon(&work, b.Description, b.Icon, b.Color, b.Filter, b.OrderBy, b.Limit)
	if e := ts.applyDataView(&work, b.DataView, false); e != nil {
		return fail(e)
	}
	if e := ts.changeFields(&work, b.Fields); e != nil {
		return fail(e)
	}
	ft.t = work
	return reply(http.StatusOK, tableJSONOf(ft))
}

func (ts *tablesState) changeFields(t *tableJSON, b *fieldChangesBody) *httpError {
	if b == nil {
		return nil
	}
	index := func(id string) int {
		return slices.IndexFunc(t.Fields, func(f tableFieldOut) bool { return f.ID == id })
	}
	place := func(f tableFieldOut, at *int) {
		i := len(t.Fields)
		if at != nil {
			i = min(max(*at, 0), len(t.Fields))
		}
		t.Fields = slices.Insert(t.Fields, i, f)
	}
	for _, d := range b.Deletes {
		i := index(d.ID)
		if i < 0 {
			return errf(http.StatusUnprocessableEntity, "no field %q in table %s", d.ID, t.ID)
		}
		t.Fields = slices.Delete(t.Fields, i, i+1)
	}
	for _, u := range b.Updates {
		i := index(u.ID)
		if i < 0 {
			return errf(http.StatusUnprocessableEntity, "no field %q in table %s", u.ID, t.ID)
		}
		f := t.Fields[i]
		if e := f.apply(&u.Field, false); e != nil {
			return e
		}
		if u.Index != nil {
			t.Fields = slices.Delete(t.Fields, i, i+1)
			place(f, u.Index)
		} else {
			t.Fields[i] = f
		}
	}
	for _, c := range b.Creates {
		f, e := ts.newField(&c.Field)
		if e != nil {
			return e
		}
		place(f, c.Index)
	}
	return nil
}

// deleteTable is DELETE /tables/{id}: 204. A table another one joins
// stays (422).
func (s *Server) deleteTable(_ *request, ft *fakeTable) response {
	ts := s.st.tables
	for _, o := range ts.list {
		if o != ft && slices.ContainsFunc(o.t.Joins, func(j tableJoinOut) bool { return j.Source.ID == ft.t.ID }) {
			return failf(http.StatusUnprocessableEntity, "table %s is joined by table %s", ft.t.ID, o.t.ID)
		}
	}
	ts.list = slices.DeleteFunc(ts.list, func(o *fakeTable) bool { return o == ft })
	delete(ts.byID, ft.t.ID)
	return response{status: http.StatusNoContent}
}

// findJoin finds the join {joinId} of ft.
func findJoin(rq *request, ft *fakeTable) (int, *httpError) {
	id := rq.params["joinId"]
	i := slices.IndexFunc(ft.t.Joins, func(j tableJoinOut) bool { return j.ID == id })
	if i < 0 {
		return -1, errf(http.StatusNotFound, "no join with id %q in table %s", id, ft.t.ID)
	}
	return i, nil
}

// createJoin is POST /tables/{id}/joins: 201 with the join.
func (s *Server) createJoin(rq *request, ft *fakeTable) response {
	j := tableJoinOut{ID: s.st.tables.uuid()}
	if e := s.applyJoin(&ft.t, &j, in[*joinInputBody](rq), false); e != nil {
		return fail(e)
	}
	ft.t.Joins = append(ft.t.Joins, j)
	return response{status: http.StatusCreated, rawBody: encodeJSON(j)}
}

// updateJoin is PUT /tables/{id}/joins/{joinId}: 200 with the join.
func (s *Server) updateJoin(rq *request, ft *fakeTable) response {
	i, e := findJoin(rq, ft)
	if e != nil {
		return fail(e)
	}
	j := ft.t.Joins[i]
	if e := s.applyJoin(&ft.t, &j, in[*joinInputBody](rq), false); e != nil {
		return fail(e)
	}
	ft.t.Joins[i] = j
	return response{status: http.StatusOK, rawBody: encodeJSON(j)}
}

// deleteJoin is DELETE /tables/{id}/joins/{joinId}: 204.
func (s *Server) deleteJoin(rq *request, ft *fakeTable) response {
	i, e := findJoin(rq, ft)
	if e != nil {
		return fail(e)
	}
	ft.t.Joins = slices.Delete(ft.t.Joins, i, i+1)
	return response{status: http.StatusNoContent}
}

// findPair finds the join pair {joinFieldsId} among the joins of ft.
func findPair(rq *request, ft *fakeTable) (*joinPairOut, *httpError) {
	id := rq.params["joinFieldsId"]
	for ji := range ft.t.Joins {
		for pi := range ft.t.Joins[ji].OnFields {
			if p := &ft.t.Joins[ji].OnFields[pi]; p.ID == id {
				return p, nil
			}
		}
	}
	return nil, errf(http.StatusNotFound, "no join fields with id %q in table %s", id, ft.t.ID)
}

// changeMappings is the three mapping routes: POST creates (201; a source
// already mapped is a 422), PUT upserts (200), DELETE removes (204).
func (s *Server) changeMappings(rq *request, ft *fakeTable) response {
	b, method := in[*mappingsInputBody](rq), rq.r.Method
	p, e := findPair(rq, ft)
	if e != nil {
		return fail(e)
	}
	edges := slices.Clone(p.JoinMappings.Edges)
	for _, en := range *b.Entries {
		i := slices.IndexFunc(edges, func(m mappingEdge) bool { return m.Node.Source == *en.Source })
		switch {
		case method == http.MethodDelete && i >= 0:
			edges = slices.Delete(edges, i, i+1)
		case method == http.MethodDelete:
		case i >= 0 && method == http.MethodPost:
			return failf(http.StatusUnprocessableEntity, "source value %q is mapped already (PUT changes it)", *en.Source)
		case i >= 0:
			edges[i].Node.Target = *en.Target
		default:
			edges = append(edges, mappingEdge{Node: mappingNode{Source: *en.Source, Target: *en.Target}})
		}
	}
	p.JoinMappings.Edges = edges
	status := map[string]int{http.MethodPost: http.StatusCreated, http.MethodPut: http.StatusOK, http.MethodDelete: http.StatusNoContent}[method]
	return response{status: status}
}

// TableInfo describes a table of the fake, for assertions.
type TableInfo struct {
	ID, Name, Handle string
	Fields           []string            // field ids, in order
	Joins            []string            // join ids, in order
	Mappings         map[string][]string // join pair id -> "source=target", in order
}

// Table returns a table by id, and whether it exists.
func (s *Server) Table(id string) (TableInfo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.st.tables == nil || s.st.tables.byID[id] == nil {
		return TableInfo{}, false
	}
	ft := s.st.tables.byID[id]
	info := TableInfo{ID: ft.t.ID, Name: ft.t.Name, Handle: ft.t.Handle, Mappings: map[string][]string{}}
	for _, f := range ft.t.Fields {
		info.Fields = append(info.Fields, f.ID)
	}
	for _, j := range ft.t.Joins {
		info.Joins = append(info.Joins, j.ID)
		for _, p := range j.OnFields {
			for _, m := range p.JoinMappings.Edges {
				info.Mappings[p.ID] = append(info.Mappings[p.ID], m.Node.Source+"="+m.Node.Target)
			}
		}
	}
	return info, true
}

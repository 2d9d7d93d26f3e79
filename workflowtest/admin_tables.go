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
	n    uint64       // ids handed out
	list []*fakeTable // in creation order

	space uint32 // the ids' space (WithIDSpace)
}

// idRef is a reference to an object, {"id"}, as the answers hold it.
type idRef struct {
	ID string `json:"id"`
}

// UnmarshalJSON reads a reference as the answers hold it, or as the
// requests send it, the id alone.
func (r *idRef) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &r.ID)
	}
	type plain idRef
	return json.Unmarshal(b, (*plain)(r))
}

// fakeTable is a table as the fake answers it, and its place.
type fakeTable struct {
	seq         uint64
	ID          string           `json:"id"`
	Typename    string           `json:"__typename"`
	Name        string           `json:"name"`
	Handle      string           `json:"handle"`
	Source      idRef            `json:"source"`
	Fields      []tableFieldOut  `json:"fields"`
	Joins       []tableJoinOut   `json:"joins"`
	DataView    *dataViewOut     `json:"dataView,omitempty"`
	Filter      *json.RawMessage `json:"filter,omitempty"`
	OrderBy     *json.RawMessage `json:"orderBy,omitempty"`
	Limit       *json.RawMessage `json:"limit,omitempty"`
	Description *string          `json:"description,omitempty"`
	Icon        *string          `json:"icon,omitempty"`
	Color       *string          `json:"color,omitempty"`
	CategoryID  string           `json:"categoryId"`
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

// dataViewOut is a table's TableDataView, and the snowflake member of
// the request's dataView (whose databaseName, schemaName and name it
// reads).
type dataViewOut struct {
	ID           string `json:"id"`
	Typename     string `json:"__typename"`
	DatabaseName string `json:"databaseName,omitempty"`
	SchemaName   string `json:"schemaName,omitempty"`
	Name         string `json:"name,omitempty"`
}

type tableJoinOut struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Source   idRef            `json:"source"`
	OnFields []joinPairOut    `json:"onFields"`
	Filter   *json.RawMessage `json:"filter,omitempty"`
}

type joinPairOut struct {
	ID           string `json:"id"`
	LeftField    idRef  `json:"leftField"`
	RightField   idRef  `json:"rightField"`
	JoinMappings struct {
		Edges []mappingEdge `json:"edges"`
	} `json:"joinMappings"`
}

// mappingEdge is a value mapping of a join pair.
type mappingEdge struct {
	Node mappingEntry `json:"node"`
}

// mappingEntry is a value mapping, as a request sends it and a pair
// holds it.
type mappingEntry struct {
	Source *string `json:"source"`
	Target *string `json:"target"`
}

// Request bodies; nil members were not sent.
type tableCreateBody struct {
	tableCommonBody
	Handle *string          `json:"handle"`
	Fields []fieldInputBody `json:"fields"`
	Join   *joinInputBody   `json:"join"`
	Joins  []joinInputBody  `json:"joins"`
}

// tableCommonBody is what TableCreateRequest and TableUpdateRequest share.
type tableCommonBody struct {
	Name        *string          `json:"name"`
	Source      *string          `json:"source"`
	CategoryID  *string          `json:"categoryId"`
	Description *string          `json:"description"`
	Icon        *string          `json:"icon"`
	Color       *string          `json:"color"`
	Filter      *json.RawMessage `json:"filter"`
	OrderBy     *json.RawMessage `json:"orderBy"`
	Limit       *json.RawMessage `json:"limit"`
	DataView    *struct {
		Snowflake *dataViewOut `json:"snowflake"`
	} `json:"dataView"`
}

type tableUpdateBody struct {
	tableCommonBody
	Fields *fieldChangesBody `json:"fields"`
}

// fieldInputBody is TableFieldCreateInput and TableFieldUpdateInput, of
// which exactly one kind is set (checked).
type fieldInputBody struct {
	Cloud       *fieldKindBody `json:"cloud"`
	Reference   *fieldKindBody `json:"reference"`
	Calculation *fieldKindBody `json:"calculation"`
}

// fieldKindBody holds the members of the three kinds of field input;
// a field reads those of its kind.
type fieldKindBody struct {
	Name        *string  `json:"name"`
	Tags        []string `json:"tags"`
	Snowflake   *colBody `json:"snowflake"` // cloud
	BigQuery    *colBody `json:"bigQuery"`  // cloud
	Field       *idRef   `json:"field"`     // reference
	Aggregation string   `json:"aggregation"`
	Expanded    string   `json:"expanded"`
	Text        *string  `json:"text"` // calculation
}

type colBody struct {
	ColumnName string `json:"columnName"`
	Type       string `json:"type"`
}

// fieldChangesBody is TableFieldsV3UpdateInput: an update names its
// field by id, a create and an update place it at index, when given.
type fieldChangesBody struct {
	Creates, Updates, Deletes []struct {
		ID    string         `json:"id"`
		Field fieldInputBody `json:"field"`
		Index *int           `json:"index"`
	}
}

type joinInputBody struct {
	Source *string `json:"source"`
	Type   *string `json:"type"`
	JoinOn *[]struct {
		LeftFieldID  string `json:"leftFieldId"`
		RightFieldID string `json:"rightFieldId"`
	} `json:"joinOn"`
	Filter *json.RawMessage `json:"filter"`
}

type mappingsInputBody struct {
	Entries *[]mappingEntry `json:"entries"`
}

func (ts *tablesState) uuid() string { ts.n++; return spacedUUID(ts.space, uuidTables, ts.n) }

// find returns the table id, nil when there is none.
func (ts *tablesState) find(id string) *fakeTable {
	if ts != nil {
		if i := slices.IndexFunc(ts.list, func(t *fakeTable) bool { return t.ID == id }); i >= 0 {
			return ts.list[i]
		}
	}
	return nil
}

// tableRoutes are the operations on tables.
var tableRoutes = []route{
	on(op.ListTables, (*Server).listTables),
	onJSON[tableCreateBody](op.CreateTable, minting((*Server).createTable)),
	on(op.GetTable, onTable((*Server).getTable)),
	onJSON[tableUpdateBody](op.UpdateTable, minting(onTable((*Server).updateTable))),
	on(op.DeleteTable, onTable((*Server).deleteTable)),
	onJSON[joinInputBody](op.CreateTableJoin, minting(onTable((*Server).changeJoin))),
	onJSON[joinInputBody](op.UpdateTableJoin, minting(onTable((*Server).changeJoin))),
	on(op.DeleteTableJoin, onTable((*Server).changeJoin)),
	onJSON[mappingsInputBody](op.CreateTableJoinMapping, onTable((*Server).changeMappings)),
	onJSON[mappingsInputBody](op.UpdateTableJoinMapping, onTable((*Server).changeMappings)),
	onJSON[mappingsInputBody](op.DeleteTableJoinMapping, onTable((*Server).changeMappings)),
}

// minting runs a change of tables that mints ids: a refused change
// hands them out again, so that it does not move the ids of the next
// request.
func minting(h func(*Server, *request) response) func(*Server, *request) response {
	return func(s *Server, rq *request) response {
		if s.st.tables == nil {
			s.st.tables = &tablesState{space: s.st.next.space}
		}
		n := s.st.tables.n
		resp := h(s, rq)
		if resp.status >= 400 {
			s.st.tables.n = n
		}
		return resp
	}
}

// onTable is a handler of the table {id}, found.
func onTable(h func(s *Server, rq *request, ft *fakeTable) response) func(*Server, *request) response {
	return func(s *Server, rq *request) response {
		if ft := s.st.tables.find(rq.params["id"]); ft != nil {
			return h(s, rq, ft)
		}
		return failf(http.StatusNotFound, "no table with id %q", rq.params["id"])
	}
}

func tableJSONOf(t *fakeTable) any { return json.RawMessage(encodeJSON(t)) }

// listTables is GET /tables: paged, without filter.
func (s *Server) listTables(rq *request) response {
	var list []*fakeTable
	if s.st.tables != nil {
		list = s.st.tables.list
	}
	return listPage(rq, "tables", list, func(t *fakeTable) uint64 { return t.seq }, nil, plain(tableJSONOf))
}

// getTable is GET /tables/{id}.
func (s *Server) getTable(_ *request, t *fakeTable) response {
	return reply(http.StatusOK, tableJSONOf(t))
}

// createTable is POST /tables: 201 with the table.
func (s *Server) createTable(rq *request) response {
	b := in[*tableCreateBody](rq)
	ts := s.st.tables
	t := &fakeTable{ID: ts.uuid(), Typename: "Table", Handle: *b.Handle, Fields: []tableFieldOut{}, Joins: []tableJoinOut{}}
	for i := range b.Fields {
		t.Fields = append(t.Fields, ts.newField(&b.Fields[i]))
	}
	if b.Join != nil {
		b.Joins = append([]joinInputBody{*b.Join}, b.Joins...)
	}
	for i := range b.Joins {
		j := tableJoinOut{ID: ts.uuid()}
		if e := ts.applyJoin(t, &j, &b.Joins[i], true); e != nil {
			return fail(e)
		}
		t.Joins = append(t.Joins, j)
	}
	ts.applyCommon(t, &b.tableCommonBody)
	if slices.ContainsFunc(ts.list, func(o *fakeTable) bool { return o.Handle == *b.Handle }) {
		return failf(http.StatusUnprocessableEntity, "a table with handle %q exists", *b.Handle)
	}
	t.seq = s.st.next.nextSeq()
	ts.list = append(ts.list, t)
	return reply(http.StatusCreated, tableJSONOf(t))
}

// applyCommon changes t by what b sets (a create sets the members it
// requires).
func (ts *tablesState) applyCommon(t *fakeTable, b *tableCommonBody) {
	setIf(&t.Name, b.Name)
	setIf(&t.Source.ID, b.Source)
	setIf(&t.CategoryID, b.CategoryID)
	t.Description, t.Icon, t.Color = cmp.Or(b.Description, t.Description), cmp.Or(b.Icon, t.Icon), cmp.Or(b.Color, t.Color)
	t.Filter, t.OrderBy, t.Limit = cmp.Or(b.Filter, t.Filter), cmp.Or(b.OrderBy, t.OrderBy), cmp.Or(b.Limit, t.Limit)
	if b.DataView == nil || b.DataView.Snowflake == nil {
		return
	}
	if t.DataView == nil {
		t.DataView = &dataViewOut{ID: ts.uuid(), Typename: "TableDataViewSnowflake"}
	}
	v, d := b.DataView.Snowflake, t.DataView
	d.DatabaseName, d.SchemaName, d.Name = cmp.Or(v.DatabaseName, d.DatabaseName), cmp.Or(v.SchemaName, d.SchemaName), cmp.Or(v.Name, d.Name)
}

// kind returns the kind of field b sets and its members.
func (b *fieldInputBody) kind() (string, *fieldKindBody) {
	switch {
	case b.Cloud != nil:
		return "TableFieldCloud", b.Cloud
	case b.Reference != nil:
		return "TableFieldReference", b.Reference
	}
	return "TableFieldCalculation", b.Calculation
}

// newField makes a table field of a create input.
func (ts *tablesState) newField(b *fieldInputBody) tableFieldOut {
	kind, v := b.kind()
	f := tableFieldOut{ID: ts.uuid(), Typename: kind}
	f.apply(v)
	return f
}

// apply changes f by what v, an input of f's kind, sets.
func (f *tableFieldOut) apply(v *fieldKindBody) {
	setIf(&f.Name, v.Name)
	if v.Tags != nil {
		f.Tags = v.Tags
	}
	switch f.Typename {
	case "TableFieldCloud":
		for _, col := range []*colBody{v.Snowflake, v.BigQuery} {
			if col != nil {
				f.ColumnName, f.FieldType = col.ColumnName, col.Type
			}
		}
	case "TableFieldReference":
		f.Field = cmp.Or(v.Field, f.Field)
		f.Aggregation, f.Expanded = cmp.Or(v.Aggregation, f.Aggregation), cmp.Or(v.Expanded, f.Expanded)
	default:
		if v.Text != nil {
			f.Calculation = &calcText{*v.Text}
		}
	}
}

// applyJoin checks a join input against t and changes j. onNewTable says
// that t is being created, so its fields cannot be named yet.
func (ts *tablesState) applyJoin(t *fakeTable, j *tableJoinOut, b *joinInputBody, onNewTable bool) *httpError {
	setIf(&j.Type, b.Type)
	if b.Source != nil {
		if ts.find(*b.Source) == nil {
			return errf(http.StatusUnprocessableEntity, "join source %q is not a table", *b.Source)
		}
		j.Source = idRef{*b.Source}
	}
	src := ts.find(j.Source.ID)
	if b.JoinOn != nil {
		j.OnFields = []joinPairOut{}
		for _, on := range *b.JoinOn {
			if !onNewTable && !hasField(t, on.LeftFieldID) {
				return errf(http.StatusUnprocessableEntity, "left field %q is not a field of table %s", on.LeftFieldID, t.ID)
			}
			if !hasField(src, on.RightFieldID) {
				return errf(http.StatusUnprocessableEntity, "right field %q is not a field of the joined table %s", on.RightFieldID, src.ID)
			}
			p := joinPairOut{ID: ts.uuid(), LeftField: idRef{on.LeftFieldID}, RightField: idRef{on.RightFieldID}}
			p.JoinMappings.Edges = []mappingEdge{}
			j.OnFields = append(j.OnFields, p)
		}
	}
	j.Filter = cmp.Or(b.Filter, j.Filter)
	return nil
}

func hasField(t *fakeTable, id string) bool {
	return slices.ContainsFunc(t.Fields, func(f tableFieldOut) bool { return f.ID == id })
}

// updateTable is PUT /tables/{id}: 200 with the table; what the body
// leaves out is kept.
func (s *Server) updateTable(rq *request, ft *fakeTable) response {
	b, ts := in[*tableUpdateBody](rq), s.st.tables
	work := fakeTable{seq: ft.seq}
	_ = json.Unmarshal(encodeJSON(ft), &work) // a deep copy, changed and kept only if every change is allowed
	ts.applyCommon(&work, &b.tableCommonBody)
	if e := ts.changeFields(&work, b.Fields); e != nil {
		return fail(e)
	}
	*ft = work
	return reply(http.StatusOK, tableJSONOf(ft))
}

func (ts *tablesState) changeFields(t *fakeTable, b *fieldChangesBody) *httpError {
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
		kind, v := u.Field.kind()
		if kind != f.Typename {
			return errf(http.StatusUnprocessableEntity, "field %s is a %s, not a %s", f.ID, f.Typename, kind)
		}
		f.apply(v)
		t.Fields = slices.Delete(t.Fields, i, i+1)
		place(f, cmp.Or(u.Index, &i))
	}
	for _, c := range b.Creates {
		place(ts.newField(&c.Field), c.Index)
	}
	return nil
}

// deleteTable is DELETE /tables/{id}: 204. A table another one joins
// stays (422).
func (s *Server) deleteTable(_ *request, ft *fakeTable) response {
	ts := s.st.tables
	for _, o := range ts.list {
		if o != ft && slices.ContainsFunc(o.Joins, func(j tableJoinOut) bool { return j.Source.ID == ft.ID }) {
			return failf(http.StatusUnprocessableEntity, "table %s is joined by table %s", ft.ID, o.ID)
		}
	}
	ts.list = slices.DeleteFunc(ts.list, func(o *fakeTable) bool { return o == ft })
	return response{status: http.StatusNoContent}
}

// changeJoin is POST /tables/{id}/joins (201 with the new join), and
// PUT (200 with the join) and DELETE (204) /tables/{id}/joins/{joinId}.
func (s *Server) changeJoin(rq *request, ft *fakeTable) response {
	id, post := rq.params["joinId"], rq.r.Method == http.MethodPost
	i := slices.IndexFunc(ft.Joins, func(j tableJoinOut) bool { return j.ID == id })
	var j tableJoinOut
	switch {
	case post:
		j.ID = s.st.tables.uuid()
	case i < 0:
		return failf(http.StatusNotFound, "no join with id %q in table %s", id, ft.ID)
	case rq.r.Method == http.MethodDelete:
		ft.Joins = slices.Delete(ft.Joins, i, i+1)
		return response{status: http.StatusNoContent}
	default:
		j = ft.Joins[i]
	}
	if e := s.st.tables.applyJoin(ft, &j, in[*joinInputBody](rq), false); e != nil {
		return fail(e)
	}
	if post {
		ft.Joins = append(ft.Joins, j)
	} else {
		ft.Joins[i] = j
	}
	return response{status: statusOf(!post), rawBody: encodeJSON(j)}
}

// findPair finds the join pair {joinFieldsId} among the joins of ft.
func findPair(rq *request, ft *fakeTable) (*joinPairOut, *httpError) {
	id := rq.params["joinFieldsId"]
	for ji := range ft.Joins {
		for pi := range ft.Joins[ji].OnFields {
			if p := &ft.Joins[ji].OnFields[pi]; p.ID == id {
				return p, nil
			}
		}
	}
	return nil, errf(http.StatusNotFound, "no join fields with id %q in table %s", id, ft.ID)
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
		i := slices.IndexFunc(edges, func(m mappingEdge) bool { return *m.Node.Source == *en.Source })
		switch {
		case method == http.MethodDelete && i >= 0:
			edges = slices.Delete(edges, i, i+1)
		case method == http.MethodDelete:
		case i >= 0 && method == http.MethodPost:
			return failf(http.StatusUnprocessableEntity, "source value %q is mapped already (PUT changes it)", *en.Source)
		case i >= 0:
			edges[i].Node.Target = en.Target
		default:
			edges = append(edges, mappingEdge{en})
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
	ft := s.st.tables.find(id)
	if ft == nil {
		return TableInfo{}, false
	}
	info := TableInfo{ID: ft.ID, Name: ft.Name, Handle: ft.Handle, Mappings: map[string][]string{}}
	for _, f := range ft.Fields {
		info.Fields = append(info.Fields, f.ID)
	}
	for _, j := range ft.Joins {
		info.Joins = append(info.Joins, j.ID)
		for _, p := range j.OnFields {
			for _, m := range p.JoinMappings.Edges {
				info.Mappings[p.ID] = append(info.Mappings[p.ID], *m.Node.Source+"="+*m.Node.Target)
			}
		}
	}
	return info, true
}

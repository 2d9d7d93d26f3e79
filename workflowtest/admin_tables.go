package workflowtest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seed-a15e58aa/workflow-go/admin"
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

// fakeTable is a table as the fake holds it, and its place; model gives
// it as the service's Table.
type fakeTable struct {
	seq                uint64
	id, name, handle   string
	source, categoryID string
	fields             []fakeField
	joins              []fakeJoin
	dataView           *fakeDataView
	filter, orderBy    jsontext.Value
	limit              jsontext.Value
	description        *string
	icon, color        *string
}

// fakeField is a field of a table: its kind (TableFieldCloud,
// TableFieldReference or TableFieldCalculation) and the members of its
// kind; empty ones are not answered, but for the name.
type fakeField struct {
	id, kind, name        string
	fieldType, columnName string
	tags                  []string // nil: not answered; [] is
	aggregation, expanded string
	calculation, field    *string // a calculation's text, a reference's field id
}

// fakeDataView is the Snowflake view a table is published as.
type fakeDataView struct{ id, databaseName, schemaName, name string }

// fakeJoin is a join of a table.
type fakeJoin struct {
	id, typ, source string
	onFields        []fakePair
	filter          jsontext.Value
}

// fakePair is a join's field pair and its value mappings, in the order
// their sources were first mapped.
type fakePair struct {
	id, left, right string
	mappings        []admin.JoinMapping
}

// clone returns a deep copy of t, to change and keep only if every change
// is allowed.
func (t *fakeTable) clone() fakeTable {
	c := *t
	c.fields = slices.Clone(t.fields)
	c.joins = slices.Clone(t.joins)
	for i := range c.joins {
		c.joins[i].onFields = slices.Clone(c.joins[i].onFields)
	}
	if t.dataView != nil {
		dv := *t.dataView
		c.dataView = &dv
	}
	return c
}

// model is t as the service's Table, with the members the fake keeps
// beside the document's (description, icon, color, categoryId) in Extra.
func (t *fakeTable) model() admin.Table {
	m := admin.Table{ID: admin.Some(t.id), Typename: admin.Some("Table"), Name: admin.Some(t.name), Handle: admin.Some(t.handle),
		Source: admin.Some(admin.Table{ID: admin.Some(t.source)}), Filter: t.filter, OrderBy: t.orderBy, Limit: t.limit,
		Extra: map[string]jsontext.Value{"categoryId": rawJSON(t.categoryID)}}
	fields := make([]admin.TableField, len(t.fields))
	for i := range t.fields {
		fields[i] = t.fields[i].model()
	}
	joins := make([]admin.TableJoin, len(t.joins))
	for i := range t.joins {
		joins[i] = t.joins[i].model()
	}
	m.Fields, m.Joins = admin.Some(fields), admin.Some(joins)
	if dv := t.dataView; dv != nil {
		v := admin.TableDataView{ID: admin.Some(dv.id), Typename: admin.Some("TableDataViewSnowflake")}
		v.DatabaseName, v.SchemaName, v.Name = someIf(dv.databaseName), someIf(dv.schemaName), someIf(dv.name)
		m.DataView = admin.Some(v)
	}
	for k, v := range map[string]*string{"description": t.description, "icon": t.icon, "color": t.color} {
		if v != nil {
			m.Extra[k] = rawJSON(*v)
		}
	}
	return m
}

// model is f as the service's TableField.
func (f *fakeField) model() admin.TableField {
	m := admin.TableField{ID: admin.Some(f.id), Typename: admin.Some(f.kind), Name: admin.Some(f.name),
		FieldType: someIf(admin.AspectFieldType(f.fieldType)), ColumnName: someIf(f.columnName),
		Aggregation: someIf(admin.TableFieldAggregation(f.aggregation)), Expanded: someIf(admin.TableFieldExpanded(f.expanded))}
	if f.tags != nil {
		m.Tags = admin.Some(f.tags)
	}
	if f.calculation != nil {
		m.Calculation = admin.Some(admin.TableCalculation{Text: admin.Some(*f.calculation)})
	}
	if f.field != nil {
		m.Field = admin.Some(admin.TableField{ID: admin.Some(*f.field)})
	}
	return m
}

// model is j as the service's TableJoin; a pair's joinMappings is a
// connection {"edges": [{"node": {"source", "target"}}]}.
func (j *fakeJoin) model() admin.TableJoin {
	pairs := make([]admin.TableJoinFields, len(j.onFields))
	for i, p := range j.onFields {
		edges := make([]map[string]admin.JoinMapping, len(p.mappings))
		for k, m := range p.mappings {
			edges[k] = map[string]admin.JoinMapping{"node": m}
		}
		pairs[i] = admin.TableJoinFields{ID: admin.Some(p.id), LeftField: admin.Some(admin.TableField{ID: admin.Some(p.left)}),
			RightField: admin.Some(admin.TableField{ID: admin.Some(p.right)}), JoinMappings: rawJSON(map[string]any{"edges": edges})}
	}
	return admin.TableJoin{ID: admin.Some(j.id), Type: admin.Some(admin.TableJoinType(j.typ)),
		Source: admin.Some(admin.Table{ID: admin.Some(j.source)}), OnFields: admin.Some(pairs), Filter: j.filter}
}

func (ts *tablesState) uuid() string { ts.n++; return spacedUUID(ts.space, uuidTables, ts.n) }

// find returns the table id, nil when there is none.
func (ts *tablesState) find(id string) *fakeTable {
	if ts != nil {
		if i := slices.IndexFunc(ts.list, func(t *fakeTable) bool { return t.id == id }); i >= 0 {
			return ts.list[i]
		}
	}
	return nil
}

// tableRoutes are the operations on tables.
var tableRoutes = []route{
	on(op.ListTables, (*Server).listTables),
	onJSON[admin.TableCreateRequest](op.CreateTable, minting((*Server).createTable)),
	on(op.GetTable, onTable((*Server).getTable)),
	onJSON[admin.TableUpdateRequest](op.UpdateTable, minting(onTable((*Server).updateTable))),
	on(op.DeleteTable, onTable((*Server).deleteTable)),
	onJSON[admin.TableJoinInput](op.CreateTableJoin, minting(onTable((*Server).changeJoin))),
	onJSON[admin.TableJoinInput](op.UpdateTableJoin, minting(onTable((*Server).changeJoin))),
	on(op.DeleteTableJoin, onTable((*Server).changeJoin)),
	onJSON[admin.JoinMappings](op.CreateTableJoinMapping, onTable((*Server).changeMappings)),
	onJSON[admin.JoinMappings](op.UpdateTableJoinMapping, onTable((*Server).changeMappings)),
	onJSON[admin.JoinMappingSources](op.DeleteTableJoinMapping, onTable((*Server).changeMappings)),
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

func tableJSONOf(t *fakeTable) any { return json.RawMessage(encodeJSON(t.model())) }

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

// tableChange is what the create and update bodies of a table share,
// nil members not sent.
type tableChange struct {
	name, source, categoryID *string
	description, icon, color *string
	filter, orderBy, limit   jsontext.Value
	dataView                 *admin.TableDataViewInput
}

// createTable is POST /tables: 201 with the table.
func (s *Server) createTable(rq *request) response {
	b := in[*admin.TableCreateRequest](rq)
	ts := s.st.tables
	t := &fakeTable{id: ts.uuid(), handle: b.Handle, fields: []fakeField{}, joins: []fakeJoin{}}
	for i := range b.Fields {
		t.fields = append(t.fields, ts.newField(&b.Fields[i]))
	}
	joins := b.Joins
	if b.Join != nil {
		joins = append([]admin.TableJoinInput{*b.Join}, joins...)
	}
	for i := range joins {
		j := fakeJoin{id: ts.uuid()}
		if e := ts.applyJoin(t, &j, &joins[i], true); e != nil {
			return fail(e)
		}
		t.joins = append(t.joins, j)
	}
	ts.applyCommon(t, tableChange{&b.Name, &b.Source, &b.CategoryID, b.Description, b.Icon, b.Color, b.Filter, b.OrderBy, b.Limit, b.DataView})
	if slices.ContainsFunc(ts.list, func(o *fakeTable) bool { return o.handle == b.Handle }) {
		return failf(http.StatusUnprocessableEntity, "a table with handle %q exists", b.Handle)
	}
	t.seq = s.st.next.nextSeq()
	ts.list = append(ts.list, t)
	return reply(http.StatusCreated, tableJSONOf(t))
}

// applyCommon changes t by what b sets (a create sets the members it
// requires).
func (ts *tablesState) applyCommon(t *fakeTable, b tableChange) {
	setIf(&t.name, b.name)
	setIf(&t.source, b.source)
	setIf(&t.categoryID, b.categoryID)
	t.description, t.icon, t.color = cmp.Or(b.description, t.description), cmp.Or(b.icon, t.icon), cmp.Or(b.color, t.color)
	for _, m := range []struct {
		to   *jsontext.Value
		from jsontext.Value
	}{{&t.filter, b.filter}, {&t.orderBy, b.orderBy}, {&t.limit, b.limit}} {
		if m.from != nil {
			*m.to = m.from
		}
	}
	if b.dataView == nil || b.dataView.Snowflake == nil {
		return
	}
	if t.dataView == nil {
		t.dataView = &fakeDataView{id: ts.uuid()}
	}
	v, d := b.dataView.Snowflake, t.dataView
	setIf(&d.databaseName, v.DatabaseName)
	setIf(&d.schemaName, v.SchemaName)
	setIf(&d.name, v.Name)
}

// kindOf returns the kind of field b sets.
func kindOf(b *admin.TableFieldInput) string {
	switch {
	case b.Cloud != nil:
		return "TableFieldCloud"
	case b.Reference != nil:
		return "TableFieldReference"
	}
	return "TableFieldCalculation"
}

// newField makes a table field of a create input.
func (ts *tablesState) newField(b *admin.TableFieldInput) fakeField {
	f := fakeField{id: ts.uuid(), kind: kindOf(b)}
	f.apply(b)
	return f
}

// apply changes f by what b, an input of f's kind, sets.
func (f *fakeField) apply(b *admin.TableFieldInput) {
	tags := func(t []string) {
		if t != nil {
			f.tags = t
		}
	}
	switch {
	case b.Cloud != nil:
		f.name = b.Cloud.Name
		tags(b.Cloud.Tags)
		for _, col := range []*admin.TableColumn{b.Cloud.Snowflake, b.Cloud.BigQuery} {
			if col != nil {
				f.columnName, f.fieldType = col.ColumnName, string(col.Type)
			}
		}
	case b.Reference != nil:
		r := b.Reference
		setIf(&f.name, r.Name)
		tags(r.Tags)
		f.field = cmp.Or(r.Field, f.field)
		if r.Aggregation != nil {
			f.aggregation = cmp.Or(string(*r.Aggregation), f.aggregation)
		}
		if r.Expanded != nil {
			f.expanded = cmp.Or(string(*r.Expanded), f.expanded)
		}
	case b.Calculation != nil:
		setIf(&f.name, b.Calculation.Name)
		tags(b.Calculation.Tags)
		f.calculation = cmp.Or(b.Calculation.Text, f.calculation)
	}
}

// applyJoin checks a join input against t and changes j. onNewTable says
// that t is being created, so its fields cannot be named yet.
func (ts *tablesState) applyJoin(t *fakeTable, j *fakeJoin, b *admin.TableJoinInput, onNewTable bool) *httpError {
	if b.Type != nil {
		j.typ = string(*b.Type)
	}
	if b.Source != nil {
		if ts.find(*b.Source) == nil {
			return errf(http.StatusUnprocessableEntity, "join source %q is not a table", *b.Source)
		}
		j.source = *b.Source
	}
	src := ts.find(j.source)
	if b.JoinOn != nil {
		j.onFields = []fakePair{}
		for _, on := range b.JoinOn {
			if !onNewTable && !hasField(t, on.LeftFieldID) {
				return errf(http.StatusUnprocessableEntity, "left field %q is not a field of table %s", on.LeftFieldID, t.id)
			}
			if !hasField(src, on.RightFieldID) {
				return errf(http.StatusUnprocessableEntity, "right field %q is not a field of the joined table %s", on.RightFieldID, src.id)
			}
			j.onFields = append(j.onFields, fakePair{id: ts.uuid(), left: on.LeftFieldID, right: on.RightFieldID})
		}
	}
	if b.Filter != nil {
		j.filter = b.Filter
	}
	return nil
}

func hasField(t *fakeTable, id string) bool {
	return slices.ContainsFunc(t.fields, func(f fakeField) bool { return f.id == id })
}

// updateTable is PUT /tables/{id}: 200 with the table; what the body
// leaves out is kept.
func (s *Server) updateTable(rq *request, ft *fakeTable) response {
	b, ts := in[*admin.TableUpdateRequest](rq), s.st.tables
	work := ft.clone() // changed, and kept only if every change is allowed
	ts.applyCommon(&work, tableChange{b.Name, b.Source, b.CategoryID, b.Description, b.Icon, b.Color, b.Filter, b.OrderBy, b.Limit, b.DataView})
	if e := ts.changeFields(&work, b.Fields); e != nil {
		return fail(e)
	}
	*ft = work
	return reply(http.StatusOK, tableJSONOf(ft))
}

func (ts *tablesState) changeFields(t *fakeTable, b *admin.TableFieldChanges) *httpError {
	if b == nil {
		return nil
	}
	index := func(id string) int {
		return slices.IndexFunc(t.fields, func(f fakeField) bool { return f.id == id })
	}
	place := func(f fakeField, at *int) {
		i := len(t.fields)
		if at != nil {
			i = min(max(*at, 0), len(t.fields))
		}
		t.fields = slices.Insert(t.fields, i, f)
	}
	for _, d := range b.Deletes {
		i := index(d.ID)
		if i < 0 {
			return errf(http.StatusUnprocessableEntity, "no field %q in table %s", d.ID, t.id)
		}
		t.fields = slices.Delete(t.fields, i, i+1)
	}
	for _, u := range b.Updates {
		i := index(u.ID)
		if i < 0 {
			return errf(http.StatusUnprocessableEntity, "no field %q in table %s", u.ID, t.id)
		}
		f := t.fields[i]
		if kind := kindOf(&u.Field); kind != f.kind {
			return errf(http.StatusUnprocessableEntity, "field %s is a %s, not a %s", f.id, f.kind, kind)
		}
		f.apply(&u.Field)
		t.fields = slices.Delete(t.fields, i, i+1)
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
		if o != ft && slices.ContainsFunc(o.joins, func(j fakeJoin) bool { return j.source == ft.id }) {
			return failf(http.StatusUnprocessableEntity, "table %s is joined by table %s", ft.id, o.id)
		}
	}
	ts.list = slices.DeleteFunc(ts.list, func(o *fakeTable) bool { return o == ft })
	return response{status: http.StatusNoContent}
}

// changeJoin is POST /tables/{id}/joins (201 with the new join), and
// PUT (200 with the join) and DELETE (204) /tables/{id}/joins/{joinId}.
func (s *Server) changeJoin(rq *request, ft *fakeTable) response {
	id, post := rq.params["joinId"], rq.r.Method == http.MethodPost
	i := slices.IndexFunc(ft.joins, func(j fakeJoin) bool { return j.id == id })
	var j fakeJoin
	switch {
	case post:
		j.id = s.st.tables.uuid()
	case i < 0:
		return failf(http.StatusNotFound, "no join with id %q in table %s", id, ft.id)
	case rq.r.Method == http.MethodDelete:
		ft.joins = slices.Delete(ft.joins, i, i+1)
		return response{status: http.StatusNoContent}
	default:
		j = ft.joins[i]
	}
	if e := s.st.tables.applyJoin(ft, &j, in[*admin.TableJoinInput](rq), false); e != nil {
		return fail(e)
	}
	if post {
		ft.joins = append(ft.joins, j)
	} else {
		ft.joins[i] = j
	}
	return response{status: statusOf(!post), rawBody: encodeJSON(j.model())}
}

// findPair finds the join pair {joinFieldsId} among the joins of ft.
func findPair(rq *request, ft *fakeTable) (*fakePair, *httpError) {
	id := rq.params["joinFieldsId"]
	for ji := range ft.joins {
		for pi := range ft.joins[ji].onFields {
			if p := &ft.joins[ji].onFields[pi]; p.id == id {
				return p, nil
			}
		}
	}
	return nil, errf(http.StatusNotFound, "no join fields with id %q in table %s", id, ft.id)
}

// changeMappings is the three mapping routes: POST creates (201; a source
// already mapped is a 422), PUT upserts (200), DELETE removes (204).
func (s *Server) changeMappings(rq *request, ft *fakeTable) response {
	method := rq.r.Method
	var entries []admin.JoinMapping
	if method == http.MethodDelete {
		for _, en := range in[*admin.JoinMappingSources](rq).Entries {
			entries = append(entries, admin.JoinMapping{Source: en.Source})
		}
	} else {
		entries = in[*admin.JoinMappings](rq).Entries
	}
	p, e := findPair(rq, ft)
	if e != nil {
		return fail(e)
	}
	mappings := slices.Clone(p.mappings)
	for _, en := range entries {
		i := slices.IndexFunc(mappings, func(m admin.JoinMapping) bool { return m.Source == en.Source })
		switch {
		case method == http.MethodDelete && i >= 0:
			mappings = slices.Delete(mappings, i, i+1)
		case method == http.MethodDelete:
		case i >= 0 && method == http.MethodPost:
			return failf(http.StatusUnprocessableEntity, "source value %q is mapped already (PUT changes it)", en.Source)
		case i >= 0:
			mappings[i].Target = en.Target
		default:
			mappings = append(mappings, admin.JoinMapping{Source: en.Source, Target: en.Target})
		}
	}
	p.mappings = mappings
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
	info := TableInfo{ID: ft.id, Name: ft.name, Handle: ft.handle, Mappings: map[string][]string{}}
	for _, f := range ft.fields {
		info.Fields = append(info.Fields, f.id)
	}
	for _, j := range ft.joins {
		info.Joins = append(info.Joins, j.id)
		for _, p := range j.onFields {
			for _, m := range p.mappings {
				info.Mappings[p.id] = append(info.Mappings[p.id], m.Source+"="+m.Target)
			}
		}
	}
	return info, true
}

package workflowtest

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
	"unicode"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// The element definitions of the workspace configuration:
// POST /elements, GET and PUT /elements/{alias}.
//
// GET /elements/{alias} is also the record list of the elements with that
// alias. The fake answers it with the element's definition (an Aspect)
// when an element with that alias (its namespace or its id) was created
// with POST /elements and the request carries none of the record list's
// query parameters (first, after, last, before, filter); otherwise it is
// the record list, as before. An element created here is not a record
// definition: define one with Define to store records under its alias.

// element is an element definition, held as the service's Aspect.
type element struct {
	seq uint64
	admin.Aspect
}

// apply changes what b sets; a description, icon or color sent empty is
// not answered.
func (e *element) apply(b *admin.ElementUpdate) {
	e.Name = cmp.Or(someOf(b.Name), e.Name)
	for _, m := range []struct {
		to   *admin.Opt[string]
		sent *string
	}{{&e.Description, b.Description}, {&e.Icon, b.Icon}, {&e.Color, b.Color}} {
		if m.sent != nil {
			*m.to = someIf(*m.sent)
		}
	}
	if b.CategoryID != nil {
		e.Category = admin.Some(admin.AspectCategory{ID: admin.Some(*b.CategoryID)})
	}
}

// findElement finds an element by namespace or id; the caller holds s.mu.
func (st *state) findElement(alias string) *element {
	if i := slices.IndexFunc(st.elements, func(e *element) bool { return e.Namespace.Value() == alias || e.ID.Value() == alias }); i >= 0 {
		return st.elements[i]
	}
	return nil
}

// lettersOf keeps the ASCII letters of s, mapped by to.
func lettersOf(s string, to func(rune) rune) string {
	return strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && unicode.IsLetter(r) {
			return to(r)
		}
		return -1
	}, s)
}

// elementRoutes are the operations on elements.
var elementRoutes = []route{
	onJSON[admin.NewElement](op.CreateElement, (*Server).createElement),
	on(op.GetElement, (*Server).getElementOrRecords),
	onJSON[admin.ElementUpdate](op.UpdateElement, (*Server).updateElement),
}

// createElement is POST /elements: 201 with the new element's Aspect.
func (s *Server) createElement(rq *request) response {
	b := in[*admin.NewElement](rq)
	database, schema, table := someOf(b.Database).Value(), someOf(b.Schema).Value(), someOf(b.Table).Value()
	imports := database != "" || schema != "" || table != ""
	switch {
	case imports && b.CloudLinkID == nil:
		return failf(http.StatusUnprocessableEntity, "importing a source table needs cloudLinkId")
	case imports && (database == "" || schema == "" || table == ""):
		return failf(http.StatusUnprocessableEntity, "importing a source table needs database, schema and table")
	case imports && len(b.Fields) > 0:
		return failf(http.StatusUnprocessableEntity, "fields must be omitted when importing a source table")
	}
	e := &element{Aspect: admin.Aspect{TypeName: admin.Some("AspectElement"), Status: admin.Some(admin.AspectActive), Configured: admin.Some(true),
		ReadOnly: admin.Some(b.ReadOnly != nil && *b.ReadOnly), SourceType: admin.Some(admin.SourceElementum)}}
	if b.CloudLinkID != nil {
		e.SourceType = admin.Some(admin.SourceSnowflake)
	}
	e.apply(&admin.ElementUpdate{Name: &b.Name, Description: b.Description, Icon: b.Icon, Color: b.Color, CategoryID: &b.CategoryID})
	name := e.Name.Value()
	namespace, handle := *cmp.Or(b.Namespace, new(lettersOf(name, unicode.ToLower))), *cmp.Or(b.Handle, new(lettersOf(name, unicode.ToUpper)))
	if namespace == "" || handle == "" {
		return failf(http.StatusUnprocessableEntity, "no namespace or handle can be derived from name %q: send them", name)
	}
	if s.st.findElement(namespace) != nil {
		return failf(http.StatusUnprocessableEntity, "an element with namespace %q exists", namespace)
	}
	e.Namespace, e.Handle = admin.Some(namespace), admin.Some(handle)
	e.seq, e.ID = s.st.next.nextSeq(), admin.Some(s.st.next.uuid(uuidElement, &s.st.elementIDs))
	s.st.elements = append(s.st.elements, e)
	return reply(http.StatusCreated, e.Aspect)
}

// getElementOrRecords is GET /elements/{alias}: the element's definition,
// or the record list (see the top of this file).
func (s *Server) getElementOrRecords(rq *request) response {
	if e := s.st.findElement(rq.params["alias"]); e != nil && !slices.ContainsFunc(pagingParams, rq.query.Has) {
		return reply(http.StatusOK, e.Aspect)
	}
	rq.log.Route, rq.op, rq.params["recordType"] = "GET /v1/{recordType}/{alias}", op.RecordList, string(workflow.Elements)
	return s.listRecords(rq)
}

// updateElement is PUT /elements/{alias}: what the body sets changes.
func (s *Server) updateElement(rq *request) response {
	e := s.st.findElement(rq.params["alias"])
	if e == nil {
		return failf(http.StatusNotFound, "no element with alias %q", rq.params["alias"])
	}
	e.apply(in[*admin.ElementUpdate](rq))
	return reply(http.StatusOK, e.Aspect)
}

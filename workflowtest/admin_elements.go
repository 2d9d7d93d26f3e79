package workflowtest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"unicode"

	workflow "github.com/seed-a15e58aa/workflow-go"
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
	aspectJSON
}

// aspectJSON is the service's Aspect.
type aspectJSON struct {
	ID          string `json:"id"`
	TypeName    string `json:"__typename"`
	Name        string `json:"name"`
	Namespace   string `json:"namespace"`
	Handle      string `json:"handle"`
	Description string `json:"description,omitempty"`
	Icon        string `json:"icon,omitempty"`
	Color       string `json:"color,omitempty"`
	Status      string `json:"status"`
	Configured  bool   `json:"configured"`
	ReadOnly    bool   `json:"readOnly"`
	SourceType  string `json:"sourceType"` // ELEMENTUM or SNOWFLAKE
	Category    idRef  `json:"category"`
}

func (e *element) json() aspectJSON { return e.aspectJSON }

// elementUpdateBody is the members of the service's ElementUpdateRequest
// that the fake keeps; nil members were not sent.
type elementUpdateBody struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Icon        *string `json:"icon"`
	Color       *string `json:"color"`
	CategoryID  *string `json:"categoryId"`
}

// elementCreateBody is the members of the service's ElementCreateRequest
// that the fake reads.
type elementCreateBody struct {
	elementUpdateBody
	Namespace   *string           `json:"namespace"`
	Handle      *string           `json:"handle"`
	ReadOnly    bool              `json:"readOnly"`
	CloudLinkID *string           `json:"cloudLinkId"`
	Database    string            `json:"database"`
	Schema      string            `json:"schema"`
	Table       string            `json:"table"`
	Fields      []json.RawMessage `json:"fields"`
}

// apply changes what b sets.
func (e *element) apply(b *elementUpdateBody) {
	setIf(&e.Name, b.Name)
	setIf(&e.Description, b.Description)
	setIf(&e.Icon, b.Icon)
	setIf(&e.Color, b.Color)
	setIf(&e.Category.ID, b.CategoryID)
}

// findElement finds an element by namespace or id; the caller holds s.mu.
func (st *state) findElement(alias string) *element {
	if i := slices.IndexFunc(st.elements, func(e *element) bool { return e.Namespace == alias || e.ID == alias }); i >= 0 {
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
	onJSON[elementCreateBody](op.CreateElement, (*Server).createElement),
	on(op.GetElement, (*Server).getElementOrRecords),
	onJSON[elementUpdateBody](op.UpdateElement, (*Server).updateElement),
}

// createElement is POST /elements: 201 with the new element's Aspect.
func (s *Server) createElement(rq *request) response {
	b := in[*elementCreateBody](rq)
	imports := b.Database != "" || b.Schema != "" || b.Table != ""
	switch {
	case imports && b.CloudLinkID == nil:
		return failf(http.StatusUnprocessableEntity, "importing a source table needs cloudLinkId")
	case imports && (b.Database == "" || b.Schema == "" || b.Table == ""):
		return failf(http.StatusUnprocessableEntity, "importing a source table needs database, schema and table")
	case imports && len(b.Fields) > 0:
		return failf(http.StatusUnprocessableEntity, "fields must be omitted when importing a source table")
	}
	e := &element{aspectJSON: aspectJSON{TypeName: "AspectElement", Status: "ACTIVE", Configured: true, ReadOnly: b.ReadOnly, SourceType: "ELEMENTUM"}}
	if b.CloudLinkID != nil {
		e.SourceType = "SNOWFLAKE"
	}
	e.apply(&b.elementUpdateBody)
	e.Namespace = *cmp.Or(b.Namespace, new(lettersOf(e.Name, unicode.ToLower)))
	e.Handle = *cmp.Or(b.Handle, new(lettersOf(e.Name, unicode.ToUpper)))
	if e.Namespace == "" || e.Handle == "" {
		return failf(http.StatusUnprocessableEntity, "no namespace or handle can be derived from name %q: send them", e.Name)
	}
	if s.st.findElement(e.Namespace) != nil {
		return failf(http.StatusUnprocessableEntity, "an element with namespace %q exists", e.Namespace)
	}
	e.seq, e.ID = s.st.next.nextSeq(), s.st.next.uuid(uuidElement, &s.st.elementIDs)
	s.st.elements = append(s.st.elements, e)
	return reply(http.StatusCreated, e.json())
}

// getElementOrRecords is GET /elements/{alias}: the element's definition,
// or the record list (see the top of this file).
func (s *Server) getElementOrRecords(rq *request) response {
	if e := s.st.findElement(rq.params["alias"]); e != nil && !slices.ContainsFunc(pagingParams, rq.query.Has) {
		return reply(http.StatusOK, e.json())
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
	e.apply(in[*elementUpdateBody](rq))
	return reply(http.StatusOK, e.json())
}

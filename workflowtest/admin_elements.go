package workflowtest

import (
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

// element is an element definition.
type element struct {
	seq         uint64
	id          string
	name        string
	namespace   string
	handle      string
	description string
	icon        string
	color       string
	categoryID  string
	readOnly    bool
	source      string // ELEMENTUM or SNOWFLAKE
}

// aspectJSON is the service's Aspect.
type aspectJSON struct {
	ID          string        `json:"id"`
	TypeName    string        `json:"__typename"`
	Name        string        `json:"name"`
	Namespace   string        `json:"namespace"`
	Handle      string        `json:"handle"`
	Description string        `json:"description,omitempty"`
	Icon        string        `json:"icon,omitempty"`
	Color       string        `json:"color,omitempty"`
	Status      string        `json:"status"`
	Configured  bool          `json:"configured"`
	ReadOnly    bool          `json:"readOnly"`
	SourceType  string        `json:"sourceType"`
	Category    *categoryJSON `json:"category,omitempty"`
}

type categoryJSON struct {
	ID string `json:"id"`
}

func (e *element) json() aspectJSON {
	return aspectJSON{
		ID: e.id, TypeName: "AspectElement", Name: e.name, Namespace: e.namespace, Handle: e.handle,
		Description: e.description, Icon: e.icon, Color: e.color, Status: "ACTIVE", Configured: true,
		ReadOnly: e.readOnly, SourceType: e.source, Category: &categoryJSON{ID: e.categoryID},
	}
}

// elementFieldBody is the service's AspectFieldInput.
type elementFieldBody struct {
	Name            *string  `json:"name"`
	Type            *string  `json:"type"`
	Description     string   `json:"description"`
	ColumnName      string   `json:"columnName"`
	Required        bool     `json:"required"`
	RequiredOnClose bool     `json:"requiredOnClose"`
	ShowOnCreate    bool     `json:"showOnCreate"`
	LockOnCreate    bool     `json:"lockOnCreate"`
	Tags            []string `json:"tags"`
	SemanticTags    []string `json:"semanticTags"`
}

// elementUpdateBody is the service's ElementUpdateRequest; nil members
// were not sent.
type elementUpdateBody struct {
	Name                         *string  `json:"name"`
	Description                  *string  `json:"description"`
	Icon                         *string  `json:"icon"`
	Color                        *string  `json:"color"`
	CategoryID                   *string  `json:"categoryId"`
	AllowForwardedEmailIngestion *bool    `json:"allowForwardedEmailIngestion"`
	AllowAnonymousEmailCreation  *bool    `json:"allowAnonymousEmailCreation"`
	AllowInlineImageIngestion    *bool    `json:"allowInlineImageIngestion"`
	WorkflowValuePerAutomation   *float64 `json:"workflowValuePerAutomation"`
}

// elementCreateBody is the service's ElementCreateRequest.
type elementCreateBody struct {
	elementUpdateBody
	Namespace          *string `json:"namespace"`
	Handle             *string `json:"handle"`
	ReadOnly           bool    `json:"readOnly"`
	CloudLinkID        *string `json:"cloudLinkId"`
	Database           string  `json:"database"`
	Schema             string  `json:"schema"`
	Table              string  `json:"table"`
	IDColumn           string  `json:"idColumn"`
	TitleColumn        string  `json:"titleColumn"`
	SnowflakeWarehouse string  `json:"snowflakeWarehouse"`
	CloudOptions       *struct {
		Snowflake *struct {
			HybridTable bool `json:"hybridTable"`
		} `json:"snowflake"`
	} `json:"cloudOptions"`
	Fields []elementFieldBody `json:"fields"`
}

// findElement finds an element by namespace or id; the caller holds s.mu.
func (st *state) findElement(alias string) *element {
	for _, e := range st.elements {
		if e.namespace == alias || e.id == alias {
			return e
		}
	}
	return nil
}

// lettersOf keeps the letters of s that keep(r) accepts, mapped by to.
func lettersOf(s string, to func(rune) rune) string {
	var b strings.Builder
	for _, r := range s {
		if r < unicode.MaxASCII && unicode.IsLetter(r) {
			b.WriteRune(to(r))
		}
	}
	return b.String()
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
	e := &element{name: *b.Name, categoryID: *b.CategoryID, readOnly: b.ReadOnly, source: "ELEMENTUM"}
	if b.CloudLinkID != nil {
		e.source = "SNOWFLAKE"
	}
	e.namespace = lettersOf(e.name, unicode.ToLower)
	setIf(&e.namespace, b.Namespace)
	e.handle = lettersOf(e.name, unicode.ToUpper)
	setIf(&e.handle, b.Handle)
	if e.namespace == "" || e.handle == "" {
		return failf(http.StatusUnprocessableEntity, "no namespace or handle can be derived from name %q: send them", e.name)
	}
	setIf(&e.description, b.Description)
	setIf(&e.icon, b.Icon)
	setIf(&e.color, b.Color)
	if s.st.findElement(e.namespace) != nil {
		return failf(http.StatusUnprocessableEntity, "an element with namespace %q exists", e.namespace)
	}
	e.seq = s.st.next.nextSeq()
	e.id = s.st.next.uuid(uuidElement, &s.st.elementIDs)
	s.st.elements = append(s.st.elements, e)
	return reply(http.StatusCreated, e.json())
}

// getElementOrRecords is GET /elements/{alias}: the element's definition,
// or the record list (see the top of this file).
func (s *Server) getElementOrRecords(rq *request) response {
	if e := s.st.findElement(rq.params["alias"]); e != nil && !slices.ContainsFunc(pagingParams, rq.query.Has) {
		return reply(http.StatusOK, e.json())
	}
	rq.route, rq.op, rq.params["recordType"] = "GET /v1/{recordType}/{alias}", op.RecordList, string(workflow.Elements)
	return s.listRecords(rq)
}

// updateElement is PUT /elements/{alias}: what the body sets changes.
func (s *Server) updateElement(rq *request) response {
	b := in[*elementUpdateBody](rq)
	e := s.st.findElement(rq.params["alias"])
	if e == nil {
		return failf(http.StatusNotFound, "no element with alias %q", rq.params["alias"])
	}
	setIf(&e.name, b.Name)
	setIf(&e.description, b.Description)
	setIf(&e.icon, b.Icon)
	setIf(&e.color, b.Color)
	setIf(&e.categoryID, b.CategoryID)
	return reply(http.StatusOK, e.json())
}
